import type { ExpressionBuilder } from 'kysely'
import type { Database } from '../../db/schema'
import type { DB } from '~/lib/db.server'
import { toFlag } from '~/lib/db.server'
import { paginate } from '~/lib/paginate'
import { LATE_PAYMENT_MS, SETTLED_STATUSES, type OrderStatus } from './order.server'
import { orderTotalsOf } from './user-admin.server'

/**
 * A signed-in customer's own orders (My Orders, the dashboard) and what the order page shows
 * about the product bought.
 *
 * "Own" means the orders placed while signed in (`order.user_id = user.id`), and the guest
 * orders paid with the account's e-mail address once that address is verified (the sign-up
 * link, or Google's verified address; docs/decisions/0008-sign-up-by-mailed-link.md). An
 * address that is not proven matches nothing: otherwise whoever signs up with someone else's
 * address would get that person's orders and delivered secrets. A guest order never paid
 * (pending, failed, expired) proves nothing either: anyone can type any address at checkout,
 * and such orders would otherwise fill a stranger's My Orders and hold back the deletion of
 * their account.
 */
export const CUSTOMER_ORDERS_PAGE_SIZE = 20

export interface CustomerOrderRow {
  id: string
  productName: string
  /** The product's page, while the product exists. */
  productSlug: string | null
  /** Paise: what was paid, or the order's amount before payment. */
  amount: number
  status: OrderStatus
  createdAt: string
  /** Whether it has credit notes (a refunded sale whose invoice stays downloadable). */
  creditNoted: boolean
}

export interface CustomerOrderPage {
  orders: CustomerOrderRow[]
  total: number
  /** The page shown (clamped to 1..pageCount). */
  page: number
  pageCount: number
}

/**
 * The user's own orders (see above). The verified address is read in the same query, so an
 * address verified a moment ago counts at once and an unverified one never does.
 */
function ordersOf(db: DB, userId: string) {
  return db.selectFrom('order').where(ownedBy(userId))
}

/**
 * The condition on `order` of the user's own orders, for queries that join it to other tables
 * (the dashboard's savings, subscriptions and activity cover the orders My Orders lists).
 */
export function ownedBy(userId: string) {
  return (eb: ExpressionBuilder<Database, 'order'>) =>
    eb.or([
      eb('order.userId', '=', userId),
      eb.and([
        eb('order.userId', 'is', null),
        eb('order.status', 'in', SETTLED_STATUSES),
        eb(
          'order.customerEmail',
          'in',
          eb
            .selectFrom('user')
            .select('user.email')
            .where('user.id', '=', userId)
            .where('user.emailVerified', '=', toFlag(true)),
        ),
      ]),
    ])
}

/** One page of the user's orders, newest first. */
export async function listCustomerOrders(
  db: DB,
  userId: string,
  options: { page?: number; pageSize?: number } = {},
): Promise<CustomerOrderPage> {
  const counted = await ordersOf(db, userId)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirst()
  const total = Number(counted?.count ?? 0)
  const { page, pageSize, pageCount, offset } = paginate(total, options, {
    defaultSize: CUSTOMER_ORDERS_PAGE_SIZE,
    maxSize: 100,
  })
  if (total === 0) return { orders: [], total, page, pageCount }
  const rows = await ordersOf(db, userId)
    .leftJoin('product', 'product.id', 'order.productId')
    .select([
      'order.id',
      'order.productName',
      'product.slug as productSlug',
      'order.amount',
      'order.paidAmount',
      'order.status',
      'order.createdAt',
      // A refunded sale keeps its invoice beside its credit notes (docs/delivery.md).
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('creditNote')
              .select('creditNote.id')
              .whereRef('creditNote.orderId', '=', 'order.id'),
          )
          .as('creditNoted'),
    ])
    // (user_id, created_at) is indexed; the id breaks ties between orders of the same instant.
    .orderBy('order.createdAt', 'desc')
    .orderBy('order.id', 'desc')
    .limit(pageSize)
    .offset(offset)
    .execute()
  return {
    orders: rows.map((row) => ({
      id: row.id,
      productName: row.productName,
      productSlug: row.productSlug ?? null,
      amount: Number(row.paidAmount ?? row.amount),
      status: row.status,
      createdAt: row.createdAt,
      creditNoted: Boolean(Number(row.creditNoted)),
    })),
    total,
    page,
    pageCount,
  }
}

export interface CustomerOrderStats {
  /**
   * Orders whose payment was confirmed (refunded ones included), as My Orders lists them: test
   * ones (paid through a simulator) too.
   */
  purchases: number
  /** Of those, the ones paid through a simulator in test mode: no money changed hands. */
  testPurchases: number
  /**
   * Paise spent: what was paid for real sales (no simulated payment, PAID_STATUSES) less what
   * processed refunds of them gave back, so a refund in part counts as well as one in full.
   */
  spent: number
  /** Paid orders still waiting for delivery (out of stock, or fulfilled by hand). */
  inProgress: number
}

/**
 * The dashboard's figures, from the user's own orders. What was spent is the back office's
 * Total spent of the same user (`orderTotalsOf` in app/data/user-admin.server.ts): the same
 * orders (`ownedBy`), real sales only, net of processed refunds (docs/payments.md, "Refunds":
 * a refund in part leaves the order paid or delivered).
 */
export async function customerOrderStats(db: DB, userId: string): Promise<CustomerOrderStats> {
  const [rows, totals] = await Promise.all([
    ordersOf(db, userId)
      .select((eb) => [
        'order.status',
        'order.testMode',
        eb.fn.countAll<number | string>().as('count'),
      ])
      .where('order.status', 'in', SETTLED_STATUSES)
      .groupBy(['order.status', 'order.testMode'])
      .execute(),
    orderTotalsOf(db, [userId]),
  ])
  const stats: CustomerOrderStats = {
    purchases: 0,
    testPurchases: 0,
    spent: totals.get(userId)?.totalSpent ?? 0,
    inProgress: 0,
  }
  for (const row of rows) {
    const count = Number(row.count)
    stats.purchases += count
    if (Number(row.testMode)) stats.testPurchases += count
    if (row.status === 'paid' || row.status === 'awaiting_stock') stats.inProgress += count
  }
  return stats
}

export interface OrderPageProduct {
  slug: string
  validity: string
  deliveryTime: string
}

/** What the order page says about the product bought, while the product exists. */
export async function getOrderPageProduct(
  db: DB,
  productId: string | null,
): Promise<OrderPageProduct | null> {
  if (!productId) return null
  const row = await db
    .selectFrom('product')
    .select(['slug', 'validity', 'deliveryTime'])
    .where('id', '=', productId)
    .executeTakeFirst()
  return row ?? null
}

/**
 * An order of the user's (the orders My Orders lists, `ownedBy`) that would still reach them:
 * paid and not delivered (`paid`, `awaiting_stock`), or one whose payment may still be
 * confirmed (`pending`, or `failed`/`expired` for a day after that). Deleting the account would
 * send its delivery to the anonymised address, so such an order holds the account back. An
 * order paid and not yet delivered is named first.
 */
export async function orderStillOpen(
  db: DB,
  userId: string,
  now: Date,
): Promise<{ id: string; waitsForDelivery: boolean } | null> {
  const lateSince = new Date(now.getTime() - LATE_PAYMENT_MS).toISOString()
  const rows = await db
    .selectFrom('order')
    .select(['order.id', 'order.status'])
    .where(ownedBy(userId))
    .where((eb) =>
      eb.or([
        eb('order.status', 'in', ['paid', 'awaiting_stock', 'pending']),
        eb.and([
          eb('order.status', 'in', ['failed', 'expired']),
          eb('order.updatedAt', '>', lateSince),
        ]),
      ]),
    )
    .orderBy('order.createdAt', 'desc')
    .execute()
  const paid = rows.find((row) => row.status === 'paid' || row.status === 'awaiting_stock')
  const first = paid ?? rows[0]
  return first ? { id: first.id, waitsForDelivery: Boolean(paid) } : null
}
