import { beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../../tests/helpers/db'
import { serveTestDb } from '../../../../tests/helpers/route-render'
import { makeAdmin, makePaidOrder, makeProduct } from '../../../../tests/factories'
import { issueCreditNote } from '~/data/credit-note.server'
import { issueInvoiceNumber } from '~/data/invoice.server'
import { readSiteSettings, updateSiteSettings } from '~/data/settings.server'
import { loader } from './gst-register'

/**
 * /admin/transactions/gst-register as the server answers it: a month that is not one (or has no
 * next month, such as 9999-12) is refused with 400 and the form's message, not a server error,
 * and each download is recorded in the audit log with its month and report (docs/audit.md).
 * Signing in is not what is tested here: the permission check answers with this file's admin.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/permissions.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requirePermission: vi.fn(async () => signedIn.user),
}))

const t = fileTestDb()
serveTestDb(t)

beforeAll(async () => {
  const admin = await makeAdmin(t.db, { name: 'Owner' })
  signedIn.user = { ...admin, permissions: { canManageOrders: true } }
  // One invoice in a month of its own.
  const product = await makeProduct(t.db, { title: 'Register Suite', price: 50_000 })
  const order = await makePaidOrder(t.db, product.id)
  const settings = await readSiteSettings(t.db)
  await issueInvoiceNumber(t.db, order.id, settings, new Date('2031-07-10T06:00:00Z'))
})

const args = (query: string) =>
  ({
    request: new Request(`http://shop.test/admin/transactions/gst-register${query}`),
    context: { clientIp: '203.0.113.9' },
    params: {},
  }) as never

/** What the loader threw (a `data()` answer) or returned. */
async function answer(query: string): Promise<{ status: number; body: unknown }> {
  try {
    const response = (await loader(args(query))) as Response
    return { status: response.status, body: await response.text() }
  } catch (thrown) {
    const refused = thrown as { init?: { status?: number }; data?: unknown }
    if (!refused.init) throw thrown
    return { status: refused.init.status ?? 500, body: refused.data }
  }
}

const registerEntries = () =>
  t.db
    .selectFrom('auditLog')
    .selectAll()
    .where('action', '=', 'export.gst-register')
    .orderBy('createdAt')
    .orderBy('id')
    .execute()

describe(`the GST register download (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('refuses a month that is not one with 400 and the form’s message, and records nothing', async () => {
    for (const month of ['9999-12', '0000-01', '2026-13', 'March']) {
      expect(await answer(`?month=${month}`)).toEqual({
        status: 400,
        body: 'Choose a month, such as 2026-11, for the GST register.',
      })
    }
    expect(await registerEntries()).toEqual([])
  })

  it('records each download in the audit log with its month, report and documents read', async () => {
    const register = await answer('?month=2031-07')
    expect(register.status).toBe(200)
    expect(String(register.body).split('\r\n')).toHaveLength(3) // heading, the invoice, end
    expect((await answer('?month=2031-07&report=b2cs')).status).toBe(200)
    const entries = await registerEntries()
    expect(entries).toHaveLength(2)
    expect(entries[0]).toMatchObject({
      actorId: (signedIn.user as { id: string }).id,
      actorName: 'Owner',
      ip: '203.0.113.9',
      targetType: 'export',
      summary: 'Exported the GST register for 2031-07 (register, 1 document)',
    })
    expect(JSON.parse(entries[0]!.changes!)).toEqual({
      month: { before: null, after: '2031-07' },
      report: { before: null, after: 'register' },
      documents: { before: null, after: 1 },
    })
    expect(JSON.parse(entries[1]!.changes!)).toMatchObject({
      report: { before: null, after: 'b2cs' },
    })
  })

  it('says in its last column that a credit note past its time limit reduces no tax', async () => {
    await updateSiteSettings(t.db, { sellerGstin: '29ABCDE1234F1Z5', gstRate: 18 })
    const settings = await readSiteSettings(t.db)
    // A taxed sale of August 2031 (financial year 2031-32) credited after 30 November 2032.
    const product = await makeProduct(t.db, { title: 'Register Late Credit', price: 50_000 })
    const order = await makePaidOrder(t.db, product.id)
    await issueInvoiceNumber(t.db, order.id, settings, new Date('2031-08-10T06:00:00Z'))
    const note = await t.db
      .transaction()
      .execute((trx) =>
        issueCreditNote(
          trx,
          { orderId: order.id, source: 'late-refund', amountPaise: 10_000, reason: '' },
          settings,
          new Date('2032-12-05T06:00:00Z'),
        ),
      )
    const csv = String((await answer('?month=2032-12')).body).split('\r\n')
    expect(csv[0]!.split(',').at(-1)).toBe('Reduces tax')
    const row = csv.find((line) => line.includes(note!.number!))!
    expect(row.endsWith(',No: past time limit (CGST s. 34(2))')).toBe(true)
    // The sale's invoice says nothing there.
    expect(
      String((await answer('?month=2031-08')).body)
        .split('\r\n')[1]!
        .endsWith(','),
    ).toBe(true)
  })

  it('says the same of a sale refunded before it was invoiced, by the year it was paid in', async () => {
    await updateSiteSettings(t.db, { sellerGstin: '29ABCDE1234F1Z5', gstRate: 18 })
    const settings = await readSiteSettings(t.db)
    // Paid in March 2033 (financial year 2032-33); its payment mail has not numbered its
    // invoice when it is refunded in December 2033, after 30 November 2033.
    const product = await makeProduct(t.db, { title: 'Register Uninvoiced', price: 50_000 })
    const order = await makePaidOrder(t.db, product.id)
    await t.db
      .updateTable('order')
      .set({ paidAt: '2033-03-10T06:00:00.000Z' })
      .where('id', '=', order.id)
      .execute()
    const note = await t.db
      .transaction()
      .execute((trx) =>
        issueCreditNote(
          trx,
          { orderId: order.id, source: 'uninvoiced-refund', amountPaise: 10_000, reason: '' },
          settings,
          new Date('2033-12-05T06:00:00Z'),
        ),
      )
    const csv = String((await answer('?month=2033-12')).body).split('\r\n')
    // Its invoice, numbered with the credit note in the paid year's series, then the note.
    expect(note!.invoiceNumber).toMatch(/^INV\/32-33\//)
    expect(csv.find((line) => line.includes(note!.invoiceNumber))!.endsWith(',')).toBe(true)
    const row = csv.find((line) => line.includes(note!.number!))!
    expect(row.endsWith(',No: past time limit (CGST s. 34(2))')).toBe(true)
  })
})
