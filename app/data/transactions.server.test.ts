import { beforeAll, describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { makeOrder, makeProduct, makeRefund } from '../../tests/factories'
import type { OrderStatus } from './order.server'
import type { OrderRefundStatus } from './refund.server'
import {
  exportTransactions,
  listTransactions,
  transactionGateways,
  transactionStatusCounts,
  transactionSummary,
  type TransactionRow,
} from './transactions.server'
import { localDayRange } from '~/lib/shop-time'

/**
 * Transactions: one row per order, status mapping, filters, search, paging, success rate and
 * refunds (both engines).
 */
const t = fileTestDb()
const ids: Record<string, string> = {}

async function orderAt(
  key: string,
  at: string,
  status: OrderStatus,
  extra: {
    gateway?: string
    txn?: string
    gatewayOrder?: string
    bank?: string
    name?: string
    email?: string
    testMode?: boolean
  } = {},
) {
  const product = await makeProduct(t.db, { price: 10_000 })
  const order = await makeOrder(t.db, product.id, {
    testMode: extra.testMode ?? false,
    customer: {
      name: extra.name ?? 'Asha Verma',
      email: extra.email ?? 'asha@example.in',
      phone: '9876543210',
    },
  })
  await t.db
    .updateTable('order')
    .set({
      createdAt: at,
      status,
      gateway: extra.gateway ?? 'paytm',
      gatewayTxnId: extra.txn ?? null,
      gatewayOrderId: extra.gatewayOrder ?? null,
      bankTxnId: extra.bank ?? null,
    })
    .where('id', '=', order.id)
    .execute()
  ids[key] = order.id
}

beforeAll(async () => {
  await orderAt('paid', '2026-03-01T10:00:00.000Z', 'paid', { txn: 'TXN-PAID-1', bank: 'BANK1' })
  await orderAt('delivered', '2026-03-02T10:00:00.000Z', 'delivered', { txn: 'TXN-DEL-2' })
  await orderAt('waiting', '2026-03-03T10:00:00.000Z', 'awaiting_stock', { txn: 'TXN-W-3' })
  await orderAt('pending', '2026-03-04T10:00:00.000Z', 'pending')
  await orderAt('failed', '2026-03-05T10:00:00.000Z', 'failed', { name: 'Rohan Iyer' })
  await orderAt('expired', '2026-03-05T18:29:59.000Z', 'expired', { email: 'late@example.in' })
  await orderAt('refunded', '2026-03-05T18:30:00.000Z', 'refunded', {
    gateway: 'razorpay',
    txn: 'pay_ABC',
    gatewayOrder: 'order_Rz9XyQ',
    bank: '412345678901',
  })
})

describe('listTransactions', () => {
  it('lists every order as one attempt, newest first, with the payment status', async () => {
    const page = await listTransactions(t.db, {})
    expect(page.items.map((row) => [row.orderId, row.status])).toEqual([
      [ids.refunded, 'refunded'],
      [ids.expired, 'failed'],
      [ids.failed, 'failed'],
      [ids.pending, 'pending'],
      [ids.waiting, 'success'],
      [ids.delivered, 'success'],
      [ids.paid, 'success'],
    ])
    expect(page.items.at(-1)).toMatchObject({
      gatewayTxnId: 'TXN-PAID-1',
      bankTxnId: 'BANK1',
      amount: 10_000,
      gateway: 'paytm',
    })
    // 3 of 7 succeeded: 42.857... -> 42.9
    expect(page.summary).toEqual({ total: 7, successful: 3, successRate: 42.9 })
  })

  it('filters by status, gateway and search, with the success rate of the filtered set', async () => {
    const failed = await listTransactions(t.db, { status: 'failed' })
    expect(failed.items.map((row) => row.orderId).sort()).toEqual([ids.expired, ids.failed].sort())
    expect(failed.summary.successRate).toBe(0)
    const razorpay = await listTransactions(t.db, { gateway: 'razorpay' })
    expect(razorpay.items.map((row) => row.orderId)).toEqual([ids.refunded])
    expect((await listTransactions(t.db, { search: 'txn-del' })).items[0]?.orderId).toBe(
      ids.delivered,
    )
    expect((await listTransactions(t.db, { search: 'ROHAN' })).items[0]?.orderId).toBe(ids.failed)
    // The ids a gateway's dashboard or the buyer's bank shows: Razorpay's order id, the UTR.
    const found = async (search: string) =>
      (await listTransactions(t.db, { search })).items.map((row) => row.orderId)
    expect(await found('order_rz9xyq')).toEqual([ids.refunded])
    expect(await found('412345678901')).toEqual([ids.refunded])
    expect(await found('BANK1')).toEqual([ids.paid])
    expect((await listTransactions(t.db, { search: 'late@' })).items[0]?.orderId).toBe(ids.expired)
    // Part of an order id: the start all seven share (ORD_ and the leading digits of the time
    // they were made, fewer when their making crossed a boundary), and a whole one.
    const shared = Object.values(ids).reduce((prefix, id) => {
      let length = 0
      while (length < prefix.length && prefix[length] === id[length]) length++
      return prefix.slice(0, length)
    }, ids.paid!)
    expect(shared.startsWith('ORD_')).toBe(true)
    expect((await listTransactions(t.db, { search: shared })).summary.total).toBe(7)
    expect(
      (await listTransactions(t.db, { search: ids.paid! })).items.map((r) => r.orderId),
    ).toEqual([ids.paid])
    expect((await listTransactions(t.db, { search: '100%' })).summary).toEqual({
      total: 0,
      successful: 0,
      successRate: null,
    })
    expect(await transactionStatusCounts(t.db, { status: 'failed', gateway: 'paytm' })).toEqual({
      success: 3,
      pending: 1,
      failed: 2,
      refunded: 0,
    })
    const success = await transactionSummary(t.db, { status: 'success' })
    expect(success).toEqual({ total: 3, successful: 3, successRate: 100 })
  })

  it('filters by local dates in the shop time zone, both days included', async () => {
    // 5 March in India: 4 March 18:30Z to 5 March 18:30Z.
    const filter = localDayRange('2026-03-05', '2026-03-05', 'Asia/Kolkata')
    expect(filter.from).toBe('2026-03-04T18:30:00.000Z')
    expect(filter.to).toBe('2026-03-05T18:30:00.000Z')
    const india = await listTransactions(t.db, filter)
    expect(india.items.map((row) => row.orderId)).toEqual([ids.expired, ids.failed])
    const london = await listTransactions(
      t.db,
      localDayRange('2026-03-05', '2026-03-05', 'Europe/London'),
    )
    expect(localDayRange('2026-02-30', '', 'Asia/Kolkata')).toEqual({ from: null, to: null })
    expect(london.items.map((row) => row.orderId)).toEqual([ids.refunded, ids.expired, ids.failed])
  })

  it('pages 20 at a time and keeps the page within range', async () => {
    const first = await listTransactions(t.db, { pageSize: 3, page: 1 })
    const last = await listTransactions(t.db, { pageSize: 3, page: 99 })
    expect(first.pageCount).toBe(3)
    expect(last.page).toBe(3)
    expect(last.items.map((row) => row.orderId)).toEqual([ids.paid])
  })

  it('names the gateways for the filter and streams the export with the same filter', async () => {
    expect(await transactionGateways(t.db)).toEqual(['paytm', 'razorpay'])
    const rows = []
    for await (const row of exportTransactions(t.db, { status: 'success' }, 2)) rows.push(row)
    expect(rows.map((row) => row.orderId)).toEqual([ids.waiting, ids.delivered, ids.paid])
  })
})

describe('real payments only', () => {
  it('leaves simulated (test-mode) payments out of the figures, status counts, list and export', async () => {
    // Their own customer, so the search keeps them apart from the orders above.
    const zoya = { name: 'Zoya Realcheck' }
    await orderAt('livePaid', '2026-04-01T10:00:00.000Z', 'paid', { ...zoya, txn: 'TXN-LIVE' })
    await orderAt('liveFailed', '2026-04-02T10:00:00.000Z', 'failed', zoya)
    await orderAt('liveExpired', '2026-04-03T10:00:00.000Z', 'expired', zoya)
    await orderAt('testPaid', '2026-04-04T10:00:00.000Z', 'delivered', { ...zoya, testMode: true })
    await orderAt('testWaiting', '2026-04-05T10:00:00.000Z', 'awaiting_stock', {
      ...zoya,
      testMode: true,
    })
    const search = 'realcheck'

    // Every attempt by default, as on the Orders page: 3 of 5 succeeded.
    const all = await listTransactions(t.db, { search })
    expect(all.summary).toEqual({ total: 5, successful: 3, successRate: 60 })
    expect(all.items.map((row) => [row.orderId, row.testMode])).toEqual([
      [ids.testWaiting, true],
      [ids.testPaid, true],
      [ids.liveExpired, false],
      [ids.liveFailed, false],
      [ids.livePaid, false],
    ])

    // Real payments only: 1 of 3.
    const real = await listTransactions(t.db, { search, realOnly: true })
    expect(real.summary).toEqual({ total: 3, successful: 1, successRate: 33.3 })
    expect(real.items.map((row) => row.orderId)).toEqual([
      ids.liveExpired,
      ids.liveFailed,
      ids.livePaid,
    ])
    expect(await transactionSummary(t.db, { search, realOnly: true, status: 'success' })).toEqual({
      total: 1,
      successful: 1,
      successRate: 100,
    })
    expect(await transactionStatusCounts(t.db, { search, realOnly: true })).toEqual({
      success: 1,
      pending: 0,
      failed: 2,
      refunded: 0,
    })
    expect(await transactionStatusCounts(t.db, { search })).toMatchObject({ success: 3 })
    const exported = []
    for await (const row of exportTransactions(t.db, { search, realOnly: true }, 2))
      exported.push(row.orderId)
    expect(exported).toEqual([ids.liveExpired, ids.liveFailed, ids.livePaid])
  })
})

describe('refunds', () => {
  it('carries what processed refunds gave back, a part refund, a pending refund and a refund problem, in the list and the export', async () => {
    const nia = { name: 'Nia Refundmark' }
    await orderAt('part', '2026-06-01T10:00:00.000Z', 'delivered', { ...nia, txn: 'TXN-PART' })
    await orderAt('asked', '2026-06-02T10:00:00.000Z', 'paid', nia)
    await orderAt('whole', '2026-06-03T10:00:00.000Z', 'refunded', nia)
    await orderAt('stopped', '2026-06-04T10:00:00.000Z', 'paid', nia)
    let clock = Date.parse('2026-06-05T10:00:00.000Z')
    const refund = async (
      orderId: string,
      amount: number,
      status: OrderRefundStatus,
      stopped = false,
    ) => {
      const at = new Date((clock += 60_000)).toISOString()
      await makeRefund(t.db, orderId, { amount, status, at, stopped })
    }
    // Two processed refunds of the ₹100 sale add up; a failed one gives nothing back.
    await refund(ids.part!, 2_500, 'processed')
    await refund(ids.part!, 1_000, 'failed')
    await refund(ids.part!, 1_550, 'processed')
    await refund(ids.asked!, 5_000, 'requested')
    await refund(ids.whole!, 10_000, 'processed')
    // One KeyBazaar stopped asking the gateway about is a refund problem, as on the Orders list.
    await refund(ids.stopped!, 5_000, 'pending', true)

    const marks = (rows: TransactionRow[]) =>
      Object.fromEntries(
        rows.map((row) => [
          row.orderId,
          [row.status, row.refunded, row.partRefunded, row.refundPending, row.refundProblem],
        ]),
      )
    const expected = {
      [ids.stopped!]: ['success', 0, false, false, true],
      [ids.whole!]: ['refunded', 10_000, false, false, false],
      [ids.asked!]: ['success', 0, false, true, false],
      // Its failed refund was followed by another: nothing left to see to.
      [ids.part!]: ['success', 4_050, true, false, false],
    }
    const page = await listTransactions(t.db, { search: 'refundmark' })
    expect(marks(page.items)).toEqual(expected)
    const exported: TransactionRow[] = []
    for await (const row of exportTransactions(t.db, { search: 'refundmark' }, 2))
      exported.push(row)
    expect(marks(exported)).toEqual(expected)
  })
})
