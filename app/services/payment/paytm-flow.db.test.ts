import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createOrder, getOrder, listOrderEvents, type Order } from '~/data/order.server'
import {
  readForm,
  simulatePayment,
  startPaytmSimulator,
  type HtmlForm,
  type RunningPaytmSimulator,
} from '../../../simulators/paytm/testing'
import { fileTestDb } from '../../../tests/helpers/db'
import { BUYER, makeProduct, orderIdsOf } from '../../../tests/factories'
import { existingOrder, simulatorControl, simulatorSetup } from '../../../tests/helpers/payments'
import { runDueJobs } from '~/lib/jobs.server'
import { MAIL_JOB } from '~/lib/mail.server'
import { updateSiteSettings } from '~/data/settings.server'
import { RATE_LIMIT_POLICIES } from '~/lib/rate-limit.server'
import type { PaytmSetup } from './config.server'
import { generatePaytmChecksum } from '~/lib/payments/paytm-checksum.server'
import {
  handlePaytmCallback,
  paymentJobHandlers,
  paytmMaySign,
  QUICK_CHECK_DELAY_MS,
  RECONCILE_JOB,
  reconcileOrder,
  reconcileDelayMs,
  RECONCILE_WINDOW_MS,
  startPaytmCheckout,
  UNKNOWN_ORDER_EXPIRY_MS,
  type StartedCheckout,
} from './paytm-flow.server'
import { PaytmRequestError } from '~/lib/payments/paytm.server'

/**
 * The payment flow against the real local Paytm simulator (over HTTP) and the real database,
 * on SQLite and on PostgreSQL.
 */
const t = fileTestDb()
let sim: RunningPaytmSimulator
let setup: PaytmSetup
let productId: string
const quiet = { log: () => {} }

beforeAll(async () => {
  sim = await startPaytmSimulator({ settlePendingAfterMs: 60 * 60_000 })
  setup = simulatorSetup(sim)
  productId = (await makeProduct(t.db, { price: 149_900 })).id
})
afterAll(async () => {
  await sim.close()
})
afterEach(async () => {
  await simulatorControl(sim, 'outage', { enabled: false })
})

async function checkout(): Promise<StartedCheckout> {
  return startPaytmCheckout(t.db, setup, { productId, customer: BUYER })
}

async function pay(
  started: StartedCheckout,
  outcome: 'success' | 'failure' | 'pending',
): Promise<HtmlForm> {
  return simulatePayment(started.prepared, outcome)
}

const order = (id: string): Promise<Order> => existingOrder(t.db, id)

/** A pending live Razorpay order for the product, created `ageMs` ago (Paytm never saw it). */
async function razorpayOrder(ageMs: number): Promise<Order> {
  const created = await createOrder(
    t.db,
    { productId, customer: BUYER, gateway: 'razorpay', testMode: false },
    { now: () => Date.now() - ageMs },
  )
  return created.order
}

async function reconcileJobs(orderId: string) {
  const rows = await t.db
    .selectFrom('job')
    .select(['id', 'payload', 'status', 'attempts', 'runAt', 'lastError'])
    .where('type', '=', RECONCILE_JOB)
    .execute()
  return rows.filter((row) => (JSON.parse(row.payload) as { orderId: string }).orderId === orderId)
}

/** Runs every reconciliation job due at `at` (as if it were now), until none is left. */
async function runJobs(at: Date, paytm: PaytmSetup | null = setup) {
  const handlers = paymentJobHandlers(t.db, {
    resolveSetup: async () => paytm,
    now: () => at,
    ...quiet,
  })
  let total = 0
  for (let batch = 0; batch < 100; batch++) {
    const ran = await runDueJobs(t.db, handlers, { now: at, batchSize: 20, log: () => {} })
    if (ran === 0) break
    total += ran
  }
  return total
}

/** Flow options at `base + ms`, counting the calls made to Paytm. */
function clockAndCalls(base: number) {
  let calls = 0
  return {
    calls: () => calls,
    at: (ms: number) => ({
      ...quiet,
      now: () => new Date(base + ms),
      fetch: ((url: string | URL, init?: RequestInit) => {
        calls++
        return fetch(url, init)
      }) as typeof fetch,
    }),
  }
}

function signedCallback(fields: Record<string, string>): Record<string, string> {
  return { ...fields, CHECKSUMHASH: generatePaytmChecksum(fields, sim.merchantKey) }
}

/** A paid checkout's callback with `changes`, signed again with the merchant key, handed to the shop. */
async function payAndAlterCallback(changes: Record<string, string>) {
  const started = await checkout()
  const callback = await pay(started, 'success')
  const { CHECKSUMHASH: _, ...fields } = callback.fields
  const result = await handlePaytmCallback(
    t.db,
    setup,
    signedCallback({ ...fields, ...changes }),
    quiet,
  )
  return { started, result }
}

describe(`Paytm checkout (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('creates the order at the database price and signs the documented form for processTransaction', async () => {
    const started = await checkout()
    expect(started.order).toMatchObject({ status: 'pending', amount: 149_900 })
    expect(started.prepared.action).toBe(`${sim.url}/theia/processTransaction`)
    expect(started.prepared.fields).toMatchObject({
      MID: sim.mid,
      WEBSITE: 'WEBSTAGING',
      CHANNEL_ID: 'WEB',
      INDUSTRY_TYPE_ID: 'Retail',
      ORDER_ID: started.order.id,
      TXN_AMOUNT: '1499.00',
      CALLBACK_URL: setup.callbackUrl,
      EMAIL: BUYER.email,
      MOBILE_NO: BUYER.phone,
    })
    expect(started.prepared.fields.CUST_ID).toMatch(/^CUST_[0-9a-f]{24}$/)
    expect(started.prepared.fields.CHECKSUMHASH).toHaveLength(108)
    // Reconciliation is scheduled with the order, in the same transaction.
    const jobs = await reconcileJobs(started.order.id)
    expect(jobs).toHaveLength(1)
    expect(new Date(jobs[0]!.runAt).getTime()).toBe(
      new Date(started.order.createdAt).getTime() + reconcileDelayMs(1),
    )
  })

  it('keeps no order and sends nothing when the request cannot be signed (no fallback checksum)', async () => {
    const broken = simulatorSetup(sim, { config: { ...setup.config, merchantKey: 'too short' } })
    const product = await makeProduct(t.db)
    await expect(
      startPaytmCheckout(t.db, broken, { productId: product.id, customer: BUYER }),
    ).rejects.toBeInstanceOf(PaytmRequestError)
    expect(await orderIdsOf(t.db, product.id)).toEqual([])
  })
})

describe(`Paytm callback (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('marks the order paid when the checksum verifies, the status API confirms and the amounts match', async () => {
    const started = await checkout()
    const callback = await pay(started, 'success')
    expect(callback.action).toBe(setup.callbackUrl)
    const result = await handlePaytmCallback(t.db, setup, callback.fields, quiet)
    expect(result).toEqual({
      kind: 'handled',
      orderId: started.order.id,
      outcome: 'paid',
      status: 'paid',
    })
    const paid = await order(started.order.id)
    expect(paid).toMatchObject({
      status: 'paid',
      paidAmount: 149_900,
      gatewayTxnId: callback.fields.TXNID,
      paymentMode: 'UPI',
      gatewayStatus: 'TXN_SUCCESS',
      gatewayRespCode: '01',
    })
    expect(paid.statusChecks).toBe(1)
    const events = await listOrderEvents(t.db, started.order.id)
    expect(events.map((e) => e.type)).toEqual(['created', 'paid'])
    expect(events[1]).toMatchObject({ fromStatus: 'pending', toStatus: 'paid', actor: 'gateway' })
    expect(events[1]!.data).toMatchObject({
      via: 'callback',
      statusApi: 'v3',
      status: 'TXN_SUCCESS',
    })
  })

  it('marks the order failed when Paytm reports failure', async () => {
    const started = await checkout()
    const result = await handlePaytmCallback(
      t.db,
      setup,
      (await pay(started, 'failure')).fields,
      quiet,
    )
    expect(result).toMatchObject({ outcome: 'failed', status: 'failed' })
    expect(await order(started.order.id)).toMatchObject({
      status: 'failed',
      gatewayStatus: 'TXN_FAILURE',
      gatewayRespCode: '227',
      gatewayTxnId: null,
    })
    expect((await listOrderEvents(t.db, started.order.id)).map((e) => e.type)).toEqual([
      'created',
      'failed',
    ])
  })

  it('keeps a PENDING payment pending and schedules a quick status check', async () => {
    const started = await checkout()
    const at = new Date()
    const result = await handlePaytmCallback(t.db, setup, (await pay(started, 'pending')).fields, {
      ...quiet,
      now: () => at,
    })
    expect(result).toMatchObject({ outcome: 'pending', status: 'pending' })
    expect(await order(started.order.id)).toMatchObject({
      status: 'pending',
      gatewayStatus: 'PENDING',
      gatewayRespCode: '402',
    })
    const quick = (await reconcileJobs(started.order.id)).find(
      (job) => !(JSON.parse(job.payload) as { chain: boolean }).chain,
    )
    expect(new Date(quick!.runAt).getTime()).toBe(at.getTime() + QUICK_CHECK_DELAY_MS)
    expect((await listOrderEvents(t.db, started.order.id)).map((e) => e.type)).toEqual(['created'])
  })

  it('refuses a callback whose checksum does not match, and changes nothing', async () => {
    const started = await checkout()
    const callback = await pay(started, 'failure')
    // Upgrading a failure to success breaks the signature.
    const forged = {
      ...callback.fields,
      STATUS: 'TXN_SUCCESS',
      RESPCODE: '01',
      RESPMSG: 'Txn Success',
    }
    const result = await handlePaytmCallback(t.db, setup, forged, quiet)
    expect(result).toEqual({
      kind: 'rejected',
      reason: 'invalid-checksum',
      claimedOrderId: started.order.id,
    })
    const unsigned = { ...callback.fields }
    delete unsigned.CHECKSUMHASH
    expect(await handlePaytmCallback(t.db, setup, unsigned, quiet)).toMatchObject({
      kind: 'rejected',
      reason: 'missing-checksum',
    })
    expect(await order(started.order.id)).toMatchObject({ status: 'pending', statusChecks: 0 })
    expect((await listOrderEvents(t.db, started.order.id)).map((e) => e.type)).toEqual(['created'])
  })

  it("changes nothing when someone forges a failure for another buyer's pending test-mode order", async () => {
    const testSetup = simulatorSetup(sim, { source: 'simulator', testMode: true })
    const victim = await startPaytmCheckout(t.db, testSetup, { productId, customer: BUYER })
    expect(victim.order.testMode).toBe(true)
    const form = victim.prepared
    // The victim's browser opens the simulator's payment page and has not answered yet.
    const post = (url: string, fields: Record<string, string>) =>
      fetch(new URL(url, form.action), {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      })
    const victimPage = readForm(await (await post(form.action, { ...form.fields })).text())

    // 1. A request for the victim's order id that the attacker cannot sign: refused, unsigned.
    const refusal = readForm(
      await (
        await post(form.action, {
          ...form.fields,
          TXN_AMOUNT: '1.00',
          CHECKSUMHASH: 'forged',
        })
      ).text(),
    )
    expect(refusal.fields).toMatchObject({ ORDERID: victim.order.id, STATUS: 'TXN_FAILURE' })
    expect(await handlePaytmCallback(t.db, testSetup, refusal.fields, quiet)).toMatchObject({
      kind: 'rejected',
    })
    // 2. Pressing "Simulate failure" on the victim's page without the page's secret.
    const pressed = await post(victimPage.action, {
      MID: form.fields.MID,
      ORDER_ID: victim.order.id,
      PAYMENTMODE: 'UPI',
      outcome: 'failure',
    })
    expect(pressed.status).toBe(404)
    expect(await pressed.text()).not.toContain('CHECKSUMHASH')

    expect(await order(victim.order.id)).toMatchObject({ status: 'pending', statusChecks: 0 })
    expect((await listOrderEvents(t.db, victim.order.id)).map((e) => e.type)).toEqual(['created'])
    // The victim's own page still pays.
    const paid = readForm(
      await (await post(victimPage.action, { ...victimPage.fields, outcome: 'success' })).text(),
    )
    await handlePaytmCallback(t.db, testSetup, paid.fields, quiet)
    expect((await order(victim.order.id)).status).toBe('paid')
  })

  it('a callback posted again asks Paytm at most every few seconds', async () => {
    const started = await checkout()
    const callback = await pay(started, 'failure')
    const { at, calls } = clockAndCalls(Date.now())
    expect(await handlePaytmCallback(t.db, setup, callback.fields, at(0))).toMatchObject({
      status: 'failed',
    })
    const first = calls()
    expect(first).toBeGreaterThan(0)
    for (const ms of [500, 1_000, 2_000])
      expect(await handlePaytmCallback(t.db, setup, callback.fields, at(ms))).toMatchObject({
        outcome: 'unchanged',
        status: 'failed',
      })
    expect(calls()).toBe(first)
    await handlePaytmCallback(t.db, setup, callback.fields, at(5_000))
    expect(calls()).toBe(2 * first)
  })

  it("a pending order's callback asks right after another check, a replayed form only a few times", async () => {
    const started = await checkout()
    const callback = await pay(started, 'pending')
    // Counted per 10-minute window: start well inside one, so the window does not turn mid-test.
    const windowMs = RATE_LIMIT_POLICIES.paytmPendingCallbackOrder.windowSeconds * 1000
    let base = Date.now()
    if (windowMs - (base % windowMs) < 30_000) base += windowMs - (base % windowMs) + 1_000
    const { at, calls } = clockAndCalls(base)
    // A status check made moments before (verify-payment, reconciliation) stamps the order.
    await reconcileOrder(t.db, setup, started.order.id, { ...at(0), via: 'verify-payment' })
    const perCheck = calls()
    expect(perCheck).toBeGreaterThan(0)
    const { limit } = RATE_LIMIT_POLICIES.paytmPendingCallbackOrder
    // The buyer arriving just after still asks Paytm, and so do a few reloads.
    for (let i = 1; i <= limit; i++) {
      expect(await handlePaytmCallback(t.db, setup, callback.fields, at(100 * i))).toMatchObject({
        outcome: 'pending',
        status: 'pending',
      })
      expect(calls()).toBe(perCheck * (i + 1))
    }
    // The same form replayed beyond that is answered from our record...
    for (const ms of [1_500, 2_000, 2_500])
      expect(await handlePaytmCallback(t.db, setup, callback.fields, at(ms))).toMatchObject({
        outcome: 'pending',
        status: 'pending',
      })
    expect(calls()).toBe(perCheck * (limit + 1))
    // ...and asks again once per gap.
    await handlePaytmCallback(t.db, setup, callback.fields, at(5_000))
    expect(calls()).toBe(perCheck * (limit + 2))
    await handlePaytmCallback(t.db, setup, callback.fields, at(5_500))
    expect(calls()).toBe(perCheck * (limit + 2))
  })

  it('lets the simulator sign only test-mode Paytm orders that are still pending', async () => {
    const live = await checkout()
    const testSetup = simulatorSetup(sim, { source: 'simulator', testMode: true })
    expect(paytmMaySign(live.order, setup)).toBe(true)
    expect(paytmMaySign(live.order, testSetup)).toBe(false)
    expect(paytmMaySign({ ...live.order, testMode: true }, testSetup)).toBe(true)
    expect(paytmMaySign({ ...live.order, status: 'failed' }, setup)).toBe(false)
    expect(paytmMaySign({ ...live.order, gateway: 'phonepe' }, setup)).toBe(false)
  })

  it('lets the simulator decide only test-mode orders', async () => {
    const live = await checkout()
    expect(live.order.testMode).toBe(false)
    // A correctly signed failure from a simulator (test mode) for an order made with a real Paytm.
    const callback = await pay(live, 'failure')
    const testSetup = simulatorSetup(sim, { source: 'simulator', testMode: true })
    expect(await handlePaytmCallback(t.db, testSetup, callback.fields, quiet)).toEqual({
      kind: 'unknown-order',
      orderId: live.order.id,
    })
    expect(await order(live.order.id)).toMatchObject({ status: 'pending', statusChecks: 0 })
    // Reconciliation through the simulator leaves it alone as well.
    const handlers = paymentJobHandlers(t.db, { resolveSetup: async () => testSetup, ...quiet })
    await runDueJobs(t.db, handlers, {
      now: new Date(Date.now() + reconcileDelayMs(1) + 1000),
      batchSize: 50,
      log: () => {},
    })
    expect(await order(live.order.id)).toMatchObject({ status: 'pending', statusChecks: 0 })
  })

  it('never marks paid when the gateway holds another amount than ours', async () => {
    const started = await checkout()
    const callback = await pay(started, 'success')
    // The gateway's own record says ₹1 was paid (e.g. a tampered or partial payment).
    await simulatorControl(sim, `transactions/${started.order.id}`, {
      status: 'TXN_SUCCESS',
      amount: '1.00',
    })
    await updateSiteSettings(t.db, { contactEmail: 'owner@example.test', alertRecipients: [] })
    // The callback and a retry of it at the same moment: one warning, one mail.
    const [result, same] = await Promise.all([
      handlePaytmCallback(t.db, setup, callback.fields, quiet),
      handlePaytmCallback(t.db, setup, callback.fields, quiet),
    ])
    expect(result).toMatchObject({ outcome: 'amount-mismatch', status: 'pending' })
    expect(same).toMatchObject({ outcome: 'amount-mismatch', status: 'pending' })
    expect(await order(started.order.id)).toMatchObject({ status: 'pending', gatewayTxnId: null })
    const events = await listOrderEvents(t.db, started.order.id)
    expect(events.map((e) => e.type)).toEqual(['created', 'amount_mismatch'])
    expect(events[1]!.message).toContain('₹1')
    // The buyer may have paid for nothing: the shop is told, once.
    const shopMails = async () =>
      (await t.db.selectFrom('job').select('payload').where('type', '=', MAIL_JOB).execute())
        .map((job) => JSON.parse(job.payload) as { to: string; subject: string; text: string })
        .filter((mail) => mail.subject === `Order ${started.order.id}: a payment to check`)
    const [mail, ...more] = await shopMails()
    expect(more).toEqual([])
    expect(mail).toMatchObject({ to: 'owner@example.test' })
    expect(mail!.text).toContain('₹1')
    expect(mail!.text).toContain('refund the buyer there')
    // A second look records no second warning, and sends no second mail.
    await handlePaytmCallback(t.db, setup, callback.fields, quiet)
    expect((await listOrderEvents(t.db, started.order.id)).map((e) => e.type)).toEqual([
      'created',
      'amount_mismatch',
    ])
    expect(await shopMails()).toHaveLength(1)
  })

  it('never marks paid when a correctly signed success callback carries another amount', async () => {
    const { started, result } = await payAndAlterCallback({ TXNAMOUNT: '1.00' })
    expect(result).toMatchObject({ outcome: 'amount-mismatch' })
    expect((await order(started.order.id)).status).toBe('pending')
  })

  it('changes nothing for a verified callback about an order we do not have', async () => {
    const result = await handlePaytmCallback(
      t.db,
      setup,
      signedCallback({
        MID: sim.mid,
        ORDERID: 'ORD_1_1',
        TXNID: 'T1',
        TXNAMOUNT: '1499.00',
        STATUS: 'TXN_SUCCESS',
        RESPCODE: '01',
        RESPMSG: 'Txn Success',
      }),
      quiet,
    )
    expect(result).toEqual({ kind: 'unknown-order', orderId: 'ORD_1_1' })
    expect(await getOrder(t.db, 'ORD_1_1')).toBeNull()
  })

  it("treats a signed callback for another gateway's order as one for an order we do not have", async () => {
    // A pending Razorpay order: Paytm knows no payment for it, and a failing callback would fail it.
    const other = await razorpayOrder(0)
    const result = await handlePaytmCallback(
      t.db,
      setup,
      signedCallback({
        MID: sim.mid,
        ORDERID: other.id,
        TXNAMOUNT: '1499.00',
        STATUS: 'TXN_FAILURE',
        RESPCODE: '330',
        RESPMSG: 'Invalid checksum',
      }),
      quiet,
    )
    expect(result).toEqual({ kind: 'unknown-order', orderId: other.id })
    expect(await order(other.id)).toMatchObject({ status: 'pending', statusChecks: 0 })
    expect((await listOrderEvents(t.db, other.id)).map((e) => e.type)).toEqual(['created'])
  })

  it('fails the order on a signed failure callback when Paytm never took the payment', async () => {
    // Paytm refused the request itself, so its status API knows no payment for the order.
    const started = await checkout()
    const result = await handlePaytmCallback(
      t.db,
      setup,
      signedCallback({
        MID: sim.mid,
        ORDERID: started.order.id,
        TXNAMOUNT: '1499.00',
        STATUS: 'TXN_FAILURE',
        RESPCODE: '325',
        RESPMSG: 'Duplicate Order Id',
      }),
      quiet,
    )
    expect(result).toMatchObject({ outcome: 'failed', status: 'failed' })
    // The order keeps the callback's answer, not the status API's "no such order".
    expect(await order(started.order.id)).toMatchObject({
      status: 'failed',
      gatewayStatus: 'TXN_FAILURE',
      gatewayRespCode: '325',
      gatewayRespMsg: 'Duplicate Order Id',
    })
  })

  it('refuses a correctly signed callback for another merchant', async () => {
    const { started, result } = await payAndAlterCallback({ MID: 'OTHERMID' })
    expect(result).toMatchObject({ kind: 'rejected', reason: 'wrong-merchant' })
    expect((await order(started.order.id)).status).toBe('pending')
  })

  it('is idempotent: the same callback twice changes the order once', async () => {
    const started = await checkout()
    const callback = await pay(started, 'success')
    const first = await handlePaytmCallback(t.db, setup, callback.fields, quiet)
    const second = await handlePaytmCallback(t.db, setup, callback.fields, quiet)
    expect(first).toMatchObject({ outcome: 'paid' })
    expect(second).toMatchObject({ outcome: 'unchanged', status: 'paid' })
    expect(
      (await listOrderEvents(t.db, started.order.id)).filter((e) => e.type === 'paid'),
    ).toHaveLength(1)
  })

  it('changes the order exactly once when the same callback arrives concurrently', async () => {
    const started = await checkout()
    const callback = await pay(started, 'success')
    const results = await Promise.all(
      Array.from({ length: 8 }, () => handlePaytmCallback(t.db, setup, callback.fields, quiet)),
    )
    const outcomes = results.map((r) => (r.kind === 'handled' ? r.outcome : r.kind))
    expect(outcomes.filter((o) => o === 'paid')).toHaveLength(1)
    expect(outcomes.filter((o) => o !== 'paid').every((o) => o === 'unchanged')).toBe(true)
    const events = await listOrderEvents(t.db, started.order.id)
    expect(events.map((e) => e.type)).toEqual(['created', 'paid'])
  })

  it('changes the order once when a callback and the reconciliation job race', async () => {
    const started = await checkout()
    const callback = await pay(started, 'success')
    const later = new Date(Date.now() + reconcileDelayMs(1) + 1000)
    const [result] = await Promise.all([
      handlePaytmCallback(t.db, setup, callback.fields, quiet),
      runJobs(later),
    ])
    expect(result.kind).toBe('handled')
    const events = await listOrderEvents(t.db, started.order.id)
    expect(events.filter((e) => e.type === 'paid')).toHaveLength(1)
    expect((await order(started.order.id)).status).toBe('paid')
  })

  it("never downgrades a paid order: Paytm's 'Duplicate Order Id' failure for a second attempt changes nothing", async () => {
    const started = await checkout()
    await handlePaytmCallback(t.db, setup, (await pay(started, 'success')).fields, quiet)
    // The buyer goes back and submits the same signed form again: Paytm refuses it with a signed failure.
    const refusal = await simulatePayment(started.prepared, 'failure')
    expect(refusal.fields).toMatchObject({
      STATUS: 'TXN_FAILURE',
      RESPCODE: '325',
      RESPMSG: 'Duplicate Order Id',
    })
    const result = await handlePaytmCallback(t.db, setup, refusal.fields, quiet)
    expect(result).toMatchObject({ outcome: 'unchanged', status: 'paid' })
    expect((await order(started.order.id)).status).toBe('paid')
  })

  it('keeps the order pending when the status API is down, and the job retries until it answers', async () => {
    const started = await checkout()
    const callback = await pay(started, 'success')
    await simulatorControl(sim, 'outage', { enabled: true })
    const at = new Date()
    const result = await handlePaytmCallback(t.db, setup, callback.fields, {
      ...quiet,
      now: () => at,
    })
    expect(result).toMatchObject({ outcome: 'unconfirmed', status: 'pending' })
    expect(await order(started.order.id)).toMatchObject({
      status: 'pending',
      statusChecks: 1,
      gatewayTxnId: null,
    })

    // The quick check runs while the gateway is still down: it fails and is retried later.
    const quickAt = new Date(at.getTime() + QUICK_CHECK_DELAY_MS)
    expect(await runJobs(quickAt)).toBeGreaterThanOrEqual(1)
    const quick = (await reconcileJobs(started.order.id)).find(
      (job) => !(JSON.parse(job.payload) as { chain: boolean }).chain,
    )!
    expect(quick).toMatchObject({ status: 'pending', attempts: 1 })
    expect(quick.lastError).toMatch(/unavailable/i)
    expect(new Date(quick.runAt).getTime()).toBeGreaterThan(Date.now())
    expect((await order(started.order.id)).status).toBe('pending')

    // The gateway is back: the retry confirms the payment.
    await simulatorControl(sim, 'outage', { enabled: false })
    await runJobs(new Date(new Date(quick.runAt).getTime() + 1000))
    expect((await order(started.order.id)).status).toBe('paid')
  })
})

describe(`reconciliation (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('moves a pending order to paid once the gateway settles it, and stops checking', async () => {
    const started = await checkout()
    await handlePaytmCallback(t.db, setup, (await pay(started, 'pending')).fields, quiet)
    // The bank confirms later.
    await simulatorControl(sim, `transactions/${started.order.id}`, { status: 'TXN_SUCCESS' })
    await runJobs(new Date(Date.now() + QUICK_CHECK_DELAY_MS + 1000))
    expect(await order(started.order.id)).toMatchObject({ status: 'paid', gatewayRespCode: '01' })
    const events = await listOrderEvents(t.db, started.order.id)
    expect(events.at(-1)).toMatchObject({ type: 'paid', fromStatus: 'pending' })
    expect(events.at(-1)!.data).toMatchObject({ via: 'reconciliation' })
    // The chained check finds the order final and schedules nothing more.
    await runJobs(new Date(Date.now() + reconcileDelayMs(1) + 1000))
    const open = (await reconcileJobs(started.order.id)).filter((job) => job.status === 'pending')
    expect(open).toEqual([])
  })

  it('asks again with growing gaps while the gateway says pending', async () => {
    const started = await checkout()
    await simulatePayment(started.prepared, 'pending')
    await simulatorControl(sim, `transactions/${started.order.id}`, {
      status: 'PENDING',
      settle: false,
    })
    const first = new Date(new Date(started.order.createdAt).getTime() + reconcileDelayMs(1))
    await runJobs(first)
    const next = (await reconcileJobs(started.order.id)).find((job) => job.status === 'pending')!
    expect(JSON.parse(next.payload)).toMatchObject({ check: 2, chain: true })
    expect(new Date(next.runAt).getTime()).toBe(first.getTime() + reconcileDelayMs(2))
    expect((await order(started.order.id)).status).toBe('pending')
  })

  it('expires an order with no final answer after 24 hours', async () => {
    const started = await checkout()
    await simulatePayment(started.prepared, 'pending')
    await simulatorControl(sim, `transactions/${started.order.id}`, {
      status: 'PENDING',
      settle: false,
    })
    const end = new Date(new Date(started.order.createdAt).getTime() + RECONCILE_WINDOW_MS)
    await runJobs(end)
    expect((await order(started.order.id)).status).toBe('expired')
    expect((await listOrderEvents(t.db, started.order.id)).at(-1)).toMatchObject({
      type: 'expired',
      fromStatus: 'pending',
    })
    expect(
      (await reconcileJobs(started.order.id)).filter((job) => job.status === 'pending'),
    ).toEqual([])
  })

  it('keeps checking an order Paytm cannot be asked about (switched off, the simulator for a live order), and expires it after 24 hours', async () => {
    const simulatorNow = simulatorSetup(sim, { source: 'simulator', testMode: true })
    for (const [name, paytm, why] of [
      ['switched off', null, /payments through Paytm are switched off/],
      [
        'other mode',
        simulatorNow,
        /the order is live and the Paytm configured now takes test payments only/,
      ],
    ] as const) {
      const started = await checkout()
      await simulatePayment(started.prepared, 'pending')
      const createdAt = new Date(started.order.createdAt).getTime()
      await runJobs(new Date(createdAt + reconcileDelayMs(1) + 1000), paytm)
      expect((await order(started.order.id)).status, name).toBe('pending')
      const open = (await reconcileJobs(started.order.id)).filter((j) => j.status === 'pending')
      expect(open, name).toEqual([expect.objectContaining({ attempts: 0 })])
      await runJobs(new Date(createdAt + RECONCILE_WINDOW_MS + 1000), paytm)
      expect((await order(started.order.id)).status, name).toBe('expired')
      const last = (await listOrderEvents(t.db, started.order.id)).at(-1)
      expect(last?.message, name).toMatch(/^No answer from Paytm within 24 hours/)
      expect(last?.message, name).toMatch(why)
    }
  })

  it('expires an abandoned checkout ten minutes on, when Paytm never received the order', async () => {
    const started = await checkout()
    // The buyer never submitted the form to Paytm: the status API answers 334 Invalid Order ID.
    await runJobs(new Date(new Date(started.order.createdAt).getTime() + reconcileDelayMs(1)))
    expect((await order(started.order.id)).status).toBe('pending')
    await runJobs(new Date(new Date(started.order.createdAt).getTime() + UNKNOWN_ORDER_EXPIRY_MS))
    expect((await order(started.order.id)).status).toBe('expired')
    expect((await listOrderEvents(t.db, started.order.id)).at(-1)?.message).toContain(
      'did not reach the payment page',
    )
  })

  it("leaves another gateway's pending order alone: Paytm is not asked and does not expire it", async () => {
    // Past the ten minutes after which Paytm's 334 expires an order of its own.
    const other = await razorpayOrder(UNKNOWN_ORDER_EXPIRY_MS + 60_000)
    const calls = clockAndCalls(Date.now())
    expect(
      await reconcileOrder(t.db, setup, other.id, { ...calls.at(0), via: 'verify-payment' }),
    ).toEqual({ kind: 'gone' })
    expect(calls.calls()).toBe(0)
    expect(await order(other.id)).toMatchObject({
      status: 'pending',
      statusChecks: 0,
      gatewayStatus: null,
    })
    expect((await listOrderEvents(t.db, other.id)).map((e) => e.type)).toEqual(['created'])
  })

  it('costs an abandoned checkout at most four status checks, then expires it', async () => {
    const started = await checkout()
    const createdAt = new Date(started.order.createdAt).getTime()
    // The buyer never submitted the form to Paytm; follow the chain job by job.
    let checks = 0
    for (let step = 0; step < 20; step++) {
      const due = (await reconcileJobs(started.order.id)).filter((job) => job.status === 'pending')
      if (due.length === 0) break
      const at = new Date(Math.min(...due.map((job) => new Date(job.runAt).getTime())))
      checks += await runJobs(at)
    }
    const expired = await order(started.order.id)
    expect(expired.status).toBe('expired')
    expect(checks).toBeLessThanOrEqual(4)
    expect(expired.statusChecks).toBeLessThanOrEqual(4)
    const expiredAt = (await listOrderEvents(t.db, started.order.id)).at(-1)!
    expect(expiredAt.type).toBe('expired')
    expect(new Date(expiredAt.createdAt).getTime() - createdAt).toBeLessThanOrEqual(20 * 60_000)
  })

  it('fails an order the buyer never paid once the gateway reports failure', async () => {
    const started = await checkout()
    await simulatePayment(started.prepared, 'failure')
    await runJobs(new Date(Date.now() + reconcileDelayMs(1) + 1000))
    expect((await order(started.order.id)).status).toBe('failed')
  })
})
