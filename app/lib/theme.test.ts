import { describe, expect, it } from 'vitest'
import {
  safeRedirectPath,
  themeClassName,
  themeCookie,
  themeFromCookieHeader,
  themeFromSiteDefault,
} from './theme'

describe('theme', () => {
  it('reads the theme from a Cookie header among other cookies', () => {
    expect(themeFromCookieHeader('a=1; theme=dark; b=2')).toBe('dark')
    expect(themeFromCookieHeader('theme=light')).toBe('light')
    expect(themeFromCookieHeader('theme=system')).toBe('system')
  })

  it('ignores a missing or unknown theme and look-alike cookie names', () => {
    expect(themeFromCookieHeader(null)).toBeNull()
    expect(themeFromCookieHeader('')).toBeNull()
    expect(themeFromCookieHeader('theme=purple')).toBeNull()
    expect(themeFromCookieHeader('mytheme=dark; themes=dark')).toBeNull()
  })

  it('remembers the choice for a year on the whole site', () => {
    expect(themeCookie('dark', { secure: false })).toBe(
      'theme=dark; Path=/; Max-Age=31536000; SameSite=Lax',
    )
    // A shop on HTTPS: never sent over plain HTTP.
    expect(themeCookie('dark', { secure: true })).toBe(
      'theme=dark; Path=/; Max-Age=31536000; SameSite=Lax; Secure',
    )
  })

  it('maps the admin setting auto to the system theme', () => {
    expect(themeFromSiteDefault('auto')).toBe('system')
    expect(themeFromSiteDefault('dark')).toBe('dark')
  })

  it('puts dark on <html> for dark and lets CSS decide for system', () => {
    expect(themeClassName('dark')).toBe('dark')
    expect(themeClassName('light')).toBe('light')
    expect(themeClassName('system')).toBe('theme-system')
  })

  it('sends a no-JavaScript form back only to a path on this site', () => {
    expect(safeRedirectPath('/product/x?y=1#z')).toBe('/product/x?y=1#z')
    expect(safeRedirectPath('https://evil.example/')).toBe('/')
    expect(safeRedirectPath('//evil.example/')).toBe('/')
    expect(safeRedirectPath('/\\evil.example')).toBe('/')
    expect(safeRedirectPath(null)).toBe('/')
  })
})
