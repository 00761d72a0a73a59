import { beforeEach, describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { makeCustomer, makeOrder, makeProduct, makeStockedProduct } from '../../tests/factories'
import { enqueueJob, runDueJobs, type Job } from '~/lib/jobs.server'
import { enqueueMailJob, MAIL_JOB, MAIL_MAX_ATTEMPTS } from '~/lib/mail.server'
import type { MailJobType } from '~/lib/mail-jobs'
import { dashboardRange, getDashboard, successRate, type DashboardPeriod } from './dashboard.server'
import { insertOrderReport } from './order-report.server'
import type { OrderStatus } from './order.server'
import { updateSiteSettings } from './settings.server'
import { setProductDelivery } from './stock.server'
import { importStock } from '~/services/fulfilment.server'
import type { StockKinds } from '~/lib/stock-status'

/** The dashboard's figures against orders made in the database (SQLite and PostgreSQL). */
const APP_SECRET = 'd'.repeat(64)
const t = fileTestDb()

/**
 * The dashboard for `period` in India's time zone, stock alerts at 3 items unless told otherwise,
 * in a live shop (real items sell) unless told otherwise.
 */
function dashboardFor(
  period: DashboardPeriod,
  options: {
    timeZone?: string
    lowStockThreshold?: number
    now?: Date
    stockKinds?: StockKinds
  } = {},
) {
  return getDashboard(t.db, {
    period,
    timeZone: 'Asia/Kolkata',
    lowStockThreshold: 3,
    stockKinds: 'real',
    ...options,
  })
}

/** Adds test items (sold only in test mode) to a product. */
async function addTestItems(productId: string, items: string[]) {
  await importStock(t.db, {
    productId,
    content: items.join('\n'),
    format: 'lines',
    appSecret: APP_SECRET,
    testItems: true,
  })
}

/** Removes every order so each test counts only its own. */
async function clearOrders() {
  await t.db.deleteFrom('orderRefund').execute()
  await t.db.deleteFrom('orderReport').execute()
  await t.db.deleteFrom('orderEvent').execute()
  await t.db.updateTable('stockItem').set({ orderId: null }).execute()
  await t.db.deleteFrom('order').execute()
}

/** An order of the product placed at `at` (UTC ISO) in the given status. */
async function orderAt(
  productId: string,
  at: string,
  status: OrderStatus,
  options: { testMode?: boolean } = {},
) {
  const order = await makeOrder(t.db, productId, { testMode: options.testMode ?? false })
  await t.db
    .updateTable('order')
    .set({ createdAt: at, status })
    .where('id', '=', order.id)
    .execute()
  return order
}

/**
 * A refund of the order in this state, as the refund job leaves it (docs/payments.md,
 * "Refunds"), asked for at `at` (after the orders of the tests below were placed).
 */
async function refundOf(
  orderId: string,
  amount: number,
  status: 'requested' | 'pending' | 'processed' | 'failed',
  at = '2026-03-10T05:30:00.000Z',
) {
  await t.db
    .insertInto('orderRefund')
    .values({
      id: `RFD_${orderId}_${status}_${amount}`,
      orderId,
      gateway: 'paytm',
      amount,
      reason: 'Partly unused',
      status,
      requestedBy: 'admin@example.test',
      createdAt: at,
      updatedAt: at,
      processedAt: status === 'processed' ? at : null,
    })
    .execute()
}

describe('dashboardRange', () => {
  it('puts today and the last 7 days on local midnights (Asia/Kolkata, UTC+5:30)', () => {
    // 01:30 on 11 March in India is still 10 March in UTC.
    const now = new Date('2026-03-10T20:00:00Z')
    const today = dashboardRange('today', 'Asia/Kolkata', now)
    expect(today.start).toBe('2026-03-10T18:30:00.000Z')
    expect(today.end).toBe('2026-03-11T18:30:00.000Z')
    expect(today.previousStart).toBe('2026-03-09T18:30:00.000Z')
    expect(today.buckets).toHaveLength(24)
    const week = dashboardRange('7d', 'Asia/Kolkata', now)
    expect(week.start).toBe('2026-03-04T18:30:00.000Z')
    expect(week.previousStart).toBe('2026-02-25T18:30:00.000Z')
    expect(week.buckets).toHaveLength(7)
    expect(week.buckets[6]).toBe('2026-03-10T18:30:00.000Z')
  })

  it('follows daylight saving: New York days are 23 hours long on 8 March 2026', () => {
    const now = new Date('2026-03-10T12:00:00Z')
    const week = dashboardRange('7d', 'America/New_York', now)
    // 4 March is EST (UTC-5), 9 March is EDT (UTC-4).
    expect(week.buckets[0]).toBe('2026-03-04T05:00:00.000Z')
    expect(week.buckets[4]).toBe('2026-03-08T05:00:00.000Z')
    expect(week.buckets[5]).toBe('2026-03-09T04:00:00.000Z')
    expect(week.end).toBe('2026-03-11T04:00:00.000Z')
    const dstDay = dashboardRange('today', 'America/New_York', new Date('2026-03-08T18:00:00Z'))
    expect(dstDay.buckets).toHaveLength(23)
  })
})

describe('getDashboard', () => {
  beforeEach(clearOrders)

  it('sums live orders of the period per day in the shop time zone, and the previous period', async () => {
    const now = new Date('2026-03-10T06:00:00Z') // 11:30 on 10 March in India
    const a = await makeProduct(t.db, { price: 100_000, title: 'Alpha Plan' })
    const b = await makeProduct(t.db, { price: 30_000, title: 'Beta Plan' })
    // Current 7 days in India: 4 March 00:00 IST (3 March 18:30Z) to 11 March 00:00 IST.
    await orderAt(a.id, '2026-03-03T18:30:00.000Z', 'delivered') // 4 March 00:00 IST: day 0
    await orderAt(a.id, '2026-03-10T05:00:00.000Z', 'paid') // 10 March: day 6
    await orderAt(b.id, '2026-03-09T18:29:59.999Z', 'awaiting_stock') // 9 March 23:59 IST: day 5
    await orderAt(b.id, '2026-03-09T18:30:00.000Z', 'paid') // 10 March 00:00 IST: day 6
    await orderAt(b.id, '2026-03-08T10:00:00.000Z', 'failed')
    await orderAt(b.id, '2026-03-08T11:00:00.000Z', 'pending')
    await orderAt(a.id, '2026-03-08T12:00:00.000Z', 'refunded')
    // Test mode: neither revenue nor attempts.
    await orderAt(a.id, '2026-03-08T13:00:00.000Z', 'delivered', { testMode: true })
    // Previous 7 days in India: 25 February 00:00 IST (24 February 18:30Z) to 4 March.
    await orderAt(a.id, '2026-03-03T18:29:59.999Z', 'paid')
    await orderAt(b.id, '2026-02-26T00:00:00.000Z', 'failed')
    // Before both periods.
    await orderAt(a.id, '2026-02-24T18:29:00.000Z', 'paid')

    const dashboard = await dashboardFor('7d', { now })

    expect(dashboard.current).toMatchObject({
      revenue: 100_000 + 100_000 + 30_000 + 30_000,
      paidOrders: 4,
      attempts: 7,
      averageOrder: 65_000,
      successRate: 57.1,
    })
    expect(dashboard.previous).toMatchObject({
      revenue: 100_000,
      paidOrders: 1,
      attempts: 2,
      averageOrder: 100_000,
      successRate: 50,
    })
    expect(dashboard.series.map((point) => point.revenue)).toEqual([
      100_000, 0, 0, 0, 0, 30_000, 130_000,
    ])
    expect(dashboard.series.map((point) => point.orders)).toEqual([1, 0, 0, 0, 0, 1, 2])
    expect(dashboard.topProducts).toEqual([
      { productId: a.id, productName: 'Alpha Plan', revenue: 200_000, orders: 2 },
      { productId: b.id, productName: 'Beta Plan', revenue: 60_000, orders: 2 },
    ])
    expect(dashboard.recentOrders[0]).toMatchObject({ createdAt: '2026-03-10T05:00:00.000Z' })
  })

  it('moves an order across the day boundary when the time zone changes', async () => {
    const a = await makeProduct(t.db, { price: 50_000 })
    // 23:30 on 9 March in London, 05:00 on 10 March in India.
    await orderAt(a.id, '2026-03-09T23:30:00.000Z', 'paid')
    const now = new Date('2026-03-10T12:00:00Z')
    const india = await dashboardFor('today', { now })
    expect(india.current.revenue).toBe(50_000)
    expect(india.previous.revenue).toBe(0)
    expect(india.series[5]).toMatchObject({ revenue: 50_000, orders: 1 }) // 05:00-06:00 IST
    const london = await dashboardFor('today', { timeZone: 'Europe/London', now })
    expect(london.current.revenue).toBe(0)
    expect(london.previous).toMatchObject({ revenue: 50_000, paidOrders: 1, successRate: 100 })
  })

  it('takes what processed partial refunds gave back off the revenue, chart and top products', async () => {
    const now = new Date('2026-03-10T06:00:00Z') // 11:30 on 10 March in India
    const a = await makeProduct(t.db, { price: 100_000, title: 'Alpha Plan' })
    const b = await makeProduct(t.db, { price: 30_000, title: 'Beta Plan' })
    // Current 7 days: 4 to 10 March in India.
    const partly = await orderAt(a.id, '2026-03-04T10:00:00.000Z', 'delivered') // day 0
    await refundOf(partly.id, 40_000, 'processed')
    await refundOf(partly.id, 5_000, 'processed')
    // Asked of the gateway, or refused by it: nothing went back yet.
    await refundOf(partly.id, 10_000, 'pending')
    await refundOf(partly.id, 20_000, 'failed')
    await orderAt(b.id, '2026-03-10T05:00:00.000Z', 'paid') // day 6
    // Refunded in full: the order is no longer paid, and its refunds are not taken off twice.
    const refunded = await orderAt(b.id, '2026-03-09T05:00:00.000Z', 'refunded')
    await refundOf(refunded.id, 30_000, 'processed')
    // A simulated payment's refund touches no live figure.
    const simulated = await orderAt(a.id, '2026-03-05T05:00:00.000Z', 'delivered', {
      testMode: true,
    })
    await refundOf(simulated.id, 50_000, 'processed')
    // The previous 7 days: a paid order partly refunded counts there, net.
    const earlier = await orderAt(b.id, '2026-03-01T05:00:00.000Z', 'awaiting_stock')
    await refundOf(earlier.id, 10_000, 'processed')
    // Before both periods: its refund is in neither.
    const old = await orderAt(a.id, '2026-02-01T05:00:00.000Z', 'delivered')
    await refundOf(old.id, 70_000, 'processed')

    const dashboard = await dashboardFor('7d', { now })
    expect(dashboard.current).toMatchObject({
      revenue: 100_000 - 45_000 + 30_000,
      paidOrders: 2,
      attempts: 3, // the refunded order is an attempt that did not end paid
      averageOrder: 42_500,
    })
    expect(dashboard.previous).toMatchObject({
      revenue: 20_000,
      paidOrders: 1,
      averageOrder: 20_000,
    })
    expect(dashboard.series.map((point) => point.revenue)).toEqual([55_000, 0, 0, 0, 0, 0, 30_000])
    expect(dashboard.series.map((point) => point.orders)).toEqual([1, 0, 0, 0, 0, 0, 1])
    expect(dashboard.topProducts).toEqual([
      { productId: a.id, productName: 'Alpha Plan', revenue: 55_000, orders: 1 },
      { productId: b.id, productName: 'Beta Plan', revenue: 30_000, orders: 1 },
    ])
  })

  it('counts accounts active in the period, with no figure for the period before, and products added', async () => {
    const now = new Date('2026-03-10T12:00:00Z')
    const [one, two, three] = await Promise.all([
      makeCustomer(t.db),
      makeCustomer(t.db),
      makeCustomer(t.db),
    ])
    await t.db.updateTable('user').set({ lastActiveAt: null }).execute()
    await t.db
      .updateTable('user')
      .set({ lastActiveAt: '2026-03-10T10:00:00.000Z' })
      .where('id', 'in', [one.id, two.id])
      .execute()
    await t.db
      .updateTable('user')
      .set({ lastActiveAt: '2026-03-09T10:00:00.000Z' })
      .where('id', '=', three.id)
      .execute()
    await t.db.updateTable('product').set({ createdAt: '2020-01-01T00:00:00.000Z' }).execute()
    const fresh = await makeProduct(t.db)
    await t.db
      .updateTable('product')
      .set({ createdAt: '2026-03-10T09:00:00.000Z' })
      .where('id', '=', fresh.id)
      .execute()
    const dashboard = await dashboardFor('today', { now })
    // Only each account's latest activity is kept: the third account may have been active
    // today too, so there is no true count for yesterday, and none is given.
    expect(dashboard.activeUsers).toBe(2)
    expect(dashboard.previous).not.toHaveProperty('activeUsers')
    expect(dashboard.current).not.toHaveProperty('activeUsers')
    expect(dashboard.current.productsAdded).toBe(1)
    expect(dashboard.previous.productsAdded).toBe(0)
    const { count } = await t.db
      .selectFrom('product')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow()
    expect(dashboard.products).toBe(Number(count))
  })

  it('lists stock alerts by the low-stock threshold, orders awaiting stock and open reports', async () => {
    await t.db.updateTable('product').set({ inStock: 1 }).execute()
    await t.db.deleteFrom('stockItem').execute()
    await t.db.updateTable('product').set({ deliveryMode: 'manual' }).execute()
    await updateSiteSettings(t.db, { lowStockThreshold: 3 })
    const low = await makeStockedProduct(t.db, APP_SECRET, ['L-1', 'L-2'], { title: 'Low One' })
    const plenty = await makeStockedProduct(t.db, APP_SECRET, ['P-1', 'P-2', 'P-3', 'P-4', 'P-5'], {
      title: 'Plenty',
    })
    const empty = await makeStockedProduct(t.db, APP_SECRET, [], { title: 'Empty Stock' })
    const manualOut = await makeProduct(t.db, { title: 'Marked Out', inStock: false })
    await orderAt(plenty.id, '2026-03-10T10:00:00.000Z', 'awaiting_stock')
    const delivered = await orderAt(plenty.id, '2026-03-10T10:00:00.000Z', 'delivered')
    const report = await insertOrderReport(
      t.db,
      { orderId: delivered.id, reason: 'The key does not activate.', reportedBy: 'customer' },
      new Date(),
      async () => undefined,
    )
    expect(report.ok).toBe(true)

    const dashboard = await dashboardFor('30d')
    const alert = (
      product: { id: string; title: string },
      fields: Partial<(typeof dashboard.stockAlerts)[number]>,
    ) => ({
      productId: product.id,
      title: product.title,
      fromStock: true,
      otherKind: false,
      reason: null,
      ...fields,
    })
    expect(dashboard.stockAlerts).toEqual([
      alert(empty, { left: 0, level: 'out', reason: 'no-items' }),
      alert(manualOut, { fromStock: false, left: null, level: 'out', reason: 'marked-out' }),
      alert(low, { left: 2, level: 'low' }),
    ])
    expect(dashboard.stockAlerts.some((alert) => alert.productId === plenty.id)).toBe(false)
    expect(dashboard.awaitingStock).toBe(1)
    expect(dashboard.openReports).toBe(1)
    // Paid orders waiting to be delivered by hand: real ones only.
    const handMade = await makeProduct(t.db, { title: 'By Hand' })
    await orderAt(handMade.id, '2026-03-10T10:00:00.000Z', 'paid')
    await orderAt(handMade.id, '2026-03-10T10:00:00.000Z', 'paid', { testMode: true })
    expect((await dashboardFor('30d')).toDeliver).toBe(dashboard.toDeliver + 1)

    const stricter = await dashboardFor('30d', { lowStockThreshold: 5 })
    expect(stricter.stockAlerts.map((alert) => alert.title)).toEqual([
      'Empty Stock',
      'Marked Out',
      'Low One',
      'Plenty',
    ])
  })

  it('counts the items that sell now: test items in test mode, real ones when live, both beside each other', async () => {
    await t.db.updateTable('product').set({ inStock: 1, buyNowLink: null }).execute()
    await t.db.deleteFrom('stockItem').execute()
    await t.db.updateTable('product').set({ deliveryMode: 'manual' }).execute()
    // The demo's kind of product: test items only, plenty of them.
    const demo = await makeStockedProduct(t.db, APP_SECRET, [], { title: 'Demo Stock' })
    await addTestItems(demo.id, ['D-1', 'D-2', 'D-3', 'D-4', 'D-5'])
    // Marked out of stock by hand, although it holds test items.
    const switchedOff = await makeStockedProduct(t.db, APP_SECRET, [], {
      title: 'Switched Off',
      inStock: false,
    })
    await addTestItems(switchedOff.id, ['S-1', 'S-2', 'S-3', 'S-4', 'S-5'])
    await makeStockedProduct(t.db, APP_SECRET, ['R-1', 'R-2', 'R-3', 'R-4'], {
      title: 'Real Only',
    })
    const fewTest = await makeStockedProduct(t.db, APP_SECRET, ['F-1', 'F-2', 'F-3', 'F-4'], {
      title: 'Few Test',
    })
    await addTestItems(fewTest.id, ['FT-1'])
    const shared = await makeProduct(t.db, { title: 'Family Plan' })
    await setProductDelivery(t.db, APP_SECRET, shared.id, {
      mode: 'shared',
      sharedSecret: 'family@example.test / Family-Pass',
    })
    // A buy now link sells it elsewhere, whatever this shop holds.
    const linked = await makeStockedProduct(t.db, APP_SECRET, [], {
      title: 'Linked',
      buyNowLink: 'https://vendor.example/buy',
    })
    const summary = (alerts: Awaited<ReturnType<typeof dashboardFor>>['stockAlerts']) =>
      alerts.map((a) => [a.title, a.level, a.reason, a.left, a.otherKind])

    // Test mode: the demo sells, real items do not; a shared secret is never delivered.
    expect(summary((await dashboardFor('30d', { stockKinds: 'test' })).stockAlerts)).toEqual([
      ['Family Plan', 'out', 'test-mode', null, false],
      ['Real Only', 'out', 'no-items', 0, true],
      ['Switched Off', 'out', 'marked-out', null, false],
      ['Few Test', 'low', null, 1, true],
    ])
    // Live: the demo's test items are no stock at all.
    expect(summary((await dashboardFor('30d', { stockKinds: 'real' })).stockAlerts)).toEqual([
      ['Demo Stock', 'out', 'no-items', 0, true],
      ['Switched Off', 'out', 'marked-out', null, false],
    ])
    // A simulator beside a live gateway: either kind sells.
    expect(summary((await dashboardFor('30d', { stockKinds: 'both' })).stockAlerts)).toEqual([
      ['Switched Off', 'out', 'marked-out', null, false],
    ])
    expect(
      (await dashboardFor('30d', { stockKinds: 'test' })).stockAlerts.map((a) => a.productId),
    ).not.toContain(linked.id)
  })

  it('counts the mails given up on in the last 7 days, and those waiting for a retry', async () => {
    await t.db.deleteFrom('job').execute()
    const now = new Date('2026-03-10T12:00:00.000Z')
    const ago = (ms: number) => new Date(now.getTime() - ms)
    const day = 86_400_000
    // The SMTP server refuses every mail but one marked to go through.
    const send = async (job: Job) => {
      if (!(job.payload as { ok?: boolean }).ok) throw new Error('connect ECONNREFUSED')
    }
    const handlers = { [MAIL_JOB]: send, 'order.mail': send, 'test.not-mail': send }
    /** A mail job run once at `at`: its last attempt when `last` (the others failed before). */
    const mailAt = async (
      type: MailJobType,
      at: Date,
      options: { last?: boolean; ok?: boolean },
    ) => {
      const id = await enqueueMailJob(t.db, type, { ok: options.ok ?? false }, { runAt: at })
      if (options.last)
        await t.db
          .updateTable('job')
          .set({ attempts: MAIL_MAX_ATTEMPTS - 1 })
          .where('id', '=', id)
          .execute()
      expect(await runDueJobs(t.db, handlers, { now: at, log: () => {} })).toBe(1)
    }
    // Given up on 8 days ago: too old to count.
    await mailAt(MAIL_JOB, ago(8 * day), { last: true })
    // Given up on within the 7 days: an order's mail and a plain one.
    await mailAt('order.mail', ago(6 * day), { last: true })
    await mailAt(MAIL_JOB, ago(1 * day), { last: true })
    // Sent: nothing to count.
    await mailAt(MAIL_JOB, ago(day / 2), { ok: true })
    // A job that is no mail, failed for good.
    await enqueueJob(t.db, 'test.not-mail', {}, { runAt: ago(day / 4), maxAttempts: 1 })
    expect(await runDueJobs(t.db, handlers, { now: ago(day / 4), log: () => {} })).toBe(1)
    // One attempt failed a minute ago: waiting for its retry.
    await mailAt('order.mail', ago(60_000), {})
    // Queued, not tried yet.
    await enqueueMailJob(t.db, MAIL_JOB, { ok: false }, { runAt: now })

    expect((await dashboardFor('7d', { now })).mail).toEqual({ failed: 2, retrying: 1 })
    const statuses = await t.db.selectFrom('job').select('status').execute()
    expect(statuses.map((row) => row.status).sort()).toEqual(
      ['done', 'failed', 'failed', 'failed', 'failed', 'pending', 'pending'].sort(),
    )
    // A week on, the mails given up on then are too old to count (and the retry due then, which
    // a runner would have tried since).
    expect((await dashboardFor('7d', { now: new Date(now.getTime() + 7 * day) })).mail).toEqual({
      failed: 0,
      retrying: 0,
    })
  })
})

describe('successRate', () => {
  it('is successful / total x 100 with one decimal', () => {
    expect(successRate(1, 3)).toBe(33.3)
    expect(successRate(2, 3)).toBe(66.7)
    expect(successRate(0, 5)).toBe(0)
    expect(successRate(0, 0)).toBeNull()
  })
})
