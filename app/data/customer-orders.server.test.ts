import { describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { BUYER, makeProduct } from '../../tests/factories'
import {
  customerOrderStats,
  getOrderPageProduct,
  listCustomerOrders,
} from './customer-orders.server'
import { createOrder, markOrderFailed, transitionOrder } from './order.server'
import { markOrderPaid } from '~/services/fulfilment.server'
import { markRefunded } from '~/services/order-actions.server'
import { deleteProduct } from './product.server'
import { newRefundId } from './refund.server'
import { orderTotalsOf } from './user-admin.server'
import { createUser, markEmailVerified } from './user.server'
import {
  requestGatewayRefund,
  runRefund,
  type RefundingGateway,
} from '~/services/payment/refunds.server'

const t = fileTestDb()

let clock = Date.UTC(2026, 0, 1)
let txn = 0
/** Orders one second apart, so "newest first" has an answer. */
async function order(
  productId: string,
  userId: string | null,
  email: string = BUYER.email,
  options: { testMode?: boolean } = {},
) {
  clock += 1000
  const at = clock
  const { order: created } = await createOrder(
    t.db,
    { productId, customer: { ...BUYER, email }, userId, testMode: options.testMode },
    { now: () => at },
  )
  return created
}

/** A gateway that refunds at once, as the refund job finds it (app/services/payment/refunds.server.ts). */
const refundingGateway: RefundingGateway = {
  testMode: false,
  refund: async (request) => ({
    refundId: `rfnd_${request.refundId}`,
    status: 'processed',
    amountPaise: request.amountPaise,
    message: 'processed',
  }),
  refundStatus: async () => null,
}

/** The admin's Refund of `amount` paise, not sent to the gateway yet. */
function askRefund(orderId: string, amount: number) {
  return requestGatewayRefund(t.db, {
    refundId: newRefundId(),
    orderId,
    amountPaise: amount,
    reason: 'Partly unusable',
    actor: 'user:admin',
  })
}

/** The admin's Refund of `amount` paise, processed by the gateway. */
async function refundThroughGateway(orderId: string, amount: number) {
  const asked = await askRefund(orderId, amount)
  if (!asked.ok) throw new Error(asked.message)
  expect(await runRefund(t.db, refundingGateway, asked.refundId)).toEqual({ kind: 'processed' })
}

async function pay(orderId: string, paidAmount: number) {
  txn += 1
  await markOrderPaid(
    t.db,
    orderId,
    {
      txnId: `T${txn}`,
      bankTxnId: null,
      paymentMode: 'UPI',
      paidAmount,
      status: 'TXN_SUCCESS',
      respCode: '01',
      respMsg: 'Txn Success',
    },
    { message: 'Paid' },
  )
}

describe(`a customer's orders (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it("lists only the user's own orders, newest first, a page at a time", async () => {
    const meera = await createUser(t.db, { email: 'meera@example.in', name: 'Meera' })
    const ravi = await createUser(t.db, { email: 'ravi@example.in', name: 'Ravi' })
    const product = await makeProduct(t.db, { price: 49_900 })
    const mine: string[] = []
    for (let i = 0; i < 5; i++) {
      mine.push((await order(product.id, meera.id, meera.email)).id)
      // Someone else's order, and a guest order typed with Meera's address: neither is hers.
      await order(product.id, ravi.id, ravi.email)
      await order(product.id, null, meera.email)
    }
    const newestFirst = [...mine].reverse()

    const first = await listCustomerOrders(t.db, meera.id, { pageSize: 2 })
    expect(first).toMatchObject({ total: 5, page: 1, pageCount: 3 })
    expect(first.orders.map((row) => row.id)).toEqual(newestFirst.slice(0, 2))
    expect(first.orders[0]).toEqual({
      id: newestFirst[0],
      productName: product.title,
      productSlug: product.slug,
      amount: 49_900,
      status: 'pending',
      createdAt: expect.any(String),
      creditNoted: false,
    })
    const third = await listCustomerOrders(t.db, meera.id, { page: 3, pageSize: 2 })
    expect(third.orders.map((row) => row.id)).toEqual(newestFirst.slice(4))
    // A page past the end shows the last one; nonsense shows the first.
    expect((await listCustomerOrders(t.db, meera.id, { page: 99, pageSize: 2 })).page).toBe(3)
    expect((await listCustomerOrders(t.db, meera.id, { page: Number.NaN, pageSize: 2 })).page).toBe(
      1,
    )
    expect((await listCustomerOrders(t.db, meera.id, { page: -4, pageSize: 2 })).page).toBe(1)

    const all = await listCustomerOrders(t.db, meera.id)
    expect(all.orders.map((row) => row.id)).toEqual(newestFirst)
    expect(all.orders.every((row) => row.productName === product.title)).toBe(true)
  })

  it('lists guest orders with her verified address only once paid: an unpaid one proves nothing', async () => {
    const asha = await createUser(t.db, { email: 'asha.guest@example.in', name: 'Asha' })
    await markEmailVerified(t.db, asha.id)
    const product = await makeProduct(t.db, { price: 49_900 })
    // Anyone may type her address at checkout: pending, failed and expired orders are not hers.
    const pending = await order(product.id, null, asha.email)
    const failed = await order(product.id, null, asha.email)
    await t.db.updateTable('order').set({ status: 'failed' }).where('id', '=', failed.id).execute()
    const paid = await order(product.id, null, asha.email)
    await pay(paid.id, 49_900)

    const listed = await listCustomerOrders(t.db, asha.id)
    expect(listed.orders.map((row) => row.id)).toEqual([paid.id])
    expect(listed.orders.map((row) => row.id)).not.toContain(pending.id)
  })

  it('shows nothing, on one page, for a user without orders', async () => {
    const nobody = await createUser(t.db, { email: 'nobody@example.in', name: 'Nobody' })
    expect(await listCustomerOrders(t.db, nobody.id, { page: 2 })).toEqual({
      orders: [],
      total: 0,
      page: 1,
      pageCount: 1,
    })
    expect(await customerOrderStats(t.db, nobody.id)).toEqual({
      purchases: 0,
      testPurchases: 0,
      spent: 0,
      inProgress: 0,
    })
  })

  it('keeps an order whose product was deleted, without a product link', async () => {
    const user = await createUser(t.db, { email: 'gone@example.in', name: 'Gone' })
    const product = await makeProduct(t.db)
    const placed = await order(product.id, user.id, user.email)
    await deleteProduct(t.db, product.id)
    const { orders } = await listCustomerOrders(t.db, user.id)
    expect(orders).toEqual([
      expect.objectContaining({ id: placed.id, productName: product.title, productSlug: null }),
    ])
    expect(await getOrderPageProduct(t.db, product.id)).toBeNull()
    expect(await getOrderPageProduct(t.db, null)).toBeNull()
  })

  it('counts purchases, money spent (refunds excluded) and paid orders still waiting for delivery', async () => {
    const user = await createUser(t.db, { email: 'stats@example.in', name: 'Stats' })
    const other = await createUser(t.db, { email: 'other@example.in', name: 'Other' })
    const manual = await makeProduct(t.db, { price: 100_000 })
    const cheap = await makeProduct(t.db, { price: 20_000 })

    const paid = await order(manual.id, user.id) // manual delivery: stays paid
    await pay(paid.id, 100_000)
    // Three paid orders moved on from paid, in this order: delivered, waiting, refunded.
    const movedOn = [
      ['delivered', 'By hand'],
      ['awaiting_stock', 'None left'],
      ['refunded', 'Refunded'],
    ] as const
    for (const [to, message] of movedOn) {
      const paidFirst = await order(cheap.id, user.id)
      await pay(paidFirst.id, 20_000)
      await transitionOrder(t.db, paidFirst.id, {
        from: ['paid'],
        to,
        event: { type: to, message },
      })
    }
    const failed = await order(cheap.id, user.id)
    await markOrderFailed(
      t.db,
      failed.id,
      { status: 'TXN_FAILURE', respCode: '227', respMsg: 'Declined' },
      { message: 'Failed' },
    )
    await order(cheap.id, user.id) // pending
    const elsewhere = await order(manual.id, other.id)
    await pay(elsewhere.id, 100_000)

    expect(await customerOrderStats(t.db, user.id)).toEqual({
      purchases: 4,
      testPurchases: 0,
      spent: 140_000,
      inProgress: 2,
    })
    const { orders } = await listCustomerOrders(t.db, user.id)
    expect(orders.map((row) => row.status)).toEqual([
      'pending',
      'failed',
      'refunded',
      'awaiting_stock',
      'delivered',
      'paid',
    ])
  })

  it('spends what the back office says: real sales less processed refunds, test orders listed but not spent', async () => {
    const user = await createUser(t.db, { email: 'net.spend@example.in', name: 'Net' })
    await markEmailVerified(t.db, user.id)
    const product = await makeProduct(t.db, { price: 100_000 }) // by hand: stays paid

    // Refunded in part through the gateway: still paid, ₹300 of ₹1,000 went back.
    const partly = await order(product.id, user.id, user.email)
    await pay(partly.id, 100_000)
    await refundThroughGateway(partly.id, 30_000)
    // A refund asked for and not answered yet gave nothing back.
    const asked = await order(product.id, user.id, user.email)
    await pay(asked.id, 100_000)
    expect(await askRefund(asked.id, 50_000)).toMatchObject({ ok: true })
    // A guest order with her verified address is hers, as in My Orders.
    const asGuest = await order(product.id, null, user.email)
    await pay(asGuest.id, 100_000)
    // Paid through the simulator: hers, listed and counted, but no money changed hands.
    const simulated = await order(product.id, user.id, user.email, { testMode: true })
    await pay(simulated.id, 100_000)

    const stats = await customerOrderStats(t.db, user.id)
    expect(stats).toEqual({
      purchases: 4,
      testPurchases: 1,
      spent: 3 * 100_000 - 30_000,
      inProgress: 4,
    })
    // The same figure as the user's Total spent in the back office.
    expect(stats.spent).toBe((await orderTotalsOf(t.db, [user.id])).get(user.id)?.totalSpent)
    const { orders } = await listCustomerOrders(t.db, user.id)
    expect(orders.map((row) => row.id).sort()).toEqual(
      [partly.id, asked.id, asGuest.id, simulated.id].sort(),
    )
  })

  it('says which orders have credit notes: a refunded sale whose invoice stays downloadable', async () => {
    const user = await createUser(t.db, { email: 'credited@example.in', name: 'Credited' })
    const product = await makeProduct(t.db, { price: 30_000 })
    const credited = await order(product.id, user.id, user.email)
    await pay(credited.id, 30_000)
    expect(
      await markRefunded(t.db, { orderId: credited.id, note: 'NEFT 42', actor: 'user:admin' }),
    ).toMatchObject({ ok: true })
    // Refunded before credit notes were kept: no credit note, no invoice link.
    const bare = await order(product.id, user.id, user.email)
    await pay(bare.id, 30_000)
    await transitionOrder(t.db, bare.id, {
      from: ['paid'],
      to: 'refunded',
      event: { type: 'refunded', message: 'Refunded' },
    })
    const paid = await order(product.id, user.id, user.email)
    await pay(paid.id, 30_000)
    const { orders } = await listCustomerOrders(t.db, user.id)
    expect(orders.map((row) => [row.id, row.status, row.creditNoted])).toEqual([
      [paid.id, 'paid', false],
      [bare.id, 'refunded', false],
      [credited.id, 'refunded', true],
    ])
  })

  it("reads the product's page, validity and delivery time for the order page", async () => {
    const product = await makeProduct(t.db, { validity: 'Lifetime', deliveryTime: '24 hours' })
    expect(await getOrderPageProduct(t.db, product.id)).toEqual({
      slug: product.slug,
      validity: 'Lifetime',
      deliveryTime: '24 hours',
    })
  })
})
