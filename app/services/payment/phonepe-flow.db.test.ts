import { describe, expect, it } from 'vitest'
import { listOrderEvents } from '~/data/order.server'
import { webhookAuthorization } from '~/lib/payments/phonepe.server'
import {
  phonePeConfigFor,
  phonePeControl,
  simulatePhonePePayment,
  startPhonePeSimulator,
} from '../../../simulators/phonepe/testing'
import {
  expectEachPaidOnceWithItsOwnItem,
  gatewayFlowHarness,
} from '../../../tests/helpers/gateway-flow'
import { BUYER, makeStockedProduct } from '../../../tests/factories'
import { confirmGatewayPaymentAndDeliver } from '~/services/order-actions.server'
import { GATEWAY_RECONCILE_JOB, PaymentStartError } from './gateway-flow.server'
import { reconcileDelayMs } from './paytm-flow.server'
import type { PhonePeSetup } from './phonepe-config.server'
import {
  handlePhonePeReturn,
  handlePhonePeWebhook,
  phonePeReconciler,
  startPhonePeCheckout,
  type StartedPhonePeCheckout,
} from './phonepe-flow.server'

/**
 * The PhonePe flow against the local PhonePe simulator (over HTTP) and the real database, on
 * SQLite and on PostgreSQL. Webhooks the simulator sends are captured; the tests deliver their
 * own, authorised as PhonePe does, to control order and repetition.
 */
const APP_SECRET = 'p'.repeat(64)
const RETURN = 'http://127.0.0.1:9/api/payments/phonepe/return'
const quiet = { log: () => {} }
const flow = gatewayFlowHarness({
  start: (fetch) =>
    startPhonePeSimulator({ webhookUrl: 'http://shop.test/api/payments/phonepe/webhook', fetch }),
  setup: (sim): PhonePeSetup => ({
    config: phonePeConfigFor(sim),
    returnUrl: (orderId) => `${RETURN}?order=${orderId}`,
    source: 'environment',
    testMode: false,
  }),
  endOutage: (sim) => phonePeControl(sim, 'outage', { enabled: false }),
  reconciler: (db, setup) => phonePeReconciler(db, setup, APP_SECRET, quiet),
})
const { t, sent, order, runJobs } = flow

const checkout = (id = flow.productId): Promise<StartedPhonePeCheckout> =>
  startPhonePeCheckout(t.db, flow.setup, APP_SECRET, { productId: id, customer: BUYER }, quiet)

/** A return visit a little later than the last one (a visit asks at most every few seconds). */
let clock = Date.now()
const later = () => {
  clock += 10_000
  return { ...quiet, now: () => new Date(clock) }
}

const authorised = () =>
  new Headers({
    'Content-Type': 'application/json',
    Authorization: webhookAuthorization(flow.sim.webhookUsername, flow.sim.webhookPassword),
  })

function webhookBody(
  merchantOrderId: string,
  event = 'checkout.order.completed',
  amount = 149_900,
) {
  return JSON.stringify({
    event,
    payload: { merchantOrderId, orderId: 'OMO0', state: 'COMPLETED', amount },
  })
}

/** Hands the shop a webhook authorised as PhonePe does. */
const deliver = (body: string) =>
  handlePhonePeWebhook(t.db, flow.setup, APP_SECRET, body, authorised(), quiet)

describe('PhonePe checkout', () => {
  it('creates our order and a PhonePe order for the database price, merchantOrderId = our id', async () => {
    const started = await checkout()
    expect(started.order.gatewayOrderId).toMatch(/^OMO/)
    expect((await order(started.order.id)).gatewayOrderId).toBe(started.order.gatewayOrderId)
    expect(started.order.amount).toBe(149_900)
    expect(started.redirectUrl.startsWith(`${flow.sim.url}/pay/`)).toBe(true)
    // The first reconciliation check is written with the order.
    const jobs = await t.db
      .selectFrom('job')
      .select(['type', 'runAt'])
      .where('type', '=', GATEWAY_RECONCILE_JOB)
      .where('payload', 'like', `%${started.order.id}%`)
      .execute()
    expect(jobs).toHaveLength(1)
    expect(Date.parse(jobs[0]!.runAt) - Date.parse(started.order.createdAt)).toBe(
      reconcileDelayMs(1),
    )
  })

  it('keeps one token for every process in the database, encrypted', async () => {
    const rows = await t.db.selectFrom('gatewayToken').selectAll().execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]!.gateway).toBe('phonepe')
    const before = (await phonePeControl(flow.sim, 'counters')).body as { tokensIssued: number }
    await checkout()
    await checkout()
    const after = (await phonePeControl(flow.sim, 'counters')).body as { tokensIssued: number }
    expect(after.tokensIssued).toBe(before.tokensIssued)
    expect(JSON.stringify(rows[0])).not.toMatch(/"token":"[A-Za-z0-9_-]{43}"/)
  })

  it('PhonePe unreachable: our order is failed and the buyer may try another way', async () => {
    await phonePeControl(flow.sim, 'outage', { enabled: true })
    const error = await checkout().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PaymentStartError)
    expect((await order((error as PaymentStartError).orderId)).status).toBe('failed')
  })
})

describe('the return from PhonePe (unsigned: the status API decides)', () => {
  it('success: paid once, with PhonePe transaction id and exact amount', async () => {
    const started = await checkout()
    const back = await simulatePhonePePayment(started.redirectUrl, 'success')
    expect(back).toBe(`${RETURN}?order=${started.order.id}`)
    const result = await handlePhonePeReturn(
      t.db,
      flow.setup,
      APP_SECRET,
      started.order.id,
      later(),
    )
    expect(result).toMatchObject({ kind: 'handled', outcome: 'paid', status: 'paid' })
    const paid = await order(started.order.id)
    expect(paid.gatewayTxnId).toMatch(/^OM/)
    expect(paid.paidAmount).toBe(149_900)
    // PhonePe's own word for the payment is what the order page shows as its last answer.
    expect(paid.gatewayStatus).toBe('COMPLETED')
    // Again (a reload): nothing changes.
    expect(
      await handlePhonePeReturn(t.db, flow.setup, APP_SECRET, started.order.id, later()),
    ).toMatchObject({ outcome: 'unchanged', status: 'paid' })
  })

  it('failure: failed from the status API', async () => {
    const started = await checkout()
    await simulatePhonePePayment(started.redirectUrl, 'failure')
    expect(
      await handlePhonePeReturn(t.db, flow.setup, APP_SECRET, started.order.id, later()),
    ).toMatchObject({ outcome: 'failed', status: 'failed' })
    expect(await order(started.order.id)).toMatchObject({
      gatewayStatus: 'FAILED',
      gatewayRespCode: 'PAYMENT_DECLINED',
    })
  })

  it('return visits ask the status API at most every few seconds, for a failed order too', async () => {
    const started = await checkout()
    await simulatePhonePePayment(started.redirectUrl, 'failure')
    const statusCalls: string[] = []
    const counting = (now: number) => ({
      ...quiet,
      now: () => new Date(now),
      fetch: ((url: string | URL, init?: RequestInit) => {
        if (String(url).includes('/status')) statusCalls.push(String(url))
        return fetch(url, init)
      }) as typeof fetch,
    })
    clock += 10_000
    const visit = (at: number) =>
      handlePhonePeReturn(t.db, flow.setup, APP_SECRET, started.order.id, counting(at))
    expect(await visit(clock)).toMatchObject({ status: 'failed' })
    expect(statusCalls).toHaveLength(1)
    // Reloading the return page (or anyone replaying its unsigned URL) a second later asks nothing.
    expect(await visit(clock + 1_000)).toMatchObject({ outcome: 'unchanged', status: 'failed' })
    expect(await visit(clock + 2_000)).toMatchObject({ outcome: 'unchanged', status: 'failed' })
    expect(statusCalls).toHaveLength(1)
    // Later, it asks again: a failed order may still be paid by a late payment.
    expect(await visit(clock + 5_000)).toMatchObject({ status: 'failed' })
    expect(statusCalls).toHaveLength(2)
    // Many at the same moment: one asks, the others answer from the record.
    await Promise.all(Array.from({ length: 6 }, () => visit(clock + 10_000)))
    expect(statusCalls).toHaveLength(3)
    // PhonePe down: the call that failed counts too, so reloads do not pile up calls.
    await phonePeControl(flow.sim, 'outage', { enabled: true })
    expect(await visit(clock + 15_000)).toMatchObject({ outcome: 'unconfirmed' })
    expect(await visit(clock + 16_000)).toMatchObject({ outcome: 'unchanged', status: 'failed' })
    expect(statusCalls).toHaveLength(4)
    await phonePeControl(flow.sim, 'outage', { enabled: false })
    clock += 16_000
  })

  it('simultaneous first returns of one order ask PhonePe once, and each shows the order as it stands', async () => {
    const started = await checkout()
    await simulatePhonePePayment(started.redirectUrl, 'success')
    const statusCalls: string[] = []
    const counting = {
      ...quiet,
      fetch: ((url: string | URL, init?: RequestInit) => {
        if (String(url).includes('/status')) statusCalls.push(String(url))
        return fetch(url, init)
      }) as typeof fetch,
    }
    // Never checked before: the turn is still taken by one of them.
    expect((await order(started.order.id)).lastStatusCheckAt).toBeNull()
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        handlePhonePeReturn(t.db, flow.setup, APP_SECRET, started.order.id, counting),
      ),
    )
    expect(statusCalls).toHaveLength(1)
    for (const result of results) {
      // The one that asked paid the order; the others show it pending, or paid when they read
      // it after that.
      expect(result).toMatchObject({ kind: 'handled', orderId: started.order.id })
      expect(['pending', 'paid']).toContain((result as { status: string }).status)
    }
    expect(results.filter((r) => 'outcome' in r && r.outcome === 'paid')).toHaveLength(1)
    expect((await order(started.order.id)).status).toBe('paid')
    const events = (await listOrderEvents(t.db, started.order.id)).map((e) => e.type)
    expect(events.filter((type) => type === 'paid')).toHaveLength(1)
  })

  it('a return before paying changes nothing; an unknown order is unknown', async () => {
    const started = await checkout()
    expect(
      await handlePhonePeReturn(t.db, flow.setup, APP_SECRET, started.order.id, later()),
    ).toMatchObject({ status: 'pending' })
    expect(await handlePhonePeReturn(t.db, flow.setup, APP_SECRET, 'ORD_0_999', later())).toEqual({
      kind: 'unknown-order',
    })
    expect(await handlePhonePeReturn(t.db, flow.setup, APP_SECRET, '../../etc', later())).toEqual({
      kind: 'unknown-order',
    })
  })

  it('pending, then settled at PhonePe: reconciled by the background job', async () => {
    const started = await checkout()
    await simulatePhonePePayment(started.redirectUrl, 'pending')
    const at = later().now()
    expect(
      await handlePhonePeReturn(t.db, flow.setup, APP_SECRET, started.order.id, {
        ...quiet,
        now: () => at,
      }),
    ).toMatchObject({ outcome: 'pending', status: 'pending' })
    // PhonePe settles it; its webhook is lost: the job finds it.
    await phonePeControl(flow.sim, 'settle', {
      merchantOrderId: started.order.id,
      state: 'COMPLETED',
      webhook: false,
    })
    await runJobs(new Date(at.getTime() + 60_000))
    expect((await order(started.order.id)).status).toBe('paid')
  })

  it('status API down: nothing changes and a check is scheduled', async () => {
    const started = await checkout()
    await simulatePhonePePayment(started.redirectUrl, 'success')
    await phonePeControl(flow.sim, 'outage', { enabled: true })
    expect(
      await handlePhonePeReturn(t.db, flow.setup, APP_SECRET, started.order.id, later()),
    ).toMatchObject({ outcome: 'unconfirmed', status: 'pending' })
    // The failed call is stamped on the order: the buyer reloading at once asks nothing more.
    expect((await order(started.order.id)).statusChecks).toBe(1)
    expect(
      await handlePhonePeReturn(t.db, flow.setup, APP_SECRET, started.order.id, {
        ...quiet,
        now: () => new Date(clock + 1_000),
      }),
    ).toMatchObject({ outcome: 'pending', status: 'pending' })
    const jobs = await t.db
      .selectFrom('job')
      .select('id')
      .where('type', '=', GATEWAY_RECONCILE_JOB)
      .where('payload', 'like', `%${started.order.id}%`)
      .execute()
    expect(jobs.length).toBe(2)
    await phonePeControl(flow.sim, 'outage', { enabled: false })
    await runJobs(new Date(clock + 60_000))
    expect((await order(started.order.id)).status).toBe('paid')
  })
})

describe('PhonePe webhooks', () => {
  it('the simulator authorises its webhooks with SHA-256 of username:password', async () => {
    const started = await checkout()
    await simulatePhonePePayment(started.redirectUrl, 'success')
    let hook: { body: string; headers: Headers } | undefined
    for (let i = 0; i < 100 && !hook; i++) {
      hook = sent.find((w) => w.body.includes(`"merchantOrderId":"${started.order.id}"`))
      if (!hook) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(hook).toBeDefined()
    expect(hook!.headers.get('authorization')).toBe(
      webhookAuthorization(flow.sim.webhookUsername, flow.sim.webhookPassword),
    )
    expect(
      await handlePhonePeWebhook(t.db, flow.setup, APP_SECRET, hook!.body, hook!.headers, quiet),
    ).toMatchObject({ kind: 'handled', outcome: 'paid' })
  })

  it('refuses a webhook without the right Authorization, and changes nothing', async () => {
    const started = await checkout()
    await phonePeControl(flow.sim, 'pay', { merchantOrderId: started.order.id, webhook: false })
    const body = webhookBody(started.order.id)
    for (const header of [
      undefined,
      webhookAuthorization(flow.sim.webhookUsername, 'wrong'),
      `SHA256 ${webhookAuthorization(flow.sim.webhookUsername, flow.sim.webhookPassword)}`,
    ]) {
      const headers = new Headers(header ? { Authorization: header } : {})
      expect(
        await handlePhonePeWebhook(t.db, flow.setup, APP_SECRET, body, headers, quiet),
      ).toEqual({
        kind: 'rejected',
        reason: 'unauthorised',
      })
    }
    expect((await order(started.order.id)).status).toBe('pending')
    expect(await listOrderEvents(t.db, started.order.id)).toHaveLength(1)
  })

  it('an event for an unknown order changes nothing', async () => {
    expect(await deliver(webhookBody('ORD_0_404'))).toEqual({ kind: 'unknown-order' })
  })

  it('the body proves nothing: a "completed" event for an unpaid order is checked and ignored', async () => {
    const started = await checkout()
    expect(await deliver(webhookBody(started.order.id))).toMatchObject({
      kind: 'handled',
      outcome: 'pending',
    })
    expect((await order(started.order.id)).status).toBe('pending')
  })

  it('a tampered amount is never paid, and warns once', async () => {
    const started = await checkout()
    await phonePeControl(flow.sim, 'pay', { merchantOrderId: started.order.id, webhook: false })
    await phonePeControl(flow.sim, 'tamper', { merchantOrderId: started.order.id, amount: 100 })
    for (let i = 0; i < 2; i++)
      expect(await deliver(webhookBody(started.order.id, undefined, 100))).toMatchObject({
        kind: 'handled',
        outcome: 'amount-mismatch',
      })
    expect(
      await handlePhonePeReturn(t.db, flow.setup, APP_SECRET, started.order.id, later()),
    ).toMatchObject({ outcome: 'amount-mismatch', status: 'pending' })
    expect((await order(started.order.id)).status).toBe('pending')
    const events = await listOrderEvents(t.db, started.order.id)
    expect(events.filter((e) => e.type === 'amount_mismatch')).toHaveLength(1)
  })

  it('status API down: answered unconfirmed (PhonePe delivers again), a check is due', async () => {
    const started = await checkout()
    await phonePeControl(flow.sim, 'pay', { merchantOrderId: started.order.id, webhook: false })
    await phonePeControl(flow.sim, 'outage', { enabled: true })
    expect(await deliver(webhookBody(started.order.id))).toEqual({
      kind: 'unconfirmed',
      orderId: started.order.id,
    })
    expect((await order(started.order.id)).status).toBe('pending')
    await phonePeControl(flow.sim, 'outage', { enabled: false })
    expect(await deliver(webhookBody(started.order.id))).toMatchObject({ outcome: 'paid' })
  })

  it('out of order: a late "failed" event never undoes a payment', async () => {
    const started = await checkout()
    await phonePeControl(flow.sim, 'pay', { merchantOrderId: started.order.id, webhook: false })
    const completed = webhookBody(started.order.id)
    const failed = webhookBody(started.order.id, 'checkout.order.failed')
    expect(await deliver(completed)).toMatchObject({ outcome: 'paid' })
    expect(await deliver(failed)).toMatchObject({ outcome: 'unchanged' })
    expect((await order(started.order.id)).status).toBe('paid')
  })

  it('50 concurrent duplicate webhooks for 10 orders deliver 10 items', async () => {
    const items = Array.from({ length: 12 }, (_, i) => `PHONEPE-KEY-${i}`)
    const stocked = await makeStockedProduct(t.db, APP_SECRET, items, { price: 149_900 })
    const orders: StartedPhonePeCheckout[] = []
    for (let i = 0; i < 10; i++) orders.push(await checkout(stocked.id))
    for (const started of orders)
      await phonePeControl(flow.sim, 'pay', { merchantOrderId: started.order.id, webhook: false })
    const deliveries: Promise<{ kind: string; outcome?: string }>[] = []
    for (const started of orders) {
      const completed = webhookBody(started.order.id)
      // PhonePe delivers again when unsure; the same event several times, all at once.
      for (let k = 0; k < 5; k++) deliveries.push(deliver(completed))
    }
    expect(deliveries).toHaveLength(50)
    const results = await Promise.all(deliveries)
    expect(results.filter((r) => r.outcome === 'paid')).toHaveLength(10)
    expect(results.every((r) => r.kind === 'handled')).toBe(true)
    await expectEachPaidOnceWithItsOwnItem(
      t.db,
      stocked.id,
      orders.map((started) => started.order.id),
    )
  })
})

describe("the admin's 'Confirm payment and deliver' (PhonePe's status API decides)", () => {
  it('pays a payment we missed once, asking PhonePe; an unpaid order changes nothing', async () => {
    const gateway = phonePeReconciler(t.db, flow.setup, APP_SECRET, quiet)
    const started = await checkout()
    await simulatePhonePePayment(started.redirectUrl, 'success')
    const confirm = (orderId: string) =>
      confirmGatewayPaymentAndDeliver(t.db, { orderId, actor: 'user:ops', gateway })
    expect(await confirm(started.order.id)).toEqual({
      ok: true,
      status: 'paid',
      message: 'Payment confirmed with PhonePe: the order is paid and waits for you to deliver it.',
    })
    expect(await order(started.order.id)).toMatchObject({ paidAmount: 149_900 })
    expect((await confirm(started.order.id)).ok).toBe(false)
    expect(
      (await listOrderEvents(t.db, started.order.id)).filter((e) => e.type === 'paid'),
    ).toHaveLength(1)

    const unpaid = await checkout()
    const refused = await confirm(unpaid.order.id)
    expect(refused.message).toMatch(
      /^PhonePe does not confirm this payment \(.+\)\. Nothing was changed\.$/,
    )
    expect((await order(unpaid.order.id)).status).toBe('pending')
  })
})
