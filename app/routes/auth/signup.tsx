import { data, redirect } from 'react-router'
import {
  AuthPage,
  AUTH_TITLES,
  pageLinks,
  SignupForm,
  type AuthFormResult,
} from '~/components/auth/auth-forms'
import { accountPageMeta, googleErrorMessage } from '~/components/auth/messages'
import { getSiteSettings } from '~/data/settings.server'
import { isListedAdmin } from '~/data/user.server'
import { services } from '~/lib/app-context.server'
import { dashboardPath, getUser, googleEnabled, signUpWithPassword } from '~/services/auth.server'
import { clientIp, hitPolicies, tooManyAttemptsMessage } from '~/lib/rate-limit.server'
import { AUTH_MESSAGES, safeRedirect, signupSchema } from '~/lib/validation/auth'
import { parseSubmission } from '~/lib/validation/submission'
import { accountPageHeaders } from '~/lib/page-headers'
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
  const url = new URL(request.url)
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'), '')
  const user = await getUser(request)
  if (user) throw redirect(redirectTo || dashboardPath(user))
  const googleError =
    url.searchParams.get('provider') === 'google' ? url.searchParams.get('error') : null
  return {
    google: googleEnabled(),
    redirectTo,
    formError: googleError ? googleErrorMessage('signup', googleError) : undefined,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseSubmission(await readFormData(request), signupSchema)
  // Passwords are never sent back into the page.
  const reply = (formError?: string) =>
    submission.reply({
      hideFields: ['password', 'confirmPassword'],
      ...(formError ? { formErrors: [formError] } : {}),
    })
  if (submission.status !== 'success')
    return data<AuthFormResult>({ result: reply() }, { status: 400 })

  const { db, env } = services()
  const settings = await getSiteSettings(db)
  // The owner can close registration (admin settings); ADMIN_EMAILS can still sign up.
  if (!settings.enableRegistration && !isListedAdmin(submission.value.email, env.ADMIN_EMAILS)) {
    return data<AuthFormResult>(
      { result: reply(AUTH_MESSAGES.registrationClosed) },
      { status: 403 },
    )
  }

  const ip = clientIp(context)
  const { blocked } = await hitPolicies(db, [
    ['signUpEmail', submission.value.email],
    ['signUpIp', ip],
  ])
  if (blocked) {
    return data<AuthFormResult>(
      { result: reply(tooManyAttemptsMessage(blocked.retryAfterSeconds)) },
      { status: 429, headers: { 'Retry-After': String(blocked.retryAfterSeconds) } },
    )
  }

  const result = await signUpWithPassword(request, ip, submission.value)
  if (!result.ok)
    return data<AuthFormResult>({ result: reply(result.message) }, { status: result.status })
  return data<AuthFormResult>({ message: checkInboxMessage(submission.value.email) })
}

export default function Signup({ loaderData, actionData }: Route.ComponentProps) {
  const { google, redirectTo, formError } = loaderData
  return (
    <AuthPage title={AUTH_TITLES.signup.title} subtitle={AUTH_TITLES.signup.subtitle}>
      <SignupForm
        result={actionData}
        formError={formError}
        redirectTo={redirectTo}
        google={google}
        links={pageLinks(redirectTo)}
      />
    </AuthPage>
  )
}

export const headers = accountPageHeaders

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Sign up')
}
