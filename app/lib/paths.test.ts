import { describe, expect, it } from 'vitest'
import {
  adminProductEditPath,
  adminStockPath,
  adminUserPath,
  checkoutPath,
  productPath,
} from './paths'
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

describe('admin paths', () => {
  it('put an id into the product form, the stock page and the user page', () => {
    expect(adminProductEditPath('k3q7abc2')).toBe('/admin/products/edit/k3q7abc2')
    expect(adminStockPath('k3q7abc2')).toBe('/admin/products/k3q7abc2/stock')
    expect(adminUserPath('u-9x')).toBe('/admin/users/u-9x')
  })

  it('percent-encode an id that is not plain, so it cannot reach another admin page', () => {
    expect(adminProductEditPath('../users')).toBe('/admin/products/edit/..%2Fusers')
    expect(adminStockPath('a/b')).toBe('/admin/products/a%2Fb/stock')
    expect(adminUserPath('x?y')).toBe('/admin/users/x%3Fy')
  })
})
