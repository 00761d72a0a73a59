import { describe, expect, it } from 'vitest'
import { ORDER_STATUSES, isOrderStatus } from '~/lib/order-status'
import { rangeText } from './list-filters'

describe('the admin lists', () => {
  const noun = { one: 'order', many: 'orders' }

  it('says which rows of how many a page shows, in Indian digit grouping', () => {
    expect(rangeText({ number: 1, size: 20, total: 57 }, noun)).toBe('Showing 1–20 of 57 orders')
    expect(rangeText({ number: 3, size: 20, total: 57 }, noun)).toBe('Showing 41–57 of 57 orders')
    expect(rangeText({ number: 2, size: 20, total: 123_456 }, noun)).toBe(
      'Showing 21–40 of 1,23,456 orders',
    )
  })

  it('uses the singular for one row and says nothing for none', () => {
    expect(rangeText({ number: 1, size: 20, total: 1 }, noun)).toBe('Showing 1–1 of 1 order')
    expect(rangeText({ number: 1, size: 20, total: 0 }, noun)).toBe('')
  })

  it('knows every order status and nothing else', () => {
    expect(ORDER_STATUSES).toHaveLength(7)
    for (const status of ORDER_STATUSES) expect(isOrderStatus(status)).toBe(true)
    expect(isOrderStatus('shipped')).toBe(false)
    expect(isOrderStatus(undefined)).toBe(false)
  })
})
