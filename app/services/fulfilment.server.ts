import type { ExpressionBuilder, Transaction } from 'kysely'
import { getSiteSettings, recentSiteSettings } from '~/data/settings.server'
import { lockSharedDelivery } from '~/data/product.server'
import { appendOrderEvent } from '~/data/order-event.server'
import {
  recordOrderPaid,
  type ChangeDetails,
  type ConfirmedPayment,
  type TransitionResult,
  takeOrderRows,
} from '~/data/order.server'
import {
  addStockItems,
  allocateStockItem,
  productsWithAwaitingOrders,
  type ImportCounts,
  type ImportStockInput,
} from '~/data/stock.server'
import type { StockImportSummary } from '~/lib/validation/stock-import'
import { engineOf, toFlag, type DB } from '~/lib/db.server'
import { enqueueOrderMail } from '~/services/notifications/order-mail.server'
import type { Database } from '../../db/schema'
import {
  mailDeliverByHand,
  mailLowStock,
  mailLinkPaidTwice,
  mailSoldOut,
  mailOutOfStock,
  type HandDeliveryReason,
} from './notifications/shop-mail.server'
import { sendBackInStockMails } from './notifications/wishlist-mail.server'

/**
 * What happens to a paid order (docs/delivery.md): one stock item (paid -> delivered, or
 * paid -> awaiting_stock when none is left), the product's shared secret, or nothing for
 * manual products; the buyer's mail and the shop's stock alerts are queued in the same
 * transaction (the job outbox), so a committed payment is never left without them.
 */

/** pending | failed | expired -> paid, and the delivery, in one transaction. */
export async function markOrderPaid(
  db: DB,
  orderId: string,
  payment: ConfirmedPayment,
  event: ChangeDetails,
  now = new Date(),
): Promise<TransitionResult> {
  // The low-stock alert's threshold from this process's recent copy of the settings, which the
  // pages keep fresh: reading every setting inside each paying transaction cost a statement per
  // sale. Nothing is awaited before the transaction starts, so concurrent confirmations and
  // failures of one order still start their transactions in the order they were called.
  const lowStockThreshold = recentSiteSettings(db)?.lowStockThreshold
  return recordOrderPaid(db, orderId, payment, event, now, async (trx, paid) => {
    await fulfilPaidOrder(trx, { orderId, now, lowStockThreshold })
    if (paid.linkPaidBefore && !paid.testMode) await mailLinkPaidTwice(trx, orderId)
  })
}

/**
 * What else an import writes (its audit entry, app/services/product-admin.server.ts): run last
 * in the import's transaction, when items were added, with how many and how many waiting orders
 * they served. If it fails, the import is undone.
 */
export type WithImport = (
  trx: Transaction<Database>,
  outcome: ImportCounts & { filled: number },
) => Promise<void>

/**
 * Adds stock items to a product and delivers the orders that were waiting for them, in one
 * transaction: the new items become visible to other sales only with the waiting orders already
 * served, oldest first, so a payment made meanwhile cannot take an item ahead of them.
 */
export async function importStock(
  db: DB,
  input: ImportStockInput,
  withImport?: WithImport,
): Promise<StockImportSummary> {
  const testMode = input.testItems ?? false
  const summary = await addStockItems(db, input, async (trx, counts) => {
    let delivered = 0
    for (let more = counts.added > 0; more;) {
      const batch = await fillWaitingBatch(trx, input.productId, testMode, input.now)
      delivered += batch.delivered
      more = batch.more
    }
    if (counts.added > 0 && withImport) await withImport(trx, { ...counts, filled: delivered })
    return delivered
  })
  // New items may bring a wished-for product back; the minute's sweep would catch it too.
  if (summary.added > 0) {
    await sendBackInStockMails(db, { productIds: [input.productId], now: input.now }).catch(
      (error: unknown) =>
        console.error(
          '[wishlist] back-in-stock check failed:',
          error instanceof Error ? error.message : error,
        ),
    )
  }
  return summary
}

async function productTitle(trx: Transaction<Database>, productId: string): Promise<string> {
  const product = await trx
    .selectFrom('product')
    .select('title')
    .where('id', '=', productId)
    .executeTakeFirst()
  return product?.title ?? productId
}

async function moveOrder(
  trx: Transaction<Database>,
  orderId: string,
  from: 'paid' | 'awaiting_stock',
  to: 'delivered' | 'awaiting_stock',
  event: { type: string; message: string; data?: unknown },
  at: string,
): Promise<boolean> {
  const updated = await trx
    .updateTable('order')
    .set({ status: to, updatedAt: at })
    .where('id', '=', orderId)
    .where('status', '=', from)
    .returning('id')
    .executeTakeFirst()
  if (!updated) return false
  await appendOrderEvent(trx, orderId, { ...event, from, to }, at)
  return true
}

export type FulfilResult =
  | { status: 'delivered'; stockItemId: string | null }
  | { status: 'awaiting_stock' }
  /** Manual products (and shared ones without a secret) stay paid for an admin to fulfil. */
  | { status: 'paid' }
  /** The order is not paid (or is gone): nothing done. */
  | { status: 'skipped' }

/**
 * Delivers a just-paid order, in the transaction that marked it paid: one stock item
 * (paid -> delivered, or paid -> awaiting_stock when none is left), the shared secret
 * (paid -> delivered), or nothing for manual products.
 */
export async function fulfilPaidOrder(
  trx: Transaction<Database>,
  input: {
    orderId: string
    now?: Date
    /** The site setting as the caller read it; read in the transaction when not given. */
    lowStockThreshold?: number
  },
): Promise<FulfilResult> {
  const at = (input.now ?? new Date()).toISOString()
  const order = await trx
    .selectFrom('order')
    .leftJoin('product', 'product.id', 'order.productId')
    .select([
      'order.status',
      'order.productId',
      'order.productName',
      'order.amount',
      'order.paidAmount',
      'order.testMode',
      'product.deliveryMode',
      'product.sharedSecret',
    ])
    .where('order.id', '=', input.orderId)
    .executeTakeFirst()
  if (!order || order.status !== 'paid') return { status: 'skipped' }
  const testMode = Boolean(order.testMode)
  // The buyer hears that the payment arrived; for a real sale with a reason, the shop hears
  // that it has an order to deliver by hand.
  const leftPaid = async (reason: HandDeliveryReason | null): Promise<FulfilResult> => {
    await enqueueOrderMail(trx, { orderId: input.orderId, kind: 'paid' })
    if (reason && !testMode) {
      await mailDeliverByHand(trx, {
        orderId: input.orderId,
        productName: order.productName,
        amount: order.paidAmount ?? order.amount,
        reason,
      })
    }
    return { status: 'paid' }
  }
  const { productId, deliveryMode } = order
  // Deleted after the order was placed (a late payment of an expired order).
  if (!productId || !deliveryMode) return leftPaid('product-deleted')
  if (deliveryMode === 'manual') return leftPaid('manual')
  let sharedSecret = order.sharedSecret
  let mode = deliveryMode
  if (deliveryMode === 'shared' && sharedSecret && !testMode) {
    // Read again with the row held: an edit clearing or replacing the secret meanwhile leaves
    // the buyer something to see either way (lockSharedDelivery).
    const locked = await lockSharedDelivery(trx, productId)
    sharedSecret = locked?.sharedSecret ?? null
    // The edit may have made it a product delivered by hand.
    if (locked?.deliveryMode === 'manual') return leftPaid('manual')
    mode = locked?.deliveryMode ?? mode
  }
  // The shared secret is always real: a simulated payment never reveals it (docs/delivery.md).
  if (mode === 'shared' && (!sharedSecret || testMode))
    return leftPaid(sharedSecret ? null : 'no-shared-details')
  if (mode === 'shared') {
    const moved = await moveOrder(
      trx,
      input.orderId,
      'paid',
      'delivered',
      { type: 'delivered', message: 'Shared account delivered' },
      at,
    )
    if (moved) await enqueueOrderMail(trx, { orderId: input.orderId, kind: 'delivered' })
    return moved ? { status: 'delivered', stockItemId: null } : { status: 'skipped' }
  }
  const item = await allocateStockItem(trx, {
    orderId: input.orderId,
    productId,
    testItems: testMode,
    now: input.now,
  })
  if (!item) {
    const moved = await moveOrder(
      trx,
      input.orderId,
      'paid',
      'awaiting_stock',
      {
        type: 'awaiting_stock',
        message: 'Out of stock: the order will be delivered when stock is added',
      },
      at,
    )
    if (moved) {
      // The shop is told of real sales only: a simulated one waiting says nothing of real stock.
      if (!testMode) await notifyOutOfStock(trx, productId)
      await enqueueOrderMail(trx, { orderId: input.orderId, kind: 'awaiting_stock' })
    }
    return moved ? { status: 'awaiting_stock' } : { status: 'skipped' }
  }
  const moved = await moveOrder(
    trx,
    input.orderId,
    'paid',
    'delivered',
    { type: 'delivered', message: 'Delivered from stock', data: { stockItemId: item.id } },
    at,
  )
  // The order changed under us (cannot happen inside the paying transaction): undo the allocation.
  if (!moved) throw new Error(`Order ${input.orderId} changed while its stock item was allocated`)
  await enqueueOrderMail(trx, { orderId: input.orderId, kind: 'delivered' })
  if (!testMode) {
    await notifyLowStock(
      trx,
      productId,
      input.lowStockThreshold ?? (await getSiteSettings(trx)).lowStockThreshold,
    )
  }
  return { status: 'delivered', stockItemId: item.id }
}

/**
 * Makes the sales of one product count their stock one after another: the count that decides an
 * alert must see every earlier sale. On PostgreSQL two transactions committing at the same moment
 * each see only their own sale, so both could take themselves for the first waiting order (30
 * concurrent sales sent up to 20 out-of-stock mails) or step over the low-stock threshold without
 * either landing on it. The row lock is held to the commit; NO KEY UPDATE leaves inserts that
 * reference the product (new orders) unblocked. SQLite runs one writing transaction at a time.
 */
async function countInTurn(trx: Transaction<Database>, productId: string): Promise<void> {
  if (engineOf(trx) !== 'postgres') return
  await trx
    .selectFrom('product')
    .select('id')
    .where('id', '=', productId)
    .forNoKeyUpdate()
    .execute()
}

/**
 * How many real orders of the product wait for stock, and how many real items it has left,
 * counted no further than `limit`: enough to tell "exactly n" without counting them all. Test
 * orders and items (docs/delivery.md, "Test mode") say nothing of the real stock.
 */
async function waitingOrdersUpTo(trx: Transaction<Database>, productId: string, limit: number) {
  const rows = await trx
    .selectFrom('order')
    .select('id')
    .where('productId', '=', productId)
    .where('status', '=', 'awaiting_stock')
    .where('testMode', '=', 0)
    .limit(limit)
    .execute()
  return rows.length
}

async function itemsLeftUpTo(trx: Transaction<Database>, productId: string, limit: number) {
  const rows = await trx
    .selectFrom('stockItem')
    .select('id')
    .where('productId', '=', productId)
    .where('status', '=', 'available')
    .where('testItem', '=', 0)
    .limit(limit)
    .execute()
  return rows.length
}

/**
 * Tells the shop (notifyShop's recipients) that paid orders wait for stock. Only
 * the first waiting order of a product sends it, so a flash sale on an empty product sends one
 * mail, not one per order; the mail is queued in the paying transaction (the outbox).
 */
async function notifyOutOfStock(trx: Transaction<Database>, productId: string): Promise<void> {
  await countInTurn(trx, productId)
  // Is this the only one? Two rows answer that, however many orders wait.
  const waiting = await waitingOrdersUpTo(trx, productId, 2)
  if (waiting !== 1) return
  await mailOutOfStock(trx, await productTitle(trx, productId))
}

/**
 * Tells the shop when `sold` deliveries in one transaction (waiting orders filled from new
 * stock) crossed `lowStockThreshold`: before them more were left, now at most that many. The
 * product's lock (countInTurn) is the caller's to take first.
 */
async function notifyLowStockAfter(
  trx: Transaction<Database>,
  productId: string,
  lowStockThreshold: number,
  sold: number,
): Promise<void> {
  if (lowStockThreshold <= 0 || sold === 0) return
  const left = await itemsLeftUpTo(trx, productId, lowStockThreshold + 1)
  if (left === 0) {
    await mailSoldOut(trx, await productTitle(trx, productId))
    return
  }
  if (left > lowStockThreshold || left + sold <= lowStockThreshold) return
  await mailLowStock(trx, await productTitle(trx, productId), lowStockThreshold)
}

/**
 * Tells the shop when a sale leaves a product with exactly `lowStockThreshold` items (site
 * setting; 0 turns it off): once per crossing, not on every sale below it; and when a sale takes
 * its last item, so a product stocked below the threshold is not sold out unseen (checkout then
 * shows it out of stock, and no order waits to say so).
 */
async function notifyLowStock(
  trx: Transaction<Database>,
  productId: string,
  lowStockThreshold: number,
): Promise<void> {
  if (lowStockThreshold <= 0) return
  await countInTurn(trx, productId)
  // Exactly the threshold? One row more than it answers that, however much stock there is.
  const left = await itemsLeftUpTo(trx, productId, lowStockThreshold + 1)
  if (left === 0) await mailSoldOut(trx, await productTitle(trx, productId))
  else if (left === lowStockThreshold)
    await mailLowStock(trx, await productTitle(trx, productId), lowStockThreshold)
}

const FILL_BATCH = 100

/**
 * A waiting order whose whole payment is in refunds the gateway has not answered: refunds not
 * failed add up to what was paid (nothing left to refund, as refundableAmount in
 * app/data/refund.server.ts counts it) and one of them is still requested or pending. Stock
 * that arrives meanwhile does not go to it: the buyer would be mailed details the refund then
 * revokes. A refund that fails makes it an order waiting like any other; one that goes through
 * makes it refunded (docs/delivery.md, "Refunds in progress"). Two probes of order_refund's
 * order index, the first of which finds nothing for nearly every order.
 */
function refundingInFull(eb: ExpressionBuilder<Database, 'order'>) {
  return eb.and([
    eb.exists(
      eb
        .selectFrom('orderRefund as unanswered')
        .select('unanswered.id')
        .whereRef('unanswered.orderId', '=', 'order.id')
        .where('unanswered.status', 'in', ['requested', 'pending']),
    ),
    eb(
      eb
        .selectFrom('orderRefund as counted')
        .select((inner) =>
          inner.fn.coalesce(inner.fn.sum('counted.amount'), inner.lit(0)).as('sum'),
        )
        .whereRef('counted.orderId', '=', 'order.id')
        .where('counted.status', 'in', ['requested', 'pending', 'processed']),
      '>=',
      eb.fn.coalesce('order.paidAmount', 'order.amount'),
    ),
  ])
}

/**
 * Fills the product's orders waiting for stock, oldest first, until stock or orders run out.
 * Returns how many were delivered. Safe to run concurrently (and repeatedly): orders are
 * claimed with a write first, and each allocation is atomic. Each real delivery counts for the
 * low-stock alert as a sale does: new items taken by waiting orders can leave as few as before.
 */
export async function fillAwaitingOrders(
  db: DB,
  productId: string,
  options: { now?: Date; testMode?: boolean } = {},
): Promise<number> {
  // Test-mode orders are filled from test items, real ones from real items: each kind on its own.
  if (options.testMode === undefined) {
    return (
      (await fillAwaitingOrders(db, productId, { ...options, testMode: false })) +
      (await fillAwaitingOrders(db, productId, { ...options, testMode: true }))
    )
  }
  const testMode = options.testMode
  let filled = 0
  for (;;) {
    const result = await db
      .transaction()
      .execute((trx) => fillWaitingBatch(trx, productId, testMode, options.now))
    filled += result.delivered
    if (!result.more) return filled
  }
}

/** Of these orders, the ones being refunded in full (refundingInFull). */
async function refundingInFullOf(
  trx: Transaction<Database>,
  orderIds: string[],
): Promise<Set<string>> {
  if (orderIds.length === 0) return new Set()
  const rows = await trx
    .selectFrom('order')
    .select('id')
    .where('id', 'in', orderIds)
    .where(refundingInFull)
    .execute()
  return new Set(rows.map((row) => row.id))
}

/**
 * Fills the product's waiting orders of one kind (real or test) from its available items, in
 * the caller's transaction, oldest order first: as many as the stock allows, up to FILL_BATCH;
 * `more` when a full batch was claimed and more orders may wait. An order being refunded in
 * full is left waiting (refundingInFull).
 */
async function fillWaitingBatch(
  trx: Transaction<Database>,
  productId: string,
  testMode: boolean,
  now: Date | undefined,
): Promise<{ delivered: number; more: boolean }> {
  const at = (now ?? new Date()).toISOString()
  // Real deliveries count for the low-stock alert below. On PostgreSQL the product's lock is
  // taken first, before any order, as a product's deletion takes them; on SQLite this is no
  // statement at all (the transaction holds the write lock from its start).
  if (!testMode) await countInTurn(trx, productId)
  const waiting = trx
    .selectFrom('order')
    .select('id')
    .where('productId', '=', productId)
    .where('testMode', '=', toFlag(testMode))
    .where('status', '=', 'awaiting_stock')
    .where((eb) => eb.not(refundingInFull(eb)))
    .orderBy('createdAt')
    .orderBy('id')
    .limit(FILL_BATCH)
  // A no-op write claims the orders: on PostgreSQL it locks the rows so two fillers do not
  // deliver one order twice (SQLite runs one writing transaction at a time). It waits for
  // rows another filler holds rather than skipping them: that filler may have looked for
  // stock before this one's items were committed, found none and left the orders waiting.
  const claimed = await takeOrderRows(trx)
    .where('id', 'in', engineOf(trx) === 'postgres' ? waiting.forUpdate() : waiting)
    .where('status', '=', 'awaiting_stock')
    .returning(['id', 'createdAt'])
    .execute()
  // Test orders say nothing of the real stock (docs/delivery.md, "Test mode").
  const lowStockThreshold = testMode ? 0 : (await getSiteSettings(trx)).lowStockThreshold
  claimed.sort((a, b) =>
    a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1,
  )
  // Asked again with the orders claimed: on PostgreSQL a full refund requested while this
  // filler waited for an order's lock (a refund request takes it first) is seen only now.
  const refunding = await refundingInFullOf(
    trx,
    claimed.map((order) => order.id),
  )
  let delivered = 0
  for (const order of claimed) {
    if (refunding.has(order.id)) continue
    const item = await allocateStockItem(trx, {
      orderId: order.id,
      productId,
      testItems: testMode,
      now,
    })
    if (!item) {
      await notifyLowStockAfter(trx, productId, lowStockThreshold, delivered)
      return { delivered, more: false }
    }
    await moveOrder(
      trx,
      order.id,
      'awaiting_stock',
      'delivered',
      {
        type: 'delivered',
        message: 'Delivered from stock added later',
        data: { stockItemId: item.id },
      },
      at,
    )
    await enqueueOrderMail(trx, { orderId: order.id, kind: 'delivered' })
    delivered++
  }
  await notifyLowStockAfter(trx, productId, lowStockThreshold, delivered)
  return { delivered, more: claimed.length === FILL_BATCH }
}

/** The periodic safety net: fills every product's waiting orders from available stock. */
export async function fillAllAwaitingOrders(db: DB): Promise<number> {
  let filled = 0
  for (const productId of await productsWithAwaitingOrders(db))
    filled += await fillAwaitingOrders(db, productId)
  return filled
}
