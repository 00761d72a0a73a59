import { describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { BUYER, makeProduct, orderIdsOf } from '../../tests/factories'
import {
  createOrder,
  gatewayTotals,
  getOrder,
  listOrderEvents,
  markOrderExpired,
  markOrderFailed,
  newOrderId,
  OrderError,
  orderTokenMatches,
  transitionOrder,
} from './order.server'
import { markOrderPaid } from '~/services/fulfilment.server'
import { createRefundRequest, settleRefund } from './refund.server'

const t = fileTestDb()

const payment = (txnId: string, paidAmount: number) => ({
  txnId,
  bankTxnId: '777',
  paymentMode: 'UPI',
  paidAmount,
  status: 'TXN_SUCCESS',
  respCode: '01',
  respMsg: 'Txn Success',
})

describe(`orders (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('makes ids in the spec format ORD_{timestamp}_{0-999}', () => {
    expect(newOrderId(1_750_000_000_000, () => 42)).toBe('ORD_1750000000000_42')
    for (let i = 0; i < 50; i++) expect(newOrderId(Date.now())).toMatch(/^ORD_\d{13}_\d{1,3}$/)
  })

  it('creates a pending order at the database price with the customer, user and a hashed access token', async () => {
    const product = await makeProduct(t.db, { price: 149_900 })
    const { order, accessToken } = await createOrder(t.db, {
      productId: product.id,
      customer: BUYER,
      userId: null,
    })
    expect(order).toMatchObject({
      status: 'pending',
      productId: product.id,
      productName: product.title,
      amount: 149_900,
      customerName: BUYER.name,
      customerEmail: BUYER.email,
      customerPhone: BUYER.phone,
      userId: null,
      gateway: 'paytm',
      testMode: false,
      gatewayTxnId: null,
    })
    expect(order.id).toMatch(/^ORD_\d+_\d{1,3}$/)
    expect(accessToken).toMatch(/^[\w-]{43}$/)
    expect(order).not.toHaveProperty('accessTokenHash')
    const stored = await t.db
      .selectFrom('order')
      .select('accessTokenHash')
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow()
    expect(stored.accessTokenHash).not.toContain(accessToken)
    expect(await orderTokenMatches(t.db, order.id, accessToken)).toBe(true)
    expect(await orderTokenMatches(t.db, order.id, `${accessToken}x`)).toBe(false)
    expect(await orderTokenMatches(t.db, order.id, '')).toBe(false)
    const events = await listOrderEvents(t.db, order.id)
    expect(events).toEqual([
      expect.objectContaining({ type: 'created', toStatus: 'pending', actor: 'customer' }),
    ])
  })

  it('keeps ids unique when two orders draw the same timestamp and number', async () => {
    const product = await makeProduct(t.db)
    const draws = [7, 7, 7, 8]
    const options = { now: () => 1_700_000_000_000, random: () => draws.shift() ?? 9 }
    const first = await createOrder(t.db, { productId: product.id, customer: BUYER }, options)
    const second = await createOrder(t.db, { productId: product.id, customer: BUYER }, options)
    expect(first.order.id).toBe('ORD_1700000000000_7')
    expect(second.order.id).toBe('ORD_1700000000000_8')
  })

  it('keeps ids unique under concurrent creation', async () => {
    const product = await makeProduct(t.db)
    let n = 0
    // Only ten numbers to draw from: collisions are certain and must be retried.
    const options = { now: () => 1_710_000_000_000, random: () => n++ % 10 }
    const created = await Promise.all(
      Array.from({ length: 10 }, () =>
        createOrder(t.db, { productId: product.id, customer: BUYER }, options),
      ),
    )
    expect(new Set(created.map((c) => c.order.id)).size).toBe(10)
  })

  it('refuses an out-of-stock or missing product and creates nothing', async () => {
    const product = await makeProduct(t.db, { inStock: false })
    await expect(
      createOrder(t.db, { productId: product.id, customer: BUYER }),
    ).rejects.toMatchObject({ code: 'out-of-stock' })
    await expect(createOrder(t.db, { productId: 'nope', customer: BUYER })).rejects.toBeInstanceOf(
      OrderError,
    )
    const count = await t.db
      .selectFrom('order')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('productId', '=', product.id)
      .executeTakeFirstOrThrow()
    expect(Number(count.n)).toBe(0)
  })

  it('creates nothing when the work inside the order transaction fails (e.g. signing)', async () => {
    const product = await makeProduct(t.db)
    await expect(
      createOrder(
        t.db,
        { productId: product.id, customer: BUYER },
        {
          prepare: () => {
            throw new Error('cannot sign')
          },
        },
      ),
    ).rejects.toThrow('cannot sign')
    expect(await orderIdsOf(t.db, product.id)).toEqual([])
  })

  it('marks paid once, records the payment and a timeline entry, and never moves a paid order back', async () => {
    const product = await makeProduct(t.db)
    const { order } = await createOrder(t.db, { productId: product.id, customer: BUYER })
    const first = await markOrderPaid(t.db, order.id, payment(`TXN-${order.id}`, order.amount), {
      message: 'paid',
    })
    const second = await markOrderPaid(t.db, order.id, payment(`TXN-${order.id}`, order.amount), {
      message: 'paid',
    })
    expect(first).toEqual({ changed: true, from: 'pending', status: 'paid' })
    expect(second).toEqual({ changed: false, status: 'paid' })
    expect(
      await markOrderFailed(
        t.db,
        order.id,
        { status: 'TXN_FAILURE', respCode: '325', respMsg: 'Duplicate Order Id' },
        { message: 'x' },
      ),
    ).toEqual({
      changed: false,
      status: 'paid',
    })
    expect(await markOrderExpired(t.db, order.id, 'x')).toEqual({ changed: false, status: 'paid' })
    const stored = await getOrder(t.db, order.id)
    expect(stored).toMatchObject({
      status: 'paid',
      gatewayTxnId: `TXN-${order.id}`,
      paidAmount: order.amount,
      paymentMode: 'UPI',
    })
    expect(stored?.paidAt).toBeTruthy()
    const events = await listOrderEvents(t.db, order.id)
    expect(events.map((e) => [e.type, e.fromStatus, e.toStatus])).toEqual([
      ['created', null, 'pending'],
      ['paid', 'pending', 'paid'],
    ])
  })

  it('changes an order exactly once when many transitions race', async () => {
    const product = await makeProduct(t.db)
    const { order } = await createOrder(t.db, { productId: product.id, customer: BUYER })
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () =>
        markOrderPaid(t.db, order.id, payment(`TXN-race-${order.id}`, order.amount), {
          message: 'paid',
        }),
      ),
      ...Array.from({ length: 3 }, () =>
        markOrderFailed(
          t.db,
          order.id,
          { status: 'TXN_FAILURE', respCode: '227', respMsg: 'declined' },
          { message: 'failed' },
        ),
      ),
    ])
    // A failure may land first: a confirmed payment then still moves the failed order to paid
    // (PAYABLE_STATUSES), so the race ends paid with one or two changes, never more, and every
    // change is one timeline entry.
    const changes = results.filter((r) => r.changed)
    const events = (await listOrderEvents(t.db, order.id)).filter((e) => e.type !== 'created')
    expect((await getOrder(t.db, order.id))?.status).toBe('paid')
    expect(events.filter((e) => e.type === 'paid')).toHaveLength(1)
    expect(events.filter((e) => e.type === 'failed').length).toBeLessThanOrEqual(1)
    expect(changes).toHaveLength(events.length)
  })

  it('takes the same transition once when its duplicates race', async () => {
    const product = await makeProduct(t.db)
    const paid = await createOrder(t.db, { productId: product.id, customer: BUYER })
    const failed = await createOrder(t.db, { productId: product.id, customer: BUYER })
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () =>
        markOrderPaid(t.db, paid.order.id, payment(`TXN-dup-${paid.order.id}`, paid.order.amount), {
          message: 'paid',
        }),
      ),
      ...Array.from({ length: 6 }, () =>
        markOrderFailed(
          t.db,
          failed.order.id,
          { status: 'TXN_FAILURE', respCode: '227', respMsg: 'declined' },
          { message: 'failed' },
        ),
      ),
    ])
    expect(results.slice(0, 6).filter((r) => r.changed)).toHaveLength(1)
    expect(results.slice(6).filter((r) => r.changed)).toHaveLength(1)
    for (const id of [paid.order.id, failed.order.id]) {
      const events = await listOrderEvents(t.db, id)
      expect(events.filter((e) => e.type !== 'created')).toHaveLength(1)
    }
  })

  it('refuses to pay a second order with a gateway transaction id already used', async () => {
    const product = await makeProduct(t.db)
    const a = await createOrder(t.db, { productId: product.id, customer: BUYER })
    const b = await createOrder(t.db, { productId: product.id, customer: BUYER })
    await markOrderPaid(t.db, a.order.id, payment('TXN-SHARED', a.order.amount), {
      message: 'paid',
    })
    await expect(
      markOrderPaid(t.db, b.order.id, payment('TXN-SHARED', b.order.amount), { message: 'paid' }),
    ).rejects.toThrow(/already paid another order/)
    expect((await getOrder(t.db, b.order.id))?.status).toBe('pending')
  })

  it('lets a confirmed late payment pay a failed or expired order', async () => {
    const product = await makeProduct(t.db)
    const { order } = await createOrder(t.db, { productId: product.id, customer: BUYER })
    await markOrderExpired(t.db, order.id, 'no answer in 24 h')
    const late = await markOrderPaid(
      t.db,
      order.id,
      payment(`TXN-late-${order.id}`, order.amount),
      { message: 'late' },
    )
    expect(late).toEqual({ changed: true, from: 'expired', status: 'paid' })
  })

  it('does nothing for an unknown order', async () => {
    expect(
      await transitionOrder(t.db, 'ORD_0_0', {
        from: ['pending'],
        to: 'paid',
        event: { type: 'paid', message: '' },
      }),
    ).toEqual({
      changed: false,
      status: null,
    })
  })

  it('sums successful payments per gateway from the orders, real and test mode apart', async () => {
    const before = (await gatewayTotals(t.db)).paytm ?? {
      transactions: 0,
      revenue: 0,
      testTransactions: 0,
      testRevenue: 0,
    }
    const product = await makeProduct(t.db, { price: 50_000 })
    const real = await createOrder(t.db, { productId: product.id, customer: BUYER })
    const test = await createOrder(t.db, { productId: product.id, customer: BUYER, testMode: true })
    await createOrder(t.db, { productId: product.id, customer: BUYER })
    await markOrderPaid(t.db, real.order.id, payment(`TXN-sum-${real.order.id}`, 50_000), {
      message: 'paid',
    })
    await markOrderPaid(t.db, test.order.id, payment(`TXN-sum-${test.order.id}`, 50_000), {
      message: 'paid',
    })
    const after = (await gatewayTotals(t.db)).paytm!
    // The real payment alone in the real figures, the test one alone in the test figures.
    expect(after.transactions - before.transactions).toBe(1)
    expect(after.revenue - before.revenue).toBe(50_000)
    expect(after.testTransactions - before.testTransactions).toBe(1)
    expect(after.testRevenue - before.testRevenue).toBe(50_000)
  })

  it('takes what a partial refund gave back off the revenue, and leaves out an order refunded in full', async () => {
    const before = (await gatewayTotals(t.db)).paytm ?? {
      transactions: 0,
      revenue: 0,
      testTransactions: 0,
      testRevenue: 0,
    }
    const product = await makeProduct(t.db, { price: 80_000 })
    const partly = await createOrder(t.db, { productId: product.id, customer: BUYER })
    await markOrderPaid(t.db, partly.order.id, payment(`TXN-part-${partly.order.id}`, 80_000), {
      message: 'paid',
    })
    const noop = async () => {}
    const refund = (id: string, orderId: string, amountPaise: number) =>
      createRefundRequest(
        t.db,
        { id, orderId, amountPaise, reason: 'test', actor: 'admin@example.com' },
        new Date(),
        noop,
      )
    await refund(`RF-part-${partly.order.id}`, partly.order.id, 30_000)
    // Asked of the gateway but not yet processed: still revenue.
    await refund(`RF-open-${partly.order.id}`, partly.order.id, 10_000)
    await settleRefund(
      t.db,
      `RF-part-${partly.order.id}`,
      { status: 'processed', gatewayRefundId: null, message: 'ok' },
      new Date(),
      noop,
    )
    const after = (await gatewayTotals(t.db)).paytm!
    expect(after.transactions - before.transactions).toBe(1)
    expect(after.revenue - before.revenue).toBe(50_000)
    expect(after.testRevenue - before.testRevenue).toBe(0)

    // A failed refund gives nothing back.
    await settleRefund(
      t.db,
      `RF-open-${partly.order.id}`,
      { status: 'failed', gatewayRefundId: null, message: 'no' },
      new Date(),
      noop,
    )
    expect((await gatewayTotals(t.db)).paytm!.revenue - before.revenue).toBe(50_000)
  })

  it('takes what a partial refund of a test-mode payment gave back off the test revenue only', async () => {
    const before = (await gatewayTotals(t.db)).paytm ?? {
      transactions: 0,
      revenue: 0,
      testTransactions: 0,
      testRevenue: 0,
    }
    const product = await makeProduct(t.db, { price: 60_000 })
    const test = await createOrder(t.db, { productId: product.id, customer: BUYER, testMode: true })
    await markOrderPaid(t.db, test.order.id, payment(`TXN-tpart-${test.order.id}`, 60_000), {
      message: 'paid',
    })
    const noop = async () => {}
    await createRefundRequest(
      t.db,
      {
        id: `RF-tpart-${test.order.id}`,
        orderId: test.order.id,
        amountPaise: 20_000,
        reason: 'test',
        actor: 'admin@example.com',
      },
      new Date(),
      noop,
    )
    await settleRefund(
      t.db,
      `RF-tpart-${test.order.id}`,
      { status: 'processed', gatewayRefundId: null, message: 'ok' },
      new Date(),
      noop,
    )
    const after = (await gatewayTotals(t.db)).paytm!
    expect(after.testTransactions - before.testTransactions).toBe(1)
    expect(after.testRevenue - before.testRevenue).toBe(40_000)
    expect(after.transactions - before.transactions).toBe(0)
    expect(after.revenue - before.revenue).toBe(0)
  })
})
