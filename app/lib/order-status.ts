import { href } from 'react-router'
import type { OrderStatus } from '../../db/schema'

/**
 * The order statuses, in the order the back office lists and counts them. Browser safe: the
 * admin's and the buyer's pages name them in their own words (app/routes/admin/orders/
 * order-status.tsx, app/components/orders/order-status.tsx); this is the one list.
 */
export type { OrderStatus }

export const ORDER_STATUSES = [
  'pending',
  'paid',
  'delivered',
  'awaiting_stock',
  'failed',
  'expired',
  'refunded',
] as const satisfies readonly OrderStatus[]

// A status added to the schema but not here fails to compile.
type Missing = Exclude<OrderStatus, (typeof ORDER_STATUSES)[number]>
const complete: [Missing] extends [never] ? true : never = true
void complete

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value)
}

/**
 * Where a buyer's order lives, its invoice and credit notes, and the back office's page of the
 * same order.
 * href() puts a parameter in as given, so the order id is percent-encoded first.
 */
export const orderPath = (orderId: string) =>
  href('/orders/:orderId', { orderId: encodeURIComponent(orderId) })
export const invoicePath = (orderId: string) =>
  href('/orders/:orderId/invoice.pdf', { orderId: encodeURIComponent(orderId) })
export const creditNotePath = (orderId: string, creditNoteId: string) =>
  href('/orders/:orderId/credit-notes/:creditNoteId', {
    orderId: encodeURIComponent(orderId),
    creditNoteId: encodeURIComponent(creditNoteId),
  })
export const adminOrderPath = (orderId: string) =>
  href('/admin/orders/:orderId', { orderId: encodeURIComponent(orderId) })

/** The payment result page, for one order when the gateway named it. */
export function paymentResultPath(orderId: string | null): string {
  const page = href('/payment/callback')
  return orderId ? `${page}?ORDERID=${encodeURIComponent(orderId)}` : page
}

/**
 * What a buyer is told of a paid order whose product was deleted before the payment landed: the
 * shop decides between delivering it by hand and refunding (app/services/fulfilment.server.ts).
 * The order page and the 'payment received' mail say the same.
 */
export const PAID_PRODUCT_GONE =
  'This product is no longer on sale, so the shop will contact you shortly to deliver it another way or refund your payment in full.'
