import type { ExpressionBuilder } from 'kysely'
import type { DB } from '~/lib/db.server'
import { effectiveValidity, parseValidity, validityEnd } from '~/lib/validity'
import { ownedBy } from './customer-orders.server'
import { keptOf, realSale } from './user-admin.server'
import type { Database } from '../../db/schema'

/**
 * The customer dashboard's overview beyond the order figures (customer-orders.server.ts):
 * what the customer saved, the subscriptions still running, and the recent events of their
 * orders. The same orders count as in My Orders: those placed while signed in, and guest orders
 * placed with the account's verified address (`ownedBy` in customer-orders.server.ts).
 */

/**
 * Paise saved against the original (struck-through) prices: for each real sale (no simulated
 * payment, PAID_STATUSES: `realSale` in app/data/user-admin.server.ts, the rule of Total spent),
 * the product's original price less what was paid, when that is positive. A refund in part
 * leaves its order paid (docs/payments.md, "Refunds") but gave part of it back, so the saving
 * counts only for the share kept (what was paid less processed refunds, `keptOf`), as an order
 * refunded in full saves nothing. Orders do not keep the original price, so the product's
 * current one is used; an order of a deleted product saved nothing that can be shown.
 */
export async function customerSavings(db: DB, userId: string): Promise<number> {
  const rows = await db
    .selectFrom('order')
    .innerJoin('product', 'product.id', 'order.productId')
    .select((eb) => [
      'order.amount',
      'order.paidAmount',
      'product.originalPrice',
      keptOf(db, eb).as('kept'),
    ])
    .where(ownedBy(userId))
    .where(realSale)
    .execute()
  let saved = 0
  for (const row of rows) {
    const paid = Number(row.paidAmount ?? row.amount)
    const original = Number(row.originalPrice)
    if (original <= paid) continue
    const kept = Math.min(paid, Math.max(0, Number(row.kept)))
    saved += paid > 0 ? Math.round(((original - paid) * kept) / paid) : original - paid
  }
  return saved
}

export interface ActiveSubscription {
  orderId: string
  productName: string
  productSlug: string | null
  /** The validity the order was sold with, as shown ("1 Year" for a blank one). */
  validity: string
  /** ISO: when the item was first delivered. */
  deliveredAt: string
  /** ISO: when its validity runs out. */
  expiresAt: string
}

/** A delivered order with a validity that ends, and who bought it. */
export interface SubscriptionTerm extends ActiveSubscription {
  productId: string
  productSlug: string
  userId: string | null
  customerName: string
  customerEmail: string
  customerPhone: string
}

/**
 * Every delivered order whose validity is a duration ("12 months"), with the instant it ends:
 * the validity counts from the first delivery (a replacement continues the same term). It is the
 * validity the order was sold with (a later edit of the product changes no term), and a blank
 * one is DEFAULT_VALIDITY, "1 Year", as the storefront showed it (app/lib/validity.ts).
 * Open-ended validity ("Lifetime") and orders of deleted products are left out. The dashboard
 * (`activeSubscriptions`) and the expiry reminders (app/data/expiry-reminder.server.ts) read
 * terms only from here. `timeZone` is the shop's (Settings): the term is counted on its
 * calendar (`validityEnd`). `withoutReminder` leaves out orders that already had that reminder;
 * `realOnly`, orders paid in test mode (the demo's fictional buyers', a simulator purchase's).
 * `storedEndBetween` reads only orders whose end as the reminder check stored it
 * (`order.validityEndsAt`) is after `after` and not after `until`: the check's way of asking
 * for the few orders ending about now (their ends are then counted here again all the same).
 */
export async function subscriptionTerms(
  db: DB,
  options: {
    timeZone: string
    userId?: string
    withoutReminder?: string
    realOnly?: boolean
    storedEndBetween?: { after: string; until: string }
  },
): Promise<SubscriptionTerm[]> {
  let query = db
    .selectFrom('order')
    .innerJoin('product', 'product.id', 'order.productId')
    .select((eb) => [
      'order.id',
      'order.productName',
      'order.paidAt',
      'order.userId',
      'order.customerName',
      'order.customerEmail',
      'order.customerPhone',
      'product.id as productId',
      'product.slug',
      'order.validity as orderValidity',
      'product.validity as productValidity',
      firstDeliveredAt(eb).as('deliveredAt'),
    ])
    .where('order.status', '=', 'delivered')
  if (options.storedEndBetween) {
    query = query
      .where('order.validityEndsAt', '>', options.storedEndBetween.after)
      .where('order.validityEndsAt', '<=', options.storedEndBetween.until)
  }
  if (options.realOnly) query = query.where('order.testMode', '=', 0)
  if (options.userId !== undefined) query = query.where(ownedBy(options.userId))
  if (options.withoutReminder !== undefined) {
    const kind = options.withoutReminder
    query = query.where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('expiryReminder')
            .select('expiryReminder.orderId')
            .whereRef('expiryReminder.orderId', '=', 'order.id')
            .where('expiryReminder.kind', '=', kind),
        ),
      ),
    )
  }
  const terms: SubscriptionTerm[] = []
  for (const row of await query.execute()) {
    const term = termOf(row, options.timeZone)
    if (!term) continue
    terms.push({
      orderId: row.id,
      productId: row.productId,
      productName: row.productName,
      productSlug: row.slug,
      ...term,
      userId: row.userId,
      customerName: row.customerName,
      customerEmail: row.customerEmail,
      customerPhone: row.customerPhone,
    })
  }
  return terms
}

/** When the order in the query (`order`) was first delivered: its term counts from then. */
export function firstDeliveredAt(eb: ExpressionBuilder<Database, 'order'>) {
  return eb
    .selectFrom('orderEvent')
    .select((inner) => inner.fn.min<string>('orderEvent.createdAt').as('first'))
    .whereRef('orderEvent.orderId', '=', 'order.id')
    .where('orderEvent.type', '=', 'delivered')
}

/**
 * An order's term as `subscriptionTerms` counts it in the shop's `timeZone`: the validity it was
 * sold with (the product's current one only for an order that kept none), from its first
 * delivery (or its payment, for an order with no delivery recorded). Null when it never ends.
 */
export function termOf(
  row: {
    orderValidity: string | null
    productValidity: string | null
    deliveredAt: string | null
    paidAt: string | null
  },
  timeZone: string,
): Pick<SubscriptionTerm, 'validity' | 'deliveredAt' | 'expiresAt'> | null {
  const validity = effectiveValidity(row.orderValidity ?? row.productValidity)
  const duration = parseValidity(validity)
  const started = row.deliveredAt ?? row.paidAt
  if (!duration || !started) return null
  return {
    validity,
    deliveredAt: new Date(started).toISOString(),
    expiresAt: validityEnd(new Date(started), duration, timeZone).toISOString(),
  }
}

/**
 * The customer's delivered orders whose validity has not run out at `now`, soonest to expire
 * first, their terms counted in the shop's `timeZone` (see `subscriptionTerms`).
 */
export async function activeSubscriptions(
  db: DB,
  userId: string,
  options: { timeZone: string; now?: Date },
): Promise<ActiveSubscription[]> {
  const now = options.now ?? new Date()
  const terms = await subscriptionTerms(db, { timeZone: options.timeZone, userId })
  return terms
    .filter((term) => Date.parse(term.expiresAt) > now.getTime())
    .map((term) => ({
      orderId: term.orderId,
      productName: term.productName,
      productSlug: term.productSlug,
      validity: term.validity,
      deliveredAt: term.deliveredAt,
      expiresAt: term.expiresAt,
    }))
    .sort((a, b) => a.expiresAt.localeCompare(b.expiresAt) || a.orderId.localeCompare(b.orderId))
}

/**
 * The order events a customer is shown (their words: ACTIVITY_WORDS in
 * app/routes/account/dashboard.tsx). Only events the buyer is told of: the payment, the
 * delivery, a replacement, a refund in full (`refunded`) or in part (`refund_processed`, which
 * the buyer is e-mailed), an answer to their report. The shop's own entries (refunds asked for
 * or failed, warnings, payment checks, mails resent or lost: `mail_failed`) stay on the admin's
 * order page, and no event's message is shown: it may hold the admin's note or the gateway's
 * words.
 */
export const ACTIVITY_TYPES = [
  'paid',
  'delivered',
  'replaced',
  'refunded',
  'refund_processed',
  'report_resolved',
] as const
export type ActivityType = (typeof ACTIVITY_TYPES)[number]

export interface ActivityItem {
  id: number
  orderId: string
  productName: string
  type: ActivityType
  /** Paise given back, for a refund in part (`refund_processed`) whose entry records it. */
  amount: number | null
  createdAt: string
}

/** Paise of a refund entry's data (`{ amount }`, app/services/payment/refunds.server.ts), or null. */
function refundAmountOf(data: string | null): number | null {
  if (!data) return null
  try {
    const amount = Number((JSON.parse(data) as { amount?: unknown } | null)?.amount ?? Number.NaN)
    return Number.isSafeInteger(amount) && amount > 0 ? amount : null
  } catch {
    return null
  }
}

/**
 * The latest events of the customer's orders: paid, delivered, replaced, refunded (in full or in
 * part), report answered.
 */
export async function recentActivity(db: DB, userId: string, limit = 8): Promise<ActivityItem[]> {
  const rows = await db
    .selectFrom('orderEvent')
    .innerJoin('order', 'order.id', 'orderEvent.orderId')
    .select([
      'orderEvent.id',
      'orderEvent.orderId',
      'orderEvent.type',
      'orderEvent.data',
      'orderEvent.createdAt',
      'order.productName',
    ])
    .where(ownedBy(userId))
    .where('orderEvent.type', 'in', ACTIVITY_TYPES)
    .orderBy('orderEvent.createdAt', 'desc')
    .orderBy('orderEvent.id', 'desc')
    .limit(limit)
    .execute()
  return rows.map((row) => {
    const type = row.type as ActivityType
    return {
      id: Number(row.id),
      orderId: row.orderId,
      productName: row.productName,
      type,
      // Only the amount is read from the entry's data: nothing else of it is the buyer's to see.
      amount: type === 'refund_processed' ? refundAmountOf(row.data) : null,
      createdAt: row.createdAt,
    }
  })
}
