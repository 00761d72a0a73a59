import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ORDER_MAIL_JOB } from '~/services/notifications/order-mail.server'
import type { PaytmConfig } from '~/lib/payments/paytm.server'
import { startPaytmSimulator, type RunningPaytmSimulator } from '../../simulators/paytm/testing'
import { toFlag } from '~/lib/db.server'
import { fileTestDb } from '../../tests/helpers/db'
import {
  BUYER,
  makeOrder,
  makePaidOrder,
  makeProduct,
  makeRefund,
  makeStockedProduct,
  payOrder,
} from '../../tests/factories'
import { simulatorControl, simulatorSetup } from '../../tests/helpers/payments'
import {
  describeActors,
  exportAdminOrders,
  getAdminOrder,
  listAdminOrders,
  orderActions,
  orderCounts,
} from './order-admin.server'
import {
  alreadyPaidMessage,
  confirmPaymentAndDeliver,
  deliverManually,
  markRefunded,
  noStockMessage,
  notApplicableMessage,
  ORDER_ADMIN_MESSAGES,
  replaceFromStock,
  replyToReport,
  resendDeliveryMail,
  type ActionResult,
} from '~/services/order-actions.server'
import { listOrderReports } from './order-report.server'
import { createOrderReport } from '~/services/order-reports.server'
import { createOrder, getOrder, listOrderEvents, type OrderStatus } from './order.server'
import { getDeliveredSecret, revealOrderSecret } from './stock.server'
import { importStock } from '~/services/fulfilment.server'
import { MANUAL_SECRET_MESSAGES, parseManualSecret } from '~/lib/stock-parse'
import { createUser } from './user.server'
import { newRefundId, type OrderRefundStatus } from './refund.server'

/**
 * The admin's recovery actions against the real database (SQLite and PostgreSQL) and, for
 * 'Confirm payment and deliver', the real Paytm simulator over HTTP.
 */
const APP_SECRET = 'a'.repeat(64)

const t = fileTestDb()
let sim: RunningPaytmSimulator
let paytm: PaytmConfig
let actor: string

beforeAll(async () => {
  sim = await startPaytmSimulator({ settlePendingAfterMs: 60 * 60_000 })
  paytm = simulatorSetup(sim).config
  const admin = await createUser(t.db, {
    email: 'ops@shop.example',
    name: 'Meera Ops',
    admin: true,
  })
  actor = `user:${admin.id}`
})
afterAll(async () => {
  await sim.close()
})
afterEach(async () => {
  await simulatorControl(sim, 'outage', { enabled: false })
})

const stockProduct = (items: string[], title?: string) =>
  makeStockedProduct(t.db, APP_SECRET, items, title ? { title } : {})

/** New products are delivered by hand (the migration's default). */
const manualProduct = (title?: string) => makeProduct(t.db, title ? { title } : {})

const pendingOrder = (
  productId: string,
  customer: { name: string; email: string; phone: string } = BUYER,
) => makeOrder(t.db, productId, { customer })

/** An order paid as a verified callback would pay it: delivery runs with it. */
const paidOrder = (productId: string) => makePaidOrder(t.db, productId)

/** An order paid after the product's last item went to an earlier order: awaiting stock. */
async function waitingOrder() {
  const product = await stockProduct([`KEY-LAST-${Math.random().toString(36).slice(2)}`])
  // Both ordered while the one item was still there; the second payment finds none left.
  const first = await pendingOrder(product.id)
  const second = await pendingOrder(product.id)
  await payOrder(t.db, first)
  return payOrder(t.db, second)
}

async function status(orderId: string): Promise<OrderStatus | undefined> {
  return (await getOrder(t.db, orderId))?.status
}

/** The buyer reports a problem with the order, as the order page lets them. */
async function buyerReports(orderId: string, reason: string) {
  await createOrderReport(t.db, { orderId, reason, reportedBy: 'customer' })
}

/** The action did its work: the admin is told `message`, and the order is now `to`. */
async function expectApplied(
  result: ActionResult,
  orderId: string,
  to: OrderStatus,
  message: string,
): Promise<void> {
  expect(result).toEqual({ ok: true, status: to, message })
  expect(await status(orderId)).toBe(to)
}

async function mailPayloads(orderId: string) {
  const rows = await t.db
    .selectFrom('job')
    .select('payload')
    .where('type', '=', ORDER_MAIL_JOB)
    .orderBy('createdAt')
    .execute()
  return rows
    .map((row) => JSON.parse(row.payload) as { orderId: string; kind: string; message?: string })
    .filter((payload) => payload.orderId === orderId)
}

async function mails(orderId: string) {
  return (await mailPayloads(orderId)).map((payload) => payload.kind)
}

async function items(orderId: string) {
  return t.db
    .selectFrom('stockItem')
    .select(['id', 'status', 'orderId', 'revokedReason', 'addedBy', 'secretCiphertext'])
    .where('orderId', '=', orderId)
    .orderBy('createdAt')
    .execute()
}

async function lastEvent(orderId: string) {
  return (await listOrderEvents(t.db, orderId)).at(-1)
}

/** The gateway holds a payment for the order that our app never heard about. */
async function gatewayHas(
  orderId: string,
  outcome: 'TXN_SUCCESS' | 'TXN_FAILURE',
  amountPaise: number,
) {
  await simulatorControl(sim, `transactions/${orderId}`, {
    status: outcome,
    mid: sim.mid,
    amountPaise,
  })
}

const engine = process.env.TEST_DB_ENGINE ?? 'sqlite'

describe(`confirm payment and deliver (${engine})`, () => {
  it('marks a missed payment paid and delivers it when Paytm confirms the amount, once', async () => {
    const product = await stockProduct(['KEY-CONFIRM-1'])
    const order = await pendingOrder(product.id)
    await gatewayHas(order.id, 'TXN_SUCCESS', order.amount)

    const first = await confirmPaymentAndDeliver(t.db, { orderId: order.id, actor, gateway: paytm })
    expect(first).toEqual({
      ok: true,
      status: 'delivered',
      message: 'Payment confirmed with Paytm: the order was delivered.',
    })
    const paid = await getOrder(t.db, order.id)
    expect(paid).toMatchObject({
      status: 'delivered',
      paidAmount: order.amount,
      gatewayStatus: 'TXN_SUCCESS',
    })
    expect(paid?.gatewayTxnId).toBeTruthy()
    const events = await listOrderEvents(t.db, order.id)
    expect(events.find((event) => event.type === 'paid')).toMatchObject({
      actor,
      fromStatus: 'pending',
      toStatus: 'paid',
      message: 'Payment of ₹1,499 confirmed with Paytm by an admin',
    })
    expect(await getDeliveredSecret(t.db, APP_SECRET, order.id)).toEqual({
      kind: 'text',
      text: 'KEY-CONFIRM-1',
    })
    expect(await mails(order.id)).toEqual(['delivered'])

    const second = await confirmPaymentAndDeliver(t.db, {
      orderId: order.id,
      actor,
      gateway: paytm,
    })
    expect(second).toEqual({ ok: false, message: alreadyPaidMessage(order.id, 'delivered') })
    expect(second.message).toBe(
      `Order ${order.id} is already paid (delivered). Nothing was changed.`,
    )
    expect(await listOrderEvents(t.db, order.id)).toHaveLength(events.length)
    expect(await mails(order.id)).toEqual(['delivered'])
  })

  it('changes an order once when two admins confirm it at the same moment', async () => {
    const product = await stockProduct(['KEY-RACE-1', 'KEY-RACE-2'])
    const order = await pendingOrder(product.id)
    await gatewayHas(order.id, 'TXN_SUCCESS', order.amount)
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        confirmPaymentAndDeliver(t.db, { orderId: order.id, actor, gateway: paytm }),
      ),
    )
    expect(results.filter((result) => result.ok)).toHaveLength(1)
    expect(results.filter((result) => !result.ok).map((result) => result.message)).toEqual([
      alreadyPaidMessage(order.id, 'delivered'),
      alreadyPaidMessage(order.id, 'delivered'),
    ])
    expect((await items(order.id)).map((item) => item.status)).toEqual(['delivered'])
  })

  it('also pays a failed or expired order when Paytm holds the payment (money taken late is honoured)', async () => {
    const product = await manualProduct()
    for (const from of ['failed', 'expired'] as const) {
      const order = await pendingOrder(product.id)
      await t.db.updateTable('order').set({ status: from }).where('id', '=', order.id).execute()
      await gatewayHas(order.id, 'TXN_SUCCESS', order.amount)
      const result = await confirmPaymentAndDeliver(t.db, {
        orderId: order.id,
        actor,
        gateway: paytm,
      })
      expect(result, from).toEqual({
        ok: true,
        status: 'paid',
        message: 'Payment confirmed with Paytm: the order is paid and waits for you to deliver it.',
      })
      expect(
        (await listOrderEvents(t.db, order.id)).find((event) => event.type === 'paid'),
      ).toMatchObject({ fromStatus: from, actor })
      expect(await mails(order.id)).toEqual(['paid'])
    }
  })

  it('changes nothing when Paytm says the payment failed, and says what Paytm answered', async () => {
    const product = await stockProduct(['KEY-FAILED-1'])
    const order = await pendingOrder(product.id)
    await gatewayHas(order.id, 'TXN_FAILURE', order.amount)
    const result = await confirmPaymentAndDeliver(t.db, {
      orderId: order.id,
      actor,
      gateway: paytm,
    })
    expect(result.ok).toBe(false)
    expect(result.message).toMatch(
      /^Paytm does not confirm this payment \(TXN_FAILURE, \d+, .+\)\. Nothing was changed\.$/,
    )
    expect(await getOrder(t.db, order.id)).toMatchObject({
      status: 'pending',
      gatewayTxnId: null,
      paidAmount: null,
    })
    expect(await items(order.id)).toEqual([])
    expect(await mails(order.id)).toEqual([])
    // The check itself is in the timeline, with who asked.
    expect(await lastEvent(order.id)).toMatchObject({
      type: 'payment_check',
      actor,
      fromStatus: null,
      toStatus: null,
    })
  })

  it('changes nothing when Paytm never saw the order', async () => {
    const order = await pendingOrder((await manualProduct()).id)
    const result = await confirmPaymentAndDeliver(t.db, {
      orderId: order.id,
      actor,
      gateway: paytm,
    })
    expect(result.message).toMatch(
      /^Paytm does not confirm this payment \(334, .+\)\. Nothing was changed\.$/,
    )
    expect(await status(order.id)).toBe('pending')
  })

  it('changes nothing when Paytm reports success for a different amount', async () => {
    const product = await stockProduct(['KEY-AMOUNT-1'])
    const order = await pendingOrder(product.id)
    await gatewayHas(order.id, 'TXN_SUCCESS', order.amount - 100)
    const result = await confirmPaymentAndDeliver(t.db, {
      orderId: order.id,
      actor,
      gateway: paytm,
    })
    expect(result).toEqual({
      ok: false,
      message:
        'Paytm reports a successful payment of ₹1,498, but the order is for ₹1,499. Nothing was changed.',
    })
    expect(await getOrder(t.db, order.id)).toMatchObject({ status: 'pending', paidAmount: null })
    expect(await items(order.id)).toEqual([])
    expect(await mails(order.id)).toEqual([])
  })

  it('never lets the simulator confirm a live order, even when it says TXN_SUCCESS', async () => {
    const product = await stockProduct(['KEY-MODE-1'])
    const order = await pendingOrder(product.id)
    expect(order.testMode).toBe(false)
    await gatewayHas(order.id, 'TXN_SUCCESS', order.amount)
    const result = await confirmPaymentAndDeliver(t.db, {
      orderId: order.id,
      actor,
      gateway: paytm,
      testMode: true,
    })
    expect(result).toEqual({
      ok: false,
      message:
        'Paytm is set up as the built-in simulator now, which cannot confirm a live order. Nothing was changed.',
    })
    expect(await getOrder(t.db, order.id)).toMatchObject({ status: 'pending', paidAmount: null })
    expect(await items(order.id)).toEqual([])
  })

  it('changes nothing when Paytm cannot be reached or payments are switched off', async () => {
    const order = await pendingOrder((await manualProduct()).id)
    await gatewayHas(order.id, 'TXN_SUCCESS', order.amount)
    await simulatorControl(sim, 'outage', { enabled: true })
    const down = await confirmPaymentAndDeliver(t.db, {
      orderId: order.id,
      actor,
      gateway: paytm,
      timeoutMs: 2000,
    })
    expect(down.ok).toBe(false)
    expect(down.message).toMatch(
      /^Paytm could not be reached \(.+\)\. Nothing was changed; try again in a minute\.$/,
    )
    expect(
      await confirmPaymentAndDeliver(t.db, { orderId: order.id, actor, gateway: null }),
    ).toEqual({ ok: false, message: ORDER_ADMIN_MESSAGES.noGateway })
    expect(await status(order.id)).toBe('pending')
    expect(
      await confirmPaymentAndDeliver(t.db, { orderId: 'ORD_1_1', actor, gateway: paytm }),
    ).toEqual({ ok: false, message: 'Order not found' })
  })
})

describe(`deliver manually (${engine})`, () => {
  it('reads "name: value" lines as fields and anything else as text', () => {
    expect(parseManualSecret('  Email: buyer@example.in \n\nPassword:  pa:ss word ')).toEqual({
      ok: true,
      secret: {
        kind: 'fields',
        fields: [
          { name: 'Email', value: 'buyer@example.in' },
          { name: 'Password', value: 'pa:ss word' },
        ],
      },
    })
    expect(parseManualSecret('ABCD-EFGH-IJKL')).toEqual({
      ok: true,
      secret: { kind: 'text', text: 'ABCD-EFGH-IJKL' },
    })
    expect(parseManualSecret('Login at https://example.test\nCode: 1234')).toEqual({
      ok: true,
      secret: { kind: 'text', text: 'Login at https://example.test\nCode: 1234' },
    })
    expect(parseManualSecret('https://example.test/redeem/XYZ')).toEqual({
      ok: true,
      secret: { kind: 'text', text: 'https://example.test/redeem/XYZ' },
    })
    expect(parseManualSecret(' \n ')).toEqual({ ok: false, error: MANUAL_SECRET_MESSAGES.empty })
    expect(parseManualSecret('x'.repeat(4001))).toEqual({
      ok: false,
      error: 'Please keep the details under 4,000 characters.',
    })
    expect(parseManualSecret('bad\u0007bell')).toEqual({
      ok: false,
      error: MANUAL_SECRET_MESSAGES.invalid,
    })
  })

  it('delivers a paid order of a manual product: encrypted item, timeline, delivery e-mail', async () => {
    const product = await manualProduct()
    const order = await paidOrder(product.id)
    expect(order.status).toBe('paid')
    const result = await deliverManually(t.db, APP_SECRET, {
      orderId: order.id,
      secret: 'Email: family@example.in\nPassword: Fam-2026!',
      actor,
    })
    await expectApplied(result, order.id, 'delivered', 'Delivered; the buyer has been e-mailed.')
    const [item] = await items(order.id)
    expect(item).toMatchObject({ status: 'delivered', addedBy: actor })
    expect(item!.secretCiphertext).not.toContain('Fam-2026!')
    expect(await getDeliveredSecret(t.db, APP_SECRET, order.id)).toEqual({
      kind: 'fields',
      fields: [
        { name: 'Email', value: 'family@example.in' },
        { name: 'Password', value: 'Fam-2026!' },
      ],
    })
    expect(await lastEvent(order.id)).toMatchObject({
      type: 'delivered',
      actor,
      fromStatus: 'paid',
      toStatus: 'delivered',
      message: 'Delivered by hand by an admin',
    })
    expect(await mails(order.id)).toEqual(['paid', 'delivered'])

    // The same details for another order of the product: not a duplicate of anything.
    const other = await paidOrder(product.id)
    expect(
      (
        await deliverManually(t.db, APP_SECRET, {
          orderId: other.id,
          secret: 'Email: family@example.in\nPassword: Fam-2026!',
          actor,
        })
      ).ok,
    ).toBe(true)
    expect(await status(other.id)).toBe('delivered')
  })

  it('does not replace, unasked, what new stock delivered while the admin typed', async () => {
    const order = await waitingOrder()
    // Stock arrives and fills the order while the admin's Deliver form is open.
    await importStock(t.db, {
      productId: order.productId!,
      content: 'KEY-ARRIVED',
      format: 'lines',
      appSecret: APP_SECRET,
    })
    expect(await status(order.id)).toBe('delivered')
    expect(
      await deliverManually(t.db, APP_SECRET, {
        orderId: order.id,
        secret: 'TYPED-BY-HAND',
        actor,
        replacing: false,
      }),
    ).toEqual({ ok: false, message: notApplicableMessage('Manual delivery', 'delivered') })
    expect(await getDeliveredSecret(t.db, APP_SECRET, order.id)).toEqual({
      kind: 'text',
      text: 'KEY-ARRIVED',
    })
    // Asked for as a replacement, it is one.
    const replaced = await deliverManually(t.db, APP_SECRET, {
      orderId: order.id,
      secret: 'TYPED-BY-HAND',
      actor,
      replacing: true,
    })
    expect(replaced.ok).toBe(true)
    expect(await getDeliveredSecret(t.db, APP_SECRET, order.id)).toEqual({
      kind: 'text',
      text: 'TYPED-BY-HAND',
    })
  })

  it('delivers an order waiting for stock', async () => {
    const order = await waitingOrder()
    expect(order.status).toBe('awaiting_stock')
    expect(
      (
        await deliverManually(t.db, APP_SECRET, {
          orderId: order.id,
          secret: 'LICENCE-BY-HAND',
          actor,
        })
      ).ok,
    ).toBe(true)
    expect(await getDeliveredSecret(t.db, APP_SECRET, order.id)).toEqual({
      kind: 'text',
      text: 'LICENCE-BY-HAND',
    })
    expect(await lastEvent(order.id)).toMatchObject({
      type: 'delivered',
      fromStatus: 'awaiting_stock',
      actor,
    })
    expect(await mails(order.id)).toEqual(['awaiting_stock', 'delivered'])
  })

  it('replaces a delivered order’s details: the old item is revoked, the report resolved, the buyer told', async () => {
    const product = await manualProduct()
    const order = await paidOrder(product.id)
    await deliverManually(t.db, APP_SECRET, { orderId: order.id, secret: 'OLD-DETAILS', actor })
    await buyerReports(order.id, 'The old details do not work')
    // The very same text again is a new item, not a clash with the revoked one. Each form says
    // which item it replaces (a second one without it, this soon, is taken for a double click).
    for (const secret of ['NEW-DETAILS', 'NEW-DETAILS']) {
      const currentItemId = (await items(order.id)).find((item) => item.status === 'delivered')!.id
      const result = await deliverManually(t.db, APP_SECRET, {
        orderId: order.id,
        secret,
        actor,
        currentItemId,
      })
      expect(result).toEqual({
        ok: true,
        status: 'delivered',
        message: 'The new details replace the old ones; the buyer has been e-mailed.',
      })
    }
    const given = await items(order.id)
    expect(given.map((item) => item.status).sort()).toEqual(['delivered', 'revoked', 'revoked'])
    for (const item of given.filter((entry) => entry.status === 'revoked')) {
      expect(item.revokedReason).toBe('Replaced by details entered by an admin')
    }
    expect(await getDeliveredSecret(t.db, APP_SECRET, order.id)).toEqual({
      kind: 'text',
      text: 'NEW-DETAILS',
    })
    expect((await listOrderReports(t.db, order.id))[0]).toMatchObject({
      status: 'resolved',
      resolution: 'replaced',
      resolvedBy: actor,
    })
    const types = (await listOrderEvents(t.db, order.id)).map((event) => event.type)
    expect(types.slice(-4)).toEqual(['problem_reported', 'replaced', 'report_resolved', 'replaced'])
    expect(await mails(order.id)).toEqual(['paid', 'delivered', 'replaced', 'replaced'])
  })

  it('refuses empty details and orders that are not paid, changing nothing', async () => {
    const product = await manualProduct()
    const paid = await paidOrder(product.id)
    expect(
      await deliverManually(t.db, APP_SECRET, { orderId: paid.id, secret: '   ', actor }),
    ).toEqual({ ok: false, message: MANUAL_SECRET_MESSAGES.empty, field: 'secret' })
    const pending = await pendingOrder(product.id)
    expect(
      await deliverManually(t.db, APP_SECRET, { orderId: pending.id, secret: 'KEY', actor }),
    ).toEqual({
      ok: false,
      message: notApplicableMessage('Manual delivery', 'pending'),
    })
    expect(await status(paid.id)).toBe('paid')
    expect(await status(pending.id)).toBe('pending')
    expect(await items(paid.id)).toEqual([])
    expect(await items(pending.id)).toEqual([])
    expect(
      await deliverManually(t.db, APP_SECRET, { orderId: 'ORD_1_2', secret: 'KEY', actor }),
    ).toEqual({ ok: false, message: 'Order not found' })
  })
})

describe(`replace item from stock (${engine})`, () => {
  it('revokes the delivered item and delivers the next one; with no stock left, changes nothing', async () => {
    const product = await stockProduct(['KEY-R-1', 'KEY-R-2'], 'Replaceable Suite')
    const order = await paidOrder(product.id)
    // Items imported together are taken in id order: either key may come first.
    const first = await getDeliveredSecret(t.db, APP_SECRET, order.id)
    expect(first?.kind === 'text' && ['KEY-R-1', 'KEY-R-2'].includes(first.text)).toBe(true)
    const next = {
      kind: 'text',
      text: first?.kind === 'text' && first.text === 'KEY-R-1' ? 'KEY-R-2' : 'KEY-R-1',
    }
    await buyerReports(order.id, 'The key says already redeemed')

    const replaced = await replaceFromStock(t.db, {
      orderId: order.id,
      actor,
      reason: 'Key already redeemed',
    })
    expect(replaced).toEqual({
      ok: true,
      status: 'delivered',
      message: 'The item was replaced from stock; the buyer has been e-mailed.',
    })
    expect(await getDeliveredSecret(t.db, APP_SECRET, order.id)).toEqual(next)
    const given = await items(order.id)
    const old = given.find((item) => item.status === 'revoked')
    const current = given.find((item) => item.status === 'delivered')
    expect(old).toMatchObject({ status: 'revoked', revokedReason: 'Key already redeemed' })
    expect(current).toMatchObject({ status: 'delivered' })
    expect(
      (await listOrderEvents(t.db, order.id)).find((event) => event.type === 'replaced'),
    ).toMatchObject({
      actor,
      message: 'Item replaced from stock: Key already redeemed',
      data: { stockItemId: current!.id, revokedItemIds: [old!.id] },
    })
    expect((await listOrderReports(t.db, order.id))[0]).toMatchObject({
      status: 'resolved',
      resolution: 'replaced',
    })
    expect(await mails(order.id)).toEqual(['delivered', 'replaced'])

    const eventsBefore = await listOrderEvents(t.db, order.id)
    const empty = await replaceFromStock(t.db, {
      orderId: order.id,
      actor,
      currentItemId: current!.id,
    })
    expect(empty).toEqual({ ok: false, message: noStockMessage('Replaceable Suite') })
    expect(empty.message).toBe(
      'No stock is left for Replaceable Suite. Add stock items to the product, or enter new details by hand. Nothing was changed.',
    )
    expect((await items(order.id)).map((item) => item.status).sort()).toEqual([
      'delivered',
      'revoked',
    ])
    expect(await getDeliveredSecret(t.db, APP_SECRET, order.id)).toEqual(next)
    expect(await listOrderEvents(t.db, order.id)).toHaveLength(eventsBefore.length)
    expect(await mails(order.id)).toEqual(['delivered', 'replaced'])
  })

  it('never puts one item on two live orders, also when replacements race', async () => {
    const product = await stockProduct(['KEY-X-1', 'KEY-X-2', 'KEY-X-3', 'KEY-X-4', 'KEY-X-5'])
    const orders = [
      await paidOrder(product.id),
      await paidOrder(product.id),
      await paidOrder(product.id),
    ]
    // Two items left; three replacements at once on three orders. (Two on one order: the second
    // is a repeat, refused before it looks for stock: order-actions.db.test.ts.)
    const results = await Promise.all(
      orders.map((order) => replaceFromStock(t.db, { orderId: order.id, actor })),
    )
    expect(results.filter((result) => result.ok)).toHaveLength(2)
    expect(results.filter((result) => !result.ok).map((result) => result.message)).toEqual([
      noStockMessage(product.title),
    ])
    const all = await t.db
      .selectFrom('stockItem')
      .select(['id', 'status', 'orderId'])
      .where('productId', '=', product.id)
      .execute()
    const live = all.filter((item) => item.status === 'delivered')
    expect(live).toHaveLength(3)
    expect(new Set(live.map((item) => item.orderId))).toEqual(
      new Set(orders.map((order) => order.id)),
    )
    expect(all.filter((item) => item.status === 'revoked')).toHaveLength(2)
    expect(all.filter((item) => item.status === 'available')).toHaveLength(0)
    for (const order of orders)
      expect(await getDeliveredSecret(t.db, APP_SECRET, order.id)).not.toBeNull()
  })

  it('is only for delivered orders of stock products', async () => {
    const manual = await manualProduct()
    const order = await paidOrder(manual.id)
    await deliverManually(t.db, APP_SECRET, { orderId: order.id, secret: 'HAND-1', actor })
    expect(await replaceFromStock(t.db, { orderId: order.id, actor })).toEqual({
      ok: false,
      message: ORDER_ADMIN_MESSAGES.notStockProduct,
    })
    expect((await items(order.id)).map((item) => item.status)).toEqual(['delivered'])
    const pending = await pendingOrder(manual.id)
    expect(await replaceFromStock(t.db, { orderId: pending.id, actor })).toEqual({
      ok: false,
      message: notApplicableMessage('Replace item', 'pending'),
    })
  })
})

describe(`refund, resend, reply (${engine})`, () => {
  it('marks a delivered order refunded with a required note; the buyer no longer sees the item', async () => {
    const product = await stockProduct(['KEY-REFUND-1', 'KEY-REFUND-2'])
    const order = await paidOrder(product.id)
    await buyerReports(order.id, 'Wrong region, please refund')
    expect(await markRefunded(t.db, { orderId: order.id, note: '  ', actor })).toEqual({
      ok: false,
      message: ORDER_ADMIN_MESSAGES.refundNoteRequired,
      field: 'note',
    })
    expect(await status(order.id)).toBe('delivered')

    const result = await markRefunded(t.db, {
      orderId: order.id,
      note: 'Paytm refund REF-778812',
      actor,
    })
    await expectApplied(
      result,
      order.id,
      'refunded',
      'Marked refunded; the buyer has been e-mailed.',
    )
    expect(
      (await listOrderEvents(t.db, order.id)).find((event) => event.type === 'refunded'),
    ).toMatchObject({
      actor,
      fromStatus: 'delivered',
      toStatus: 'refunded',
      message: 'Marked refunded: Paytm refund REF-778812',
    })
    expect((await listOrderReports(t.db, order.id))[0]).toMatchObject({
      resolution: 'refunded',
      resolvedBy: actor,
    })
    expect(await mails(order.id)).toEqual(['delivered', 'refunded'])
    // The item is taken back, as a gateway refund takes it: nothing can hand it out again.
    expect(await getDeliveredSecret(t.db, APP_SECRET, order.id)).toBeNull()
    expect(
      await t.db
        .selectFrom('stockItem')
        .select(['status', 'revokedReason'])
        .where('orderId', '=', order.id)
        .execute(),
    ).toEqual([{ status: 'revoked', revokedReason: 'Refunded' }])
    expect(
      await revealOrderSecret(t.db, APP_SECRET, order.id, {
        actor: 'customer',
        ip: '127.0.0.1',
        via: 'order_page',
      }),
    ).toBeNull()

    expect(await markRefunded(t.db, { orderId: order.id, note: 'again', actor })).toEqual({
      ok: false,
      message: 'This order is already refunded. Nothing was changed.',
    })
    const pending = await pendingOrder(product.id)
    expect(await markRefunded(t.db, { orderId: pending.id, note: 'REF-1', actor })).toEqual({
      ok: false,
      message: notApplicableMessage('Mark refunded', 'pending'),
    })
  })

  it('refunds paid and waiting orders too', async () => {
    const manual = await paidOrder((await manualProduct()).id)
    const waiting = await waitingOrder()
    expect(waiting.status).toBe('awaiting_stock')
    for (const order of [manual, waiting]) {
      expect(
        (await markRefunded(t.db, { orderId: order.id, note: 'Refunded by UPI', actor })).ok,
      ).toBe(true)
      expect(await status(order.id)).toBe('refunded')
    }
  })

  it('resends the delivery e-mail of a delivered order and records it', async () => {
    const product = await stockProduct(['KEY-RESEND-1'])
    const order = await paidOrder(product.id)
    expect(await resendDeliveryMail(t.db, { orderId: order.id, actor })).toEqual({
      ok: true,
      status: 'delivered',
      message: 'The delivery e-mail is on its way to the buyer.',
    })
    expect(await mails(order.id)).toEqual(['delivered', 'delivered'])
    expect(await lastEvent(order.id)).toMatchObject({
      type: 'mail_resent',
      actor,
      message: 'Delivery e-mail sent again',
    })
    const paid = await paidOrder((await manualProduct()).id)
    expect(await resendDeliveryMail(t.db, { orderId: paid.id, actor })).toEqual({
      ok: false,
      message: notApplicableMessage('Resending the delivery e-mail', 'paid'),
    })
    expect(await mails(paid.id)).toEqual(['paid'])
  })

  it('replies to an open report by e-mail and resolves it', async () => {
    const product = await stockProduct(['KEY-REPLY-1'])
    const order = await paidOrder(product.id)
    expect(await replyToReport(t.db, { orderId: order.id, reply: 'Hello', actor })).toEqual({
      ok: false,
      message: ORDER_ADMIN_MESSAGES.noOpenReport,
    })
    await buyerReports(order.id, 'How do I sign in on my TV?')
    expect(await replyToReport(t.db, { orderId: order.id, reply: ' ', actor })).toEqual({
      ok: false,
      message: ORDER_ADMIN_MESSAGES.replyRequired,
      field: 'reply',
    })
    expect(
      await replyToReport(t.db, { orderId: order.id, reply: 'x'.repeat(2001), actor }),
    ).toEqual({
      ok: false,
      message: 'Please keep the reply to at most 2,000 characters.',
      field: 'reply',
    })
    const result = await replyToReport(t.db, {
      orderId: order.id,
      reply: '  Open the app, choose Sign in with code. ',
      actor,
    })
    expect(result).toEqual({
      ok: true,
      status: 'delivered',
      message: 'Reply sent; the report is resolved.',
    })
    expect((await listOrderReports(t.db, order.id))[0]).toMatchObject({
      status: 'resolved',
      resolution: 'replied',
      reply: 'Open the app, choose Sign in with code.',
      resolvedBy: actor,
    })
    expect(await lastEvent(order.id)).toMatchObject({ type: 'report_resolved', actor })
    expect(await mails(order.id)).toEqual(['delivered', 'reply'])
    expect((await mailPayloads(order.id)).at(-1)).toEqual({
      orderId: order.id,
      kind: 'reply',
      message: 'Open the app, choose Sign in with code.',
    })
  })
})

describe(`the admin's order list and order page (${engine})`, () => {
  it('searches by customer, e-mail, phone, order id and product; filters by status and open reports; pages', async () => {
    const product = await manualProduct('Zephyr Music Family')
    const people = [
      { name: 'Kavya Iyer', email: 'kavya@example.in', phone: '9000000001' },
      { name: 'Arjun Mehta', email: 'arjun@example.in', phone: '9000000002' },
      { name: 'Kavya Rao', email: 'k.rao@example.in', phone: '9000000003' },
    ]
    const ids: string[] = []
    // A second apart, so "newest first" has one answer.
    const at = Date.now()
    for (const [index, person] of people.entries()) {
      ids.push(
        (
          await createOrder(
            t.db,
            { productId: product.id, customer: person },
            { now: () => at + index * 1000 },
          )
        ).order.id,
      )
    }
    await t.db.updateTable('order').set({ status: 'delivered' }).where('id', '=', ids[1]!).execute()
    await buyerReports(ids[1]!, 'Family invite link expired')

    const names = async (query: Parameters<typeof listAdminOrders>[1]) =>
      (await listAdminOrders(t.db, query)).items.map((row) => row.customerName)
    expect(await names({ search: 'kavya' })).toEqual(['Kavya Rao', 'Kavya Iyer'])
    expect(await names({ search: 'ARJUN@example' })).toEqual(['Arjun Mehta'])
    expect(await names({ search: '9000000003' })).toEqual(['Kavya Rao'])
    expect(await names({ search: ids[0]!.toLowerCase() })).toEqual(['Kavya Iyer'])
    expect(await names({ search: 'zephyr music' })).toEqual([
      'Kavya Rao',
      'Arjun Mehta',
      'Kavya Iyer',
    ])
    expect(await names({ search: 'zephyr', status: 'delivered' })).toEqual(['Arjun Mehta'])
    expect(await names({ search: 'zephyr', openReports: true })).toEqual(['Arjun Mehta'])
    // A simulated (test-mode) order is left out of the real orders.
    await t.db
      .updateTable('order')
      .set({ testMode: toFlag(true) })
      .where('id', '=', ids[2]!)
      .execute()
    expect(await names({ search: 'zephyr', realOnly: true })).toEqual(['Arjun Mehta', 'Kavya Iyer'])
    expect(await names({ search: 'zephyr' })).toHaveLength(3)
    // The status chips count the same way.
    const all = await orderCounts(t.db)
    const real = await orderCounts(t.db, { realOnly: true })
    expect(all.total - real.total).toBe(
      Number(
        (
          await t.db
            .selectFrom('order')
            .select((eb) => eb.fn.countAll<number | string>().as('count'))
            .where('testMode', '=', toFlag(true))
            .executeTakeFirstOrThrow()
        ).count,
      ),
    )
    expect(real.byStatus.pending).toBe(all.byStatus.pending - 1)
    // A report on a simulated order is left out of the real orders' open reports.
    expect(real.openReports).toBe(all.openReports)
    await t.db
      .updateTable('order')
      .set({ testMode: toFlag(true) })
      .where('id', '=', ids[1]!)
      .execute()
    expect((await orderCounts(t.db, { realOnly: true })).openReports).toBe(all.openReports - 1)
    expect((await orderCounts(t.db)).openReports).toBe(all.openReports)
    await t.db
      .updateTable('order')
      .set({ testMode: toFlag(false) })
      .where('id', '=', ids[1]!)
      .execute()
    // % and _ are literal, not wildcards.
    expect(await names({ search: 'kavya%' })).toEqual([])
    expect(await names({ search: 'k_rao' })).toEqual([])

    const [row] = (await listAdminOrders(t.db, { search: ids[1]! })).items
    expect(row).toEqual({
      id: ids[1],
      createdAt: expect.any(String),
      customerName: 'Arjun Mehta',
      customerEmail: 'arjun@example.in',
      customerPhone: '9000000002',
      productName: 'Zephyr Music Family',
      amount: 149_900,
      status: 'delivered',
      gateway: 'paytm',
      gatewayTxnId: null,
      testMode: false,
      hasOpenReport: true,
      refunded: 0,
      partRefunded: false,
      refundPending: false,
      refundProblem: false,
    })

    const page2 = await listAdminOrders(t.db, { search: 'zephyr', page: 2, pageSize: 2 })
    expect(page2).toMatchObject({ total: 3, page: 2, pageSize: 2, pageCount: 2 })
    expect(page2.items.map((item) => item.customerName)).toEqual(['Kavya Iyer'])
    // A page past the end shows the last page.
    expect((await listAdminOrders(t.db, { search: 'zephyr', page: 99, pageSize: 2 })).page).toBe(2)
  })

  it('marks refunds (part refunded, pending, a problem), filters and counts refund problems', async () => {
    const before = await orderCounts(t.db)
    const realBefore = await orderCounts(t.db, { realOnly: true })
    const product = await manualProduct('Refund Marks Suite')
    const start = Date.parse('2026-04-01T10:00:00.000Z')
    let clock = 0
    const refund = async (
      orderId: string,
      amount: number,
      refundStatus: OrderRefundStatus,
      stopped = false,
    ) => {
      const at = new Date(start + ++clock * 60_000).toISOString()
      await makeRefund(t.db, orderId, {
        amount,
        status: refundStatus,
        at,
        stopped,
        requestedBy: actor,
      })
    }
    const order = async () => paidOrder(product.id)
    const part = await order()
    await refund(part.id, 20_000, 'processed')
    await refund(part.id, 5_000, 'failed')
    await refund(part.id, 5_000, 'processed')
    const pending = await order()
    await refund(pending.id, 10_000, 'requested')
    await refund(pending.id, 10_000, 'pending')
    const failed = await order()
    await refund(failed.id, 10_000, 'failed')
    const stopped = await order()
    await refund(stopped.id, 10_000, 'pending', true)
    const failedThenPending = await order()
    await refund(failedThenPending.id, 10_000, 'failed')
    await refund(failedThenPending.id, 10_000, 'pending')
    // Refunded (Mark refunded after part of it went back, a refund left unanswered): the money
    // is back with the buyer, nothing is marked.
    const refunded = await order()
    await refund(refunded.id, 10_000, 'processed')
    await refund(refunded.id, 10_000, 'pending', true)
    await refund(refunded.id, 10_000, 'failed')
    await t.db
      .updateTable('order')
      .set({ status: 'refunded' })
      .where('id', '=', refunded.id)
      .execute()
    const untouched = await order()

    const rows = (await listAdminOrders(t.db, { search: 'refund marks', pageSize: 100 })).items
    const marks = Object.fromEntries(
      rows.map((row) => [
        row.id,
        [row.refunded, row.partRefunded, row.refundPending, row.refundProblem],
      ]),
    )
    expect(marks).toEqual({
      [part.id]: [25_000, true, false, false],
      [pending.id]: [0, false, true, false],
      [failed.id]: [0, false, false, true],
      [stopped.id]: [0, false, false, true],
      [failedThenPending.id]: [0, false, true, false],
      [refunded.id]: [10_000, false, false, false],
      [untouched.id]: [0, false, false, false],
    })
    // A refund of all that was paid is not a part refund.
    await refund(untouched.id, untouched.paidAmount ?? untouched.amount, 'processed')
    const [whole] = (await listAdminOrders(t.db, { search: untouched.id })).items
    expect(whole).toMatchObject({ refunded: untouched.amount, partRefunded: false })

    // The filter, with the search and paging; the chip counts the same orders.
    const problems = await listAdminOrders(t.db, {
      search: 'refund marks',
      refundProblems: true,
      pageSize: 1,
    })
    expect(problems).toMatchObject({ total: 2, pageCount: 2 })
    expect(problems.items.map((row) => row.id)).toEqual([stopped.id])
    const second = await listAdminOrders(t.db, {
      search: 'refund marks',
      refundProblems: true,
      pageSize: 1,
      page: 2,
    })
    expect(second.items.map((row) => row.id)).toEqual([failed.id])
    const after = await orderCounts(t.db)
    expect(after.refundProblems).toBe(before.refundProblems + 2)
    expect(after.refundProblems).toBe((await listAdminOrders(t.db, { refundProblems: true })).total)
    // Real orders only: a simulated order's problem is left out of both.
    await t.db
      .updateTable('order')
      .set({ testMode: toFlag(true) })
      .where('id', '=', stopped.id)
      .execute()
    expect((await orderCounts(t.db, { realOnly: true })).refundProblems).toBe(
      realBefore.refundProblems + 1,
    )
    expect(
      (
        await listAdminOrders(t.db, {
          search: 'refund marks',
          refundProblems: true,
          realOnly: true,
        })
      ).items.map((row) => row.id),
    ).toEqual([failed.id])

    // The export reads the same rows.
    const exported: Record<string, number> = {}
    for await (const row of exportAdminOrders(t.db, { search: 'refund marks' }, 2))
      exported[row.id] = row.refunded
    expect(exported[part.id]).toBe(25_000)
    expect(exported[refunded.id]).toBe(10_000)
    expect(exported[pending.id]).toBe(0)
  })

  it('marks a refund that failed after a later one was asked for, until one is asked after the failure', async () => {
    const product = await manualProduct('Refund Late Failure Suite')
    const order = await paidOrder(product.id)
    const add = async (
      amount: number,
      status: OrderRefundStatus,
      created: string,
      updated: string,
    ) =>
      t.db
        .insertInto('orderRefund')
        .values({
          id: newRefundId(),
          orderId: order.id,
          gateway: 'paytm',
          amount,
          status,
          requestedBy: actor,
          createdAt: `2026-05-01T10:${created}:00.000Z`,
          updatedAt: `2026-05-01T10:${updated}:00.000Z`,
          processedAt: status === 'processed' ? `2026-05-01T10:${updated}:00.000Z` : null,
        })
        .execute()
    // ₹100 asked for at 10:00, ₹50 at 10:01 (gone through at 10:02), and the ₹100 failed at
    // 10:05: the buyer is still owed it, whatever was asked for before the failure.
    await add(10_000, 'failed', '00', '05')
    await add(5_000, 'processed', '01', '02')
    const marks = async () => {
      const [row] = (await listAdminOrders(t.db, { search: order.id })).items
      return [row!.partRefunded, row!.refundProblem]
    }
    expect(await marks()).toEqual([true, true])
    // A refund asked for after the failure: the shop saw to it.
    await add(10_000, 'pending', '06', '06')
    expect(await marks()).toEqual([true, false])
  })

  it('exports every matching order newest first, ties broken by id, none twice', async () => {
    const product = await manualProduct('Batch Export Pro')
    const at = new Date('2026-03-01T10:00:00.000Z').getTime()
    const ids: string[] = []
    for (let i = 0; i < 7; i++) {
      // Three orders share each timestamp: the keyset must still move past every one of them.
      const { order } = await createOrder(
        t.db,
        { productId: product.id, customer: BUYER },
        { now: () => at + Math.floor(i / 3) * 1000 },
      )
      ids.push(order.id)
    }
    const exported: string[] = []
    for await (const row of exportAdminOrders(t.db, { search: 'batch export' }, 2))
      exported.push(row.id)
    const expected = (
      await listAdminOrders(t.db, { search: 'batch export', pageSize: 100 })
    ).items.map((row) => row.id)
    expect(exported).toEqual(expected)
    expect(new Set(exported)).toEqual(new Set(ids))
    expect(exported).toHaveLength(7)
  })

  it('counts orders per status and orders with an open report', async () => {
    const before = await orderCounts(t.db)
    const product = await manualProduct()
    await pendingOrder(product.id)
    const delivered = await paidOrder(product.id)
    await deliverManually(t.db, APP_SECRET, { orderId: delivered.id, secret: 'K', actor })
    await buyerReports(delivered.id, 'It does not work at all')
    const after = await orderCounts(t.db)
    expect(after.total).toBe(before.total + 2)
    expect(after.byStatus.pending).toBe(before.byStatus.pending + 1)
    expect(after.byStatus.delivered).toBe(before.byStatus.delivered + 1)
    expect(after.openReports).toBe(before.openReports + 1)
    expect(Object.values(after.byStatus).reduce((sum, n) => sum + n, 0)).toBe(after.total)
  })

  it('gives the order page its product, items and the actions that apply', async () => {
    const product = await stockProduct(['KEY-PAGE-1', 'KEY-PAGE-2'], 'Page Test Suite')
    const order = await paidOrder(product.id)
    const detail = await getAdminOrder(t.db, order.id)
    expect(detail).toMatchObject({
      order: { id: order.id, status: 'delivered' },
      product: {
        id: product.id,
        title: 'Page Test Suite',
        deliveryMode: 'stock',
        hasSharedSecret: false,
      },
      items: [{ status: 'delivered' }],
      hasOpenReport: false,
    })
    expect(detail!.items[0]).not.toHaveProperty('secretCiphertext')
    expect(orderActions(detail!)).toEqual({
      confirmPayment: false,
      deliverManually: true,
      replaceFromStock: true,
      refund: true,
      resendDelivery: true,
      replyToReport: false,
      reveal: true,
    })
    const pending = await getAdminOrder(t.db, (await pendingOrder(product.id)).id)
    expect(orderActions(pending!)).toEqual({
      confirmPayment: true,
      deliverManually: false,
      replaceFromStock: false,
      refund: false,
      resendDelivery: false,
      replyToReport: false,
      reveal: false,
    })
    expect(await getAdminOrder(t.db, 'ORD_9_9')).toBeNull()
  })

  it('names the timeline’s actors', async () => {
    const names = await describeActors(
      t.db,
      [actor, 'customer', 'gateway', 'system', 'user:gone', 'cli'],
      'razorpay',
    )
    expect(names).toEqual({
      [actor]: 'Meera Ops (ops@shop.example)',
      customer: 'Buyer',
      gateway: 'Razorpay',
      system: 'System',
      'user:gone': 'A deleted user',
      cli: 'cli',
    })
  })
})
