import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely'
import { streamRows, toFlag, type DB } from '~/lib/db.server'
import { SEARCH_MAX } from '~/lib/list-search'
import { paginate } from '~/lib/paginate'
import { containsAny } from '~/lib/sql-contains'
import { gatewayLabel } from '~/lib/validation/gateway'
import { ORDER_STATUSES } from '~/lib/order-status'
import type { Database, DeliveryMode, OrderStatus, StockItemStatus } from '../../db/schema'
import {
  getOrder,
  PAID_STATUSES,
  PAYABLE_STATUSES,
  processedRefunds,
  type Order,
} from './order.server'
import { countOpenReports } from './order-report.server'

/**
 * The shop's side of orders: the admin's list with search, filters, counts and a
 * CSV export, and one order with everything about it. The recovery actions are
 * app/services/order-actions.server.ts.
 */
export const ADMIN_ORDERS_PAGE_SIZE = 20
// ---------------------------------------------------------------------------------------------
// The list

export interface AdminOrderFilter {
  /** Contains, any case: order id, customer name, e-mail or phone, product name. */
  search?: string
  status?: OrderStatus | null
  /** Only orders with an open problem report. */
  openReports?: boolean
  /** Only orders with a refund problem (`refundProblemOf`). */
  refundProblems?: boolean
  /** Only real orders: none paid through the payment simulator (test mode). */
  realOnly?: boolean
}

/** A row of LISTED_ORDER_COLUMNS, but for its status, which each list reads its own way. */
export interface ListedOrderRow {
  createdAt: string
  customerName: string
  customerEmail: string
  customerPhone: string
  productName: string
  /** Paise. */
  amount: number
  gateway: string
  gatewayTxnId: string | null
  testMode: boolean
}

export interface AdminOrderRow extends ListedOrderRow {
  id: string
  status: OrderStatus
  hasOpenReport: boolean
  /**
   * Paise given back by the order's processed refunds, the rule of the dashboard's net revenue
   * (`processedRefunds` in app/data/order.server.ts).
   */
  refunded: number
  /** Part of the payment went back through the gateway and the order is still a sale. */
  partRefunded: boolean
  /** A refund the gateway has not answered yet, and KeyBazaar still asks it about. */
  refundPending: boolean
  /** A refund for the shop to see to (`refundProblemOf`). */
  refundProblem: boolean
}

export interface AdminOrderPage {
  items: AdminOrderRow[]
  total: number
  page: number
  pageSize: number
  pageCount: number
}

function filtered<O>(query: SelectQueryBuilder<Database, 'order', O>, filter: AdminOrderFilter) {
  let q = query
  const search = filter.search?.trim().slice(0, SEARCH_MAX)
  if (search) {
    q = q.where(
      containsAny([...BUYER_COLUMNS, sql`customer_phone`, sql`lower(product_name)`], search),
    )
  }
  if (filter.status) q = q.where('order.status', '=', filter.status)
  if (filter.openReports) q = q.where(sql<boolean>`exists (${openReportOf()})`)
  if (filter.refundProblems) q = q.where(refundProblemOf)
  if (filter.realOnly) q = q.where('order.testMode', '=', toFlag(false))
  return q
}

/** What both order searches (this list's and the transactions') look in first: the order id and the buyer. */
export const BUYER_COLUMNS = [
  sql`lower("order".id)`,
  sql`lower(customer_name)`,
  sql`lower(customer_email)`,
]

const openReportOf = () =>
  sql`select 1 from order_report where order_report.order_id = "order".id and order_report.status = 'open'`

/**
 * A refund (the `order_refund` row in scope) the shop has to see to (docs/payments.md,
 * "Refunds"): one that failed, until another refund of the order is asked for after it failed
 * (the shop refunded again; a refund asked for while it was still waiting does not count, and a
 * failed refund is not changed after it failed), or one the gateway never answered that
 * KeyBazaar stopped asking about.
 * Both were mailed to the shop.
 */
const problemRefund = sql<boolean>`((order_refund.status = 'failed' and not exists (select 1 from order_refund later where later.order_id = order_refund.order_id and later.created_at > order_refund.updated_at)) or (order_refund.status in ('requested', 'pending') and order_refund.checks_stopped_at is not null))`

/**
 * An order still a sale (PAID_STATUSES) with a problem refund: once it is refunded, by the
 * gateway or by Mark refunded, the money has gone back and nothing is left to see to.
 * Through `order_refund_order_idx`, per order.
 */
const refundProblemOf = (eb: ExpressionBuilder<Database, 'order'>) =>
  eb.and([
    eb('order.status', 'in', PAID_STATUSES),
    sql<boolean>`exists (select 1 from order_refund where order_refund.order_id = "order".id and ${problemRefund})`,
  ])

/**
 * A refund of the order requested or pending that KeyBazaar still asks the gateway about (one it
 * stopped asking about is a refund problem, not pending); the Orders and Transactions lists' badge.
 */
const refundPendingOf = () =>
  sql`select 1 from order_refund where order_refund.order_id = "order".id and order_refund.status in ('requested', 'pending') and order_refund.checks_stopped_at is null`

/**
 * Paise the order's processed refunds gave back (`processedRefunds`, the dashboard's net revenue
 * rule), per order by its index: the Orders and Transactions lists' Refunded.
 */
function refundedOf(db: DB, eb: ExpressionBuilder<Database, 'order'>) {
  const refunded = processedRefunds(db)
    .select((inner) => inner.fn.sum<number | string | null>('orderRefund.amount').as('sum'))
    .where('orderRefund.orderId', '=', eb.ref('order.id'))
  return sql<number | string>`coalesce((${refunded}), 0)`
}

/**
 * What the Orders and Transactions lists select for a row's refund marks (`refundMarksOf`), each
 * a subquery on the order's refunds by their index; with the order's paid amount and status.
 */
export const refundMarkColumns = (db: DB, eb: ExpressionBuilder<Database, 'order'>) =>
  [
    refundedOf(db, eb).as('refunded'),
    sql<number | boolean>`exists (${refundPendingOf()})`.as('refundPending'),
    sql<number | boolean>`${refundProblemOf(eb)}`.as('refundProblem'),
  ] as const

/** A list row's refund marks as its query selects them (`refundMarkColumns`). */
interface RawRefundMarks {
  refunded: number | string
  refundPending: number | boolean
  refundProblem: number | boolean
  amount: number | string
  status: OrderStatus
}

/**
 * What the Orders and Transactions lists mark a row with about its refunds (docs/payments.md,
 * "Refunds"): the paise its processed refunds gave back; part refunded when that is less than
 * was paid, as the refund's settlement reads it (the paid amount, else the order's; see
 * app/services/payment/refunds.server.ts), and the order is still a sale; a refund pending
 * at the gateway; and a refund problem (`refundProblemOf`).
 */
export function refundMarksOf(
  row: RawRefundMarks,
  paidAmount: number | string | null,
): { refunded: number; partRefunded: boolean; refundPending: boolean; refundProblem: boolean } {
  const refunded = Number(row.refunded)
  return {
    refunded,
    partRefunded:
      refunded > 0 &&
      refunded < Number(paidAmount ?? row.amount) &&
      (PAID_STATUSES as readonly OrderStatus[]).includes(row.status),
    refundPending: Boolean(row.refundPending),
    refundProblem: Boolean(row.refundProblem),
  }
}

/**
 * The order columns both back-office lists of orders show (this one, by order, and the
 * transactions', by payment attempt), each adding its own.
 */
export const LISTED_ORDER_COLUMNS = [
  'order.createdAt',
  'order.customerName',
  'order.customerEmail',
  'order.customerPhone',
  'order.productName',
  'order.amount',
  'order.status',
  'order.gateway',
  'order.gatewayTxnId',
  'order.testMode',
] as const

/** Newest first; the id breaks ties, so paging is stable. */
export const newestOrdersFirst = <O>(query: SelectQueryBuilder<Database, 'order', O>) =>
  query.orderBy('order.createdAt', 'desc').orderBy('order.id', 'desc')

/**
 * The rows with what the list marks them with: an open report, and their refunds (part
 * refunded, pending, a problem), each a subquery on the order's own rows by their index, in the
 * page's one query.
 */
function selectRows(db: DB, filter: AdminOrderFilter) {
  return newestOrdersFirst(
    filtered(db.selectFrom('order'), filter)
      .select('order.id')
      .select(LISTED_ORDER_COLUMNS)
      .select('order.paidAmount')
      .select((eb) => [
        sql<number | boolean>`exists (${openReportOf()})`.as('hasOpenReport'),
        ...refundMarkColumns(db, eb),
      ]),
  )
}

type RawRow = Awaited<ReturnType<ReturnType<typeof selectRows>['execute']>>[number]

function toRow({ paidAmount, ...row }: RawRow): AdminOrderRow {
  return {
    ...row,
    amount: Number(row.amount),
    testMode: Boolean(row.testMode),
    hasOpenReport: Boolean(row.hasOpenReport),
    ...refundMarksOf(row, paidAmount),
  }
}

/** A page of orders, newest first, filtered in SQL (one count and one page of rows). */
export async function listAdminOrders(
  db: DB,
  query: AdminOrderFilter & { page?: number; pageSize?: number } = {},
): Promise<AdminOrderPage> {
  const { count } = await filtered(db.selectFrom('order'), query)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  const total = Number(count)
  const { page, pageSize, pageCount, offset } = paginate(total, query, {
    defaultSize: ADMIN_ORDERS_PAGE_SIZE,
    maxSize: 100,
  })
  const rows = await selectRows(db, query).limit(pageSize).offset(offset).execute()
  return { items: rows.map(toRow), total, page, pageSize, pageCount }
}

/**
 * Every order the filter matches, newest first, streamed from the database (better-sqlite3
 * iterates, PostgreSQL reads through a cursor `chunkSize` rows at a time), so an export of
 * any size holds a few rows in memory, on a connection of its own (streamRows): a slow
 * download holds up nothing else.
 */
export async function* exportAdminOrders(
  db: DB,
  filter: AdminOrderFilter,
  chunkSize = 500,
): AsyncGenerator<AdminOrderRow> {
  for await (const row of streamRows(db, (reader) => selectRows(reader, filter), chunkSize)) {
    yield toRow(row)
  }
}

export interface OrderCounts {
  total: number
  byStatus: Record<OrderStatus, number>
  openReports: number
  /** Orders with a refund problem (`refundProblemOf`). */
  refundProblems: number
}

/**
 * How many orders are in each status, how many have an open report (one open report per order)
 * and how many a refund problem.
 */
export async function orderCounts(
  db: DB,
  { realOnly = false }: { realOnly?: boolean } = {},
): Promise<OrderCounts> {
  const [rows, reports, refundProblems] = await Promise.all([
    db
      .selectFrom('order')
      .select((eb) => ['status', eb.fn.countAll<number | string>().as('count')])
      // The chips count what the list shows with "Real orders only" (not its search), open
      // reports too.
      .$if(realOnly, (qb) => qb.where('testMode', '=', toFlag(false)))
      .groupBy('status')
      .execute(),
    countOpenReports(db, { realOnly }),
    countRefundProblems(db, { realOnly }),
  ])
  const byStatus = Object.fromEntries(ORDER_STATUSES.map((status) => [status, 0])) as Record<
    OrderStatus,
    number
  >
  let total = 0
  for (const row of rows) {
    byStatus[row.status] = Number(row.count)
    total += Number(row.count)
  }
  return { total, byStatus, openReports: reports, refundProblems }
}

/**
 * The orders `refundProblemOf` matches, counted from their problem refunds (a few rows) rather
 * than by looking at every order.
 */
async function countRefundProblems(db: DB, { realOnly }: { realOnly: boolean }): Promise<number> {
  const row = await db
    .selectFrom('orderRefund')
    // CROSS JOIN, the join's condition in WHERE: the same inner join, which SQLite runs with the
    // refunds as the outer loop (as the dashboard's refunds do; PostgreSQL plans by statistics).
    .crossJoin('order')
    .whereRef('order.id', '=', 'orderRefund.orderId')
    .select((eb) => eb.fn.count<number | string>('orderRefund.orderId').distinct().as('count'))
    .where(problemRefund)
    .where('order.status', 'in', PAID_STATUSES)
    .$if(realOnly, (qb) => qb.where('order.testMode', '=', toFlag(false)))
    .executeTakeFirst()
  return Number(row?.count ?? 0)
}

// ---------------------------------------------------------------------------------------------
// One order

export interface OrderProductInfo {
  id: string
  title: string
  slug: string
  deliveryMode: DeliveryMode
  hasSharedSecret: boolean
}

export interface OrderItemRow {
  id: string
  status: StockItemStatus
  addedBy: string
  createdAt: string
  deliveredAt: string | null
  revokedAt: string | null
  revokedReason: string | null
}

export interface AdminOrderDetail {
  order: Order
  /** Null when the product was deleted since. */
  product: OrderProductInfo | null
  /** Every item the order was given (the live one and revoked ones), oldest first; no secrets. */
  items: OrderItemRow[]
  hasOpenReport: boolean
}

export async function getAdminOrder(db: DB, orderId: string): Promise<AdminOrderDetail | null> {
  const order = await getOrder(db, orderId)
  if (!order) return null
  const [product, items, open] = await Promise.all([
    order.productId
      ? db
          .selectFrom('product')
          .select(['id', 'title', 'slug', 'deliveryMode', 'sharedSecret'])
          .where('id', '=', order.productId)
          .executeTakeFirst()
      : undefined,
    db
      .selectFrom('stockItem')
      .select(['id', 'status', 'addedBy', 'createdAt', 'deliveredAt', 'revokedAt', 'revokedReason'])
      .where('orderId', '=', order.id)
      .orderBy('deliveredAt')
      .orderBy('createdAt')
      .execute(),
    db
      .selectFrom('orderReport')
      .select('id')
      .where('orderId', '=', order.id)
      .where('status', '=', 'open')
      .executeTakeFirst(),
  ])
  return {
    order,
    product: product
      ? {
          id: product.id,
          title: product.title,
          slug: product.slug,
          deliveryMode: product.deliveryMode,
          hasSharedSecret: Boolean(product.sharedSecret),
        }
      : null,
    items,
    hasOpenReport: open !== undefined,
  }
}

/** Which recovery actions apply to an order as it is. */
export interface OrderActions {
  /** Ask the order's gateway, mark paid (and deliver) when it confirms: pending, failed, expired. */
  confirmPayment: boolean
  /** Enter the details by hand: a paid or waiting order, or a delivered one (as its replacement). */
  deliverManually: boolean
  /** Revoke the delivered item and give the next one from stock: delivered orders of stock products. */
  replaceFromStock: boolean
  refund: boolean
  resendDelivery: boolean
  replyToReport: boolean
  reveal: boolean
}

export function orderActions(
  detail: Pick<AdminOrderDetail, 'order' | 'product' | 'hasOpenReport'>,
): OrderActions {
  const { status } = detail.order
  return {
    confirmPayment: (PAYABLE_STATUSES as readonly OrderStatus[]).includes(status),
    deliverManually: status === 'paid' || status === 'awaiting_stock' || status === 'delivered',
    replaceFromStock: status === 'delivered' && detail.product?.deliveryMode === 'stock',
    refund: (PAID_STATUSES as readonly OrderStatus[]).includes(status),
    resendDelivery: status === 'delivered',
    replyToReport: detail.hasOpenReport,
    reveal: status === 'delivered',
  }
}

/**
 * Names for the timeline's actors: user:{id} becomes the admin's (or buyer's) name and e-mail;
 * customer and system read as words, gateway as the name of the order's gateway (`gateway`, its
 * stored id: Paytm, Razorpay, PhonePe). Unknown users (deleted since) say so.
 */
export async function describeActors(
  db: DB,
  actors: readonly string[],
  gateway: string,
): Promise<Record<string, string>> {
  const ids = [
    ...new Set(actors.filter((actor) => actor.startsWith('user:')).map((actor) => actor.slice(5))),
  ]
  const users = ids.length
    ? await db.selectFrom('user').select(['id', 'name', 'email']).where('id', 'in', ids).execute()
    : []
  const byId = new Map(users.map((user) => [user.id, user]))
  const names: Record<string, string> = {}
  for (const actor of new Set(actors)) {
    if (actor.startsWith('user:')) {
      const user = byId.get(actor.slice(5))
      names[actor] = user
        ? user.name.trim()
          ? `${user.name.trim()} (${user.email})`
          : user.email
        : 'A deleted user'
    } else {
      names[actor] = actor === 'gateway' ? gatewayLabel(gateway) : (ACTOR_WORDS[actor] ?? actor)
    }
  }
  return names
}

const ACTOR_WORDS: Record<string, string> = {
  customer: 'Buyer',
  system: 'System',
}
