import { sql, type RawBuilder } from 'kysely'
import { toFlag, type DB } from '~/lib/db.server'
import { MAIL_JOB_TYPES } from '~/lib/mail-jobs'
import {
  DASHBOARD_PERIODS,
  isDashboardPeriod,
  PERIOD_DAYS,
  type DashboardPeriod,
} from '~/lib/dashboard-period'
import { addDays, localDateOf, startOfLocalDay } from '~/lib/shop-time'
import { forSale, type NotForSale, type StockKinds } from '~/lib/stock-status'
import type { OrderStatus } from '../../db/schema'
import { countOpenReports } from './order-report.server'
import { PAID_STATUSES, processedRefunds } from './order.server'

/**
 * The admin dashboard's figures, every one an aggregate computed by the database over live
 * orders (test-mode orders paid through the simulator are left out of the money). Revenue is
 * net of what processed partial refunds gave back, as on the Gateways page
 * (`processedRefunds` in app/data/order.server.ts). Periods are
 * calendar days in the shop's time zone: the boundaries are computed in JavaScript
 * (app/lib/shop-time.ts) and the query groups orders by those UTC ranges, the same on SQLite
 * and PostgreSQL, since both store ISO-8601 UTC text. The index that serves the range scans is
 * db/migrations/0080_dashboard_indexes.ts.
 */
export { DASHBOARD_PERIODS, isDashboardPeriod, type DashboardPeriod }

export interface DashboardRange {
  /** ISO-8601 UTC: the first instant of the period (local midnight). */
  start: string
  /** ISO-8601 UTC: the instant after the period (local midnight after today). */
  end: string
  /** ISO-8601 UTC: the start of the previous period of the same number of days. */
  previousStart: string
  /** Where each chart bucket starts: hours for today, days otherwise. */
  buckets: string[]
  /** 'hour' or 'day' buckets. */
  unit: 'hour' | 'day'
}

/** Today, or the last 7 or 30 days up to and including today, in the shop's time zone. */
export function dashboardRange(
  period: DashboardPeriod,
  timeZone: string,
  now: Date = new Date(),
): DashboardRange {
  const days = PERIOD_DAYS[period]
  const today = localDateOf(now, timeZone)
  const first = addDays(today, -(days - 1))
  const start = startOfLocalDay(first, timeZone)
  const end = startOfLocalDay(addDays(today, 1), timeZone)
  const previousStart = startOfLocalDay(addDays(first, -days), timeZone)
  const buckets: string[] = []
  if (period === 'today') {
    for (let t = start.getTime(); t < end.getTime(); t += 3_600_000)
      buckets.push(new Date(t).toISOString())
  } else {
    for (let n = 0; n < days; n++)
      buckets.push(startOfLocalDay(addDays(first, n), timeZone).toISOString())
  }
  return {
    start: start.toISOString(),
    end: end.toISOString(),
    previousStart: previousStart.toISOString(),
    buckets,
    unit: period === 'today' ? 'hour' : 'day',
  }
}

export interface PeriodTotals {
  /**
   * Paise received from live paid orders (paid, delivered, awaiting stock) placed in the
   * period, less what processed partial refunds of those orders gave back.
   */
  revenue: number
  paidOrders: number
  /** Every live order placed: each is one payment attempt. */
  attempts: number
  /** Net revenue / paid orders in paise, rounded; 0 without paid orders. */
  averageOrder: number
  /** paid / attempts x 100, one decimal; null without attempts. */
  successRate: number | null
  /** Products added to the catalogue in the period. */
  productsAdded: number
}

export interface DashboardPoint {
  start: string
  revenue: number
  orders: number
}

export interface TopProduct {
  productId: string | null
  productName: string
  /** Net of processed partial refunds, as the period's revenue. */
  revenue: number
  orders: number
}

export interface StockAlert {
  productId: string
  title: string
  /** Sold from stock: its alert links to the Stock page (others to their edit page). */
  fromStock: boolean
  /**
   * Items of the kinds that sell now (`kinds`), for a product sold from stock and not marked out
   * of stock; null otherwise. Counted up to the threshold + 1 only.
   */
  left: number | null
  /** With `left`: the product holds available items of the other kind, which do not sell now. */
  otherKind: boolean
  level: 'out' | 'low'
  /** Why it does not sell (level 'out'), as app/lib/stock-status.ts says. */
  reason: NotForSale | null
}

export interface RecentOrder {
  id: string
  createdAt: string
  customerName: string
  productName: string
  amount: number
  status: OrderStatus
  testMode: boolean
}

export interface Dashboard {
  range: DashboardRange
  current: PeriodTotals
  previous: PeriodTotals
  /**
   * Accounts active (signed in and used the shop) in the current period. There is no figure
   * for the previous period: only each account's latest activity is kept
   * (user.last_active_at), so an account active in both periods would count only in the
   * current one, and the previous figure would be too low.
   */
  activeUsers: number
  series: DashboardPoint[]
  products: number
  topProducts: TopProduct[]
  stockAlerts: StockAlert[]
  awaitingStock: number
  /** Real paid orders waiting to be delivered by hand. */
  toDeliver: number
  openReports: number
  /** Mails to buyers and accounts that are not getting through (mailTrouble). */
  mail: MailTrouble
  recentOrders: RecentOrder[]
}

export interface MailTrouble {
  /** Mail jobs given up on in the last MAIL_FAILED_DAYS days: those mails were never sent. */
  failed: number
  /** Mail jobs whose attempts failed so far and that are waiting for their next one. */
  retrying: number
}

/** How far back the dashboard counts mails that could not be sent. */
export const MAIL_FAILED_DAYS = 7

export const TOP_PRODUCTS = 5
export const RECENT_ORDERS = 6
export const STOCK_ALERTS_SHOWN = 20

const paidList = sql.join(PAID_STATUSES.map((status) => sql.lit(status)))
const isPaid = sql`status in (${paidList})`

/** One decimal, as the dashboard and the transactions page show a success rate. */
export function successRate(successful: number, total: number): number | null {
  return total > 0 ? Math.round((successful / total) * 1000) / 10 : null
}

/**
 * The bucket of an order's created_at: -1 for the previous period, 0..n-1 for the current
 * period's buckets (the query only reads rows in [previousStart, end)). A balanced tree of
 * comparisons, so a row costs about log2(n) comparisons instead of n.
 */
function bucketOf(range: DashboardRange, createdAt: RawBuilder<string>): RawBuilder<number> {
  // bounds[i] is where bucket i starts; bucket -1 (the previous period) starts before them all.
  const starts = range.buckets
  const tree = (low: number, high: number): RawBuilder<number> => {
    // Buckets low..high (low may be -1).
    if (low === high) return sql<number>`${sql.lit(low)}`
    const mid = Math.ceil((low + high + 1) / 2)
    return sql<number>`case when ${createdAt} < ${starts[mid]} then ${tree(low, mid - 1)} else ${tree(mid, high)} end`
  }
  return tree(-1, starts.length - 1)
}

const emptyTotals = (): PeriodTotals => ({
  revenue: 0,
  paidOrders: 0,
  attempts: 0,
  averageOrder: 0,
  successRate: null,
  productsAdded: 0,
})

function finish(totals: PeriodTotals): PeriodTotals {
  return {
    ...totals,
    averageOrder: totals.paidOrders ? Math.round(totals.revenue / totals.paidOrders) : 0,
    successRate: successRate(totals.paidOrders, totals.attempts),
  }
}

export async function getDashboard(
  db: DB,
  options: {
    period: DashboardPeriod
    timeZone: string
    lowStockThreshold: number
    /** The items the shop's gateways sell now (stockKindsOnSale). */
    stockKinds: StockKinds
    now?: Date
  },
): Promise<Dashboard> {
  const range = dashboardRange(options.period, options.timeZone, options.now)
  const [buckets, people, catalogue, stockAlerts, awaiting, openReports, recent, mail] =
    await Promise.all([
      orderBuckets(db, range),
      activeUsers(db, range),
      productCounts(db, range),
      stockAlertsOf(db, options.lowStockThreshold, options.stockKinds),
      countWaitingOrders(db),
      countOpenReports(db),
      recentOrders(db),
      mailTrouble(db, options.now),
    ])

  const current = emptyTotals()
  const previous = emptyTotals()
  const series: DashboardPoint[] = range.buckets.map((start) => ({ start, revenue: 0, orders: 0 }))
  const byProduct = new Map<string | null, { revenue: number; orders: number }>()
  for (const row of buckets) {
    const bucket = Number(row.bucket)
    const revenue = Number(row.revenue ?? 0)
    const paid = Number(row.paid ?? 0)
    const target = bucket < 0 ? previous : current
    target.revenue += revenue
    target.paidOrders += paid
    target.attempts += Number(row.attempts)
    const point = series[bucket]
    if (point) {
      point.revenue += revenue
      point.orders += paid
      // A refund's row (no paid order, negative revenue) nets its product's paid orders.
      if (paid > 0 || revenue !== 0) {
        const product = byProduct.get(row.productId) ?? { revenue: 0, orders: 0 }
        product.revenue += revenue
        product.orders += paid
        byProduct.set(row.productId, product)
      }
    }
  }
  const topProducts = await namedTopProducts(db, byProduct)
  current.productsAdded = catalogue.current
  previous.productsAdded = catalogue.previous

  return {
    range,
    current: finish(current),
    previous: finish(previous),
    activeUsers: people,
    series,
    products: catalogue.total,
    topProducts,
    stockAlerts,
    awaitingStock: awaiting.awaitingStock,
    toDeliver: awaiting.toDeliver,
    openReports,
    mail,
    recentOrders: recent,
  }
}

/**
 * Live orders of both periods grouped by bucket and product: attempts, paid orders and
 * revenue. One pass over the covering index serves the totals, the chart and the top products.
 * In the same statement, what processed refunds gave back of those paid orders, grouped the
 * same way by their order's bucket and product, as negative revenue (no attempt, no paid
 * order). The covering index holds no order id to look refunds up by, so the refunds are read
 * first and each order is found by its key: few rows, and the orders' pass stays on the index.
 */
function orderBuckets(db: DB, range: DashboardRange) {
  const orders = db
    .selectFrom('order')
    .select((eb) => [
      bucketOf(range, sql<string>`created_at`).as('bucket'),
      'productId',
      eb.fn.countAll<number | string>().as('attempts'),
      eb.fn.sum<number | string | null>(sql`case when ${isPaid} then 1 else 0 end`).as('paid'),
      eb.fn
        .sum<number | string | null>(sql`case when ${isPaid} then amount else 0 end`)
        .as('revenue'),
    ])
    .where('testMode', '=', 0)
    .where('createdAt', '>=', range.previousStart)
    .where('createdAt', '<', range.end)
    // By position: PostgreSQL would not match the CASE's parameters to a repeated expression.
    .groupBy([sql`1`, sql`2`])
  const refunds = processedRefunds(db)
    // CROSS JOIN, the join's condition in WHERE: the same inner join, which SQLite runs with the
    // refunds as the outer loop (PostgreSQL plans either way by its statistics).
    .crossJoin('order')
    .whereRef('order.id', '=', 'orderRefund.orderId')
    .where('order.status', 'in', PAID_STATUSES)
    .select((eb) => [
      bucketOf(range, sql<string>`${eb.ref('order.createdAt')}`).as('bucket'),
      'order.productId',
      sql<number>`0`.as('attempts'),
      sql<number>`0`.as('paid'),
      sql<number | string | null>`-sum(${eb.ref('orderRefund.amount')})`.as('revenue'),
    ])
    .where('order.testMode', '=', 0)
    .where('order.createdAt', '>=', range.previousStart)
    .where('order.createdAt', '<', range.end)
    // A refund is asked for after its order was paid, so the refunds of orders placed in these
    // periods were all made since the previous period began: older ones are skipped without
    // looking up their orders.
    .where('orderRefund.createdAt', '>=', range.previousStart)
    .groupBy([sql`1`, sql`2`])
  return orders.unionAll(refunds).execute()
}

/**
 * Accounts whose latest activity (user.last_active_at) falls in the current period, that is
 * every account active in it: the period runs to the end of today. Only the latest activity is
 * kept, so the previous period has no such count (an account active in both shows only now).
 */
async function activeUsers(db: DB, range: DashboardRange): Promise<number> {
  const row = await db
    .selectFrom('user')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('lastActiveAt', '>=', range.start)
    .where('lastActiveAt', '<', range.end)
    .executeTakeFirst()
  return Number(row?.count ?? 0)
}

async function productCounts(db: DB, range: DashboardRange) {
  const row = await db
    .selectFrom('product')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('total'),
      eb.fn
        .sum<number | string | null>(
          sql`case when created_at >= ${range.start} and created_at < ${range.end} then 1 else 0 end`,
        )
        .as('current'),
      eb.fn
        .sum<number | string | null>(
          sql`case when created_at >= ${range.previousStart} and created_at < ${range.start} then 1 else 0 end`,
        )
        .as('previous'),
    ])
    .executeTakeFirstOrThrow()
  return {
    total: Number(row.total),
    current: Number(row.current ?? 0),
    previous: Number(row.previous ?? 0),
  }
}

/** The best-selling products of the period by revenue (then paid orders), with their titles. */
async function namedTopProducts(
  db: DB,
  byProduct: Map<string | null, { revenue: number; orders: number }>,
): Promise<TopProduct[]> {
  const top = [...byProduct.entries()]
    .sort(([, a], [, b]) => b.revenue - a.revenue || b.orders - a.orders)
    .slice(0, TOP_PRODUCTS)
  if (top.length === 0) return []
  const ids = top.map(([id]) => id).filter((id): id is string => id !== null)
  const names = new Map<string | null, string>()
  if (ids.length) {
    const rows = await db
      .selectFrom('product')
      .select(['id', 'title'])
      .where('id', 'in', ids)
      .execute()
    for (const row of rows) names.set(row.id, row.title)
  }
  return top.map(([productId, figures]) => ({
    productId,
    productName: names.get(productId) ?? 'Deleted products',
    ...figures,
  }))
}

/**
 * Products a buyer cannot get now or soon cannot, by the rule of the Products list and the
 * storefront (`forSale`, app/lib/stock-status.ts): any product marked out of stock; a product
 * sold from stock (without a buy now link) with at most `threshold` items of the kinds the
 * shop sells now (`kinds`: test items in test mode, real ones with live gateways); and a shared
 * product while test mode cannot deliver it. Items are counted only up to threshold + 1, so a
 * product with 15,000 items costs little. Out of stock first, then fewest left.
 */
async function stockAlertsOf(db: DB, threshold: number, kinds: StockKinds): Promise<StockAlert[]> {
  const cap = Math.max(threshold, 0) + 1
  const capped = (testItem: 0 | 1) =>
    sql<
      number | string
    >`(select count(*) from (select 1 from stock_item where stock_item.product_id = product.id and stock_item.test_item = ${sql.lit(testItem)} and stock_item.status = 'available' limit ${sql.lit(cap)}) as capped)`
  const rows = await db
    .selectFrom('product')
    .select([
      'product.id',
      'product.title',
      'product.deliveryMode',
      'product.inStock',
      'product.buyNowLink',
      capped(0).as('real'),
      capped(1).as('test'),
    ])
    .where((eb) =>
      eb.or([
        eb('product.deliveryMode', '=', 'stock'),
        eb('product.inStock', '=', 0),
        ...(kinds === 'test' ? [eb('product.deliveryMode', '=', 'shared')] : []),
      ]),
    )
    .execute()
  const alerts: StockAlert[] = []
  for (const row of rows) {
    const available = { real: Number(row.real), test: Number(row.test) }
    const product = {
      inStock: Boolean(Number(row.inStock)),
      deliveryMode: row.deliveryMode,
      buyNowLink: row.buyNowLink,
    }
    const sale = forSale(product, available, kinds)
    const fromStock = row.deliveryMode === 'stock'
    // The stock says why only where it decides: not for a product switched off or sold
    // through its buy now link.
    const left = sale.reason === 'marked-out' || product.buyNowLink ? null : sale.left
    const alert = {
      productId: row.id,
      title: row.title,
      fromStock,
      left,
      otherKind:
        left !== null && kinds !== 'both' && available[kinds === 'test' ? 'real' : 'test'] > 0,
    }
    if (!sale.sellable) alerts.push({ ...alert, level: 'out', reason: sale.reason })
    else if (alert.left !== null && alert.left <= threshold)
      alerts.push({ ...alert, level: 'low', reason: null })
  }
  alerts.sort(
    (a, b) =>
      Number(a.level === 'low') - Number(b.level === 'low') ||
      (a.left ?? 0) - (b.left ?? 0) ||
      a.title.localeCompare(b.title),
  )
  return alerts.slice(0, STOCK_ALERTS_SHOWN)
}

/**
 * Orders waiting on the shop: for stock (any), and paid ones waiting to be delivered by hand
 * (real ones: a simulated payment owes no one a delivery). One grouped read.
 */
async function countWaitingOrders(db: DB): Promise<{ awaitingStock: number; toDeliver: number }> {
  const rows = await db
    .selectFrom('order')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('count')])
    .where((eb) =>
      eb.or([
        eb('status', '=', 'awaiting_stock'),
        eb.and([eb('status', '=', 'paid'), eb('testMode', '=', toFlag(false))]),
      ]),
    )
    .groupBy('status')
    .execute()
  const count = (status: string) => Number(rows.find((row) => row.status === status)?.count ?? 0)
  return { awaitingStock: count('awaiting_stock'), toDeliver: count('paid') }
}

/**
 * Mail jobs (MAIL_JOB_TYPES) that failed for good in the last MAIL_FAILED_DAYS days, and those
 * waiting to be tried again after a failed attempt, which is how an SMTP outage shows long before
 * its mails are given up (about three days, MAIL_MAX_ATTEMPTS in app/lib/mail.server.ts). One
 * grouped read on the index `job_status_run_at_idx (status, run_at)`
 * (db/migrations/0011_jobs.ts): a job failed for good has its run_at set to that moment
 * (failJob), and one waiting for a retry has it at the retry, in the future; jobs done or
 * failed earlier (kept for inspection) are outside the range.
 */
async function mailTrouble(db: DB, now = new Date()): Promise<MailTrouble> {
  const since = new Date(now.getTime() - MAIL_FAILED_DAYS * 86_400_000).toISOString()
  const rows = await db
    .selectFrom('job')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('count')])
    .where('status', 'in', ['failed', 'pending'])
    .where('runAt', '>=', since)
    .where('type', 'in', MAIL_JOB_TYPES)
    // A pending job not tried yet is simply queued.
    .where('attempts', '>', 0)
    .groupBy('status')
    .execute()
  const count = (status: string) => Number(rows.find((row) => row.status === status)?.count ?? 0)
  return { failed: count('failed'), retrying: count('pending') }
}

async function recentOrders(db: DB): Promise<RecentOrder[]> {
  const rows = await db
    .selectFrom('order')
    .select(['id', 'createdAt', 'customerName', 'productName', 'amount', 'status', 'testMode'])
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(RECENT_ORDERS)
    .execute()
  return rows.map((row) => ({
    ...row,
    amount: Number(row.amount),
    testMode: Boolean(row.testMode),
  }))
}
