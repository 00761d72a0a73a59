import { describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { makeCustomer } from '../../tests/factories'
import { DEFAULT_PREFERENCES } from '~/lib/preferences'
import { getPreferences, savePreferences } from './preferences.server'

const t = fileTestDb()

describe(`preferences (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('saves some fields and keeps the others, from the defaults on a first save', async () => {
    const user = await makeCustomer(t.db)
    expect(await getPreferences(t.db, user.id)).toEqual(DEFAULT_PREFERENCES)
    expect(await savePreferences(t.db, user.id, { theme: 'dark' })).toEqual({
      ...DEFAULT_PREFERENCES,
      theme: 'dark',
    })
    expect(await savePreferences(t.db, user.id, { notifications: false })).toEqual({
      ...DEFAULT_PREFERENCES,
      theme: 'dark',
      notifications: false,
    })
    expect(await getPreferences(t.db, user.id)).toEqual({
      ...DEFAULT_PREFERENCES,
      theme: 'dark',
      notifications: false,
    })
  })

  it('fills a first save from the preferences in use, and a later one only changes what it names', async () => {
    const user = await makeCustomer(t.db)
    // The header's theme switch, in a browser whose language cookie says Hindi.
    const inUse = { ...DEFAULT_PREFERENCES, language: 'hi' as const }
    expect(await savePreferences(t.db, user.id, { theme: 'dark' }, { inUse })).toEqual({
      ...inUse,
      theme: 'dark',
    })
    // Stored now: what another browser shows no longer matters.
    expect(
      await savePreferences(
        t.db,
        user.id,
        { theme: 'light' },
        { inUse: { ...DEFAULT_PREFERENCES, language: 'en' } },
      ),
    ).toEqual({ ...inUse, theme: 'light' })
  })

  it('loses neither of two saves of different fields made at the same moment', async () => {
    const user = await makeCustomer(t.db)
    for (let round = 0; round < 20; round++) {
      await savePreferences(t.db, user.id, { theme: 'dark', notifications: false })
      // The header's theme switch and the settings form, at once.
      await Promise.all([
        savePreferences(t.db, user.id, { theme: 'light' }),
        savePreferences(t.db, user.id, { notifications: true }),
      ])
      expect(await getPreferences(t.db, user.id)).toMatchObject({
        theme: 'light',
        notifications: true,
      })
    }
  })
})
