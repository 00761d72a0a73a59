import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { listAuditEntries } from '~/data/audit.server'
import { getInvoiceData } from '~/data/invoice.server'
import { getSiteSettings, readSiteSettings, updateSiteSettings } from '~/data/settings.server'
import { MAIL_JOB } from '~/lib/mail.server'
import { settingsFormSchema } from '~/lib/validation/settings'
import { createTestDb, fileTestDb } from '../../tests/helpers/db'
import { makeAdmin, makePaidOrder, makeProduct } from '../../tests/factories'
import { renderInvoicePdf } from './invoice.server'
import { notifyShop } from './notifications/shop-mail.server'
import { saveSiteSettings, settingsVersion } from './settings.server'

const t = fileTestDb()

async function mailsTo(): Promise<string[]> {
  const rows = await t.db.selectFrom('job').select('payload').where('type', '=', MAIL_JOB).execute()
  return rows.map((row) => (JSON.parse(row.payload) as { to: string }).to)
}

describe(`saving settings (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('saves a tab, records settings.update with before and after, and this process sees it at once', async () => {
    const admin = await makeAdmin(t.db, { name: 'Owner' })
    await getSiteSettings(t.db) // cached
    await saveSiteSettings(t.db, {
      actor: { id: admin.id, name: admin.name, email: admin.email },
      ip: '203.0.113.9',
      tab: 'general',
      changes: { siteName: 'Deal Keys', sellerGstin: '29ABCDE1234F1Z5' },
    })
    expect(await getSiteSettings(t.db)).toMatchObject({
      siteName: 'Deal Keys',
      sellerGstin: '29ABCDE1234F1Z5',
    })
    const { entries } = await listAuditEntries(t.db, { targetType: 'settings' })
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({
      action: 'settings.update',
      actorId: admin.id,
      ip: '203.0.113.9',
      targetId: 'general',
      changes: {
        siteName: { before: 'KeyBazaar', after: 'Deal Keys' },
        sellerGstin: { before: '', after: '29ABCDE1234F1Z5' },
      },
    })
  })

  it('refuses an invalid value: nothing is saved and nothing is recorded', async () => {
    const admin = await makeAdmin(t.db)
    const before = await readSiteSettings(t.db)
    await expect(
      saveSiteSettings(t.db, {
        actor: { id: admin.id, name: admin.name, email: admin.email },
        ip: null,
        tab: 'general',
        changes: { siteName: 'Ok', sellerGstin: 'NOT-A-GSTIN' },
      }),
    ).rejects.toThrow()
    expect(await readSiteSettings(t.db)).toEqual(before)
    expect((await listAuditEntries(t.db, { targetType: 'settings' })).total).toBe(1)
  })
})

describe(`two admins saving one tab (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('saves one of two saves made at once from pages showing the same values', async () => {
    const admin = await makeAdmin(t.db)
    const actor = { id: admin.id, name: admin.name, email: admin.email }
    const audited = async () =>
      (await listAuditEntries(t.db, { targetType: 'settings' })).entries.filter(
        (entry) => entry.targetId === 'appearance',
      ).length
    const auditedBefore = await audited()
    // Several rounds, with the pool's connections opened beforehand, so the two saves overlap
    // on PostgreSQL rather than one finishing while the other waits for a connection.
    for (let round = 0; round < 5; round++) {
      await Promise.all([1, 2, 3, 4].map(() => sql`select 1`.execute(t.db)))
      await updateSiteSettings(t.db, { theme: 'auto' })
      const shown = settingsVersion(await readSiteSettings(t.db), 'appearance')
      const results = await Promise.all(
        (['light', 'dark'] as const).map((theme) =>
          saveSiteSettings(t.db, {
            actor,
            ip: null,
            tab: 'appearance',
            changes: { theme },
            version: shown,
          }),
        ),
      )
      expect(results.map((result) => result.ok).sort(), `round ${round}`).toEqual([false, true])
      const saved = results.flatMap((result) => (result.ok ? [result.settings.theme] : []))
      expect([(await readSiteSettings(t.db)).theme]).toEqual(saved)
    }
    expect(await audited()).toBe(auditedBefore + 5)
  })
})

describe(`e-mail settings from the form (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('answers an address the store would refuse on its field, and saves every one it takes', async () => {
    const { db, destroy } = await createTestDb()
    try {
      const admin = await makeAdmin(db)
      /** The Settings page's action: the form's values, saved when the form takes them. */
      const submit = async (fields: Record<string, string>) => {
        const parsed = settingsFormSchema.safeParse(fields)
        if (!parsed.success)
          return { saved: false, fields: parsed.error.issues.map((issue) => issue.path[0]) }
        const { tab, ...changes } = parsed.data
        await saveSiteSettings(db, {
          actor: { id: admin.id, name: admin.name, email: admin.email },
          ip: null,
          tab,
          changes,
        })
        return { saved: true, fields: [] }
      }
      const general = (contactEmail: string) =>
        submit({
          tab: 'general',
          siteName: 'KeyBazaar',
          invoicePrefix: 'INV',
          gstRate: '18',
          contactEmail,
        })
      const notifications = (alertRecipients: string) =>
        submit({ tab: 'notifications', alertRecipients, lowStockThreshold: '5' })

      for (const address of ['ops@shop.in.', 'owner@shop.c', 'a&b@shop.in', 'x@münchen.de']) {
        expect(await general(address)).toEqual({ saved: false, fields: ['contactEmail'] })
        expect(await notifications(`owner@shop.in, ${address}`)).toEqual({
          saved: false,
          fields: ['alertRecipients'],
        })
      }
      expect(await general('Support.Desk+in@mail.shop.co.in')).toEqual({ saved: true, fields: [] })
      expect(await notifications("o'brien@shop.in ops_team@shop-mail.in")).toEqual({
        saved: true,
        fields: [],
      })
      expect(await readSiteSettings(db)).toMatchObject({
        contactEmail: 'Support.Desk+in@mail.shop.co.in',
        alertRecipients: ["o'brien@shop.in", 'ops_team@shop-mail.in'],
      })
    } finally {
      await destroy()
    }
  })
})

describe(`settings applied (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('numbers new invoices with the prefix and dates them in the shop time zone; issued numbers keep theirs', async () => {
    const admin = await makeAdmin(t.db)
    const actor = { id: admin.id, name: admin.name, email: admin.email }
    const product = await makeProduct(t.db, { title: 'Invoice Test' })
    const first = await makePaidOrder(t.db, product.id)
    const firstNumber = (await getInvoiceData(t.db, first.id))!.invoiceNumber
    expect(firstNumber).toMatch(/^INV\//)
    await saveSiteSettings(t.db, {
      actor,
      ip: null,
      tab: 'general',
      changes: { invoicePrefix: 'KB' },
    })
    await saveSiteSettings(t.db, {
      actor,
      ip: null,
      tab: 'system',
      changes: { timezone: 'America/New_York' },
    })
    const second = await makePaidOrder(t.db, product.id)
    const data = (await getInvoiceData(t.db, second.id))!
    expect(data.invoiceNumber).toMatch(/^KB\/\d{2}-\d{2}\/\d{5}$/)
    expect(data.timezone).toBe('America/New_York')
    expect((await getInvoiceData(t.db, first.id))!.invoiceNumber).toBe(firstNumber)
    // The date printed is the shop's day: an invoice issued at 02:00 UTC is the day before in New York.
    const pdf = await renderInvoicePdf(
      { ...data, issuedAt: '2026-05-10T02:00:00Z', paidAt: '2026-05-10T02:00:00Z' },
      { compress: false },
    )
    const drawn = [...pdf.toString('latin1').matchAll(/<([0-9a-fA-F]*)>/g)]
      .map((m) => Buffer.from(m[1]!, 'hex').toString('latin1'))
      .join('')
    expect(drawn).toContain('9 May 2026')
    expect(drawn).not.toContain('10 May 2026')
  })

  it('sends shop alerts to the chosen recipients or active admins, and with shop alerts off only what is owed to buyers', async () => {
    const admin = await makeAdmin(t.db, { email: 'boss@example.test' })
    const actor = { id: admin.id, name: admin.name, email: admin.email }
    await t.db.deleteFrom('job').execute()
    await saveSiteSettings(t.db, {
      actor,
      ip: null,
      tab: 'notifications',
      changes: {
        alertRecipients: ['stock@example.test', 'ops@example.test'],
        enableNotifications: true,
      },
    })
    expect(await notifyShop(t.db, { subject: 'Low stock', paragraphs: ['x'] })).toBe(2)
    expect((await mailsTo()).sort()).toEqual(['ops@example.test', 'stock@example.test'])

    await saveSiteSettings(t.db, {
      actor,
      ip: null,
      tab: 'notifications',
      changes: { alertRecipients: [] },
    })
    await t.db.deleteFrom('job').execute()
    await notifyShop(t.db, { subject: 'Low stock', paragraphs: ['x'] })
    expect(await mailsTo()).toContain('boss@example.test')
    // A suspended admin hears nothing of the shop's orders and buyers.
    const suspended = await makeAdmin(t.db, { email: 'former@example.test' })
    await t.db
      .updateTable('user')
      .set({ status: 'suspended' })
      .where('id', '=', suspended.id)
      .execute()
    await t.db.deleteFrom('job').execute()
    await notifyShop(t.db, { subject: 'Low stock', paragraphs: ['x'] })
    expect(await mailsTo()).toContain('boss@example.test')
    expect(await mailsTo()).not.toContain('former@example.test')

    await saveSiteSettings(t.db, {
      actor,
      ip: null,
      tab: 'notifications',
      changes: { enableNotifications: false },
    })
    await t.db.deleteFrom('job').execute()
    expect(await notifyShop(t.db, { subject: 'Low stock', paragraphs: ['x'] })).toBe(0)
    expect(await mailsTo()).toEqual([])
    // What the shop owes a buyer (an order to deliver by hand, a refund to check) still goes.
    expect(
      await notifyShop(t.db, { subject: 'Deliver by hand', paragraphs: ['x'], owed: true }),
    ).toBeGreaterThan(0)
    expect(await mailsTo()).toContain('boss@example.test')
  })
})
