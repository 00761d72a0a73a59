import { data } from 'react-router'
import {
  AuthPage,
  AUTH_TITLES,
  ForgotPasswordForm,
  pageLinks,
  type AuthFormResult,
} from '~/components/auth/auth-forms'
import { accountPageMeta } from '~/components/auth/messages'
import { requestPasswordReset } from '~/services/notifications/account-mail.server'
import { services } from '~/lib/app-context.server'
import { wakeJobRunner } from '~/lib/jobs.server'
import { clientIp, hitPolicies, tooManyAttemptsMessage } from '~/lib/rate-limit.server'
import { forgotPasswordSchema } from '~/lib/validation/auth'
import { parseSubmission } from '~/lib/validation/submission'
import { accountPageHeaders } from '~/lib/page-headers'
import type { Route } from './+types/forgot-password'
import { readFormData } from '~/lib/form-data.server'

export const RESET_REQUESTED_MESSAGE =
  'If an account exists for that e-mail, we have sent a link to set a new password. Check your inbox (and the spam folder).'

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseSubmission(await readFormData(request), forgotPasswordSchema)
  if (submission.status !== 'success')
    return data<AuthFormResult>({ result: submission.reply() }, { status: 400 })

  const { db } = services()
  const { blocked } = await hitPolicies(db, [
    ['passwordResetEmail', submission.value.email],
    ['passwordResetIp', clientIp(context)],
  ])
  if (blocked) {
    return data<AuthFormResult>(
      {
        result: submission.reply({
          formErrors: [tooManyAttemptsMessage(blocked.retryAfterSeconds)],
        }),
      },
      { status: 429, headers: { 'Retry-After': String(blocked.retryAfterSeconds) } },
    )
  }
  const { queued } = await requestPasswordReset(db, submission.value.email)
  if (queued) wakeJobRunner()
  // The same answer whether or not the address has an account.
  return data<AuthFormResult>({ result: submission.reply(), message: RESET_REQUESTED_MESSAGE })
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
