import { parse } from 'csv-parse/sync'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../../tests/helpers/db'
import { renderPage, serveTestDb, tableRowText } from '../../../../tests/helpers/route-render'
import { makeAdmin, makeOrder, makeProduct, makeRefund } from '../../../../tests/factories'
import type { OrderStatus } from '~/data/order.server'
import type { OrderRefundStatus } from '~/data/refund.server'
import { loader as exportLoader } from './export'
import AdminTransactions, { loader as listLoader } from './list'

/**
 * /admin/transactions and its CSV export as the server answers them: `real=1` in the URL (the
 * Orders page's "Real orders only") leaves simulated payments out of the figures, the list and
 * the file, and the file says which rows were simulated in a Test Mode column after the spec's
 * ten, then what refunds gave back; the list marks a part refund and a pending one as the
 * Orders list does (docs/payments.md, "Refunds"), and each export is recorded in the audit log
 * (docs/audit.md). Signing in is not what is tested here: the permission check answers with
 * this file's admin.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/permissions.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requirePermission: vi.fn(async () => signedIn.user),
}))

const t = fileTestDb()
serveTestDb(t)
const ids: Record<string, string> = {}

async function orderIn(
  key: string,
  at: string,
  status: OrderStatus,
  testMode: boolean,
  name = 'Ishaan Exportcheck',
) {
  const product = await makeProduct(t.db, { price: 25_000, title: `Plan ${key}` })
  const order = await makeOrder(t.db, product.id, {
    testMode,
    customer: { name, email: 'ishaan@example.in', phone: '9876543210' },
  })
  await t.db
    .updateTable('order')
    .set({ createdAt: at, status, gatewayTxnId: status === 'pending' ? null : `TXN-${key}` })
    .where('id', '=', order.id)
    .execute()
  ids[key] = order.id
}

beforeAll(async () => {
  const admin = await makeAdmin(t.db, { name: 'Owner' })
  signedIn.user = { ...admin, permissions: { canManageOrders: true } }
  await orderIn('live', '2026-05-01T10:00:00.000Z', 'delivered', false)
  await orderIn('liveFailed', '2026-05-02T10:00:00.000Z', 'failed', false)
  await orderIn('simulated', '2026-05-03T10:00:00.000Z', 'delivered', true)
  // Their own buyer, so the searches above leave them out.
  await orderIn('part', '2026-05-04T10:00:00.000Z', 'delivered', false, 'Meera Refundview')
  await orderIn('asked', '2026-05-05T10:00:00.000Z', 'delivered', false, 'Meera Refundview')
  await orderIn('failedRefund', '2026-05-06T09:00:00.000Z', 'delivered', false, 'Meera Refundview')
  await refund(ids.part!, 7_550, 'processed')
  await refund(ids.asked!, 25_000, 'pending')
  await refund(ids.failedRefund!, 25_000, 'failed')
})

let clock = Date.parse('2026-05-06T10:00:00.000Z')
async function refund(orderId: string, amount: number, status: OrderRefundStatus) {
  const at = new Date((clock += 60_000)).toISOString()
  await makeRefund(t.db, orderId, { amount, status, at })
}

const args = (path: string) =>
  ({
    request: new Request(`http://shop.test${path}`),
    context: { clientIp: '203.0.113.9' },
    params: {},
  }) as never

async function pageAt(path: string) {
  const { html } = await renderPage(
    {
      id: 'routes/admin/transactions/list',
      path: '/admin/transactions',
      Component: AdminTransactions,
      loader: listLoader,
    },
    new Request(`http://shop.test${path}`),
  )
  return html
}

const exportEntries = (action: string) =>
  t.db
    .selectFrom('auditLog')
    .selectAll()
    .where('action', '=', action)
    .orderBy('createdAt')
    .orderBy('id')
    .execute()

async function csvAt(path: string): Promise<string[][]> {
  const response = (await exportLoader(args(path))) as Response
  return parse(await response.text(), { bom: true })
}

describe(`the transactions export and real payments only (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('appends Test Mode and Refunded columns after the spec columns, and real=1 leaves simulated rows out', async () => {
    const all = await csvAt('/admin/transactions/export?q=exportcheck')
    expect(all[0]).toEqual([
      'Order ID',
      'Customer Name',
      'Email',
      'Phone',
      'Product',
      'Amount',
      'Status',
      'Gateway',
      'Transaction ID',
      'Date',
      'Test Mode',
      'Refunded',
    ])
    expect(all.slice(1).map((row) => [row[0], row[6], row[8], row[10], row[11]])).toEqual([
      [ids.simulated, 'Success', 'TXN-simulated', 'Yes', '0.00'],
      [ids.liveFailed, 'Failed', 'TXN-liveFailed', 'No', '0.00'],
      [ids.live, 'Success', 'TXN-live', 'No', '0.00'],
    ])
    const real = await csvAt('/admin/transactions/export?q=exportcheck&real=1')
    expect(real[0]).toEqual(all[0])
    expect(real.slice(1).map((row) => row[0])).toEqual([ids.liveFailed, ids.live])
  })

  it('takes real=1 from the URL for the figures, status counts and list, and keeps it in its links', async () => {
    const all = await listLoader(args('/admin/transactions?q=exportcheck'))
    expect(all.filter.realOnly).toBe(false)
    expect(all.summary).toEqual({ total: 3, successful: 2, successRate: 66.7 })
    const real = await listLoader(args('/admin/transactions?q=exportcheck&real=1'))
    expect(real.filter.realOnly).toBe(true)
    expect(real.summary).toEqual({ total: 2, successful: 1, successRate: 50 })
    expect(real.counts).toEqual({ success: 1, pending: 0, failed: 1, refunded: 0 })
    expect(real.transactions.map((row) => row.orderId)).toEqual([ids.liveFailed, ids.live])
  })

  it('marks a part refund (how much), a pending refund and a refund problem beside the status, and exports what was refunded', async () => {
    const list = await listLoader(args('/admin/transactions?q=refundview'))
    expect(
      list.transactions.map((row) => [
        row.orderId,
        row.status,
        row.amount,
        row.partRefunded,
        row.refundPending,
        row.refundProblem,
      ]),
    ).toEqual([
      [ids.failedRefund, 'success', '₹250', null, false, true],
      [ids.asked, 'success', '₹250', null, true, false],
      [ids.part, 'success', '₹250', '₹75.50', false, false],
    ])
    const html = await pageAt('/admin/transactions?q=refundview')
    expect(tableRowText(html, ids.part!)).toContain('Success Part refunded ₹75.50')
    expect(tableRowText(html, ids.asked!)).toContain('Success Refund pending')
    expect(tableRowText(html, ids.asked!)).not.toContain('Part refunded')
    expect(tableRowText(html, ids.failedRefund!)).toContain('Success Refund problem')
    expect(tableRowText(html, ids.part!)).not.toContain('Refund problem')
    const csv = await csvAt('/admin/transactions/export?q=refundview')
    expect(csv[0]?.at(-1)).toBe('Refunded')
    expect(csv.slice(1).map((row) => [row[0], row[5], row[6], row[11]])).toEqual([
      [ids.failedRefund, '250.00', 'Success', '0.00'],
      [ids.asked, '250.00', 'Success', '0.00'],
      [ids.part, '250.00', 'Success', '75.50'],
    ])
  })

  it('lays the figures out two a row on phones, three from large screens', async () => {
    const html = await pageAt('/admin/transactions?q=exportcheck')
    const figures = /<ul aria-label="Filtered transactions" class="([^"]*)"/.exec(html)?.[1]
    expect(figures?.split(' ')).toEqual(expect.arrayContaining(['grid-cols-2', 'lg:grid-cols-3']))
    expect(figures?.split(' ')).not.toContain('grid-cols-3')
  })

  it('records each export in the audit log: who, from where, and the filters used', async () => {
    const before = (await exportEntries('export.transactions')).length
    await csvAt('/admin/transactions/export?q=exportcheck&status=success&real=1&from=2026-05-01')
    const entries = await exportEntries('export.transactions')
    expect(entries).toHaveLength(before + 1)
    const entry = entries.at(-1)!
    expect(entry).toMatchObject({
      actorId: (signedIn.user as { id: string }).id,
      actorName: 'Owner',
      ip: '203.0.113.9',
      targetType: 'export',
      summary:
        'Exported the transactions CSV (search exportcheck, status Success, from 2026-05-01, realOnly)',
    })
    expect(JSON.parse(entry.changes!)).toEqual({
      search: { before: null, after: 'exportcheck' },
      status: { before: null, after: 'Success' },
      from: { before: null, after: '2026-05-01' },
      realOnly: { before: null, after: true },
    })
    // No filter: the whole set, said so.
    await csvAt('/admin/transactions/export')
    expect((await exportEntries('export.transactions')).at(-1)).toMatchObject({
      summary: 'Exported the transactions CSV (every transaction)',
      changes: null,
    })
  })
})
