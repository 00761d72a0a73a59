import { describe, expect, it } from 'vitest'
import { isCrossSite, isCrossSiteExempt, isStateChanging } from './cross-site.server'

const ours = new Set(['https://shop.example.in', 'http://127.0.0.1:3000'])

describe('the cross-site rule', () => {
  it('lets our own origin through and refuses any other, sandboxed frames included', () => {
    expect(isCrossSite({ origin: 'https://shop.example.in' }, ours)).toBe(false)
    expect(isCrossSite({ origin: 'https://evil.example' }, ours)).toBe(true)
    expect(isCrossSite({ origin: 'https://shop.example.in.evil.example' }, ours)).toBe(true)
    expect(isCrossSite({ origin: 'null' }, ours)).toBe(true)
    // Origin decides over Sec-Fetch-Site when both are sent.
    expect(isCrossSite({ origin: 'https://evil.example', fetchSite: 'same-origin' }, ours)).toBe(
      true,
    )
  })

  it('falls back to Sec-Fetch-Site without an Origin, and lets a request with neither through', () => {
    expect(isCrossSite({ fetchSite: 'same-origin' }, ours)).toBe(false)
    expect(isCrossSite({ fetchSite: 'none' }, ours)).toBe(false)
    expect(isCrossSite({ fetchSite: 'same-site' }, ours)).toBe(true)
    expect(isCrossSite({ fetchSite: 'cross-site' }, ours)).toBe(true)
    expect(isCrossSite({ origin: 'null', fetchSite: 'same-origin' }, ours)).toBe(false)
    expect(isCrossSite({}, ours)).toBe(false)
  })

  it('applies to state-changing methods, except on the gateway and auth endpoints', () => {
    expect(['GET', 'head', 'OPTIONS'].map(isStateChanging)).toEqual([false, false, false])
    expect(['POST', 'PUT', 'PATCH', 'DELETE'].map(isStateChanging)).toEqual([
      true,
      true,
      true,
      true,
    ])
    for (const path of [
      '/api/payments/paytm/callback',
      '/payment/callback',
      '/api/paytm/generate-checksum',
      '/api/auth/sign-in/email',
    ]) {
      expect(isCrossSiteExempt(path), path).toBe(true)
    }
    for (const path of [
      '/logout',
      '/theme',
      '/admin/api/uploads',
      '/payment/pay',
      '/api/paytmx',
      '/dashboard/settings',
    ]) {
      expect(isCrossSiteExempt(path), path).toBe(false)
    }
  })
})
