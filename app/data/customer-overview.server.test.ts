import { describe, expect, it } from 'vitest'
import {
  makeCustomer,
  makeOrder,
  makeProduct,
  makeStockedProduct,
  payOrder,
  productInput,
} from '../../tests/factories'
import { fileTestDb } from '../../tests/helpers/db'
import { listCustomerOrders } from './customer-orders.server'
import { activeSubscriptions, customerSavings, recentActivity } from './customer-overview.server'
import { appendOrderEvent } from './order-event.server'
import { getOrder, listOrderEvents, transitionOrder } from './order.server'
import { newRefundId } from './refund.server'
import { updateProduct } from './product.server'
import { markEmailVerified } from './user.server'
import {
  requestGatewayRefund,
  runRefund,
  type RefundingGateway,
} from '~/services/payment/refunds.server'

const APP_SECRET = 'c'.repeat(64)
/** The shop's time zone by default (Settings); the terms are counted on its calendar. */
const IST = 'Asia/Kolkata'

const t = fileTestDb()

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
function askRefund(orderId: string, amount: number, at = new Date()) {
  return requestGatewayRefund(
    t.db,
    {
      refundId: newRefundId(),
      orderId,
      amountPaise: amount,
      reason: 'Shop note: account shared by mistake',
      actor: 'user:admin',
    },
    at,
  )
}

/** The admin's Refund of `amount` paise, processed by the gateway at `iso` (asked a second before). */
async function refundThroughGateway(orderId: string, amount: number, iso: string) {
  const at = new Date(iso)
  const asked = await askRefund(orderId, amount, new Date(at.getTime() - 1000))
  if (!asked.ok) throw new Error(asked.message)
  expect(await runRefund(t.db, refundingGateway, asked.refundId, at)).toEqual({
    kind: 'processed',
  })
}

/** Moves the order's delivery event to a chosen instant (the validity counts from it). */
async function deliveredAt(orderId: string, iso: string) {
  await t.db
    .updateTable('orderEvent')
    .set({ createdAt: iso })
    .where('orderId', '=', orderId)
    .where('type', '=', 'delivered')
    .execute()
}

describe(`the customer overview (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('adds up the savings of paid orders that were not refunded', async () => {
    const asha = await makeCustomer(t.db)
    const other = await makeCustomer(t.db)
    const netflix = await makeProduct(t.db, { price: 19_900, originalPrice: 64_900 })
    const noSaving = await makeProduct(t.db, { price: 50_000, originalPrice: 50_000 })
    await payOrder(t.db, await makeOrder(t.db, netflix.id, { userId: asha.id }))
    await payOrder(t.db, await makeOrder(t.db, netflix.id, { userId: asha.id }))
    await payOrder(t.db, await makeOrder(t.db, noSaving.id, { userId: asha.id }))
    // Not counted: unpaid, refunded, someone else's, a guest's.
    await makeOrder(t.db, netflix.id, { userId: asha.id })
    const refunded = await payOrder(t.db, await makeOrder(t.db, netflix.id, { userId: asha.id }))
    await transitionOrder(t.db, refunded.id, {
      from: ['paid'],
      to: 'refunded',
      event: { type: 'refunded', message: 'Refunded' },
    })
    await payOrder(t.db, await makeOrder(t.db, netflix.id, { userId: other.id }))
    await payOrder(t.db, await makeOrder(t.db, netflix.id))

    expect(await customerSavings(t.db, asha.id)).toBe(2 * (64_900 - 19_900))
    expect(await customerSavings(t.db, (await makeCustomer(t.db)).id)).toBe(0)
  })

  it('counts the saving of a real sale only, and of one refunded in part only on the share kept', async () => {
    const asha = await makeCustomer(t.db)
    const netflix = await makeProduct(t.db, { price: 20_000, originalPrice: 65_000 }) // by hand
    await payOrder(t.db, await makeOrder(t.db, netflix.id, { userId: asha.id }))
    // Half of it went back: half the order is kept, and half its saving.
    const halved = await payOrder(t.db, await makeOrder(t.db, netflix.id, { userId: asha.id }))
    await refundThroughGateway(halved.id, 10_000, '2099-01-01T00:00:00.000Z')
    expect((await getOrder(t.db, halved.id))?.status).toBe('paid')
    // A refund not answered yet gave nothing back; a simulated payment saved nothing real.
    const asked = await payOrder(t.db, await makeOrder(t.db, netflix.id, { userId: asha.id }))
    expect(await askRefund(asked.id, 10_000)).toMatchObject({ ok: true })
    await payOrder(t.db, await makeOrder(t.db, netflix.id, { userId: asha.id, testMode: true }))

    expect(await customerSavings(t.db, asha.id)).toBe(2 * 45_000 + 45_000 / 2)
  })

  it('lists delivered items whose validity runs, with the date each expires', async () => {
    const asha = await makeCustomer(t.db)
    const yearly = await makeStockedProduct(t.db, APP_SECRET, ['a@x.in:1', 'b@x.in:2'], {
      title: 'Yearly',
      validity: '12 Months',
    })
    const monthly = await makeStockedProduct(t.db, APP_SECRET, ['c@x.in:3'], {
      title: 'Monthly',
      validity: '1 month',
    })
    const lifetime = await makeStockedProduct(t.db, APP_SECRET, ['d@x.in:4'], {
      validity: 'Lifetime',
    })
    const running = await payOrder(t.db, await makeOrder(t.db, yearly.id, { userId: asha.id }))
    const expired = await payOrder(t.db, await makeOrder(t.db, monthly.id, { userId: asha.id }))
    const forever = await payOrder(t.db, await makeOrder(t.db, lifetime.id, { userId: asha.id }))
    const someoneElses = await payOrder(t.db, await makeOrder(t.db, yearly.id))
    expect([running, expired, forever, someoneElses].map((order) => order.status)).toEqual([
      'delivered',
      'delivered',
      'delivered',
      'delivered',
    ])
    await deliveredAt(running.id, '2026-01-31T06:00:00.000Z')
    await deliveredAt(expired.id, '2026-01-31T06:00:00.000Z')

    const now = new Date('2026-03-01T00:00:00.000Z')
    expect(await activeSubscriptions(t.db, asha.id, { timeZone: IST, now })).toEqual([
      {
        orderId: running.id,
        productName: 'Yearly',
        productSlug: yearly.slug,
        validity: '12 Months',
        deliveredAt: '2026-01-31T06:00:00.000Z',
        expiresAt: '2027-01-31T06:00:00.000Z',
      },
    ])
    // The month ran until 28 February; a day earlier it was still active, soonest first.
    const before = await activeSubscriptions(t.db, asha.id, {
      timeZone: IST,
      now: new Date('2026-02-27T00:00:00.000Z'),
    })
    expect(before.map((item) => [item.orderId, item.expiresAt])).toEqual([
      [expired.id, '2026-02-28T06:00:00.000Z'],
      [running.id, '2027-01-31T06:00:00.000Z'],
    ])
    // After the year: nothing left.
    expect(
      await activeSubscriptions(t.db, asha.id, {
        timeZone: IST,
        now: new Date('2027-02-01T00:00:00.000Z'),
      }),
    ).toEqual([])
  })

  it("ends a term on the shop's calendar, also for a delivery in its early morning", async () => {
    const asha = await makeCustomer(t.db)
    const monthly = await makeStockedProduct(t.db, APP_SECRET, ['k@x.in:11'], {
      title: 'Early monthly',
      validity: '1 month',
    })
    const order = await payOrder(t.db, await makeOrder(t.db, monthly.id, { userId: asha.id }))
    // 01:00 on 1 March in India, still 28 February in UTC: the month ends at 01:00 on 1 April
    // there, not on 28 March UTC (29 March in India).
    await deliveredAt(order.id, '2026-02-28T19:30:00.000Z')
    const expiresAt = async (timeZone: string) =>
      (
        await activeSubscriptions(t.db, asha.id, { timeZone, now: new Date('2026-03-01T00:00Z') })
      ).map((item) => item.expiresAt)
    expect(await expiresAt(IST)).toEqual(['2026-03-31T19:30:00.000Z'])
    // In London it was still the evening of 28 February: 28 March, on the local clock (GMT).
    expect(await expiresAt('Europe/London')).toEqual(['2026-03-28T19:30:00.000Z'])
  })

  it('keeps the validity each order was sold with when the shop edits the product', async () => {
    const asha = await makeCustomer(t.db)
    const product = await makeStockedProduct(t.db, APP_SECRET, ['h@x.in:8', 'i@x.in:9'], {
      title: 'Edited later',
      validity: '12 months',
    })
    const yearly = await payOrder(t.db, await makeOrder(t.db, product.id, { userId: asha.id }))
    expect(yearly.validity).toBe('12 months')
    await updateProduct(
      t.db,
      product.id,
      productInput({ title: product.title, slug: product.slug, validity: '6 months' }),
    )
    const halfYearly = await payOrder(t.db, await makeOrder(t.db, product.id, { userId: asha.id }))
    expect(halfYearly.validity).toBe('6 months')
    await deliveredAt(yearly.id, '2026-01-31T06:00:00.000Z')
    await deliveredAt(halfYearly.id, '2026-01-31T06:00:00.000Z')

    const subscriptions = async (iso: string) =>
      (await activeSubscriptions(t.db, asha.id, { timeZone: IST, now: new Date(iso) })).map(
        (item) => [item.orderId, item.validity, item.expiresAt],
      )
    expect(await subscriptions('2026-03-01T00:00:00.000Z')).toEqual([
      [halfYearly.id, '6 months', '2026-07-31T06:00:00.000Z'],
      [yearly.id, '12 months', '2027-01-31T06:00:00.000Z'],
    ])
    // The year bought still runs after the six months have ended.
    expect(await subscriptions('2026-08-01T00:00:00.000Z')).toEqual([
      [yearly.id, '12 months', '2027-01-31T06:00:00.000Z'],
    ])

    // An order that kept no validity of its own is read with its product's.
    await t.db.updateTable('order').set({ validity: null }).where('id', '=', yearly.id).execute()
    expect(await subscriptions('2026-03-01T00:00:00.000Z')).toEqual(
      [yearly.id, halfYearly.id].sort().map((id) => [id, '6 months', '2026-07-31T06:00:00.000Z']),
    )
  })

  it('counts a product sold without a validity as a year, as the storefront shows it', async () => {
    const asha = await makeCustomer(t.db)
    const product = await makeStockedProduct(t.db, APP_SECRET, ['j@x.in:10'], {
      title: 'No validity typed',
      validity: '',
    })
    const order = await payOrder(t.db, await makeOrder(t.db, product.id, { userId: asha.id }))
    expect(order.validity).toBe('')
    await deliveredAt(order.id, '2026-01-31T06:00:00.000Z')

    expect(
      await activeSubscriptions(t.db, asha.id, {
        timeZone: IST,
        now: new Date('2026-03-01T00:00:00.000Z'),
      }),
    ).toEqual([
      {
        orderId: order.id,
        productName: 'No validity typed',
        productSlug: product.slug,
        validity: '1 Year',
        deliveredAt: '2026-01-31T06:00:00.000Z',
        expiresAt: '2027-01-31T06:00:00.000Z',
      },
    ])
    // Typing one later changes nothing for the order sold without.
    await updateProduct(
      t.db,
      product.id,
      productInput({ title: product.title, slug: product.slug, validity: '1 month' }),
    )
    const [item] = await activeSubscriptions(t.db, asha.id, {
      timeZone: IST,
      now: new Date('2026-03-01T00:00:00.000Z'),
    })
    expect(item?.expiresAt).toBe('2027-01-31T06:00:00.000Z')
  })

  it("lists the latest events of the user's orders, newest first", async () => {
    const asha = await makeCustomer(t.db)
    const product = await makeStockedProduct(t.db, APP_SECRET, ['e@x.in:5', 'f@x.in:6'], {
      title: 'Disney',
    })
    const order = await payOrder(t.db, await makeOrder(t.db, product.id, { userId: asha.id }))
    const theirs = await payOrder(t.db, await makeOrder(t.db, product.id))
    await appendOrderEvent(
      t.db,
      order.id,
      { type: 'report_resolved', message: 'Answered' },
      '2099-01-01T00:00:00.000Z',
    )
    await appendOrderEvent(
      t.db,
      order.id,
      { type: 'mail_resent', message: 'Not shown' },
      '2099-01-02T00:00:00.000Z',
    )
    await appendOrderEvent(
      t.db,
      theirs.id,
      { type: 'refunded', message: 'Not hers' },
      '2099-01-03T00:00:00.000Z',
    )

    const activity = await recentActivity(t.db, asha.id)
    expect(activity.map((item) => item.type)).toEqual(['report_resolved', 'delivered', 'paid'])
    expect(
      activity.every((item) => item.orderId === order.id && item.productName === 'Disney'),
    ).toBe(true)
    expect(await recentActivity(t.db, asha.id, 1)).toHaveLength(1)
  })

  it('tells the buyer of a refund in part with its amount, and nothing the shop keeps to itself', async () => {
    const asha = await makeCustomer(t.db)
    const product = await makeProduct(t.db, { title: 'Prime Video', price: 150_000 }) // by hand
    const order = await payOrder(t.db, await makeOrder(t.db, product.id, { userId: asha.id }))
    const full = await payOrder(t.db, await makeOrder(t.db, product.id, { userId: asha.id }))
    // The admin asks (with a reason meant for the shop), the gateway refunds ₹499.50.
    await refundThroughGateway(order.id, 49_950, '2099-02-01T00:00:00.000Z')
    // The shop's own entries about the same order.
    await appendOrderEvent(
      t.db,
      order.id,
      { type: 'refund_warning', message: 'Check the buyer was not refunded twice' },
      '2099-02-02T00:00:00.000Z',
    )
    await appendOrderEvent(
      t.db,
      order.id,
      { type: 'credit_note_failed', message: 'No credit note' },
      '2099-02-03T00:00:00.000Z',
    )
    // An older entry that kept no amount still says a refund was processed.
    await appendOrderEvent(
      t.db,
      full.id,
      { type: 'refund_processed', message: 'Refunded ₹100', actor: 'gateway' },
      '2099-01-15T00:00:00.000Z',
    )

    const activity = await recentActivity(t.db, asha.id, 3)
    expect(activity).toEqual([
      {
        id: expect.any(Number),
        orderId: order.id,
        productName: 'Prime Video',
        type: 'refund_processed',
        amount: 49_950,
        createdAt: '2099-02-01T00:00:00.000Z',
      },
      expect.objectContaining({ orderId: full.id, type: 'refund_processed', amount: null }),
      expect.objectContaining({ type: 'paid', amount: null }),
    ])
    const types = (await recentActivity(t.db, asha.id, 50)).map((item) => item.type)
    for (const hidden of ['refund_requested', 'refund_warning', 'credit_note_failed'])
      expect(types).not.toContain(hidden)
    // The shop's timeline has them all.
    expect((await listOrderEvents(t.db, order.id)).map((event) => event.type)).toEqual(
      expect.arrayContaining(['refund_requested', 'refund_processed', 'refund_warning']),
    )
  })

  it("counts the guest orders placed with the account's verified address, as My Orders does", async () => {
    const meera = await makeCustomer(t.db, { email: 'meera.guest@example.in' })
    const asGuest = { customer: { name: 'Meera', email: meera.email, phone: '9876543210' } }
    const netflix = await makeProduct(t.db, { price: 19_900, originalPrice: 64_900 })
    const yearly = await makeStockedProduct(t.db, APP_SECRET, ['g@x.in:7'], {
      title: 'Yearly guest',
      validity: '12 Months',
    })
    const saved = await payOrder(t.db, await makeOrder(t.db, netflix.id, asGuest))
    const running = await payOrder(t.db, await makeOrder(t.db, yearly.id, asGuest))
    // Someone else's guest order: never hers.
    await payOrder(t.db, await makeOrder(t.db, netflix.id))
    const overview = async () => ({
      listed: (await listCustomerOrders(t.db, meera.id)).orders.map((row) => row.id).sort(),
      saved: await customerSavings(t.db, meera.id),
      subscriptions: (await activeSubscriptions(t.db, meera.id, { timeZone: IST })).map(
        (item) => item.orderId,
      ),
      activity: [...new Set((await recentActivity(t.db, meera.id)).map((item) => item.orderId))],
    })

    // An address nobody has proven matches nothing.
    expect(await overview()).toEqual({ listed: [], saved: 0, subscriptions: [], activity: [] })

    await markEmailVerified(t.db, meera.id)
    const after = await overview()
    expect(after.listed).toEqual([saved.id, running.id].sort())
    const yearlySaving = Math.max(0, Number(yearly.originalPrice) - yearly.price)
    expect(after.saved).toBe(64_900 - 19_900 + yearlySaving)
    expect(after.subscriptions).toEqual([running.id])
    expect(after.activity.sort()).toEqual(after.listed)
  })
})
