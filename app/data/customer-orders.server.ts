import type { DB } from '~/lib/db.server'
import { PAID_STATUSES, SETTLED_STATUSES, type OrderStatus } from './order.server'

/**
 * A signed-in customer's own orders (My Orders, the dashboard) and what the order page shows
 * about the product bought (issue 7).
 *
 * "Own" means `order.user_id = user.id`: orders placed while signed in. Guest orders with the
 * same e-mail address are not matched, because an address typed at sign-up is not proven
 * (e-mail verification is off by default), and matching by it would hand anyone who signs up
 * with someone else's address that person's orders and delivered secrets. A guest order stays
 * reachable through its secret link (the e-mails) and this browser's order cookie.
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
}

export interface CustomerOrderPage {
  orders: CustomerOrderRow[]
  total: number
  /** The page shown (clamped to 1..pageCount). */
  page: number
  pageCount: number
}

function ordersOf(db: DB, userId: string) {
  return db.selectFrom('order').where('order.userId', '=', userId)
}

/** One page of the user's orders, newest first. */
export async function listCustomerOrders(
  db: DB,
  userId: string,
  options: { page?: number; pageSize?: number } = {},
): Promise<CustomerOrderPage> {
  const pageSize = Math.max(1, Math.min(100, Math.floor(options.pageSize ?? CUSTOMER_ORDERS_PAGE_SIZE)))
  const counted = await ordersOf(db, userId)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirst()
  const total = Number(counted?.count ?? 0)
  const pageCount = Math.max(1, Math.ceil(total / pageSize))
  const requested = Number.isFinite(options.page) ? Math.floor(options.page ?? 1) : 1
  const page = Math.min(Math.max(1, requested), pageCount)
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
    ])
    // (user_id, created_at) is indexed; the id breaks ties between orders of the same instant.
    .orderBy('order.createdAt', 'desc')
    .orderBy('order.id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute()
  return {
    orders: rows.map((row) => ({
      id: row.id,
      productName: row.productName,
      productSlug: row.productSlug ?? null,
      amount: Number(row.paidAmount ?? row.amount),
      status: row.status,
      createdAt: row.createdAt,
    })),
    total,
    page,
    pageCount,
  }
}

export interface CustomerOrderStats {
  /** Orders whose payment was confirmed (refunded ones included). */
  purchases: number
  /** Paise paid for orders that were not refunded. */
  spent: number
  /** Paid orders still waiting for delivery (out of stock, or fulfilled by hand). */
  inProgress: number
}

/** The dashboard's figures, from the user's own orders. */
export async function customerOrderStats(db: DB, userId: string): Promise<CustomerOrderStats> {
  const rows = await ordersOf(db, userId)
    .select((eb) => [
      'order.status',
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string | null>(eb.fn.coalesce('order.paidAmount', 'order.amount')).as('sum'),
    ])
    .where('order.status', 'in', SETTLED_STATUSES)
    .groupBy('order.status')
    .execute()
  const stats: CustomerOrderStats = { purchases: 0, spent: 0, inProgress: 0 }
  const paid: readonly OrderStatus[] = PAID_STATUSES
  for (const row of rows) {
    const count = Number(row.count)
    stats.purchases += count
    if (paid.includes(row.status)) stats.spent += Number(row.sum ?? 0)
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
export async function getOrderPageProduct(db: DB, productId: string | null): Promise<OrderPageProduct | null> {
  if (!productId) return null
  const row = await db
    .selectFrom('product')
    .select(['slug', 'validity', 'deliveryTime'])
    .where('id', '=', productId)
    .executeTakeFirst()
  return row ?? null
}
