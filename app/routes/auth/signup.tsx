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
import {
  assertSameOrigin,
  dashboardPath,
  getUser,
  googleEnabled,
  signUpWithPassword,
} from '~/lib/auth.server'
import {
  AUTH_RATE_LIMITS,
  clientIp,
  hitRateLimits,
  tooManyAttemptsMessage,
} from '~/lib/rate-limit.server'
import { AUTH_MESSAGES, parseForm, safeRedirect, signupSchema } from '~/lib/validation/auth'
import { accountPageHeaders } from './headers'
import type { Route } from './+types/signup'

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
  assertSameOrigin(request)
  const form = await request.formData()
  const values = { name: String(form.get('name') ?? ''), email: String(form.get('email') ?? '') }
  const parsed = parseForm(signupSchema, form)
  if (parsed.errors) return data<AuthFormResult>({ errors: parsed.errors, values }, { status: 400 })

  const { db, env } = services()
  const settings = await getSiteSettings(db)
  // The owner can close registration (admin settings); ADMIN_EMAILS can still sign up.
  if (!settings.enableRegistration && !isListedAdmin(parsed.data.email, env.ADMIN_EMAILS)) {
    return data<AuthFormResult>(
      { formError: AUTH_MESSAGES.registrationClosed, values },
      { status: 403 },
    )
  }

  const ip = clientIp(context)
  const { blocked } = await hitRateLimits(db, [
    { key: `signup:account:${parsed.data.email}`, rule: AUTH_RATE_LIMITS.signupAccount },
    { key: `signup:ip:${ip}`, rule: AUTH_RATE_LIMITS.signupIp },
  ])
  if (blocked) {
    return data<AuthFormResult>(
      { formError: tooManyAttemptsMessage(blocked.retryAfterSeconds), values },
      { status: 429, headers: { 'Retry-After': String(blocked.retryAfterSeconds) } },
    )
  }

  const result = await signUpWithPassword(request, ip, parsed.data)
  if (!result.ok)
    return data<AuthFormResult>({ formError: result.message, values }, { status: result.status })
  throw redirect(parsed.data.redirectTo || '/', { headers: result.headers })
}

export default function Signup({ loaderData, actionData }: Route.ComponentProps) {
  const { google, redirectTo, formError } = loaderData
  return (
    <AuthPage title={AUTH_TITLES.signup.title} subtitle={AUTH_TITLES.signup.subtitle}>
      <SignupForm
        result={actionData ?? (formError ? { formError } : undefined)}
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
