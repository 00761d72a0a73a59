import { describe, expect, it } from 'vitest'
import { safeRedirect } from './safe-redirect'

describe('safeRedirect', () => {
  it('keeps a path on this site with its query and fragment', () => {
    expect(safeRedirect('/dashboard')).toBe('/dashboard')
    expect(safeRedirect('/product/x?y=1#z')).toBe('/product/x?y=1#z')
    expect(safeRedirect('/admin/products?search=a%20b&page=2')).toBe(
      '/admin/products?search=a%20b&page=2',
    )
    expect(safeRedirect('/')).toBe('/')
  })

  it('refuses absolute and protocol-relative addresses', () => {
    expect(safeRedirect('https://evil.example/')).toBe('/')
    expect(safeRedirect('//evil.example/')).toBe('/')
    expect(safeRedirect('javascript:alert(1)')).toBe('/')
    expect(safeRedirect('evil.example')).toBe('/')
    expect(safeRedirect('')).toBe('/')
    expect(safeRedirect(null)).toBe('/')
    expect(safeRedirect(['/x'])).toBe('/')
  })

  it('refuses tabs, newlines and other characters browsers drop from a URL', () => {
    for (const sneaky of [
      '/\t/evil.example/x',
      '/\n/evil.example',
      '/\r\n/evil.example',
      '\t//evil.example',
      '/ /evil.example',
      '/\u0000/evil.example',
      '/\u007f/evil.example',
      '/\u00a0/evil.example',
      '/\u2028/evil.example',
      '/x?next=\t',
    ]) {
      expect(safeRedirect(sneaky), JSON.stringify(sneaky)).toBe('/')
    }
  })

  it('refuses backslashes anywhere, which browsers read as slashes', () => {
    for (const sneaky of [
      '/\\evil.example',
      '\\\\evil.example',
      '/\\/evil.example',
      '/a\\b',
      '/x?y=\\',
    ]) {
      expect(safeRedirect(sneaky), JSON.stringify(sneaky)).toBe('/')
    }
  })

  it('refuses paths that normalise or decode to another host', () => {
    for (const sneaky of [
      '/.//evil.example',
      '/./\t/evil.example',
      '/a/..//evil.example',
      '/%09/evil.example/x',
      '/%0a/evil.example',
      '/%0D%0A/evil.example',
      '/%2f/evil.example',
      '/%2F%2Fevil.example',
      '/%5c/evil.example',
      '/%5C%5Cevil.example',
      '/%2509/evil.example',
      '/%E0%A4%A',
    ]) {
      expect(safeRedirect(sneaky), JSON.stringify(sneaky)).toBe('/')
    }
  })

  it('falls back to the given default', () => {
    expect(safeRedirect('/\t/evil.example', '')).toBe('')
    expect(safeRedirect(undefined, '/home')).toBe('/home')
  })

  it('answers a header-safe path for unicode input', () => {
    expect(safeRedirect('/product/चाय')).toBe('/product/%E0%A4%9A%E0%A4%BE%E0%A4%AF')
  })
})
