import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDb, type TestDb } from '../../tests/helpers/db'
import { getMarker, getSiteSettings, setMarker, updateSiteSettings } from './settings.server'

let t: TestDb
beforeAll(async () => {
  t = await createTestDb()
})
afterAll(async () => {
  await t.destroy()
})

describe(`site settings (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('falls back to defaults when nothing is stored', async () => {
    const settings = await getSiteSettings(t.db)
    expect(settings).toMatchObject({ siteName: 'KeyBazaar', currency: 'INR', timezone: 'Asia/Kolkata', theme: 'auto' })
  })

  it('persists changes and keeps keys that were not given', async () => {
    await updateSiteSettings(t.db, { siteName: 'Deal Keys', whatsappNumber: '919800000000' })
    await updateSiteSettings(t.db, { maintenanceMode: true })
    expect(await getSiteSettings(t.db)).toMatchObject({
      siteName: 'Deal Keys',
      whatsappNumber: '919800000000',
      maintenanceMode: true,
    })
  })

  it('refuses an invalid value and changes nothing', async () => {
    await expect(updateSiteSettings(t.db, { currency: 'GBP' as 'INR' })).rejects.toThrow()
    expect((await getSiteSettings(t.db)).currency).toBe('INR')
  })

  it('ignores an unreadable stored value instead of failing the page', async () => {
    await t.db
      .insertInto('siteSetting')
      .values({ key: 'siteName', value: '{broken', updatedAt: new Date().toISOString() })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: '{broken' }))
      .execute()
    expect((await getSiteSettings(t.db)).siteName).toBe('KeyBazaar')
  })

  it('keeps internal markers apart from the settings', async () => {
    expect(await getMarker(t.db, 'marker.test')).toBeNull()
    await setMarker(t.db, 'marker.test', 'x')
    await setMarker(t.db, 'marker.test', 'y')
    expect(await getMarker(t.db, 'marker.test')).toBe('y')
    expect(await getSiteSettings(t.db)).not.toHaveProperty('marker.test')
  })
})
