import { data, redirect } from 'react-router'
import {
  AuthPage,
  AUTH_TITLES,
  LoginForm,
  pageLinks,
  type AuthFormResult,
} from '~/components/auth/auth-forms'
import { accountPageMeta, googleErrorMessage } from '~/components/auth/messages'
import { services } from '~/lib/app-context.server'
import {
  assertSameOrigin,
  dashboardPath,
  getUser,
  googleEnabled,
  signInWithPassword,
} from '~/lib/auth.server'
import {
  AUTH_RATE_LIMITS,
  clearRateLimit,
  clientIp,
  hitRateLimits,
  releaseRateLimit,
  tooManyAttemptsMessage,
} from '~/lib/rate-limit.server'
import { loginSchema, parseForm, safeRedirect } from '~/lib/validation/auth'
import { accountPageHeaders } from './headers'
import type { Route } from './+types/login'

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
    notice: url.searchParams.get('reset') === '1' ? PASSWORD_RESET_NOTICE : undefined,
    formError: googleError ? googleErrorMessage('login', googleError) : undefined,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request)
  const form = await request.formData()
  const values = { email: String(form.get('email') ?? '') }
  const parsed = parseForm(loginSchema, form)
  if (parsed.errors) return data<AuthFormResult>({ errors: parsed.errors, values }, { status: 400 })

  const { db } = services()
  const ip = clientIp(context)
  const accountKey = `login:account:${parsed.data.email}`
  const { hits, blocked } = await hitRateLimits(db, [
    { key: accountKey, rule: AUTH_RATE_LIMITS.loginAccount },
    { key: `login:ip:${ip}`, rule: AUTH_RATE_LIMITS.loginIp },
  ])
  if (blocked) {
    return data<AuthFormResult>(
      { formError: tooManyAttemptsMessage(blocked.retryAfterSeconds), values },
      { status: 429, headers: { 'Retry-After': String(blocked.retryAfterSeconds) } },
    )
  }

  const result = await signInWithPassword(request, ip, parsed.data)
  if (!result.ok)
    return data<AuthFormResult>({ formError: result.message, values }, { status: result.status })

  // Only failed attempts count against the limits.
  await clearRateLimit(db, accountKey)
  for (const hit of hits.slice(1)) await releaseRateLimit(db, hit)
  throw redirect(parsed.data.redirectTo || '/', { headers: result.headers })
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { google, redirectTo, notice, formError } = loaderData
  return (
    <AuthPage title={AUTH_TITLES.login.title} subtitle={AUTH_TITLES.login.subtitle}>
      <LoginForm
        result={actionData ?? (formError ? { formError } : undefined)}
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
