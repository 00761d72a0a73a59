import { data } from 'react-router'
import {
  AuthPage,
  AUTH_TITLES,
  ForgotPasswordForm,
  pageLinks,
  type AuthFormResult,
} from '~/components/auth/auth-forms'
import { accountPageMeta } from '~/components/auth/messages'
import { requestPasswordReset } from '~/data/user.server'
import { services } from '~/lib/app-context.server'
import { assertSameOrigin } from '~/lib/auth.server'
import { wakeJobRunner } from '~/lib/jobs.server'
import {
  AUTH_RATE_LIMITS,
  clientIp,
  hitRateLimits,
  tooManyAttemptsMessage,
} from '~/lib/rate-limit.server'
import { forgotPasswordSchema, parseForm } from '~/lib/validation/auth'
import { accountPageHeaders } from './headers'
import type { Route } from './+types/forgot-password'

export const RESET_REQUESTED_MESSAGE =
  'If an account exists for that e-mail, we have sent a link to set a new password. Check your inbox (and the spam folder).'

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request)
  const form = await request.formData()
  const values = { email: String(form.get('email') ?? '') }
  const parsed = parseForm(forgotPasswordSchema, form)
  if (parsed.errors) return data<AuthFormResult>({ errors: parsed.errors, values }, { status: 400 })

  const { db, env } = services()
  const { blocked } = await hitRateLimits(db, [
    { key: `reset:account:${parsed.data.email}`, rule: AUTH_RATE_LIMITS.resetAccount },
    { key: `reset:ip:${clientIp(context)}`, rule: AUTH_RATE_LIMITS.resetIp },
  ])
  if (blocked) {
    return data<AuthFormResult>(
      { formError: tooManyAttemptsMessage(blocked.retryAfterSeconds), values },
      { status: 429, headers: { 'Retry-After': String(blocked.retryAfterSeconds) } },
    )
  }
  const { queued } = await requestPasswordReset(db, parsed.data.email, env.PUBLIC_URL)
  if (queued) wakeJobRunner()
  // The same answer whether or not the address has an account.
  return data<AuthFormResult>({ message: RESET_REQUESTED_MESSAGE, values })
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  return (
    <AuthPage title={AUTH_TITLES.forgot.title} subtitle={AUTH_TITLES.forgot.subtitle}>
      <ForgotPasswordForm result={actionData} links={pageLinks()} />
    </AuthPage>
  )
}

export const headers = accountPageHeaders

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Reset your password')
}
