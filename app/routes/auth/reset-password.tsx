import { getFormProps } from '@conform-to/react'
import { Form, href, Link, redirect, useNavigation } from 'react-router'
import { AuthPage, NewPasswordFields } from '~/components/auth/auth-forms'
import { FormAlert, FormErrors, useAppForm } from '~/components/forms'
import { Button } from '~/components/ui/button'
import { buttonVariants } from '~/components/ui/button-variants'
import { accountPageMeta } from '~/components/auth/messages'
import { isResetTokenUsable } from '~/data/user.server'
import { services } from '~/lib/app-context.server'
import { resetPasswordWithToken } from '~/services/auth.server'
import { clientIp, hitPolicy } from '~/lib/rate-limit.server'
import { resetPasswordSchema } from '~/lib/validation/auth'
import { parseSubmission } from '~/lib/validation/submission'
import { accountPageHeaders } from '~/lib/page-headers'
import { passwordReplies } from './password-reply.server'
import type { Route } from './+types/reset-password'
import { readFormData } from '~/lib/form-data.server'

/** The page the reset e-mail (and `npm run admin:create`) links to: /reset-password?token=... */
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? ''
  const usable = token ? await isResetTokenUsable(services().db, token) : false
  return { token: usable ? token : null }
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseSubmission(await readFormData(request), resetPasswordSchema)
  const { invalid, refused, tooMany } = passwordReplies(submission, ['password', 'confirmPassword'])
  if (submission.status !== 'success') return invalid()
  const limit = await hitPolicy(services().db, 'passwordResetLinkIp', clientIp(context))
  if (!limit.allowed) return tooMany(limit.retryAfterSeconds)
  const result = await resetPasswordWithToken(submission.value.token, submission.value.password)
  if (!result.ok) return refused(result.message, result.status)
  // Every session of the account ended with the reset; log in with the new password.
  throw redirect(`${href('/login')}?reset=1`)
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useAppForm({ schema: resetPasswordSchema, lastResult: actionData?.result })
  const busy = useNavigation().state === 'submitting'
  if (!loaderData.token) {
    return (
      <AuthPage title="Link expired">
        <div className="space-y-5">
          <FormAlert>This link has expired or was already used. Request a new one.</FormAlert>
          <Link to={href('/forgot-password')} className={buttonVariants({ block: true })}>
            Request a new link
          </Link>
        </div>
      </AuthPage>
    )
  }
  return (
    <AuthPage title="Set a new password" subtitle="Choose a password of at least 6 characters.">
      <div className="space-y-5">
        <FormErrors id={form.errorId} errors={form.errors} />
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <input type="hidden" name="token" value={loaderData.token} />
          <NewPasswordFields
            replacing
            password={fields.password}
            confirmPassword={fields.confirmPassword}
          />
          <Button type="submit" block pending={busy} pendingLabel="Saving…">
            Set password
          </Button>
        </Form>
      </div>
    </AuthPage>
  )
}

export const headers = accountPageHeaders

export function meta({ matches }: Route.MetaArgs) {
  return [
    ...accountPageMeta(matches, 'Set a new password'),
    // The token in the address never goes to another site; not 'no-referrer', which makes a
    // browser without JavaScript send the page's own form with `Origin: null`, refused.
    { name: 'referrer', content: 'same-origin' },
  ]
}
