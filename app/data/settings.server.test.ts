import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSecondConnection, fileTestDb } from '../../tests/helpers/db'
import type { DB } from '~/lib/db.server'
import {
  getMarker,
  getSiteSettings,
  readSiteSettings,
  recentSiteSettings,
  setMarker,
  SETTINGS_RECHECK_MS,
  updateSiteSettings,
} from './settings.server'

const t = fileTestDb()

describe(`site settings (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('falls back to defaults when nothing is stored', async () => {
    const settings = await getSiteSettings(t.db)
    expect(settings).toMatchObject({
      siteName: 'KeyBazaar',
      currency: 'INR',
      timezone: 'Asia/Kolkata',
      theme: 'auto',
    })
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
    expect((await readSiteSettings(t.db)).siteName).toBe('KeyBazaar')
  })

  it('keeps internal markers apart from the settings', async () => {
    expect(await getMarker(t.db, 'marker.test')).toBeNull()
    await setMarker(t.db, 'marker.test', 'x')
    await setMarker(t.db, 'marker.test', 'y')
    expect(await getMarker(t.db, 'marker.test')).toBe('y')
    expect(await getSiteSettings(t.db)).not.toHaveProperty('marker.test')
  })
})

describe(`settings cache across processes (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  let other: DB
  beforeAll(() => {
    other = openSecondConnection(t, { maxConnections: 2 })
  })
  afterAll(async () => {
    await other.destroy()
  })

  it("keeps settings in memory and sees another process's change after the recheck interval", async () => {
    let clock = 1_000_000
    const now = () => clock
    await updateSiteSettings(t.db, { siteName: 'Before' })
    expect((await getSiteSettings(other, now)).siteName).toBe('Before')
    // Another process saves.
    await updateSiteSettings(t.db, { siteName: 'After', invoicePrefix: 'KB' })
    // Within the interval this process answers from memory, without asking the database.
    clock += SETTINGS_RECHECK_MS - 1
    expect((await getSiteSettings(other, now)).siteName).toBe('Before')
    // After it, one version check finds the change and reloads.
    clock += 2
    expect(await getSiteSettings(other, now)).toMatchObject({
      siteName: 'After',
      invoicePrefix: 'KB',
    })
    // A row written behind the settings' back (no new version) is not picked up: the version
    // row is what tells a change, so the check stays one cheap read.
    await t.db
      .updateTable('siteSetting')
      .set({ value: JSON.stringify('Sneaky') })
      .where('key', '=', 'siteName')
      .execute()
    clock += SETTINGS_RECHECK_MS * 2
    expect((await getSiteSettings(other, now)).siteName).toBe('After')
  })

  it('makes a change visible in every process within 2 seconds of real time', async () => {
    await getSiteSettings(other)
    await getSiteSettings(t.db)
    const saved = Date.now()
    await updateSiteSettings(other, { whatsappNumber: '919812345678', maintenanceMode: true })
    // The process that saved sees it at once.
    expect((await getSiteSettings(other)).whatsappNumber).toBe('919812345678')
    let seen = await getSiteSettings(t.db)
    while (seen.whatsappNumber !== '919812345678' && Date.now() - saved < 2000) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      seen = await getSiteSettings(t.db)
    }
    expect(seen).toMatchObject({ whatsappNumber: '919812345678', maintenanceMode: true })
    expect(Date.now() - saved).toBeLessThan(2000)
    await updateSiteSettings(other, { maintenanceMode: false })
  })

  it('hands out its copy without waiting only while the copy was checked within the interval', async () => {
    let clock = 2_000_000
    const now = () => clock
    await updateSiteSettings(t.db, { lowStockThreshold: 4 })
    expect(recentSiteSettings(t.db, now)).toBeUndefined()
    expect((await getSiteSettings(t.db, now)).lowStockThreshold).toBe(4)
    clock += SETTINGS_RECHECK_MS - 1
    expect(recentSiteSettings(t.db, now)?.lowStockThreshold).toBe(4)
    clock += 1
    expect(recentSiteSettings(t.db, now)).toBeUndefined()
    // A save in this process drops the copy at once.
    await getSiteSettings(t.db, now)
    await updateSiteSettings(t.db, { lowStockThreshold: 5 })
    expect(recentSiteSettings(t.db, now)).toBeUndefined()
  })

  it('reads inside a transaction directly, never from the cache', async () => {
    await updateSiteSettings(t.db, { lowStockThreshold: 7 })
    await getSiteSettings(other)
    await other.transaction().execute(async (trx) => {
      await updateSiteSettings(trx, { lowStockThreshold: 9 })
      expect((await getSiteSettings(trx)).lowStockThreshold).toBe(9)
    })
    expect((await readSiteSettings(t.db)).lowStockThreshold).toBe(9)
  })
})
