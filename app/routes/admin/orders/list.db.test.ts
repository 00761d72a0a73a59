import { parse } from 'csv-parse/sync'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../../tests/helpers/db'
import {
  pageText,
  renderPage,
  serveTestDb,
  tableRowText,
} from '../../../../tests/helpers/route-render'
import { makeAdmin, makePaidOrder, makeProduct, makeRefund } from '../../../../tests/factories'
import type { OrderRefundStatus } from '~/data/refund.server'
import { loader as exportLoader } from './export'
import AdminOrders, { loader as listLoader } from './list'

/**
 * /admin/orders and its CSV export as the server answers them, for orders with refunds
 * (docs/payments.md, "Refunds"): the list marks a part refund, a refund pending and a refund
 * problem next to the status, filters by refund problems from the URL (`refunds=problem`, kept
 * with the search in the chips, paging and export links), and the file ends with a Refunded
 * column after the fixed ones. Signing in is not what is tested here: the permission check
 * answers with this file's admin.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/permissions.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requirePermission: vi.fn(async () => signedIn.user),
}))

const t = fileTestDb()
serveTestDb(t, {
  env: { PUBLIC_URL: 'https://shop.example.in', APP_SECRET: 'x'.repeat(32), ADMIN_EMAILS: [] },
})
const ids: Record<string, string> = {}
let clock = Date.parse('2026-05-01T10:00:00.000Z')

async function refund(orderId: string, amount: number, status: OrderRefundStatus, stopped = false) {
  const at = new Date((clock += 60_000)).toISOString()
  await makeRefund(t.db, orderId, { amount, status, at, stopped })
}

beforeAll(async () => {
  const admin = await makeAdmin(t.db, { name: 'Owner' })
  signedIn.user = { ...admin, permissions: { canManageOrders: true } }
  const product = await makeProduct(t.db, { price: 50_000, title: 'Refundcheck Suite' })
  for (const key of ['plain', 'part', 'pending', 'failed', 'stopped']) {
    const order = await makePaidOrder(t.db, product.id)
    await t.db
      .updateTable('order')
      .set({ createdAt: new Date((clock += 60_000)).toISOString() })
      .where('id', '=', order.id)
      .execute()
    ids[key] = order.id
  }
  await refund(ids.part!, 12_550, 'processed')
  await refund(ids.pending!, 10_000, 'pending')
  await refund(ids.failed!, 10_000, 'failed')
  await refund(ids.stopped!, 10_000, 'requested', true)
})

const args = (path: string) =>
  ({ request: new Request(`http://shop.test${path}`), context: {}, params: {} }) as never

async function csvAt(path: string): Promise<string[][]> {
  const response = (await exportLoader(args(path))) as Response
  return parse(await response.text(), { bom: true })
}

async function pageAt(path: string) {
  const { html } = await renderPage(
    {
      id: 'routes/admin/orders/list',
      path: '/admin/orders',
      Component: AdminOrders,
      loader: listLoader,
    },
    new Request(`http://shop.test${path}`),
  )
  return html
}

describe(`the orders list and export with refunds (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('marks part refunded, refund pending and refund problem next to the status', async () => {
    const list = await listLoader(args('/admin/orders?q=refundcheck'))
    const marks = Object.fromEntries(
      list.orders.map((order) => [
        order.id,
        [order.amount, order.partRefunded, order.refundPending, order.refundProblem],
      ]),
    )
    expect(marks).toEqual({
      [ids.plain!]: ['₹500', null, false, false],
      [ids.part!]: ['₹500', '₹125.50', false, false],
      [ids.pending!]: ['₹500', null, true, false],
      [ids.failed!]: ['₹500', null, false, true],
      [ids.stopped!]: ['₹500', null, false, true],
    })
    const html = await pageAt('/admin/orders?q=refundcheck')
    expect(tableRowText(html, ids.part!)).toContain('Part refunded ₹125.50')
    expect(tableRowText(html, ids.pending!)).toContain('Refund pending')
    expect(tableRowText(html, ids.failed!)).toContain('Refund problem')
    expect(tableRowText(html, ids.plain!)).not.toMatch(
      /Part refunded|Refund pending|Refund problem/,
    )
  })

  it('filters by refund problems from the URL, kept with the search in the chip, export and checkbox', async () => {
    const list = await listLoader(args('/admin/orders?q=refundcheck&refunds=problem'))
    expect(list.filter).toMatchObject({ search: 'refundcheck', refundProblems: true })
    expect(list.orders.map((order) => order.id)).toEqual([ids.stopped, ids.failed])
    expect(list.counts.refundProblems).toBeGreaterThanOrEqual(2)
    const html = await pageAt('/admin/orders?q=refundcheck&refunds=problem')
    const text = pageText(html)
    expect(text).toContain(`Refund problems ${list.counts.refundProblems}`)
    expect(html).toContain('href="/admin/orders?q=refundcheck&amp;refunds=problem"')
    expect(html).toContain('href="/admin/orders/export?q=refundcheck&amp;refunds=problem"')
    expect(/<input[^>]*name="refunds"[^>]*>/.exec(html)?.[0]).toMatch(
      /checked=""[^>]*value="problem"/,
    )
    const csv = await csvAt('/admin/orders/export?q=refundcheck&refunds=problem')
    expect(csv.slice(1).map((row) => row[0])).toEqual([ids.stopped, ids.failed])
  })

  it('ends the export with a Refunded column in rupees, after the fixed columns', async () => {
    const csv = await csvAt('/admin/orders/export?q=refundcheck')
    expect(csv[0]).toEqual([
      'Order ID',
      'Date',
      'Customer Name',
      'Email',
      'Phone',
      'Product',
      'Amount',
      'Status',
      'Gateway',
      'Transaction ID',
      'Test Mode',
      'Open Report',
      'Refunded',
    ])
    const refunded = Object.fromEntries(csv.slice(1).map((row) => [row[0], [row[6], row[12]]]))
    expect(refunded).toEqual({
      [ids.plain!]: ['500.00', '0.00'],
      [ids.part!]: ['500.00', '125.50'],
      [ids.pending!]: ['500.00', '0.00'],
      [ids.failed!]: ['500.00', '0.00'],
      [ids.stopped!]: ['500.00', '0.00'],
    })
  })
  it('records each export in the audit log with who took it, from where and the filters set', async () => {
    const entries = () =>
      t.db
        .selectFrom('auditLog')
        .selectAll()
        .where('action', '=', 'export.orders')
        .orderBy('id')
        .execute()
    const before = (await entries()).length
    await exportLoader({
      request: new Request(
        'http://shop.test/admin/orders/export?q=refundcheck&status=delivered&refunds=problem',
      ),
      context: { clientIp: '203.0.113.7' },
      params: {},
    } as never)
    await csvAt('/admin/orders/export')
    const [filtered, whole] = (await entries()).slice(before)
    expect(filtered).toMatchObject({
      actorName: 'Owner',
      ip: '203.0.113.7',
      targetType: 'export',
      summary: 'Exported the orders CSV (search refundcheck, status Delivered, refundProblems)',
    })
    expect(JSON.parse(filtered!.changes!)).toEqual({
      search: { before: null, after: 'refundcheck' },
      status: { before: null, after: 'Delivered' },
      refundProblems: { before: null, after: true },
    })
    expect(whole).toMatchObject({ summary: 'Exported the orders CSV (every order)', changes: null })
  })
})
