import { beforeEach, describe, expect, it } from 'vitest'
import { createOrder, getOrderWithAccessHash, listOrderEvents } from '~/data/order.server'
import { runDueJobs } from '~/lib/jobs.server'
import type { MailMessage } from '~/lib/mail.server'
import { orderMailJobHandlers } from '~/services/notifications/order-mail.server'
import { ORDER_ACCESS_COOKIE, orderAccessVia } from '~/services/order-access.server'
import { settleRefund } from '~/data/refund.server'
import { getDeliveredSecret } from '~/data/stock.server'
import { fileTestDb } from '../../tests/helpers/db'
import { queuedOrderMailKinds, requestRefundAccepted } from '../../tests/helpers/order-jobs'
import {
  BUYER,
  makeOrder,
  makePaidOrder,
  makeProduct,
  makeStockedProduct,
  payOrder,
} from '../../tests/factories'
import {
  deliverManually,
  ORDER_ADMIN_MESSAGES,
  recentlyReplacedMessage,
  recentlyResentMessage,
  refundingMessage,
  REPEAT_WINDOW_SECONDS,
  replaceFromStock,
  resendDeliveryMail,
} from './order-actions.server'
import { REFUND_JOB } from './payment/refunds.server'

/**
 * The order page's Replace item, Replace details and Resend e-mail posted twice (a double
 * click, a form sent again, two admins at once) change the order once; and no delivery, by
 * hand or by replacement, nor a resent delivery e-mail, reaches an order whose whole payment is
 * being refunded (docs/delivery.md). On SQLite and on PostgreSQL.
 */
const APP_SECRET = 'a'.repeat(64)
const PUBLIC_URL = 'https://shop.example.in'
const actor = 'user:admin-1'
const t = fileTestDb()
const engine = process.env.TEST_DB_ENGINE ?? 'sqlite'
let serial = 0
const unique = () => `${Date.now().toString(36)}-${++serial}`

// Each test's refunds are asked about by its own jobs only.
beforeEach(async () => {
  await t.db.deleteFrom('job').where('type', '=', REFUND_JOB).execute()
})

const later = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000)

async function stockOrder(spare: number) {
  const keys = Array.from({ length: spare + 1 }, (_, i) => `KEY-${unique()}-${i}`)
  const product = await makeStockedProduct(t.db, APP_SECRET, keys, { price: 40_000 })
  return { product, order: await makePaidOrder(t.db, product.id) }
}

/** An order paid after the product's one item went to an earlier order: awaiting stock. */
async function waitingOrder() {
  const product = await makeStockedProduct(t.db, APP_SECRET, [`KEY-LAST-${unique()}`])
  const first = await makeOrder(t.db, product.id)
  const second = await makeOrder(t.db, product.id)
  await payOrder(t.db, first)
  return payOrder(t.db, second)
}

async function items(orderId: string) {
  return t.db
    .selectFrom('stockItem')
    .select(['id', 'status'])
    .where('orderId', '=', orderId)
    .orderBy('createdAt')
    .execute()
}

async function liveItemId(orderId: string): Promise<string> {
  const live = (await items(orderId)).filter((item) => item.status === 'delivered')
  expect(live).toHaveLength(1)
  return live[0]!.id
}

async function eventTypes(orderId: string): Promise<string[]> {
  return (await listOrderEvents(t.db, orderId)).map((event) => event.type)
}

async function availableItems(productId: string): Promise<number> {
  const rows = await t.db
    .selectFrom('stockItem')
    .select('id')
    .where('productId', '=', productId)
    .where('status', '=', 'available')
    .execute()
  return rows.length
}

/** A refund of `amountPaise` asked of the order's gateway, still waiting for its answer. */
describe(`replace from stock, posted twice (${engine})`, () => {
  it('without the item it replaces: a second replacement within the minute is refused; after it, allowed', async () => {
    const { product, order } = await stockOrder(3)
    const now = new Date()
    const first = await replaceFromStock(t.db, { orderId: order.id, actor, now })
    expect(first.ok).toBe(true)
    const replacement = await liveItemId(order.id)

    const again = await replaceFromStock(t.db, { orderId: order.id, actor, now: later(now, 1) })
    expect(again).toEqual({
      ok: false,
      message: recentlyReplacedMessage(REPEAT_WINDOW_SECONDS - 1),
    })
    // One stock item used, the first replacement still live, one mail and one timeline entry.
    expect(await availableItems(product.id)).toBe(2)
    expect(await liveItemId(order.id)).toBe(replacement)
    expect(await queuedOrderMailKinds(t.db, order.id)).toEqual(['delivered', 'replaced'])
    expect((await eventTypes(order.id)).filter((type) => type === 'replaced')).toHaveLength(1)

    const afterWindow = await replaceFromStock(t.db, {
      orderId: order.id,
      actor,
      now: later(now, REPEAT_WINDOW_SECONDS + 1),
    })
    expect(afterWindow.ok).toBe(true)
    expect(await liveItemId(order.id)).not.toBe(replacement)
    expect(await queuedOrderMailKinds(t.db, order.id)).toEqual([
      'delivered',
      'replaced',
      'replaced',
    ])
  })

  it('with the item it replaces: a stale one is refused, the current one replaced at once', async () => {
    const { product, order } = await stockOrder(3)
    const original = await liveItemId(order.id)
    expect(
      (await replaceFromStock(t.db, { orderId: order.id, actor, currentItemId: original })).ok,
    ).toBe(true)
    const replacement = await liveItemId(order.id)

    // The same form posted again names the item already replaced.
    expect(
      await replaceFromStock(t.db, { orderId: order.id, actor, currentItemId: original }),
    ).toEqual({ ok: false, message: ORDER_ADMIN_MESSAGES.alreadyReplaced })
    // A page that showed no live item, when there is one now.
    expect(await replaceFromStock(t.db, { orderId: order.id, actor, currentItemId: '' })).toEqual({
      ok: false,
      message: ORDER_ADMIN_MESSAGES.alreadyReplaced,
    })
    expect(await liveItemId(order.id)).toBe(replacement)
    expect(await availableItems(product.id)).toBe(2)
    expect(await queuedOrderMailKinds(t.db, order.id)).toEqual(['delivered', 'replaced'])

    // A form naming the live item is a replacement the admin asked for, however soon.
    expect(
      (await replaceFromStock(t.db, { orderId: order.id, actor, currentItemId: replacement })).ok,
    ).toBe(true)
    expect(await liveItemId(order.id)).not.toBe(replacement)
    expect(await availableItems(product.id)).toBe(1)
  })

  it('two at once, with or without the item, replace once', async () => {
    for (const named of [true, false]) {
      const { product, order } = await stockOrder(3)
      const currentItemId = named ? await liveItemId(order.id) : undefined
      const results = await Promise.all(
        [1, 2].map(() => replaceFromStock(t.db, { orderId: order.id, actor, currentItemId })),
      )
      expect(results.filter((result) => result.ok)).toHaveLength(1)
      const refused = results.find((result) => !result.ok)!
      expect(refused.message).toMatch(
        named
          ? ORDER_ADMIN_MESSAGES.alreadyReplaced
          : /^This item was already replaced moments ago/,
      )
      expect(await availableItems(product.id)).toBe(2)
      expect((await items(order.id)).map((item) => item.status).sort()).toEqual([
        'delivered',
        'revoked',
      ])
      expect(await queuedOrderMailKinds(t.db, order.id)).toEqual(['delivered', 'replaced'])
    }
  })
})

describe(`replace details by hand, posted twice (${engine})`, () => {
  it('refuses a second replacement within the minute, or one naming an item already replaced', async () => {
    const product = await makeProduct(t.db)
    const order = await makePaidOrder(t.db, product.id)
    const now = new Date()
    const deliver = (
      extra: { replacing?: boolean; currentItemId?: string | null; now?: Date } = {},
    ) =>
      deliverManually(t.db, APP_SECRET, {
        orderId: order.id,
        secret: `DETAILS-${unique()}`,
        actor,
        now,
        ...extra,
      })
    expect((await deliver({ replacing: false })).ok).toBe(true)
    const delivered = await liveItemId(order.id)

    // A second click on Deliver, from a form that does not say whether it replaces.
    expect(await deliver({ now: later(now, 2) })).toEqual({
      ok: false,
      message: recentlyReplacedMessage(REPEAT_WINDOW_SECONDS - 2),
    })
    // Replace details asked for: the delivery a moment ago is no replacement.
    expect((await deliver({ replacing: true, now: later(now, 3) })).ok).toBe(true)
    const replaced = await liveItemId(order.id)
    expect(await deliver({ replacing: true, now: later(now, 4) })).toEqual({
      ok: false,
      message: recentlyReplacedMessage(REPEAT_WINDOW_SECONDS - 1),
    })
    expect(
      await deliver({ replacing: true, currentItemId: delivered, now: later(now, 5) }),
    ).toEqual({ ok: false, message: ORDER_ADMIN_MESSAGES.alreadyReplaced })
    expect(await liveItemId(order.id)).toBe(replaced)
    expect(await queuedOrderMailKinds(t.db, order.id)).toEqual(['delivered', 'paid', 'replaced'])

    expect(
      (await deliver({ replacing: true, currentItemId: replaced, now: later(now, 6) })).ok,
    ).toBe(true)
    expect(await liveItemId(order.id)).not.toBe(replaced)
    expect(await queuedOrderMailKinds(t.db, order.id)).toEqual([
      'delivered',
      'paid',
      'replaced',
      'replaced',
    ])
  })

  it('two at once replace once', async () => {
    const product = await makeProduct(t.db)
    const order = await makePaidOrder(t.db, product.id)
    const now = new Date()
    await deliverManually(t.db, APP_SECRET, { orderId: order.id, secret: 'OLD', actor, now })
    const results = await Promise.all(
      ['NEW-1', 'NEW-2'].map((secret) =>
        deliverManually(t.db, APP_SECRET, {
          orderId: order.id,
          secret,
          actor,
          replacing: true,
          now: later(now, REPEAT_WINDOW_SECONDS + 1),
        }),
      ),
    )
    expect(results.filter((result) => result.ok)).toHaveLength(1)
    expect((await items(order.id)).map((item) => item.status).sort()).toEqual([
      'delivered',
      'revoked',
    ])
    expect(await queuedOrderMailKinds(t.db, order.id)).toEqual(['delivered', 'paid', 'replaced'])
  })
})

describe(`resend the delivery e-mail (${engine})`, () => {
  it('once a minute per order: a double click or two admins at once send one mail', async () => {
    const { order } = await stockOrder(0)
    const { order: other } = await stockOrder(0)
    const now = new Date()
    const results = await Promise.all(
      [1, 2].map(() => resendDeliveryMail(t.db, { orderId: order.id, actor, now })),
    )
    expect(results.filter((result) => result.ok)).toHaveLength(1)
    expect(results.find((result) => !result.ok)).toEqual({
      ok: false,
      message: recentlyResentMessage(REPEAT_WINDOW_SECONDS),
    })
    expect(
      await resendDeliveryMail(t.db, { orderId: order.id, actor, now: later(now, 45) }),
    ).toEqual({ ok: false, message: recentlyResentMessage(15) })
    expect(await queuedOrderMailKinds(t.db, order.id)).toEqual(['delivered', 'delivered'])
    expect((await eventTypes(order.id)).filter((type) => type === 'mail_resent')).toHaveLength(1)
    // Another order's resend is its own.
    expect((await resendDeliveryMail(t.db, { orderId: other.id, actor, now })).ok).toBe(true)

    expect(
      (
        await resendDeliveryMail(t.db, {
          orderId: order.id,
          actor,
          now: later(now, REPEAT_WINDOW_SECONDS),
        })
      ).ok,
    ).toBe(true)
    expect(await queuedOrderMailKinds(t.db, order.id)).toEqual([
      'delivered',
      'delivered',
      'delivered',
    ])
  })
})

describe(`an order whose whole payment is being refunded (${engine})`, () => {
  it('is not delivered by hand while it waits for stock', async () => {
    const order = await waitingOrder()
    await requestRefundAccepted(t.db, order.id, order.amount, actor)
    expect(
      await deliverManually(t.db, APP_SECRET, { orderId: order.id, secret: 'BY-HAND', actor }),
    ).toEqual({
      ok: false,
      message: refundingMessage('Manual delivery', order.amount, order.gateway),
    })
    expect(await items(order.id)).toEqual([])
    expect(await queuedOrderMailKinds(t.db, order.id)).toEqual(['awaiting_stock'])
  })

  it('is not replaced nor sent its delivery e-mail again; a part refund or a failed one holds nothing up', async () => {
    const { order } = await stockOrder(3)
    const original = await liveItemId(order.id)
    const refundId = await requestRefundAccepted(t.db, order.id, order.amount, actor)
    const now = new Date()
    expect(await replaceFromStock(t.db, { orderId: order.id, actor, now })).toEqual({
      ok: false,
      message: refundingMessage('Replace item', order.amount, order.gateway),
    })
    expect(
      await deliverManually(t.db, APP_SECRET, {
        orderId: order.id,
        secret: 'NEW',
        actor,
        replacing: true,
        now,
      }),
    ).toEqual({
      ok: false,
      message: refundingMessage('Manual delivery', order.amount, order.gateway),
    })
    expect(await resendDeliveryMail(t.db, { orderId: order.id, actor, now })).toEqual({
      ok: false,
      message: refundingMessage('Resending the delivery e-mail', order.amount, order.gateway),
    })
    expect(await liveItemId(order.id)).toBe(original)
    expect(await queuedOrderMailKinds(t.db, order.id)).toEqual(['delivered'])

    // The gateway declines it: the order is an ordinary delivered one again.
    await settleRefund(
      t.db,
      refundId,
      { status: 'failed', gatewayRefundId: null, message: 'declined' },
      now,
      async () => {},
    )
    // Half of it refunded: the buyer keeps the product.
    await requestRefundAccepted(t.db, order.id, order.amount / 2, actor)
    expect((await resendDeliveryMail(t.db, { orderId: order.id, actor, now })).ok).toBe(true)
    expect((await replaceFromStock(t.db, { orderId: order.id, actor, now })).ok).toBe(true)
    expect(await getDeliveredSecret(t.db, APP_SECRET, order.id)).not.toBeNull()
  })

  it('is left to the admin once KeyBazaar stopped asking about the refund', async () => {
    const { order } = await stockOrder(1)
    await requestRefundAccepted(t.db, order.id, order.amount, actor)
    // Its checks ran out (app/services/payment/refunds.server.ts, stopAskingAbout): the shop
    // was told to look it up in the gateway's dashboard.
    await t.db.deleteFrom('job').where('type', '=', REFUND_JOB).execute()
    expect((await resendDeliveryMail(t.db, { orderId: order.id, actor })).ok).toBe(true)
  })
})

describe(`a replacement's links to the order (${engine})`, () => {
  /** Sends every queued order mail; returns the ones to this order. */
  async function sendMails(orderId: string): Promise<MailMessage[]> {
    const sent: MailMessage[] = []
    const handlers = orderMailJobHandlers(t.db, () => ({
      publicUrl: PUBLIC_URL,
      appSecret: APP_SECRET,
      mailer: { send: async (message) => (sent.push(message), { messageId: String(sent.length) }) },
    }))
    while ((await runDueJobs(t.db, handlers, { batchSize: 50, log: () => {} })) > 0) {
      // Earlier tests' mails go too.
    }
    return sent.filter((mail) => mail.subject.includes(orderId))
  }
  const tokenIn = (mail: MailMessage, orderId: string) =>
    new RegExp(`${PUBLIC_URL}/orders/${orderId}/([\\w-]+)`).exec(mail.text)![1]!
  /** Whether this token opens the order, from ?token= and from the `kb.orders` cookie. */
  async function opens(orderId: string, token: string): Promise<boolean> {
    const { order, accessTokenHash } = (await getOrderWithAccessHash(t.db, orderId))!
    const ways = await Promise.all([
      orderAccessVia(
        t.db,
        new Request(`${PUBLIC_URL}/orders/${orderId}?token=${token}`),
        order,
        accessTokenHash,
        null,
      ),
      orderAccessVia(
        t.db,
        new Request(`${PUBLIC_URL}/orders/${orderId}`, {
          headers: { Cookie: `${ORDER_ACCESS_COOKIE}=${orderId}~${token}` },
        }),
        order,
        accessTokenHash,
        null,
      ),
    ])
    expect(ways[0] === null).toBe(ways[1] === null)
    return ways[0] !== null
  }

  it('no longer open it: only the replacement mail, the owner and admins do', async () => {
    const now = new Date()
    const replacements = {
      fromStock: (orderId: string) =>
        replaceFromStock(t.db, { orderId, actor, now: later(now, REPEAT_WINDOW_SECONDS + 1) }),
      byHand: (orderId: string) =>
        deliverManually(t.db, APP_SECRET, {
          orderId,
          secret: `NEW-${unique()}`,
          actor,
          replacing: true,
          now: later(now, REPEAT_WINDOW_SECONDS + 1),
        }),
    }
    for (const replace of Object.values(replacements)) {
      const product = await makeStockedProduct(
        t.db,
        APP_SECRET,
        [1, 2].map((i) => `KEY-${unique()}-${i}`),
      )
      const placed = await createOrder(t.db, {
        productId: product.id,
        customer: BUYER,
        userId: null,
      })
      const order = await payOrder(t.db, placed.order)
      // Another order's links are its own.
      const other = await createOrder(t.db, { productId: product.id, customer: BUYER })
      // The checkout's token (in the buyer's cookie) and the delivery mail's link (forwarded).
      const [delivery] = await sendMails(order.id)
      const mailed = tokenIn(delivery!, order.id)
      expect(await opens(order.id, placed.accessToken)).toBe(true)
      expect(await opens(order.id, mailed)).toBe(true)

      expect((await replace(order.id)).ok).toBe(true)
      expect(await opens(order.id, mailed)).toBe(false)
      // The browser that paid keeps its way back: a guest who mistyped the address has no other.
      expect(await opens(order.id, placed.accessToken)).toBe(true)
      // The replacement mail, sent after the replacement committed, carries a link that opens it.
      const [replaced, ...more] = await sendMails(order.id)
      expect(more).toEqual([])
      expect(replaced!.subject).toContain('Replacement for order')
      expect(await opens(order.id, tokenIn(replaced!, order.id))).toBe(true)
      expect(await opens(other.order.id, other.accessToken)).toBe(true)
      // The buyer signed in with the order's verified address, and an admin, still see it.
      const { order: seen, accessTokenHash } = (await getOrderWithAccessHash(t.db, order.id))!
      const signedIn = (viewer: { isAdmin: boolean; canManageOrders: boolean; email: string }) =>
        orderAccessVia(
          t.db,
          new Request(`${PUBLIC_URL}/orders/${order.id}`),
          seen,
          accessTokenHash,
          {
            id: `user-${unique()}`,
            isAdmin: viewer.isAdmin,
            permissions: { canManageOrders: viewer.canManageOrders },
            email: viewer.email,
            emailVerified: true,
          },
        )
      expect(await signedIn({ isAdmin: false, canManageOrders: false, email: BUYER.email })).toBe(
        'account',
      )
      expect(
        await signedIn({ isAdmin: true, canManageOrders: true, email: 'owner@shop.example.in' }),
      ).toBe('account')
    }
  })
})
