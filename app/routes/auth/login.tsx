import { data, redirect } from 'react-router'
import {
  AuthPage,
  AUTH_TITLES,
  LoginForm,
  pageLinks,
  type AuthFormResult,
} from '~/components/auth/auth-forms'
import {
  accountPageMeta,
  EMAIL_CONFIRMED_NOTICE,
  googleErrorMessage,
} from '~/components/auth/messages'
import { services } from '~/lib/app-context.server'
import { dashboardPath, getUser, googleEnabled, signInWithPassword } from '~/services/auth.server'
import {
  backoffWait,
  clearPolicy,
  clientIp,
  hitPolicy,
  recordBackoffFailure,
  releaseRateLimit,
  tooManyAttemptsMessage,
} from '~/lib/rate-limit.server'
import { loginSchema, safeRedirect } from '~/lib/validation/auth'
import { parseSubmission } from '~/lib/validation/submission'
import { accountPageHeaders } from '~/lib/page-headers'
import type { Route } from './+types/login'
import { readFormData } from '~/lib/form-data.server'

export const PASSWORD_RESET_NOTICE = 'Your password has been set. Log in with your new password.'

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'), '')
  const user = await getUser(request)
  if (user) throw redirect(redirectTo || dashboardPath(user))
  const googleError =
    url.searchParams.get('provider') === 'google' ? url.searchParams.get('error') : null
  return {
    google: googleEnabled(),
    redirectTo,
    notice:
      url.searchParams.get('reset') === '1'
        ? PASSWORD_RESET_NOTICE
        : url.searchParams.get('confirmed') === '1'
          ? EMAIL_CONFIRMED_NOTICE
          : undefined,
    formError: googleError ? googleErrorMessage('login', googleError) : undefined,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseSubmission(await readFormData(request), loginSchema)
  // The password is never sent back into the page.
  const reply = (formError?: string) =>
    submission.reply({
      hideFields: ['password'],
      ...(formError ? { formErrors: [formError] } : {}),
    })
  if (submission.status !== 'success')
    return data<AuthFormResult>({ result: reply() }, { status: 400 })

  const { db } = services()
  const ip = clientIp(context)
  const tooMany = (seconds: number) =>
    data<AuthFormResult>(
      { result: reply(tooManyAttemptsMessage(seconds)) },
      { status: 429, headers: { 'Retry-After': String(seconds) } },
    )
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
    return data<AuthFormResult>({ result: reply(result.message) }, { status: result.status })
  }

  // Only failed attempts count against the limits.
  await clearPolicy(db, 'signInAccountIp', subject)
  await releaseRateLimit(db, ipHit)
  throw redirect(submission.value.redirectTo || '/', { headers: result.headers })
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { google, redirectTo, notice, formError } = loaderData
  return (
    <AuthPage title={AUTH_TITLES.login.title} subtitle={AUTH_TITLES.login.subtitle}>
      <LoginForm
        result={actionData}
        formError={formError}
        redirectTo={redirectTo}
        google={google}
        notice={notice}
        links={pageLinks(redirectTo)}
      />
    </AuthPage>
  )
}

export const headers = accountPageHeaders

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Log in')
}
