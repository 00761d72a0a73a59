import crypto from 'node:crypto'
import { sql, type Selectable, type Transaction } from 'kysely'
import { randomToken, safeEqual, sha256Hex } from '~/lib/crypto.server'
import type { DB } from '~/lib/db.server'
import { toFlag } from '~/lib/db.server'
import { formatRupees } from '~/lib/money'
import { isForeignKeyViolation, isUniqueViolation } from './db-errors.server'
import { appendOrderEvent, type EventInput } from './order-event.server'
import type { Database, OrderStatus, OrderTable } from '../../db/schema'

/**
 * Orders (also the transaction record) and their timeline.
 *
 * - The amount comes from the database (the product's price, or a payment link's amount),
 *   never from a form.
 * - Ids are ORD_{timestamp}_{0-999}, made unique by inserting with ON CONFLICT DO NOTHING and
 *   trying another id when one is taken.
 * - Each order has a secret access token for its page (guests included). Only its SHA-256 is
 *   stored; the token is returned once, by createOrder.
 * - Status changes are compare-and-set: one UPDATE ... WHERE status = <the status read>, so two
 *   callbacks (or a callback and the reconciliation job) arriving together change an order
 *   once, on SQLite and on PostgreSQL alike. Every change appends an order_event in the same
 *   transaction.
 */

export type { OrderStatus }
export { appendOrderEvent, type EventInput }

/**
 * A write to order rows that changes nothing, as the first statement of a transaction that
 * works on an order: PostgreSQL locks the rows to the commit, so two transactions on one order
 * take turns and the second reads what the first left (on SQLite every transaction holds the
 * single write lock from its start, app/lib/db.server.ts). The caller says which orders (`where`) and what it reads
 * back (`returning`).
 */
export function takeOrderRows(trx: DB) {
  return trx.updateTable('order').set((eb) => ({ updatedAt: eb.ref('updatedAt') }))
}

/** Money received and kept: these orders count as sales. */
export const PAID_STATUSES = [
  'paid',
  'delivered',
  'awaiting_stock',
] as const satisfies readonly OrderStatus[]
/** A payment was confirmed; nothing a gateway reports later may move the order back. */
export const SETTLED_STATUSES = [
  'paid',
  'delivered',
  'awaiting_stock',
  'refunded',
] as const satisfies readonly OrderStatus[]
/**
 * How long after an order's payment failed or expired a confirmation may still pay it (money
 * taken late is honoured, docs/payments.md "Statuses"; the payment page watches that long too).
 */
export const LATE_PAYMENT_MS = 24 * 60 * 60 * 1000
/** States a confirmed payment may still move to paid: money taken late must be honoured. */
export const PAYABLE_STATUSES = [
  'pending',
  'failed',
  'expired',
] as const satisfies readonly OrderStatus[]

/** An order as the app reads it: its row less the access token's hash, the 0/1 flag a boolean. */
export type Order = Omit<Selectable<OrderTable>, 'accessTokenHash' | 'testMode'> & {
  testMode: boolean
}

export interface OrderEvent {
  id: number
  orderId: string
  type: string
  fromStatus: string | null
  toStatus: string | null
  message: string
  data: unknown
  actor: string
  createdAt: string
}

/** What the order is for, who placed it and through which gateway: set when it is placed. */
const placedColumns = [
  'productId',
  'productName',
  'amount',
  'customerName',
  'customerEmail',
  'customerPhone',
  'userId',
  'paymentLinkId',
  'gateway',
  'testMode',
  // The term sold (docs/notifications.md): a later edit of the product does not change it.
  'validity',
] as const

const orderColumns = [
  'id',
  'status',
  ...placedColumns,
  'gatewayTxnId',
  'gatewayOrderId',
  'bankTxnId',
  'paymentMode',
  'paidAmount',
  'gatewayStatus',
  'gatewayRespCode',
  'gatewayRespMsg',
  'statusChecks',
  'lastStatusCheckAt',
  'createdAt',
  'updatedAt',
  'paidAt',
] as const

type OrderRow = Pick<Selectable<OrderTable>, (typeof orderColumns)[number]>

function toOrder(row: OrderRow): Order {
  return {
    ...row,
    // PostgreSQL and SQLite both return integers as numbers here; Number() keeps that honest.
    amount: Number(row.amount),
    paidAmount: row.paidAmount === null ? null : Number(row.paidAmount),
    statusChecks: Number(row.statusChecks),
    testMode: Boolean(row.testMode),
  }
}

export type OrderErrorCode =
  | 'product-not-found'
  | 'out-of-stock'
  | 'not-in-test-mode'
  | 'link-closed'
  | 'price-changed'
  | 'id-exhausted'

/** An order that cannot be created; `message` is fit for the buyer. */
export class OrderError extends Error {
  override name = 'OrderError'
  constructor(
    readonly code: OrderErrorCode,
    message: string,
  ) {
    super(message)
  }
}

export const ORDER_MESSAGES = {
  productNotFound: 'Product not found',
  outOfStock: 'This product is out of stock.',
  notInTestMode:
    'This product cannot be bought yet: the shop is in test mode and sells it only for real payments. Please try again later.',
  /** A payment link cancelled or paid (also PAYMENT_LINK_MESSAGES.cancelled). */
  linkClosed: 'This payment link is no longer active.',
  /** The product's price changed after the buyer's page showed it (NewOrder.shownPrice). */
  priceChanged: (price: number) =>
    `The price of this product has changed to ${formatRupees(price)}. Check the new price and press Pay again; your details are kept.`,
} as const

/** ORD_{timestamp}_{random 0-999}. */
export function newOrderId(
  now: number,
  random: () => number = () => crypto.randomInt(1000),
): string {
  return `ORD_${now}_${random()}`
}

export interface CustomerDetails {
  name: string
  email: string
  /** Ten digits. */
  phone: string
}

export interface NewOrder {
  productId: string
  customer: CustomerDetails
  userId?: string | null
  gateway?: string
  testMode?: boolean
  /** For a payment link: its id and amount (the link decides the price, not the product). */
  paymentLink?: { id: string; amount: number; preferredOrderId: string } | null
  /** Who asked for it, for the timeline: customer, or user:{id} for an admin. */
  actor?: string
  /**
   * The price in paise the buyer's page showed next to Pay. When given (and the order is not
   * a payment link's), an order is taken only at that price: a price changed since (a sale
   * ending) refuses it with 'price-changed' rather than charging another amount than shown.
   */
  shownPrice?: number | null
}

export interface CreateOrderOptions<T> {
  /**
   * Runs inside the order's transaction, after the insert (e.g. enqueue the reconciliation job
   * and sign the gateway request). If it throws, the order is not created.
   */
  prepare?: (trx: Transaction<Database>, order: Order) => Promise<T> | T
  now?: () => number
  random?: () => number
}

export interface CreatedOrder<T> {
  order: Order
  /** The order page's secret, shown to the buyer once; only its hash is stored. */
  accessToken: string
  prepared: T
}

const ID_ATTEMPTS = 25

/**
 * Creates a pending order at the database's price. Throws OrderError for a missing or
 * out-of-stock product: inStock off, or a `stock` product with no available item.
 */
export async function createOrder<T = undefined>(
  db: DB,
  input: NewOrder,
  options: CreateOrderOptions<T> = {},
): Promise<CreatedOrder<T>> {
  const clock = options.now ?? Date.now
  const accessToken = randomToken()
  const link = input.paymentLink ?? null
  // A test-mode order is delivered only from test items and never gets a shared secret
  // (docs/delivery.md, Test mode), so it is taken only when it can be delivered that way.
  const testMode = input.testMode ?? false
  const shownPrice = link ? null : (input.shownPrice ?? null)
  const creating = db.transaction().execute(async (trx) => {
    let row: OrderRow | undefined
    let createdAt = ''
    for (let attempt = 0; attempt < ID_ATTEMPTS && !row; attempt++) {
      const now = clock()
      const candidate =
        attempt === 0 && link ? link.preferredOrderId : newOrderId(now, options.random)
      createdAt = new Date(now).toISOString()
      // INSERT ... SELECT: the price, name and validity come from the product row in the same
      // statement, with no read before it. The parameters are cast so PostgreSQL knows their
      // types.
      row = await trx
        .insertInto('order')
        .columns(['id', ...placedColumns, 'accessTokenHash', 'createdAt', 'updatedAt'])
        .expression((eb) =>
          eb
            .selectFrom('product')
            .select([
              sql<string>`cast(${candidate} as text)`.as('id'),
              'product.id as productId',
              'product.title as productName',
              link
                ? sql<number>`cast(${link.amount} as integer)`.as('amount')
                : 'product.price as amount',
              sql<string>`cast(${input.customer.name} as text)`.as('customerName'),
              sql<string>`cast(${input.customer.email} as text)`.as('customerEmail'),
              sql<string>`cast(${input.customer.phone} as text)`.as('customerPhone'),
              sql<string | null>`cast(${input.userId ?? null} as text)`.as('userId'),
              sql<string | null>`cast(${link?.id ?? null} as text)`.as('paymentLinkId'),
              sql<string>`cast(${input.gateway ?? 'paytm'} as text)`.as('gateway'),
              sql<number>`cast(${toFlag(testMode)} as integer)`.as('testMode'),
              'product.validity as validity',
              sql<string>`cast(${sha256Hex(accessToken)} as text)`.as('accessTokenHash'),
              sql<string>`cast(${createdAt} as text)`.as('createdAt'),
              sql<string>`cast(${createdAt} as text)`.as('updatedAt'),
            ])
            .where('product.id', '=', input.productId)
            .where('product.inStock', '=', 1)
            .$if(shownPrice !== null, (qb) => qb.where('product.price', '=', shownPrice!))
            .$if(testMode, (qb) => qb.where('product.deliveryMode', '!=', 'shared'))
            // A payment link still open: one cancelled (or paid) since it was checked takes
            // no new attempt (docs/payments.md).
            .$if(link !== null, (qb) =>
              qb.where((eb) =>
                eb.exists(
                  eb
                    .selectFrom('paymentLink')
                    .select('paymentLink.id')
                    .where('paymentLink.id', '=', link!.id)
                    .where('paymentLink.status', '=', 'active'),
                ),
              ),
            )
            // A `stock` product without an available item (of the order's kind) would only take orders to wait.
            .where((eb) =>
              eb.or([
                eb('product.deliveryMode', '!=', 'stock'),
                eb.exists(
                  eb
                    .selectFrom('stockItem')
                    .select('stockItem.id')
                    .whereRef('stockItem.productId', '=', 'product.id')
                    .where('stockItem.testItem', '=', toFlag(testMode))
                    .where('stockItem.status', '=', 'available'),
                ),
              ]),
            ),
        )
        // A taken id (two orders in the same millisecond drew the same number) is tried again.
        .onConflict((oc) => oc.column('id').doNothing())
        .returning(orderColumns)
        .executeTakeFirst()
      if (!row) {
        // Nothing inserted: the product is missing or out of stock, or the id was taken.
        const product = await trx
          .selectFrom('product')
          .select((eb) => [
            'inStock',
            'deliveryMode',
            'price',
            eb
              .exists(
                eb
                  .selectFrom('stockItem')
                  .select('stockItem.id')
                  .whereRef('stockItem.productId', '=', 'product.id')
                  .where('stockItem.testItem', '=', toFlag(testMode))
                  .where('stockItem.status', '=', 'available'),
              )
              .as('hasStock'),
            eb
              .exists(
                eb
                  .selectFrom('stockItem')
                  .select('stockItem.id')
                  .whereRef('stockItem.productId', '=', 'product.id')
                  .where('stockItem.status', '=', 'available'),
              )
              .as('hasAnyStock'),
          ])
          .where('id', '=', input.productId)
          .executeTakeFirst()
        if (!product) throw new OrderError('product-not-found', ORDER_MESSAGES.productNotFound)
        if (link && !(await linkStillOpen(trx, link.id)))
          throw new OrderError('link-closed', ORDER_MESSAGES.linkClosed)
        if (
          product.inStock &&
          testMode &&
          (product.deliveryMode === 'shared' ||
            (product.deliveryMode === 'stock' && !product.hasStock && product.hasAnyStock))
        ) {
          throw new OrderError('not-in-test-mode', ORDER_MESSAGES.notInTestMode)
        }
        if (!product.inStock || (product.deliveryMode === 'stock' && !product.hasStock)) {
          throw new OrderError('out-of-stock', ORDER_MESSAGES.outOfStock)
        }
        if (shownPrice !== null && product.price !== shownPrice) {
          throw new OrderError('price-changed', ORDER_MESSAGES.priceChanged(product.price))
        }
      }
    }
    if (!row) throw new OrderError('id-exhausted', 'Could not allocate an order id')
    const created = toOrder(row)

    await appendOrderEvent(
      trx,
      created.id,
      {
        type: 'created',
        to: 'pending',
        message: `Order created for ${created.productName}`,
        data: { amount: created.amount, paymentLinkId: link?.id ?? null },
        actor: input.actor ?? 'customer',
      },
      createdAt,
    )

    const prepared = (options.prepare ? await options.prepare(trx, created) : undefined) as T
    return { order: created, accessToken, prepared }
  })
  return creating.catch(productGone)
}

async function linkStillOpen(db: DB, linkId: string): Promise<boolean> {
  const row = await db
    .selectFrom('paymentLink')
    .select('id')
    .where('id', '=', linkId)
    .where('status', '=', 'active')
    .executeTakeFirst()
  return Boolean(row)
}

/**
 * A product deleted while its order was being inserted: on PostgreSQL the insert read the
 * product, then its foreign key waited for the delete (lockProduct, app/data/product.server.ts)
 * and failed. The buyer is told the product is gone, as if the delete had come first.
 */
function productGone(error: unknown): never {
  if (isForeignKeyViolation(error, 'order_product_id_fkey'))
    throw new OrderError('product-not-found', ORDER_MESSAGES.productNotFound)
  throw error
}

export async function getOrder(db: DB, id: string): Promise<Order | null> {
  const row = await db
    .selectFrom('order')
    .select(orderColumns)
    .where('id', '=', id)
    .executeTakeFirst()
  return row ? toOrder(row) : null
}

/** The order and the hash of its access token, in one query (for pages that check access). */
export async function getOrderWithAccessHash(
  db: DB,
  id: string,
): Promise<{ order: Order; accessTokenHash: string } | null> {
  const row = await db
    .selectFrom('order')
    .select([...orderColumns, 'accessTokenHash'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) return null
  const { accessTokenHash, ...rest } = row
  return { order: toOrder(rest), accessTokenHash }
}

/**
 * True when `token` opens this order: the checkout's token (its hash is on the order, compared
 * in constant time) or one issued later, e.g. by a delivery e-mail (order_access_token).
 */
export async function orderTokenMatches(
  db: DB,
  orderId: string,
  token: string,
  accessTokenHash?: string,
): Promise<boolean> {
  if (!token || token.length > 200) return false
  const hash = sha256Hex(token)
  const checkoutHash =
    accessTokenHash ??
    (
      await db
        .selectFrom('order')
        .select('accessTokenHash')
        .where('id', '=', orderId)
        .executeTakeFirst()
    )?.accessTokenHash
  if (checkoutHash === undefined) return false
  if (safeEqual(checkoutHash, hash)) return true
  // Looked up by the hash of a 256-bit random token: timing reveals nothing about a valid one.
  const issued = await db
    .selectFrom('orderAccessToken')
    .select('orderId')
    .where('tokenHash', '=', hash)
    .executeTakeFirst()
  return issued !== undefined && safeEqual(issued.orderId, orderId)
}

/**
 * A new secret link token for the order page (only its SHA-256 is stored). Delivery e-mails
 * call this when they are sent, so the token never sits in the outbox.
 */
export async function issueOrderAccessToken(
  db: DB,
  orderId: string,
  purpose: string,
  now = new Date(),
): Promise<string> {
  const token = randomToken()
  await db
    .insertInto('orderAccessToken')
    .values({ tokenHash: sha256Hex(token), orderId, purpose, createdAt: now.toISOString() })
    .execute()
  return token
}

/**
 * Makes every link to the order page that a mail gave out stop opening it, for a replacement
 * (docs/delivery.md, "Order page access"): the details were replaced because someone else may
 * hold the old ones, and may hold an old mail's link too (a forwarded mail, or the `kb.orders`
 * cookie of a browser that opened it). The checkout's own token stays: it lives only in the
 * browser that paid, and is a guest's one way back when the address typed at checkout was wrong
 * (the replacement's mail goes there too). Call it in the replacement's transaction, before the
 * replacement's mail is queued: that mail issues a fresh token when it is sent, after the
 * commit. The signed-in owner and admins are not held up.
 */
export async function revokeOrderAccessTokens(trx: DB, orderId: string): Promise<void> {
  await trx.deleteFrom('orderAccessToken').where('orderId', '=', orderId).execute()
}

export async function listOrderEvents(db: DB, orderId: string): Promise<OrderEvent[]> {
  const rows = await db
    .selectFrom('orderEvent')
    .select([
      'id',
      'orderId',
      'type',
      'fromStatus',
      'toStatus',
      'message',
      'data',
      'actor',
      'createdAt',
    ])
    .where('orderId', '=', orderId)
    .orderBy('id')
    .execute()
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    data: row.data ? (JSON.parse(row.data) as unknown) : null,
  }))
}

/** The newest timeline entry's type, to avoid repeating the same warning on every check. */
export async function lastOrderEventType(db: DB, orderId: string): Promise<string | null> {
  const row = await db
    .selectFrom('orderEvent')
    .select('type')
    .where('orderId', '=', orderId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row?.type ?? null
}

type OrderChanges = Partial<
  Pick<
    Order,
    | 'gatewayTxnId'
    | 'bankTxnId'
    | 'paymentMode'
    | 'paidAmount'
    | 'gatewayStatus'
    | 'gatewayRespCode'
    | 'gatewayRespMsg'
    | 'paidAt'
  >
>

export interface Transition {
  /** Statuses the order may be in for the change to apply. */
  from: readonly OrderStatus[]
  /** The status the caller just read: tried first, saving a read (a wrong guess only costs a retry). */
  expected?: OrderStatus
  /** The change follows a status API answer: count the check in the same UPDATE. */
  countsStatusCheck?: boolean
  to: OrderStatus
  changes?: OrderChanges
  event: EventInput
  /** More writes in the same transaction, only when the change applied. */
  also?: (
    trx: Transaction<Database>,
    previous: { status: OrderStatus; paymentLinkId: string | null; testMode: boolean },
  ) => Promise<void>
}

export type TransitionResult =
  | { changed: true; from: OrderStatus; status: OrderStatus }
  | { changed: false; status: OrderStatus | null }

/**
 * Moves an order from one of `from` to `to`, once. Reads the status, then updates only if it
 * is still that status (compare-and-set); a concurrent change makes the update miss, and the
 * loop reads again and decides again. Returns whether this call made the change.
 */
export async function transitionOrder(
  db: DB,
  orderId: string,
  transition: Transition,
  now = new Date(),
): Promise<TransitionResult> {
  let guess =
    transition.expected && transition.from.includes(transition.expected)
      ? transition.expected
      : undefined
  for (let attempt = 0; attempt < 6; attempt++) {
    let expected: OrderStatus
    if (guess) {
      expected = guess
      guess = undefined
    } else {
      const current = await db
        .selectFrom('order')
        .select('status')
        .where('id', '=', orderId)
        .executeTakeFirst()
      if (!current) return { changed: false, status: null }
      if (!transition.from.includes(current.status))
        return { changed: false, status: current.status }
      expected = current.status
    }
    const at = now.toISOString()
    const changed = await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('order')
        .set((eb) => ({
          ...transition.changes,
          status: transition.to,
          updatedAt: at,
          ...(transition.countsStatusCheck
            ? { statusChecks: eb('statusChecks', '+', 1), lastStatusCheckAt: at }
            : {}),
        }))
        .where('id', '=', orderId)
        .where('status', '=', expected)
        .returning(['paymentLinkId', 'testMode'])
        .executeTakeFirst()
      if (!updated) return false
      const current = {
        status: expected,
        paymentLinkId: updated.paymentLinkId,
        testMode: Boolean(updated.testMode),
      }
      await appendOrderEvent(
        trx,
        orderId,
        { ...transition.event, from: expected, to: transition.to },
        at,
      )
      await transition.also?.(trx, current)
      return true
    })
    if (changed) return { changed: true, from: expected, status: transition.to }
  }
  const latest = await db
    .selectFrom('order')
    .select('status')
    .where('id', '=', orderId)
    .executeTakeFirst()
  return { changed: false, status: latest?.status ?? null }
}

export interface ConfirmedPayment {
  /**
   * The gateway's own word for the payment, kept as its last answer on the order page: Paytm's
   * TXN_SUCCESS, Razorpay's captured, PhonePe's COMPLETED.
   */
  status: string
  txnId: string
  bankTxnId: string | null
  paymentMode: string | null
  /** Paise the gateway confirmed; the caller has checked it equals the order's amount. */
  paidAmount: number
  respCode: string
  respMsg: string
}

/** Thrown when a gateway transaction id already paid another order (the unique constraint). */
export class DuplicateTransactionError extends Error {
  override name = 'DuplicateTransactionError'
}

/** The timeline entry of a change, and what the caller knows that saves work. */
export interface ChangeDetails {
  message: string
  data?: unknown
  actor?: string
  /** The status the caller just read (see Transition.expected). */
  expected?: OrderStatus
  /** The change follows a status API answer (see Transition.countsStatusCheck). */
  countsStatusCheck?: boolean
}

function eventOf(type: string, details: ChangeDetails): EventInput {
  return { type, message: details.message, data: details.data, actor: details.actor }
}

/**
 * pending | failed | expired -> paid, once; a payment link it came from is marked paid too.
 * `deliver` runs in the same transaction: app/services/fulfilment.server.ts's markOrderPaid
 * passes the delivery, so a payment never commits without it. It learns whether the link had
 * already been paid through another of its orders (a late approval of an earlier attempt): the
 * customer then paid twice, which the timeline says and the shop must be told.
 */
export async function recordOrderPaid(
  db: DB,
  orderId: string,
  payment: ConfirmedPayment,
  event: ChangeDetails,
  now: Date,
  deliver: (
    trx: Transaction<Database>,
    paid: { linkPaidBefore: boolean; testMode: boolean },
  ) => Promise<void>,
): Promise<TransitionResult> {
  try {
    return await transitionOrder(
      db,
      orderId,
      {
        from: PAYABLE_STATUSES,
        expected: event.expected,
        countsStatusCheck: event.countsStatusCheck,
        to: 'paid',
        changes: {
          gatewayTxnId: payment.txnId,
          bankTxnId: payment.bankTxnId,
          paymentMode: payment.paymentMode,
          paidAmount: payment.paidAmount,
          gatewayStatus: payment.status.slice(0, 60),
          gatewayRespCode: payment.respCode,
          gatewayRespMsg: payment.respMsg,
          paidAt: now.toISOString(),
        },
        event: eventOf('paid', event),
        async also(trx, previous) {
          let linkPaidBefore = false
          if (previous.paymentLinkId) {
            const marked = await trx
              .updateTable('paymentLink')
              .set({ status: 'paid', updatedAt: now.toISOString() })
              .where('id', '=', previous.paymentLinkId)
              // Cancelled while its customer was already paying: the money came, so it is paid.
              .where('status', 'in', ['active', 'cancelled'])
              .executeTakeFirst()
            linkPaidBefore = Number(marked.numUpdatedRows) === 0
            if (linkPaidBefore)
              await appendOrderEvent(trx, orderId, {
                type: 'link_paid_twice',
                message:
                  'Its payment link had already been paid through another order: the customer paid twice. Refund one of the two payments.',
                actor: 'system',
              })
          }
          // Delivery commits with the payment: paid -> delivered (or awaiting_stock) in one transaction.
          await deliver(trx, { linkPaidBefore, testMode: previous.testMode })
        },
      },
      now,
    )
  } catch (error) {
    if (isUniqueViolation(error))
      throw new DuplicateTransactionError(
        `Gateway transaction ${payment.txnId} already paid another order`,
      )
    throw error
  }
}

/** pending -> failed, once. */
export async function markOrderFailed(
  db: DB,
  orderId: string,
  gateway: { status: string; respCode: string; respMsg: string },
  event: ChangeDetails,
  now = new Date(),
): Promise<TransitionResult> {
  return transitionOrder(
    db,
    orderId,
    {
      from: ['pending'],
      to: 'failed',
      expected: event.expected,
      countsStatusCheck: event.countsStatusCheck,
      changes: {
        gatewayStatus: gateway.status,
        gatewayRespCode: gateway.respCode,
        gatewayRespMsg: gateway.respMsg,
      },
      event: eventOf('failed', event),
    },
    now,
  )
}

/** pending -> expired, once (no final answer from the gateway within the reconciliation window). */
export async function markOrderExpired(
  db: DB,
  orderId: string,
  message: string,
  now = new Date(),
): Promise<TransitionResult> {
  return transitionOrder(
    db,
    orderId,
    { from: ['pending'], to: 'expired', event: { type: 'expired', message } },
    now,
  )
}

/**
 * Takes the turn to ask the gateway about an order now: true for one caller per `intervalMs`,
 * whoever else asks at the same moment (compare-and-set on last_status_check_at, stamped before
 * the call, so a call that times out counts as well).
 */
export async function claimStatusCheck(
  db: DB,
  orderId: string,
  now: Date,
  intervalMs: number,
): Promise<boolean> {
  const since = new Date(now.getTime() - intervalMs).toISOString()
  const claimed = await db
    .updateTable('order')
    .set({ lastStatusCheckAt: now.toISOString() })
    .where('id', '=', orderId)
    .where((eb) =>
      eb.or([eb('lastStatusCheckAt', 'is', null), eb('lastStatusCheckAt', '<=', since)]),
    )
    .returning('id')
    .executeTakeFirst()
  return Boolean(claimed)
}

/** Records that the gateway was asked (no status change): the count, the time and its answer. */
export async function recordStatusCheck(
  db: DB,
  orderId: string,
  answer: { status: string; respCode: string; respMsg: string } | null,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable('order')
    .set((eb) => ({
      statusChecks: eb('statusChecks', '+', 1),
      lastStatusCheckAt: now.toISOString(),
      ...(answer
        ? {
            gatewayStatus: answer.status,
            gatewayRespCode: answer.respCode,
            gatewayRespMsg: answer.respMsg.slice(0, 500),
          }
        : {}),
    }))
    .where('id', '=', orderId)
    // A settled order keeps the gateway's record of its payment.
    .where('status', 'in', PAYABLE_STATUSES)
    .execute()
}

/**
 * A gateway's successful payments (paid and beyond; fully refunded orders excluded) and their sum
 * in paise, less what partial refunds gave back: real payments and test-mode ones (a built-in
 * simulator or the gateway's own test environment, no real money) apart, never added together.
 */
export interface GatewayTotals {
  /** Real payments: money that reached the shop. */
  transactions: number
  revenue: number
  /** Test-mode payments. */
  testTransactions: number
  testRevenue: number
}

/**
 * Refunds that gave money back: processed ones (requested, pending and failed ones gave nothing
 * back yet). A partial refund leaves its order paid or delivered (docs/payments.md, "Refunds"),
 * yet what went back is not revenue, so every figure that sums what orders in PAID_STATUSES
 * brought in subtracts these refunds of those same orders: the gateways' revenue
 * (`gatewayTotals`), the admin dashboard's revenue (app/data/dashboard.server.ts), a user's
 * total spent in the back office (app/data/user-admin.server.ts) and on their own dashboard,
 * with what they saved (app/data/customer-orders.server.ts, customer-overview.server.ts). A
 * refund in full turns its order refunded, which PAID_STATUSES leaves out already, so nothing is
 * taken off twice.
 */
export function processedRefunds(db: DB) {
  return db.selectFrom('orderRefund').where('orderRefund.status', '=', 'processed')
}

/**
 * Transactions and revenue per gateway, from the orders (spec: gateway figures), real and test
 * mode apart (GatewayTotals).
 */
export async function gatewayTotals(db: DB): Promise<Record<string, GatewayTotals>> {
  const [rows, refunds] = await Promise.all([
    db
      .selectFrom('order')
      .select((eb) => [
        'gateway',
        'testMode',
        eb.fn.countAll<number | string>().as('count'),
        eb.fn.sum<number | string | null>('amount').as('sum'),
      ])
      .where('status', 'in', PAID_STATUSES)
      .groupBy(['gateway', 'testMode'])
      .execute(),
    // What partial refunds of paid orders gave back is not revenue (processedRefunds).
    processedRefunds(db)
      .innerJoin('order', 'order.id', 'orderRefund.orderId')
      .where('order.status', 'in', PAID_STATUSES)
      .select((eb) => [
        'order.gateway',
        'order.testMode',
        eb.fn.sum<number | string | null>('orderRefund.amount').as('sum'),
      ])
      .groupBy(['order.gateway', 'order.testMode'])
      .execute(),
  ])
  const totals: Record<string, GatewayTotals> = {}
  const entryFor = (gateway: string) =>
    (totals[gateway] ??= { transactions: 0, revenue: 0, testTransactions: 0, testRevenue: 0 })
  for (const row of rows) {
    const entry = entryFor(row.gateway)
    const count = Number(row.count)
    const sum = Number(row.sum ?? 0)
    if (Number(row.testMode)) {
      entry.testTransactions += count
      entry.testRevenue += sum
    } else {
      entry.transactions += count
      entry.revenue += sum
    }
  }
  for (const row of refunds) {
    const entry = entryFor(row.gateway)
    const refunded = Number(row.sum ?? 0)
    if (Number(row.testMode)) entry.testRevenue -= refunded
    else entry.revenue -= refunded
  }
  return totals
}

/** Records the gateway's own id for a pending order (Razorpay's order_...). */
export async function setGatewayOrderId(
  db: DB,
  orderId: string,
  gatewayOrderId: string,
): Promise<void> {
  await db
    .updateTable('order')
    .set({ gatewayOrderId })
    .where('id', '=', orderId)
    .where('gatewayOrderId', 'is', null)
    .execute()
}

/** The order a gateway's own order id belongs to. */
export async function getOrderByGatewayOrderId(
  db: DB,
  gateway: string,
  gatewayOrderId: string,
): Promise<Order | null> {
  const row = await db
    .selectFrom('order')
    .select(orderColumns)
    .where('gateway', '=', gateway)
    .where('gatewayOrderId', '=', gatewayOrderId)
    .executeTakeFirst()
  return row ? toOrder(row) : null
}
