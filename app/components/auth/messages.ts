import { AUTH_MESSAGES } from '~/lib/validation/auth'

/** The login page after a confirmation link that was already used (/login?confirmed=1). */
export const EMAIL_CONFIRMED_NOTICE = 'Your address is confirmed. Log in with your password.'

/** Google's address has an account here that was never confirmed (`account_not_linked`). */
export const GOOGLE_ACCOUNT_NOT_CONFIRMED =
  'Google could not be joined to the account with this address. If you signed up with it and never confirmed it, use "Forgot password?" to set a password and log in; after that, "Continue with Google" works too. Otherwise log in with your password.'

/**
 * Google sign-in comes back with ?provider=google&error=<code>. The spec's fallbacks
 * ('Failed to log in with Google' / 'Failed to sign up with Google') unless the code
 * has a plainer explanation.
 */
export function googleErrorMessage(view: 'login' | 'signup', code: string): string {
  if (code === 'ACCOUNT_SUSPENDED') return AUTH_MESSAGES.accountSuspended
  if (code === 'GOOGLE_EMAIL_UNVERIFIED') return AUTH_MESSAGES.googleEmailUnverified
  // Only when registration is closed in the settings and the Google address has no account.
  if (code === 'signup_disabled') return AUTH_MESSAGES.registrationClosed
  if (code === 'access_denied') return 'Google sign-in was cancelled.'
  // better-auth's code when an account with the Google address exists but was never confirmed:
  // Google joins only a confirmed account (someone else may have signed up with the address),
  // and a reset through the mailed link confirms it (docs/auth.md, "Google").
  if (code === 'account_not_linked') return GOOGLE_ACCOUNT_NOT_CONFIRMED
  return view === 'login' ? AUTH_MESSAGES.googleLoginFailed : AUTH_MESSAGES.googleSignupFailed
}

/** "<page> | <site name>", with noindex: account pages have no business in search results. */
export function accountPageMeta(matches: readonly unknown[], title: string) {
  const root = matches.find(
    (match): match is { id: 'root'; data: { site?: { siteName?: string } } | undefined } =>
      typeof match === 'object' && match !== null && (match as { id?: unknown }).id === 'root',
  )
  const siteName = root?.data?.site?.siteName ?? 'KeyBazaar'
  return [{ title: `${title} | ${siteName}` }, { name: 'robots', content: 'noindex' }]
}
