import type { DB } from '~/lib/db.server'
import { parseValidity, validityEnd } from '~/lib/validity'
import { PAID_STATUSES } from './order.server'

/**
 * The customer dashboard's overview beyond the order figures (customer-orders.server.ts):
 * what the customer saved, the subscriptions still running, and the recent events of their
 * orders. Only orders placed while signed in (`order.user_id`) count, as in My Orders.
 */

/**
 * Paise saved against the original (struck-through) prices: for each paid order that was not
 * refunded, the product's original price less what was paid, when that is positive. Orders
 * do not keep the original price, so the product's current one is used; an order of a
 * deleted product saved nothing that can be shown.
 */
export async function customerSavings(db: DB, userId: string): Promise<number> {
  const rows = await db
    .selectFrom('order')
    .innerJoin('product', 'product.id', 'order.productId')
    .select(['order.amount', 'order.paidAmount', 'product.originalPrice'])
    .where('order.userId', '=', userId)
    .where('order.status', 'in', PAID_STATUSES)
    .execute()
  let saved = 0
  for (const row of rows) {
    const paid = Number(row.paidAmount ?? row.amount)
    const original = Number(row.originalPrice)
    if (original > paid) saved += original - paid
  }
  return saved
}

export interface ActiveSubscription {
  orderId: string
  productName: string
  productSlug: string | null
  validity: string
  /** ISO: when the item was first delivered. */
  deliveredAt: string
  /** ISO: when its validity runs out. */
  expiresAt: string
}

/**
 * Delivered orders whose product's validity is a duration ("12 months") that has not run out
 * at `now`, soonest to expire first. The validity counts from the first delivery (a
 * replacement continues the same term). Open-ended validity ("Lifetime") is not listed.
 */
export async function activeSubscriptions(
  db: DB,
  userId: string,
  now: Date = new Date(),
): Promise<ActiveSubscription[]> {
  const rows = await db
    .selectFrom('order')
    .innerJoin('product', 'product.id', 'order.productId')
    .select((eb) => [
      'order.id',
      'order.productName',
      'order.paidAt',
      'product.slug',
      'product.validity',
      eb
        .selectFrom('orderEvent')
        .select((inner) => inner.fn.min<string>('orderEvent.createdAt').as('first'))
        .whereRef('orderEvent.orderId', '=', 'order.id')
        .where('orderEvent.type', '=', 'delivered')
        .as('deliveredAt'),
    ])
    .where('order.userId', '=', userId)
    .where('order.status', '=', 'delivered')
    .execute()
  const active: ActiveSubscription[] = []
  for (const row of rows) {
    const duration = parseValidity(row.validity)
    const started = row.deliveredAt ?? row.paidAt
    if (!duration || !started) continue
    const end = validityEnd(new Date(started), duration)
    if (end.getTime() <= now.getTime()) continue
    active.push({
      orderId: row.id,
      productName: row.productName,
      productSlug: row.slug,
      validity: row.validity,
      deliveredAt: new Date(started).toISOString(),
      expiresAt: end.toISOString(),
    })
  }
  return active.sort((a, b) => a.expiresAt.localeCompare(b.expiresAt) || a.orderId.localeCompare(b.orderId))
}

/** The order events a customer is shown, and their words. */
export const ACTIVITY_TYPES = ['paid', 'delivered', 'replaced', 'refunded', 'report_resolved'] as const
export type ActivityType = (typeof ACTIVITY_TYPES)[number]

export interface ActivityItem {
  id: number
  orderId: string
  productName: string
  type: ActivityType
  createdAt: string
}

/** The latest events of the customer's orders: paid, delivered, replaced, refunded, report answered. */
export async function recentActivity(db: DB, userId: string, limit = 8): Promise<ActivityItem[]> {
  const rows = await db
    .selectFrom('orderEvent')
    .innerJoin('order', 'order.id', 'orderEvent.orderId')
    .select([
      'orderEvent.id',
      'orderEvent.orderId',
      'orderEvent.type',
      'orderEvent.createdAt',
      'order.productName',
    ])
    .where('order.userId', '=', userId)
    .where('orderEvent.type', 'in', ACTIVITY_TYPES)
    .orderBy('orderEvent.createdAt', 'desc')
    .orderBy('orderEvent.id', 'desc')
    .limit(limit)
    .execute()
  return rows.map((row) => ({
    id: Number(row.id),
    orderId: row.orderId,
    productName: row.productName,
    type: row.type as ActivityType,
    createdAt: row.createdAt,
  }))
}
