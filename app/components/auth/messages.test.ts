import { describe, expect, it } from 'vitest'
import { AUTH_MESSAGES } from '~/lib/validation/auth'
import { GOOGLE_ACCOUNT_NOT_CONFIRMED, googleErrorMessage } from './messages'

describe('googleErrorMessage', () => {
  it('tells the owner of an address with an unconfirmed account how to get in', () => {
    // better-auth's callback sends ?error=account_not_linked when the Google address has an
    // account here that was never confirmed (someone may have signed up with it).
    for (const view of ['login', 'signup'] as const) {
      expect(googleErrorMessage(view, 'account_not_linked')).toBe(GOOGLE_ACCOUNT_NOT_CONFIRMED)
    }
    expect(GOOGLE_ACCOUNT_NOT_CONFIRMED).toBe(
      'Google could not be joined to the account with this address. If you signed up with it and never confirmed it, use "Forgot password?" to set a password and log in; after that, "Continue with Google" works too. Otherwise log in with your password.',
    )
  })

  it('keeps the spec fallbacks for codes without a plainer message', () => {
    expect(googleErrorMessage('login', 'unable_to_link_account')).toBe(
      AUTH_MESSAGES.googleLoginFailed,
    )
    expect(googleErrorMessage('signup', 'unable_to_link_account')).toBe(
      AUTH_MESSAGES.googleSignupFailed,
    )
  })
})
