import { describe, expect, it } from 'vitest'
import { listOrderEvents } from '~/data/order.server'
import { claimWebhookEvent, WEBHOOK_CLAIM_TIMEOUT_MS } from '~/data/payment-webhook.server'
import { webhookSignature } from '~/lib/payments/razorpay.server'
import {
  razorpayControl,
  simulateRazorpayPayment,
  startRazorpaySimulator,
} from '../../../simulators/razorpay/testing'
import {
  expectEachPaidOnceWithItsOwnItem,
  gatewayFlowHarness,
} from '../../../tests/helpers/gateway-flow'
import { BUYER, makeStockedProduct } from '../../../tests/factories'
import {
  alreadyPaidMessage,
  confirmGatewayPaymentAndDeliver,
} from '~/services/order-actions.server'
import { GATEWAY_RECONCILE_JOB } from './gateway-flow.server'
import { reconcileDelayMs, RECONCILE_WINDOW_MS } from './paytm-flow.server'
import type { RazorpaySetup } from './razorpay-config.server'
import {
  handleRazorpayReturn,
  handleRazorpayWebhook,
  PaymentStartError,
  razorpayReconciler,
  startRazorpayCheckout,
  type StartedRazorpayCheckout,
} from './razorpay-flow.server'

/**
 * The Razorpay flow against the local Razorpay simulator (over HTTP) and the real database, on
 * SQLite and on PostgreSQL. Webhooks the simulator sends are captured and handed to the shop.
 */
const APP_SECRET = 'a'.repeat(64)
const CALLBACK = 'http://127.0.0.1:9/api/payments/razorpay/callback'
const quiet = { log: () => {} }
const flow = gatewayFlowHarness({
  start: (fetch) =>
    startRazorpaySimulator({ webhookUrl: 'http://shop.test/api/payments/razorpay/webhook', fetch }),
  setup: (sim): RazorpaySetup => ({
    config: {
      keyId: sim.keyId,
      keySecret: sim.keySecret,
      webhookSecret: sim.webhookSecret,
      host: sim.url,
      checkoutScript: `${sim.url}/v1/checkout.js`,
    },
    callbackUrl: CALLBACK,
    source: 'environment',
    testMode: false,
  }),
  endOutage: (sim) => razorpayControl(sim, 'outage', { enabled: false }),
  reconciler: (_db, setup) => razorpayReconciler(setup, quiet),
})
const { t, sent, order, runJobs } = flow

const checkout = (id = flow.productId): Promise<StartedRazorpayCheckout> =>
  startRazorpayCheckout(t.db, flow.setup, { productId: id, customer: BUYER }, quiet)

/** A checkout paid (or not) at the simulator's page: what the browser brings back to us. */
async function checkoutAndPay(outcome: 'success' | 'failure' | 'pending') {
  const started = await checkout()
  const back = await simulateRazorpayPayment(
    flow.sim,
    started.order.gatewayOrderId!,
    CALLBACK,
    outcome,
  )
  return { started, back }
}

/** The webhooks the simulator sent for a Razorpay order (they leave asynchronously). */
async function webhooksFor(razorpayOrderId: string, count: number) {
  for (let i = 0; i < 100; i++) {
    const found = sent.filter((w) => w.body.includes(`"order_id":"${razorpayOrderId}"`))
    if (found.length >= count) return found
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`expected ${count} webhooks for ${razorpayOrderId}`)
}

const eventOf = (w: { body: string }) => (JSON.parse(w.body) as { event: string }).event

describe('Razorpay checkout', () => {
  it('creates our order and a Razorpay order for the database price, receipt = our order id', async () => {
    const started = await checkout()
    expect(started.order.gatewayOrderId).toMatch(/^order_/)
    expect((await order(started.order.id)).gatewayOrderId).toBe(started.order.gatewayOrderId)
    expect(started.checkout.options).toMatchObject({
      key: flow.sim.keyId,
      amount: 149_900,
      currency: 'INR',
      order_id: started.order.gatewayOrderId,
      callback_url: CALLBACK,
      prefill: { email: BUYER.email, contact: BUYER.phone },
    })
    expect(started.checkout.script).toBe(`${flow.sim.url}/v1/checkout.js`)
    const remote = await fetch(`${flow.sim.url}/v1/orders/${started.order.gatewayOrderId}`, {
      headers: {
        Authorization: `Basic ${Buffer.from(`${flow.sim.keyId}:${flow.sim.keySecret}`).toString('base64')}`,
      },
    }).then((r) => r.json() as Promise<{ amount: number; receipt: string }>)
    expect(remote).toMatchObject({ amount: 149_900, receipt: started.order.id })
    const jobs = await t.db
      .selectFrom('job')
      .select('payload')
      .where('type', '=', GATEWAY_RECONCILE_JOB)
      .execute()
    expect(jobs.some((j) => j.payload.includes(started.order.id))).toBe(true)
  })

  it('marks our order failed and says so when Razorpay is down, so the buyer can pay another way', async () => {
    await razorpayControl(flow.sim, 'outage', { enabled: true })
    const error = await checkout().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PaymentStartError)
    const failed = await order((error as PaymentStartError).orderId)
    expect(failed.status).toBe('failed')
    expect(failed.gatewayOrderId).toBeNull()
  })
})

describe('Razorpay return', () => {
  it('pays on a verified return confirmed by the payments API', async () => {
    const { started, back } = await checkoutAndPay('success')
    expect(back.action).toBe(CALLBACK)
    const result = await handleRazorpayReturn(t.db, flow.setup, back.fields, quiet)
    expect(result).toMatchObject({ kind: 'handled', outcome: 'paid' })
    const paid = await order(started.order.id)
    expect(paid.status).not.toBe('pending')
    expect(paid.gatewayTxnId).toBe(back.fields.razorpay_payment_id)
    expect(paid.paidAmount).toBe(149_900)
    // Razorpay's own word for the payment is what the order page shows as its last answer.
    expect(paid.gatewayStatus).toBe('captured')
    // The same return again changes nothing.
    expect(await handleRazorpayReturn(t.db, flow.setup, back.fields, quiet)).toMatchObject({
      outcome: 'unchanged',
    })
  })

  it('refuses a wrong signature and a payment of another order, writing nothing', async () => {
    const a = await checkout()
    const b = await checkout()
    const paidB = await simulateRazorpayPayment(
      flow.sim,
      b.order.gatewayOrderId!,
      CALLBACK,
      'success',
    )
    // B's payment with B's valid signature, presented as A's.
    const swapped = { ...paidB.fields, razorpay_order_id: a.order.gatewayOrderId! }
    expect(await handleRazorpayReturn(t.db, flow.setup, swapped, quiet)).toMatchObject({
      kind: 'rejected',
    })
    const forged = { ...paidB.fields, razorpay_signature: 'f'.repeat(64) }
    expect(await handleRazorpayReturn(t.db, flow.setup, forged, quiet)).toMatchObject({
      kind: 'rejected',
      reason: 'bad-signature',
    })
    expect((await order(a.order.id)).status).toBe('pending')
    expect((await order(b.order.id)).status).toBe('pending')
    expect((await listOrderEvents(t.db, a.order.id)).map((e) => e.type)).toEqual(['created'])
  })

  it('ignores a return for an order we do not have', async () => {
    expect(
      await handleRazorpayReturn(
        t.db,
        flow.setup,
        {
          razorpay_order_id: 'order_Nope0000001',
          razorpay_payment_id: 'pay_X',
          razorpay_signature: 'a',
        },
        quiet,
      ),
    ).toEqual({ kind: 'unknown-order' })
  })

  it('fails the order on a failure return only when Razorpay confirms it', async () => {
    const { started, back } = await checkoutAndPay('failure')
    expect(back.fields['error[metadata][order_id]']).toBe(started.order.gatewayOrderId)
    expect(await handleRazorpayReturn(t.db, flow.setup, back.fields, quiet)).toMatchObject({
      outcome: 'failed',
    })
    expect(await order(started.order.id)).toMatchObject({
      status: 'failed',
      gatewayStatus: 'failed',
      gatewayRespCode: 'BAD_REQUEST_ERROR',
    })
    // A forged failure for an order with no payment changes nothing.
    const other = await checkout()
    const forged = {
      'error[code]': 'BAD_REQUEST_ERROR',
      'error[metadata][order_id]': other.order.gatewayOrderId!,
    }
    expect(await handleRazorpayReturn(t.db, flow.setup, forged, quiet)).toMatchObject({
      outcome: 'pending',
    })
    expect((await order(other.order.id)).status).toBe('pending')
  })

  it('an unsigned failure return asks Razorpay at most every few seconds per order', async () => {
    const { started, back } = await checkoutAndPay('failure')
    const calls: string[] = []
    const at = (ms: number) => ({
      ...quiet,
      now: () => new Date(Date.now() + ms),
      fetch: ((url: string | URL, init?: RequestInit) => {
        calls.push(String(url))
        return fetch(url, init)
      }) as typeof fetch,
    })
    expect(await handleRazorpayReturn(t.db, flow.setup, back.fields, at(0))).toMatchObject({
      outcome: 'failed',
    })
    expect(calls).toHaveLength(1)
    // The same unsigned post again (a reload, or anyone who knows the order id) asks nothing.
    expect(await handleRazorpayReturn(t.db, flow.setup, back.fields, at(1_000))).toMatchObject({
      outcome: 'unchanged',
      status: 'failed',
    })
    expect(calls).toHaveLength(1)
    expect(await handleRazorpayReturn(t.db, flow.setup, back.fields, at(5_000))).toMatchObject({
      status: 'failed',
    })
    expect(calls).toHaveLength(2)
    expect((await order(started.order.id)).status).toBe('failed')
  })

  it('a signed return posted again while the payment is only authorised asks Razorpay once per turn', async () => {
    const { started, back } = await checkoutAndPay('pending')
    const calls: string[] = []
    const start = Date.now()
    const at = (ms: number) => ({
      ...quiet,
      now: () => new Date(start + ms),
      fetch: ((url: string | URL, init?: RequestInit) => {
        calls.push(String(url))
        return fetch(url, init)
      }) as typeof fetch,
    })
    expect(await handleRazorpayReturn(t.db, flow.setup, back.fields, at(0))).toMatchObject({
      outcome: 'pending',
      status: 'pending',
    })
    expect(calls).toHaveLength(1)
    // The signed form posted again and again (a reload, a script): answered from our record.
    for (const ms of [500, 1_000, 2_000, 2_900])
      expect(await handleRazorpayReturn(t.db, flow.setup, back.fields, at(ms))).toEqual({
        kind: 'handled',
        orderId: started.order.id,
        outcome: 'pending',
        status: 'pending',
      })
    expect(calls).toHaveLength(1)
    // The next turn asks again; Razorpay has captured it meanwhile, so that one pays.
    await razorpayControl(flow.sim, 'settle', {
      payment_id: back.fields.razorpay_payment_id,
      status: 'captured',
    })
    expect(await handleRazorpayReturn(t.db, flow.setup, back.fields, at(3_500))).toMatchObject({
      outcome: 'paid',
    })
    expect(calls).toHaveLength(2)
  })

  it('simultaneous first returns of one order ask Razorpay once, and each shows the order as it stands', async () => {
    for (const outcome of ['success', 'failure'] as const) {
      const { started, back } = await checkoutAndPay(outcome)
      const calls: string[] = []
      const counting = {
        ...quiet,
        fetch: ((url: string | URL, init?: RequestInit) => {
          calls.push(String(url))
          return fetch(url, init)
        }) as typeof fetch,
      }
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          handleRazorpayReturn(t.db, flow.setup, back.fields, counting),
        ),
      )
      expect(calls).toHaveLength(1)
      const settled = outcome === 'success' ? 'paid' : 'failed'
      for (const result of results) {
        // The one that asked settled the order; the others show it pending, or settled when
        // they read it after that.
        expect(result).toMatchObject({ kind: 'handled', orderId: started.order.id })
        expect(['pending', settled]).toContain((result as { status: string }).status)
      }
      expect(
        results.filter((result) => 'outcome' in result && result.outcome === settled),
      ).toHaveLength(1)
      expect((await order(started.order.id)).status).toBe(settled)
      const events = (await listOrderEvents(t.db, started.order.id)).map((e) => e.type)
      expect(events.filter((type) => type === settled)).toHaveLength(1)
    }
  })

  it('keeps a pending payment pending, and the job pays it once Razorpay captures it', async () => {
    const { started, back } = await checkoutAndPay('pending')
    expect(await handleRazorpayReturn(t.db, flow.setup, back.fields, quiet)).toMatchObject({
      outcome: 'pending',
    })
    await razorpayControl(flow.sim, 'settle', {
      payment_id: back.fields.razorpay_payment_id,
      status: 'captured',
    })
    await runJobs(new Date(Date.now() + reconcileDelayMs(1) + 1000))
    expect((await order(started.order.id)).status).not.toBe('pending')
    expect((await order(started.order.id)).gatewayTxnId).toBe(back.fields.razorpay_payment_id)
  })

  it('never pays for a payment Razorpay gave back uncaptured (refunded), however it is asked', async () => {
    const { started, back } = await checkoutAndPay('pending')
    expect(await handleRazorpayReturn(t.db, flow.setup, back.fields, quiet)).toMatchObject({
      outcome: 'pending',
    })
    // Razorpay refunds an authorized payment nobody captured in time: the money went back.
    await razorpayControl(flow.sim, 'settle', {
      payment_id: back.fields.razorpay_payment_id,
      status: 'refunded',
    })
    await runJobs(new Date(Date.now() + reconcileDelayMs(1) + 1000))
    await runJobs(new Date(Date.now() + 11 * 60_000))
    const after = await order(started.order.id)
    expect(['failed', 'expired']).toContain(after.status)
    // The signed return posted again, and the admin's confirmation, pay nothing either.
    await handleRazorpayReturn(t.db, flow.setup, back.fields, quiet)
    const confirmed = await confirmGatewayPaymentAndDeliver(t.db, {
      orderId: started.order.id,
      actor: 'user:ops',
      gateway: razorpayReconciler(flow.setup, quiet),
    })
    expect(confirmed.ok).toBe(false)
    expect(await order(started.order.id)).toMatchObject({
      status: after.status,
      paidAmount: null,
      gatewayTxnId: null,
    })
    expect(
      await t.db
        .selectFrom('stockItem')
        .select('id')
        .where('orderId', '=', started.order.id)
        .execute(),
    ).toEqual([])
  })

  it('leaves the order untouched while the payments API is down, and the job settles it later', async () => {
    const { started, back } = await checkoutAndPay('success')
    await razorpayControl(flow.sim, 'outage', { enabled: true })
    expect(await handleRazorpayReturn(t.db, flow.setup, back.fields, quiet)).toMatchObject({
      outcome: 'unconfirmed',
    })
    expect((await order(started.order.id)).status).toBe('pending')
    await razorpayControl(flow.sim, 'outage', { enabled: false })
    await runJobs(new Date(Date.now() + reconcileDelayMs(1) + 1000))
    expect((await order(started.order.id)).paidAmount).toBe(149_900)
  })

  it('expires an order nobody paid for once ten minutes have passed', async () => {
    const started = await checkout()
    await runJobs(new Date(Date.now() + 11 * 60_000))
    expect((await order(started.order.id)).status).toBe('expired')
  })
})

describe('Razorpay reconciliation when Razorpay cannot be asked', () => {
  it('keeps checking (switched off, set up for the other mode, keys refused), and expires the order after 24 hours', async () => {
    const cases = [
      ['switched off', null, /payments through Razorpay are switched off/],
      [
        'other mode',
        razorpayReconciler({ ...flow.setup, testMode: true }, quiet),
        /takes test payments only/,
      ],
      [
        'keys refused',
        razorpayReconciler(
          { ...flow.setup, config: { ...flow.setup.config, keySecret: 'rotated' } },
          quiet,
        ),
        /HTTP 401/,
      ],
    ] as const
    for (const [name, gateway, why] of cases) {
      const started = await checkout()
      const createdAt = new Date(started.order.createdAt).getTime()
      await runJobs(new Date(createdAt + 11 * 60_000), gateway)
      expect((await order(started.order.id)).status, name).toBe('pending')
      const queued = await t.db
        .selectFrom('job')
        .select(['payload', 'attempts'])
        .where('type', '=', GATEWAY_RECONCILE_JOB)
        .where('status', '=', 'pending')
        .execute()
      // The next check is queued with its growing gap (not failed and dropped).
      expect(
        queued.filter((j) => j.payload.includes(started.order.id)),
        name,
      ).toEqual([expect.objectContaining({ attempts: 0 })])
      await runJobs(new Date(createdAt + RECONCILE_WINDOW_MS + 1000), gateway)
      expect((await order(started.order.id)).status, name).toBe('expired')
      const last = (await listOrderEvents(t.db, started.order.id)).at(-1)
      expect(last?.message, name).toMatch(/^No answer from Razorpay within 24 hours/)
      expect(last?.message, name).toMatch(why)
    }
  })
})

describe('Razorpay webhooks', () => {
  function signed(body: string, eventId: string, secret = flow.sim.webhookSecret) {
    return new Headers({
      'content-type': 'application/json',
      'x-razorpay-signature': webhookSignature(body, secret),
      'x-razorpay-event-id': eventId,
    })
  }

  it('pays on the simulator’s signed payment.captured, once for replays of the event', async () => {
    const started = await checkout()
    await simulateRazorpayPayment(flow.sim, started.order.gatewayOrderId!, CALLBACK, 'success')
    const hooks = await webhooksFor(started.order.gatewayOrderId!, 2)
    expect(hooks.map(eventOf).sort()).toEqual(['order.paid', 'payment.captured'])
    const captured = hooks.find((w) => eventOf(w) === 'payment.captured')!
    expect(
      await handleRazorpayWebhook(t.db, flow.setup, captured.body, captured.headers, quiet),
    ).toMatchObject({
      kind: 'handled',
      outcome: 'paid',
    })
    // Replayed (same x-razorpay-event-id): not acted on again.
    expect(
      await handleRazorpayWebhook(t.db, flow.setup, captured.body, captured.headers, quiet),
    ).toMatchObject({
      kind: 'duplicate',
    })
    const orderPaid = hooks.find((w) => eventOf(w) === 'order.paid')!
    expect(
      await handleRazorpayWebhook(t.db, flow.setup, orderPaid.body, orderPaid.headers, quiet),
    ).toMatchObject({
      outcome: 'unchanged',
    })
    const events = await listOrderEvents(t.db, started.order.id)
    expect(events.filter((e) => e.type === 'paid')).toHaveLength(1)
  })

  it('a delivery claimed by a process that died before acting is acted on by Razorpay’s retry', async () => {
    const started = await checkout()
    await simulateRazorpayPayment(flow.sim, started.order.gatewayOrderId!, CALLBACK, 'success')
    const captured = (await webhooksFor(started.order.gatewayOrderId!, 2)).find(
      (w) => eventOf(w) === 'payment.captured',
    )!
    const eventId = captured.headers.get('x-razorpay-event-id')!
    // The first delivery was claimed, then its process was killed before it acted.
    const crashedAt = new Date(Date.now() - WEBHOOK_CLAIM_TIMEOUT_MS - 60_000)
    await claimWebhookEvent(
      t.db,
      { gateway: 'razorpay', eventId, event: 'payment.captured', orderId: started.order.id },
      crashedAt,
    )
    expect(
      await handleRazorpayWebhook(t.db, flow.setup, captured.body, captured.headers, quiet),
    ).toMatchObject({ kind: 'handled', outcome: 'paid' })
    // Handled now: a replay, however late, is a duplicate.
    const muchLater = { ...quiet, now: () => new Date(Date.now() + 60 * 60_000) }
    expect(
      await handleRazorpayWebhook(t.db, flow.setup, captured.body, captured.headers, muchLater),
    ).toMatchObject({ kind: 'duplicate' })
  })

  it('refuses a wrong signature and a tampered amount', async () => {
    const started = await checkout()
    await simulateRazorpayPayment(flow.sim, started.order.gatewayOrderId!, CALLBACK, 'success')
    const [hook] = await webhooksFor(started.order.gatewayOrderId!, 1)
    const tampered = hook!.body.replace('"amount":149900', '"amount":100')
    expect(await handleRazorpayWebhook(t.db, flow.setup, tampered, hook!.headers, quiet)).toEqual({
      kind: 'rejected',
      reason: 'bad-signature',
    })
    expect(
      await handleRazorpayWebhook(
        t.db,
        flow.setup,
        hook!.body,
        signed(hook!.body, 'evt_x', 'wrong'),
        quiet,
      ),
    ).toEqual({
      kind: 'rejected',
      reason: 'bad-signature',
    })
    expect((await order(started.order.id)).status).toBe('pending')
  })

  it('never pays for another amount, even when signed', async () => {
    const started = await checkout()
    const body = JSON.stringify({
      event: 'payment.captured',
      payload: {
        payment: {
          entity: {
            id: 'pay_Short000000001',
            amount: 100,
            currency: 'INR',
            status: 'captured',
            order_id: started.order.gatewayOrderId,
          },
        },
      },
    })
    expect(
      await handleRazorpayWebhook(t.db, flow.setup, body, signed(body, 'evt_short'), quiet),
    ).toMatchObject({
      outcome: 'amount-mismatch',
    })
    expect((await order(started.order.id)).status).toBe('pending')
    expect((await listOrderEvents(t.db, started.order.id)).map((e) => e.type)).toContain(
      'amount_mismatch',
    )
  })

  it('answers an event for an unknown order without writing anything', async () => {
    const body = JSON.stringify({
      event: 'payment.captured',
      payload: {
        payment: {
          entity: {
            id: 'pay_U',
            amount: 149900,
            currency: 'INR',
            status: 'captured',
            order_id: 'order_Unknown00001',
          },
        },
      },
    })
    expect(
      await handleRazorpayWebhook(t.db, flow.setup, body, signed(body, 'evt_unknown'), quiet),
    ).toMatchObject({
      kind: 'unknown-order',
    })
  })

  it('a failed attempt does not fail an order whose buyer is paying again (the order’s payments decide)', async () => {
    const started = await checkout()
    const gatewayOrderId = started.order.gatewayOrderId!
    await simulateRazorpayPayment(flow.sim, gatewayOrderId, CALLBACK, 'failure')
    const failed = (await webhooksFor(gatewayOrderId, 1)).find(
      (w) => eventOf(w) === 'payment.failed',
    )!
    // The buyer retries in the same Checkout before the failure's webhook arrives.
    const retry = await simulateRazorpayPayment(flow.sim, gatewayOrderId, CALLBACK, 'pending')
    expect(
      await handleRazorpayWebhook(t.db, flow.setup, failed.body, failed.headers, quiet),
    ).toMatchObject({ kind: 'handled', outcome: 'pending' })
    expect((await order(started.order.id)).status).toBe('pending')
    // The retry is captured; even with its return and webhook lost, reconciliation pays it.
    await razorpayControl(flow.sim, 'settle', {
      payment_id: retry.fields.razorpay_payment_id,
      status: 'captured',
    })
    await runJobs(new Date(Date.now() + reconcileDelayMs(1) + 1000))
    expect(await order(started.order.id)).toMatchObject({
      gatewayTxnId: retry.fields.razorpay_payment_id,
      paidAmount: 149_900,
    })
  })

  it('a failed attempt while the payments API is down leaves the order to reconciliation', async () => {
    const started = await checkout()
    await simulateRazorpayPayment(flow.sim, started.order.gatewayOrderId!, CALLBACK, 'failure')
    const failed = (await webhooksFor(started.order.gatewayOrderId!, 1)).find(
      (w) => eventOf(w) === 'payment.failed',
    )!
    await razorpayControl(flow.sim, 'outage', { enabled: true })
    expect(
      await handleRazorpayWebhook(t.db, flow.setup, failed.body, failed.headers, quiet),
    ).toMatchObject({ kind: 'handled', outcome: 'unconfirmed' })
    expect((await order(started.order.id)).status).toBe('pending')
    await razorpayControl(flow.sim, 'outage', { enabled: false })
    await runJobs(new Date(Date.now() + reconcileDelayMs(1) + 1000))
    expect((await order(started.order.id)).status).toBe('failed')
  })

  it('is tolerant of order: failed after captured keeps paid; captured after failed pays', async () => {
    const payment = (orderId: string, id: string, status: string) =>
      JSON.stringify({
        event: status === 'captured' ? 'payment.captured' : 'payment.failed',
        payload: {
          payment: { entity: { id, amount: 149900, currency: 'INR', status, order_id: orderId } },
        },
      })
    const a = await checkout()
    const ok = payment(a.order.gatewayOrderId!, 'pay_OooA00000001', 'captured')
    const bad = payment(a.order.gatewayOrderId!, 'pay_OooA00000002', 'failed')
    await handleRazorpayWebhook(t.db, flow.setup, ok, signed(ok, 'evt_a1'), quiet)
    expect(
      await handleRazorpayWebhook(t.db, flow.setup, bad, signed(bad, 'evt_a2'), quiet),
    ).toMatchObject({ outcome: 'unchanged' })
    expect((await order(a.order.id)).gatewayTxnId).toBe('pay_OooA00000001')
    expect((await order(a.order.id)).status).not.toBe('failed')

    // A failed attempt (the only one: the order's payments agree) fails the order; a captured
    // one arriving after it still pays.
    const b = await checkout()
    await simulateRazorpayPayment(flow.sim, b.order.gatewayOrderId!, CALLBACK, 'failure')
    const bad2 = (await webhooksFor(b.order.gatewayOrderId!, 1)).find(
      (w) => eventOf(w) === 'payment.failed',
    )!
    const ok2 = payment(b.order.gatewayOrderId!, 'pay_OooB00000002', 'captured')
    expect(
      await handleRazorpayWebhook(t.db, flow.setup, bad2.body, bad2.headers, quiet),
    ).toMatchObject({ outcome: 'failed' })
    expect(
      await handleRazorpayWebhook(t.db, flow.setup, ok2, signed(ok2, 'evt_b2'), quiet),
    ).toMatchObject({ outcome: 'paid' })
    expect((await order(b.order.id)).gatewayTxnId).toBe('pay_OooB00000002')
  })

  it('50 concurrent duplicate webhooks for 10 orders deliver 10 items', async () => {
    const items = Array.from({ length: 12 }, (_, i) => `RZP-KEY-${i}`)
    const stocked = await makeStockedProduct(t.db, APP_SECRET, items, { price: 149_900 })
    const orders = []
    for (let i = 0; i < 10; i++) orders.push(await checkout(stocked.id))
    const deliveries: Promise<unknown>[] = []
    for (const [i, started] of orders.entries()) {
      const gatewayOrderId = started.order.gatewayOrderId!
      const paymentId = `pay_Conc${String(i).padStart(10, '0')}`
      const entity = {
        id: paymentId,
        amount: 149900,
        currency: 'INR',
        status: 'captured',
        order_id: gatewayOrderId,
      }
      const captured = JSON.stringify({
        event: 'payment.captured',
        payload: { payment: { entity } },
      })
      const orderPaid = JSON.stringify({
        event: 'order.paid',
        payload: {
          payment: { entity },
          order: {
            entity: { id: gatewayOrderId, amount: 149900, currency: 'INR', status: 'paid' },
          },
        },
      })
      // Each event delivered several times (Razorpay retries), and two events about one payment.
      for (let k = 0; k < 3; k++)
        deliveries.push(
          handleRazorpayWebhook(
            t.db,
            flow.setup,
            captured,
            signed(captured, `evt_cap_${i}`),
            quiet,
          ),
        )
      for (let k = 0; k < 2; k++)
        deliveries.push(
          handleRazorpayWebhook(
            t.db,
            flow.setup,
            orderPaid,
            signed(orderPaid, `evt_paid_${i}`),
            quiet,
          ),
        )
    }
    expect(deliveries).toHaveLength(50)
    const results = (await Promise.all(deliveries)) as { kind: string; outcome?: string }[]
    expect(results.filter((r) => r.outcome === 'paid')).toHaveLength(10)
    await expectEachPaidOnceWithItsOwnItem(
      t.db,
      stocked.id,
      orders.map((started) => started.order.id),
    )
  })
})

describe("the admin's 'Confirm payment and deliver' (Razorpay's payments API decides)", () => {
  const admin = 'user:ops'
  const confirm = (orderId: string, gateway = razorpayReconciler(flow.setup, quiet)) =>
    confirmGatewayPaymentAndDeliver(t.db, { orderId, actor: admin, gateway })

  it('pays a payment we missed (no return, no webhook) once, asking Razorpay, not Paytm', async () => {
    const { started } = await checkoutAndPay('success')
    expect((await order(started.order.id)).status).toBe('pending')
    expect(await confirm(started.order.id)).toEqual({
      ok: true,
      status: 'paid',
      message:
        'Payment confirmed with Razorpay: the order is paid and waits for you to deliver it.',
    })
    const paid = await order(started.order.id)
    expect(paid.gatewayTxnId).toMatch(/^pay_/)
    expect(paid.paidAmount).toBe(149_900)
    const events = await listOrderEvents(t.db, started.order.id)
    expect(events.find((e) => e.type === 'paid')).toMatchObject({
      actor: admin,
      message: 'Payment of ₹1,499 confirmed with Razorpay by an admin',
    })
    // A second click changes nothing.
    expect(await confirm(started.order.id)).toEqual({
      ok: false,
      message: alreadyPaidMessage(started.order.id, 'paid'),
    })
    expect(await listOrderEvents(t.db, started.order.id)).toHaveLength(events.length)
  })

  it('changes nothing when Razorpay holds no captured payment, and records what it said', async () => {
    for (const outcome of ['failure', null] as const) {
      const id = outcome
        ? (await checkoutAndPay(outcome)).started.order.id
        : (await checkout()).order.id
      const result = await confirm(id)
      expect(result.ok, String(outcome)).toBe(false)
      expect(result.message).toMatch(
        /^Razorpay does not confirm this payment \(.+\)\. Nothing was changed\.$/,
      )
      expect(await order(id)).toMatchObject({ paidAmount: null, gatewayTxnId: null })
      const last = (await listOrderEvents(t.db, id)).at(-1)
      expect(last).toMatchObject({ type: 'payment_check', actor: admin })
      expect(last?.message).toMatch(/^Checked with Razorpay by an admin: /)
    }
  })

  it('says so when Razorpay is down or switched off, or set up for the other mode', async () => {
    const { started } = await checkoutAndPay('success')
    await razorpayControl(flow.sim, 'outage', { enabled: true })
    const down = await confirm(started.order.id)
    expect(down.message).toMatch(
      /^Razorpay could not be reached \(.+\)\. Nothing was changed; try again in a minute\.$/,
    )
    await razorpayControl(flow.sim, 'outage', { enabled: false })
    expect(
      await confirmGatewayPaymentAndDeliver(t.db, {
        orderId: started.order.id,
        actor: admin,
        gateway: null,
      }),
    ).toEqual({
      ok: false,
      message:
        'Payments are switched off (the Razorpay gateway is inactive), so Razorpay cannot be asked. Nothing was changed.',
    })
    // The order is live; the simulator never confirms it.
    const simulator = razorpayReconciler({ ...flow.setup, testMode: true }, quiet)
    expect((await confirm(started.order.id, simulator)).message).toBe(
      'Razorpay is set up as the built-in simulator now, which cannot confirm a live order. Nothing was changed.',
    )
    expect((await order(started.order.id)).status).toBe('pending')
  })
})
