import { href, redirect } from 'react-router'
import { AuthFormPage } from '~/components/auth/auth-forms'
import { accountPageMeta, EMAIL_CONFIRMED_NOTICE } from '~/components/auth/messages'
import { services } from '~/lib/app-context.server'
import { signInWithPassword } from '~/services/auth.server'
import {
  backoffWait,
  clearPolicy,
  clientIp,
  hitPolicy,
  recordBackoffFailure,
  releaseRateLimit,
} from '~/lib/rate-limit.server'
import { loginSchema } from '~/lib/validation/auth'
import { parseSubmission } from '~/lib/validation/submission'
import { accountPageHeaders } from '~/lib/page-headers'
import { signedOutFormPage } from './form-page.server'
import { passwordReplies } from './password-reply.server'
import type { Route } from './+types/login'
import { readFormData } from '~/lib/form-data.server'

export const PASSWORD_RESET_NOTICE = 'Your password has been set. Log in with your new password.'

export async function loader({ request }: Route.LoaderArgs) {
  const { url, page } = await signedOutFormPage(request, 'login')
  return {
    ...page,
    notice:
      url.searchParams.get('reset') === '1'
        ? PASSWORD_RESET_NOTICE
        : url.searchParams.get('confirmed') === '1'
          ? EMAIL_CONFIRMED_NOTICE
          : undefined,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseSubmission(await readFormData(request), loginSchema)
  const { invalid, refused, tooMany } = passwordReplies(submission, ['password'])
  if (submission.status !== 'success') return invalid()

  const { db } = services()
  const ip = clientIp(context)
  // Failures slow down this account from this address only (back-off, no lockout), so a
  // guesser elsewhere never keeps the owner out; the address has a ceiling across accounts.
  const subject = `${submission.value.email}|${ip}`
  const wait = await backoffWait(db, 'signInAccountIp', subject)
  if (wait > 0) return tooMany(wait)
  const ipHit = await hitPolicy(db, 'signInIp', ip)
  if (!ipHit.allowed) return tooMany(ipHit.retryAfterSeconds)

  const result = await signInWithPassword(request, ip, submission.value)
  if (!result.ok) {
    if (result.status === 401) await recordBackoffFailure(db, 'signInAccountIp', subject)
    return refused(result.message, result.status)
  }

  // Only failed attempts count against the limits.
  await clearPolicy(db, 'signInAccountIp', subject)
  await releaseRateLimit(db, ipHit)
  throw redirect(submission.value.redirectTo || href('/'), { headers: result.headers })
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  return <AuthFormPage view="login" result={actionData} {...loaderData} />
}

export const headers = accountPageHeaders

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Log in')
}
