import { describe, expect, it } from 'vitest'
import { paymentMethodsNote } from './checkout-details'

describe('the line under the checkout form saying how the buyer pays', () => {
  it('names the one gateway, or none of them when there is a choice', () => {
    expect(paymentMethodsNote([{ id: 'paytm' }])).toBe(
      'Secure payment by UPI, card or wallet through Paytm.',
    )
    expect(paymentMethodsNote([{ id: 'razorpay' }])).toBe(
      'Secure payment by UPI, card or netbanking through Razorpay.',
    )
    expect(paymentMethodsNote([{ id: 'paytm' }, { id: 'phonepe' }])).toBe(
      'Secure payment by UPI, card, netbanking or wallet.',
    )
  })

  it('promises no gateway when none is active', () => {
    const note = paymentMethodsNote([])
    expect(note).not.toContain('Paytm')
    expect(note).toBe('Online payment is not available right now. Please try again later.')
  })
})
