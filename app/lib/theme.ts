import { href } from 'react-router'
import { safeRedirect } from './safe-redirect'

/**
 * The colour theme a visitor chose: light, dark, or system (the spec's "auto": follow the
 * device). Kept in a cookie so the server renders the right theme on the first byte.
 */
export const THEMES = ['light', 'dark', 'system'] as const
export type Theme = (typeof THEMES)[number]

export const THEME_COOKIE = 'theme'
const ONE_YEAR_SECONDS = 60 * 60 * 24 * 365

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value)
}

/** The theme named in a Cookie header, or null when there is none (or it is not a theme). */
export function themeFromCookieHeader(cookieHeader: string | null | undefined): Theme | null {
  if (!cookieHeader) return null
  for (const part of cookieHeader.split(';')) {
    const separator = part.indexOf('=')
    if (separator === -1) continue
    if (part.slice(0, separator).trim() !== THEME_COOKIE) continue
    const value = part.slice(separator + 1).trim()
    return isTheme(value) ? value : null
  }
  return null
}

/**
 * Set-Cookie value remembering a theme for a year (readable by scripts: it is not a secret).
 * `secure` for a shop served over HTTPS, so the browser never sends it over plain HTTP.
 */
export function themeCookie(theme: Theme, options: { secure: boolean }): string {
  const secure = options.secure ? '; Secure' : ''
  return `${THEME_COOKIE}=${theme}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax${secure}`
}

/** The admin's site default (light, dark or auto) as a theme. */
export function themeFromSiteDefault(setting: 'light' | 'dark' | 'auto'): Theme {
  return setting === 'auto' ? 'system' : setting
}

/**
 * Class on <html>. "dark" forces dark; "theme-system" lets a CSS media query decide, so a
 * system-theme page needs no script before paint (see the dark variant in app.css).
 */
export function themeClassName(theme: Theme): string {
  return theme === 'dark' ? 'dark' : theme === 'system' ? 'theme-system' : 'light'
}

/** Same-origin path to return to after a form post; anything else falls back to "/". */
export function safeRedirectPath(value: unknown): string {
  return safeRedirect(value, href('/'))
}
