import { describe, expect, it } from 'vitest'
import { checkoutPath, productPath } from './paths'
import { slugify } from './slug'

describe('product paths', () => {
  it('put a slug into the product page and its checkout', () => {
    expect(productPath('streamverse-premium-12-months')).toBe(
      '/product/streamverse-premium-12-months',
    )
    expect(checkoutPath('streamverse-premium-12-months')).toBe(
      '/checkout/streamverse-premium-12-months',
    )
  })

  it('leave every slug slugify makes as it is', () => {
    const slug = slugify('  StreamMax: Premium -- 12 Months!! ')
    expect(productPath(slug)).toBe(`/product/${slug}`)
    expect(checkoutPath(slug)).toBe(`/checkout/${slug}`)
  })

  it('percent-encode anything else, so a slash or a query cannot change the path', () => {
    expect(productPath('a b/c?d#e')).toBe('/product/a%20b%2Fc%3Fd%23e')
    expect(checkoutPath('ünï/x')).toBe('/checkout/%C3%BCn%C3%AF%2Fx')
  })
})
