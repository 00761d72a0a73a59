import { describe, expect, it } from 'vitest'
import { failedMessage } from './detail.server'

/** The words of a failed edit or password reset in its dialog (the spec's error catalogue). */
describe('a failed change of a user', () => {
  it("says the spec's words when nothing better is known (an unexpected error)", () => {
    expect(failedMessage('update', null)).toBe('Failed to update user: Please try again.')
    expect(failedMessage('reset-password', null)).toBe(
      'Failed to reset password. Please try again.',
    )
  })

  it('keeps the reason of a refusal', () => {
    expect(failedMessage('update', 'You cannot suspend your own account')).toBe(
      'Failed to update user: You cannot suspend your own account',
    )
    expect(failedMessage('reset-password', 'This user no longer exists')).toBe(
      'Failed to reset password: This user no longer exists',
    )
  })

  it('has no dialog message for the confirmed changes (they go back with a message)', () => {
    for (const intent of ['make-admin', 'suspend', 'reactivate'] as const) {
      expect(failedMessage(intent, null)).toBeNull()
      expect(failedMessage(intent, 'Some reason')).toBeNull()
    }
  })
})
