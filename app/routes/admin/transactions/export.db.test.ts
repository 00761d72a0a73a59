import { parse } from 'csv-parse/sync'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../../tests/helpers/db'
import { serveTestDb } from '../../../../tests/helpers/route-render'
import { makeAdmin, makeOrder, makeProduct } from '../../../../tests/factories'
import type { OrderStatus } from '~/data/order.server'
import { loader as exportLoader } from './export'
import { loader as listLoader } from './list'

/**
 * /admin/transactions and its CSV export as the server answers them: `real=1` in the URL (the
 * Orders page's "Real orders only") leaves simulated payments out of the figures, the list and
 * the file, and the file says which rows were simulated in a Test Mode column after the spec's
 * ten. Signing in is not what is tested here: the permission check answers with this file's
 * admin.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/permissions.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requirePermission: vi.fn(async () => signedIn.user),
}))

const t = fileTestDb()
serveTestDb(t)
const ids: Record<string, string> = {}

async function orderIn(key: string, at: string, status: OrderStatus, testMode: boolean) {
  const product = await makeProduct(t.db, { price: 25_000, title: `Plan ${key}` })
  const order = await makeOrder(t.db, product.id, {
    testMode,
    customer: { name: 'Ishaan Exportcheck', email: 'ishaan@example.in', phone: '9876543210' },
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
})

const args = (path: string) =>
  ({ request: new Request(`http://shop.test${path}`), context: {}, params: {} }) as never

async function csvAt(path: string): Promise<string[][]> {
  const response = (await exportLoader(args(path))) as Response
  return parse(await response.text(), { bom: true })
}

describe(`the transactions export and real payments only (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('appends a Test Mode column after the spec columns, and real=1 leaves simulated rows out', async () => {
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
    ])
    expect(all.slice(1).map((row) => [row[0], row[6], row[8], row[10]])).toEqual([
      [ids.simulated, 'Success', 'TXN-simulated', 'Yes'],
      [ids.liveFailed, 'Failed', 'TXN-liveFailed', 'No'],
      [ids.live, 'Success', 'TXN-live', 'No'],
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
})
