import { THEMES, themeFromCookieHeader, themeFromSiteDefault, type Theme } from './theme'

/**
 * A customer's preferences (/dashboard/settings): theme, language and mail notifications.
 * Browser-safe: the settings form and the root read the same lists.
 */
export { THEMES, type Theme }

export const LANGUAGES = ['en', 'hi', 'es'] as const
export type Language = (typeof LANGUAGES)[number]
export const LANGUAGE_LABELS: Record<Language, string> = {
  en: 'English',
  hi: 'Hindi (हिन्दी)',
  es: 'Spanish (Español)',
}
export const THEME_LABELS: Record<Theme, string> = {
  system: 'System default',
  light: 'Light',
  dark: 'Dark',
}

export interface Preferences {
  theme: Theme
  language: Language
  /** Reminder and marketing-type mails; order mails are always sent. */
  notifications: boolean
}

export const DEFAULT_PREFERENCES: Preferences = {
  theme: 'system',
  language: 'en',
  notifications: true,
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
}

/**
 * The preferences the pages are shown with: what a signed-in customer saved in
 * /dashboard/settings, else this browser's cookies, else the shop's default theme and language
 * (admin settings). The root loader renders every page with them and the settings form
 * starts from them, so saving that form changes only what the customer changed there.
 */
export function preferencesInUse(
  stored: Preferences | null,
  cookieHeader: string | null | undefined,
  site: { theme: Parameters<typeof themeFromSiteDefault>[0]; language?: string },
): Preferences {
  return {
    theme: stored?.theme ?? themeFromCookieHeader(cookieHeader) ?? themeFromSiteDefault(site.theme),
    language:
      stored?.language ??
      languageFromCookieHeader(cookieHeader) ??
      (isLanguage(site.language) ? site.language : DEFAULT_PREFERENCES.language),
    notifications: stored?.notifications ?? DEFAULT_PREFERENCES.notifications,
  }
}

/** The language cookie: a signed-out visitor's choice, and a signed-in one's after sign-out. */
export const LANGUAGE_COOKIE = 'lang'
const ONE_YEAR_SECONDS = 60 * 60 * 24 * 365

export function languageFromCookieHeader(cookieHeader: string | null | undefined): Language | null {
  if (!cookieHeader) return null
  for (const part of cookieHeader.split(';')) {
    const separator = part.indexOf('=')
    if (separator === -1) continue
    if (part.slice(0, separator).trim() !== LANGUAGE_COOKIE) continue
    const value = part.slice(separator + 1).trim()
    return isLanguage(value) ? value : null
  }
  return null
}

export function languageCookie(language: Language, options: { secure: boolean }): string {
  const secure = options.secure ? '; Secure' : ''
  return `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax${secure}`
}
