import { describe, expect, it } from 'vitest'
import { forSale, itemsText, statusLines, stockText, type SaleFacts } from './stock-status'

/** The one rule the admin's stock screens share: what buyers can order now, and its words. */
const stock: SaleFacts = { inStock: true, deliveryMode: 'stock', buyNowLink: null }
const demo = { real: 0, test: 20 }

describe('forSale', () => {
  it('sells a stock product while it holds an item of a kind that sells now', () => {
    expect(forSale(stock, demo, 'test')).toEqual({ sellable: true, reason: null, left: 20 })
    expect(forSale(stock, demo, 'real')).toEqual({ sellable: false, reason: 'no-items', left: 0 })
    expect(forSale(stock, demo, 'both')).toEqual({ sellable: true, reason: null, left: 20 })
    expect(forSale(stock, null, 'both')).toEqual({ sellable: false, reason: 'no-items', left: 0 })
  })

  it('never sells a product marked out of stock, whatever it holds', () => {
    const off = { ...stock, inStock: false }
    expect(forSale(off, demo, 'test')).toEqual({ sellable: false, reason: 'marked-out', left: 20 })
    expect(forSale({ ...off, deliveryMode: 'manual' }, null, 'real').reason).toBe('marked-out')
  })

  it('sells a buy now link through the link, a shared secret only outside test mode', () => {
    const linked = { ...stock, buyNowLink: 'https://vendor.example/buy' }
    expect(forSale(linked, { real: 0, test: 0 }, 'real').sellable).toBe(true)
    const shared = { ...stock, deliveryMode: 'shared' as const }
    expect(forSale(shared, null, 'test')).toEqual({
      sellable: false,
      reason: 'test-mode',
      left: null,
    })
    expect(forSale(shared, null, 'both').sellable).toBe(true)
    expect(forSale({ ...stock, deliveryMode: 'manual' }, null, 'test').sellable).toBe(true)
  })
})

describe('the words', () => {
  it('names the kind counted outright', () => {
    expect(itemsText(1, 'test')).toBe('1 test item')
    expect(itemsText(1_500, 'real')).toBe('1,500 real items')
    expect(itemsText(2, 'both')).toBe('2 items')
    expect(stockText(demo, 'test')).toBe('20 test items')
    expect(stockText({ real: 5, test: 0 }, 'test')).toBe(
      'No test items left (5 real, kept for live payments)',
    )
    expect(stockText(demo, 'real')).toBe('No real items left (20 test, for test mode only)')
    expect(stockText({ real: 12, test: 8 }, 'both')).toBe('20 items: 12 real, 8 test')
    expect(stockText({ real: 0, test: 0 }, 'both')).toBe('No items left')
  })

  it('says why a product does not sell before its stock', () => {
    expect(statusLines({ ...stock, inStock: false }, demo, 'test')).toEqual([
      'Marked out of stock',
      '20 test items',
    ])
    expect(statusLines({ ...stock, buyNowLink: 'https://vendor.example' }, null, 'real')).toEqual([
      'Sold through its buy now link',
      'No real items left',
    ])
    expect(statusLines({ ...stock, deliveryMode: 'shared' }, null, 'test')).toEqual([
      'Shared secret: not sold in test mode',
    ])
    expect(statusLines({ ...stock, deliveryMode: 'manual' }, null, 'test')).toEqual([
      'Manual delivery',
    ])
  })
})
