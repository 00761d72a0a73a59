import { data, Form, Link, redirect, useNavigation } from 'react-router'
import {
  AuthPage,
  NewPasswordFields,
  primaryButtonClass,
  useFormErrors,
  type AuthFormResult,
} from '~/components/auth/auth-forms'
import { FormAlert } from '~/components/forms'
import { accountPageMeta } from '~/components/auth/messages'
import { isResetTokenUsable } from '~/data/user.server'
import { services } from '~/lib/app-context.server'
import { assertSameOrigin, resetPasswordWithToken } from '~/lib/auth.server'
import {
  AUTH_RATE_LIMITS,
  clientIp,
  hitRateLimit,
  tooManyAttemptsMessage,
} from '~/lib/rate-limit.server'
import { parseForm, resetPasswordSchema } from '~/lib/validation/auth'
import { accountPageHeaders } from './headers'
import type { Route } from './+types/reset-password'

/** The page the reset e-mail (and `npm run admin:create`) links to: /reset-password?token=... */
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? ''
  const usable = token ? await isResetTokenUsable(services().db, token) : false
  return { token: usable ? token : null }
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request)
  const form = await request.formData()
  const parsed = parseForm(resetPasswordSchema, form)
  if (parsed.errors) return data<AuthFormResult>({ errors: parsed.errors }, { status: 400 })
  const limit = await hitRateLimit(
    services().db,
    `reset-token:ip:${clientIp(context)}`,
    AUTH_RATE_LIMITS.resetTokenIp,
  )
  if (!limit.allowed) {
    return data<AuthFormResult>(
      { formError: tooManyAttemptsMessage(limit.retryAfterSeconds) },
      { status: 429, headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
    )
  }
  const result = await resetPasswordWithToken(parsed.data.token, parsed.data.password)
  if (!result.ok)
    return data<AuthFormResult>({ formError: result.message }, { status: result.status })
  // Every session of the account ended with the reset; log in with the new password.
  throw redirect('/login?reset=1')
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const form = useFormErrors(resetPasswordSchema, actionData)
  const busy = useNavigation().state === 'submitting'
  if (!loaderData.token) {
    return (
      <AuthPage title="Link expired">
        <div className="space-y-5">
          <FormAlert>This link has expired or was already used. Request a new one.</FormAlert>
          <Link to="/forgot-password" className={primaryButtonClass}>
            Request a new link
          </Link>
        </div>
      </AuthPage>
    )
  }
  return (
    <AuthPage title="Set a new password" subtitle="Choose a password of at least 6 characters.">
      <div className="space-y-5">
        {form.formError ? <FormAlert>{form.formError}</FormAlert> : null}
        <Form method="post" noValidate onSubmit={form.onSubmit} className="space-y-4">
          <input type="hidden" name="token" value={loaderData.token} />
          <NewPasswordFields replacing errors={form.errors} onEdit={form.clear} />
          <button type="submit" className={primaryButtonClass} disabled={busy}>
            {busy ? 'Saving…' : 'Set password'}
          </button>
        </Form>
      </div>
    </AuthPage>
  )
}

export const headers = accountPageHeaders

export function meta({ matches }: Route.MetaArgs) {
  return [
    ...accountPageMeta(matches, 'Set a new password'),
    { name: 'referrer', content: 'no-referrer' },
  ]
}
