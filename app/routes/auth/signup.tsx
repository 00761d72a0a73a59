import { data } from 'react-router'
import { AuthFormPage, type AuthFormResult } from '~/components/auth/auth-forms'
import { accountPageMeta } from '~/components/auth/messages'
import { getSiteSettings } from '~/data/settings.server'
import { isListedAdmin } from '~/data/user.server'
import { services } from '~/lib/app-context.server'
import { signUpWithPassword } from '~/services/auth.server'
import { clientIp, hitPolicies } from '~/lib/rate-limit.server'
import { AUTH_MESSAGES, signupSchema } from '~/lib/validation/auth'
import { parseSubmission } from '~/lib/validation/submission'
import { accountPageHeaders } from '~/lib/page-headers'
import { signedOutFormPage } from './form-page.server'
import { passwordReplies } from './password-reply.server'
import type { Route } from './+types/signup'
import { readFormData } from '~/lib/form-data.server'

/**
 * Every sign-up that passes validation ends here, for a new address and a taken one alike:
 * the rest happens by mail (docs/decisions/0008-sign-up-by-mailed-link.md).
 */
export function checkInboxMessage(email: string): string {
  return `Check your inbox to confirm your address. We have sent an e-mail to ${email}: open the link in it to finish signing up.`
}

export async function loader({ request }: Route.LoaderArgs) {
  const { page } = await signedOutFormPage(request, 'signup')
  return page
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseSubmission(await readFormData(request), signupSchema)
  const { invalid, refused, tooMany } = passwordReplies(submission, ['password', 'confirmPassword'])
  if (submission.status !== 'success') return invalid()

  const { db, env } = services()
  const ip = clientIp(context)
  const [settings, { blocked }] = await Promise.all([
    getSiteSettings(db),
    hitPolicies(db, [
      ['signUpEmail', submission.value.email],
      ['signUpIp', ip],
    ]),
  ])
  if (blocked) return tooMany(blocked.retryAfterSeconds)

  // The owner can close registration (admin settings). Every address then gets the same
  // answer, so the form does not tell which ones are in ADMIN_EMAILS; a listed address is still
  // signed up (its confirmation mail goes out), without the answer waiting for it.
  if (!settings.enableRegistration) {
    if (isListedAdmin(submission.value.email, env.ADMIN_EMAILS)) {
      const input = submission.value
      setImmediate(() => {
        void signUpWithPassword(request, ip, input).then((result) => {
          if (!result.ok)
            console.error(`[auth] sign-up of a listed admin failed: ${result.message}`)
        })
      })
    }
    return refused(AUTH_MESSAGES.registrationClosed, 403)
  }

  const result = await signUpWithPassword(request, ip, submission.value)
  if (!result.ok) return refused(result.message, result.status)
  return data<AuthFormResult>({ message: checkInboxMessage(submission.value.email) })
}

export default function Signup({ loaderData, actionData }: Route.ComponentProps) {
  return <AuthFormPage view="signup" result={actionData} {...loaderData} />
}

export const headers = accountPageHeaders

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Sign up')
}
