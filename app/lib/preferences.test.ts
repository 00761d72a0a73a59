import { describe, expect, it } from 'vitest'
import { DEFAULT_PREFERENCES, preferencesInUse } from './preferences'

/** The root loader and the settings form both take the preferences in use from here. */
describe('preferences in use', () => {
  it("takes the customer's saved preferences over cookies and the shop's default", () => {
    const stored = { theme: 'light', language: 'hi', notifications: false } as const
    expect(preferencesInUse(stored, 'theme=dark; lang=es', { theme: 'dark' })).toEqual(stored)
  })

  it('takes the cookies when nothing is saved', () => {
    expect(preferencesInUse(null, 'a=1; theme=dark; lang=hi', { theme: 'light' })).toEqual({
      theme: 'dark',
      language: 'hi',
      notifications: true,
    })
  })

  it("falls back to the shop's default theme, not the form's default, without a cookie", () => {
    expect(preferencesInUse(null, null, { theme: 'dark' })).toEqual({
      ...DEFAULT_PREFERENCES,
      theme: 'dark',
    })
    expect(preferencesInUse(null, 'theme=purple', { theme: 'light' }).theme).toBe('light')
    expect(preferencesInUse(null, '', { theme: 'auto' })).toEqual(DEFAULT_PREFERENCES)
  })

  it("falls back to the shop's default language (Settings > System), and English without one", () => {
    expect(preferencesInUse(null, null, { theme: 'auto', language: 'hi' }).language).toBe('hi')
    expect(preferencesInUse(null, 'lang=es', { theme: 'auto', language: 'hi' }).language).toBe('es')
    expect(preferencesInUse(null, null, { theme: 'auto', language: 'xx' }).language).toBe('en')
  })
})
