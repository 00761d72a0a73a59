import { beforeEach, describe, expect, it } from 'vitest'
import { getOrder } from '~/data/order.server'
import { newRefundId, settleRefund } from '~/data/refund.server'
import { takeOrderRows } from '~/data/order.server'
import { fileTestDb } from '../../tests/helpers/db'
import { queuedOrderMailKinds, requestRefundAccepted } from '../../tests/helpers/order-jobs'
import { makeOrder, makeStockedProduct, payOrder } from '../../tests/factories'
import { fillAllAwaitingOrders, fillAwaitingOrders, importStock } from './fulfilment.server'
import { REFUND_JOB } from './payment/refunds.server'

/**
 * Stock that arrives for orders waiting for it (docs/delivery.md) does not go to an order whose
 * whole payment is being refunded: the buyer would be mailed details the refund then revokes.
 * On SQLite and on PostgreSQL.
 */
const APP_SECRET = 'a'.repeat(64)
const actor = 'user:admin-1'
const t = fileTestDb()
const engine = process.env.TEST_DB_ENGINE ?? 'sqlite'
let serial = 0
const unique = () => `${Date.now().toString(36)}-${++serial}`

beforeEach(async () => {
  await t.db.deleteFrom('job').where('type', '=', REFUND_JOB).execute()
})

/** A product whose one item went to a first order, and `count` paid orders waiting for stock. */
async function waitingOrders(count: number) {
  const product = await makeStockedProduct(t.db, APP_SECRET, [`KEY-FIRST-${unique()}`], {
    price: 30_000,
  })
  const orders = [await makeOrder(t.db, product.id)]
  for (let i = 0; i < count; i++) orders.push(await makeOrder(t.db, product.id))
  const paid = []
  for (const order of orders) paid.push(await payOrder(t.db, order))
  const waiting = paid.slice(1)
  for (const order of waiting) expect(order.status).toBe('awaiting_stock')
  return { product, waiting }
}

const addStock = (productId: string, count: number) =>
  importStock(t.db, {
    productId,
    content: Array.from({ length: count }, (_, i) => `KEY-NEW-${unique()}-${i}`).join('\n'),
    format: 'lines',
    appSecret: APP_SECRET,
  })

/** Adds stock with no waiting order served, as stock added before the orders waited. */
async function addStockQuietly(productId: string, count: number) {
  await t.db
    .insertInto('stockItem')
    .values(
      Array.from({ length: count }, (_, i) => {
        const id = `ITEM-${unique()}-${i}`
        const at = new Date().toISOString()
        return {
          id,
          productId,
          secretCiphertext: 'not-read-here',
          secretHash: id,
          status: 'available' as const,
          testItem: 0,
          addedBy: 'system',
          createdAt: at,
          updatedAt: at,
        }
      }),
    )
    .execute()
}

async function status(orderId: string) {
  return (await getOrder(t.db, orderId))?.status
}

describe(`orders waiting for stock while they are refunded (${engine})`, () => {
  it('new stock skips an order being refunded in full, serves the others, and serves it if the refund fails', async () => {
    const { product, waiting } = await waitingOrders(3)
    const [refunding, partly, ordinary] = waiting as [
      (typeof waiting)[0],
      (typeof waiting)[0],
      (typeof waiting)[0],
    ]
    // The whole payment in two refunds, one of them answered already.
    const half = refunding.amount / 2
    const answered = await requestRefundAccepted(t.db, refunding.id, half, actor)
    await settleRefund(
      t.db,
      answered,
      { status: 'processed', gatewayRefundId: null, message: 'done' },
      new Date(),
      async () => {},
    )
    const open = await requestRefundAccepted(t.db, refunding.id, half, actor)
    // Half of it: the buyer still gets the product.
    await requestRefundAccepted(t.db, partly.id, half, actor)

    expect((await addStock(product.id, 3)).filled).toBe(2)
    expect(await status(refunding.id)).toBe('awaiting_stock')
    expect(await queuedOrderMailKinds(t.db, refunding.id)).toEqual(['awaiting_stock'])
    for (const order of [partly, ordinary]) {
      expect(await status(order.id)).toBe('delivered')
      expect(await queuedOrderMailKinds(t.db, order.id)).toEqual(['awaiting_stock', 'delivered'])
    }
    // The minute's sweep leaves it waiting too.
    expect(await fillAllAwaitingOrders(t.db)).toBe(0)
    expect(await status(refunding.id)).toBe('awaiting_stock')

    // The gateway declines the open refund: the order waits like any other, and is served.
    await settleRefund(
      t.db,
      open,
      { status: 'failed', gatewayRefundId: null, message: 'declined' },
      new Date(),
      async () => {},
    )
    expect(await fillAwaitingOrders(t.db, product.id)).toBe(1)
    expect(await status(refunding.id)).toBe('delivered')
    expect(await queuedOrderMailKinds(t.db, refunding.id)).toEqual(['awaiting_stock', 'delivered'])
  })

  it('an order skipped leaves the item to the next order waiting', async () => {
    const { product, waiting } = await waitingOrders(3)
    // The oldest waiting orders are being refunded; the newest is served.
    for (const order of waiting.slice(0, 2))
      await requestRefundAccepted(t.db, order.id, order.amount, actor)
    await addStockQuietly(product.id, 1)
    expect(await fillAwaitingOrders(t.db, product.id)).toBe(1)
    expect(await status(waiting[2]!.id)).toBe('delivered')
    for (const order of waiting.slice(0, 2)) expect(await status(order.id)).toBe('awaiting_stock')
  })

  it('a batch full of orders being refunded does not keep new stock from the order behind them', async () => {
    const { product, waiting } = await waitingOrders(2)
    const [model, behind] = waiting as [(typeof waiting)[0], (typeof waiting)[0]]
    // A whole fill batch (FILL_BATCH, 100) of older waiting orders, each being refunded in full.
    const row = await t.db
      .selectFrom('order')
      .selectAll()
      .where('id', '=', model.id)
      .executeTakeFirstOrThrow()
    const clones = Array.from({ length: 100 }, (_, i) => {
      const id = `ORD_${unique()}_${i}`
      return {
        ...row,
        id,
        createdAt: new Date(Date.parse('2026-01-01T00:00:00.000Z') + i * 1000).toISOString(),
        gatewayTxnId: `TXN-${id}`,
        gatewayOrderId: null,
        accessTokenHash: `hash-${id}`,
      }
    })
    await t.db.insertInto('order').values(clones).execute()
    const at = new Date().toISOString()
    await t.db
      .insertInto('orderRefund')
      .values(
        [model, ...clones].map((order) => ({
          id: newRefundId(),
          orderId: order.id,
          gateway: order.gateway,
          amount: order.amount,
          status: 'pending' as const,
          requestedBy: actor,
          createdAt: at,
          updatedAt: at,
        })),
      )
      .execute()
    expect((await addStock(product.id, 1)).filled).toBe(1)
    expect(await status(behind.id)).toBe('delivered')
    expect(await status(model.id)).toBe('awaiting_stock')
  })

  it('a full refund requested while a fill waits for the order is seen before the delivery', async () => {
    const { product, waiting } = await waitingOrders(1)
    const order = waiting[0]!
    await addStockQuietly(product.id, 1)
    let filled: Promise<number> | undefined
    // The refund's transaction holds the order, as a refund request takes it; the fill starts
    // meanwhile (on PostgreSQL it waits for the order's lock; SQLite runs one writer at a time).
    await t.db.transaction().execute(async (trx) => {
      await takeOrderRows(trx).where('id', '=', order.id).execute()
      const at = new Date().toISOString()
      await trx
        .insertInto('orderRefund')
        .values({
          id: newRefundId(),
          orderId: order.id,
          gateway: order.gateway,
          amount: order.amount,
          status: 'requested',
          requestedBy: actor,
          createdAt: at,
          updatedAt: at,
        })
        .execute()
      filled = fillAwaitingOrders(t.db, product.id, { testMode: false })
      await new Promise((resolve) => setTimeout(resolve, 300))
    })
    expect(await filled).toBe(0)
    expect(await status(order.id)).toBe('awaiting_stock')
    expect(await queuedOrderMailKinds(t.db, order.id)).toEqual(['awaiting_stock'])
  })
})
