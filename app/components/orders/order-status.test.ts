import { describe, expect, it } from 'vitest'
import { PAID_PRODUCT_GONE } from '~/lib/order-status'
import { orderStatusExplanation, orderStatusLabel } from './order-status'

describe("an order's status in the buyer's words", () => {
  it('says a paid order is being prepared, unless its product was deleted', () => {
    expect(orderStatusLabel('paid')).toBe('Paid, being prepared')
    expect(orderStatusExplanation('paid')).toContain('preparing your account details')
    // Deleted before the payment landed: the shop delivers another way or refunds, as the
    // 'payment received' mail says.
    const gone = orderStatusExplanation('paid', { productGone: true })
    expect(gone).toBe(`Your payment is confirmed. ${PAID_PRODUCT_GONE}`)
    expect(gone).not.toContain('preparing')
    expect(orderStatusLabel('paid', { productGone: true })).toBe('Paid')
    // A delivered order of a deleted product was delivered all the same.
    expect(orderStatusExplanation('delivered', { productGone: true })).toBe(
      orderStatusExplanation('delivered'),
    )
  })
})
