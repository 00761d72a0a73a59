import { describe, expect, it } from 'vitest'
import { DEFAULT_PREFERENCES, preferencesInUse } from './preferences'

/** The root loader and the settings form both take the preferences in use from here. */
describe('preferences in use', () => {
  it("takes the customer's saved preferences over cookies and the shop's default", () => {
    const stored = { theme: 'light', language: 'hi', notifications: false } as const
    expect(preferencesInUse(stored, 'theme=dark; lang=es', 'dark')).toEqual(stored)
  })

  it('takes the cookies when nothing is saved', () => {
    expect(preferencesInUse(null, 'a=1; theme=dark; lang=hi', 'light')).toEqual({
      theme: 'dark',
      language: 'hi',
      notifications: true,
    })
  })

  it("falls back to the shop's default theme, not the form's default, without a cookie", () => {
    expect(preferencesInUse(null, null, 'dark')).toEqual({ ...DEFAULT_PREFERENCES, theme: 'dark' })
    expect(preferencesInUse(null, 'theme=purple', 'light').theme).toBe('light')
    expect(preferencesInUse(null, '', 'auto')).toEqual(DEFAULT_PREFERENCES)
  })
})
