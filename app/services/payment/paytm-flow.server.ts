import {
  createOrder,
  getOrder,
  markOrderExpired,
  recordStatusCheck,
  SETTLED_STATUSES,
  type CreatedOrder,
  type CustomerDetails,
  type Order,
  type OrderStatus,
} from '~/data/order.server'
import type { DB } from '~/lib/db.server'
import { enqueueJob, wakeJobRunner, type Job, type JobHandlers } from '~/lib/jobs.server'
import { hitPolicy } from '~/lib/rate-limit.server'
import { formatRupees } from '~/lib/money'
import type { GatewayPaymentStatus } from '~/lib/payments/gateway.server'
import type { PaytmSetup } from './config.server'
import {
  answeredFromRecord,
  applyGatewayStatus,
  cannotAsk,
  continueLostChain,
  expireUnanswered,
  mayAskOnReturn,
  otherModeReason,
  QUICK_CHECK_DELAY_MS,
  RECONCILE_WINDOW_MS,
  reconcileDelayMs,
  STATUS_CHECK_MIN_INTERVAL_MS,
  UNKNOWN_ORDER_EXPIRY_MS,
  warnOnce,
  type Decision,
  type PaymentOutcome,
} from './gateway-flow.server'
import {
  buildProcessTransactionForm,
  fetchOrderStatus,
  GatewayUnavailableError,
  paymentStatusOf,
  paytmCustomerId,
  paytmEmail,
  verifyCallback,
  type CallbackFields,
  type PaytmCallback,
  type PaytmCallbackRejection,
  type PaytmOrderStatus,
  type ProcessTransactionForm,
} from '~/lib/payments/paytm.server'

/**
 * The payment flow on our side of Paytm (PROTOCOLS.md §1 and its security rules):
 *
 *   checkout      createOrder (price from the database) + sign the processTransaction form, in
 *                 one transaction that also schedules reconciliation; no signature, no order.
 *   callback      verify CHECKSUMHASH over every received field -> ask the status API server to
 *                 server -> paid only when both say TXN_SUCCESS and both amounts equal ours.
 *   reconcile     a job per pending order asks the status API with growing gaps until the order
 *                 is final, or marks it expired after 24 h.
 *
 * Every change is a compare-and-set in order.server.ts, so a callback that arrives twice or
 * together with the job changes the order once; a settled order is never moved back, whatever
 * a later callback says (e.g. Paytm's "Duplicate Order Id" failure for an order already paid).
 */

export const RECONCILE_JOB = 'payment.reconcile'
// The reconciliation gaps, windows and outcomes are shared by every gateway
// (gateway-flow.server.ts); Paytm's callers still find them here.
export {
  QUICK_CHECK_DELAY_MS,
  RECONCILE_WINDOW_MS,
  reconcileDelayMs,
  STATUS_CHECK_MIN_INTERVAL_MS,
  UNKNOWN_ORDER_EXPIRY_MS,
  type PaymentOutcome,
}

export interface FlowOptions {
  fetch?: typeof globalThis.fetch
  /** Per status API call. */
  statusTimeoutMs?: number
  now?: () => Date
  log?: (line: string) => void
}

const defaultLog = (line: string) => console.log(line)

// ---------------------------------------------------------------------------------------------
// Checkout

/** Paytm's CUST_ID and EMAIL rules live with its protocol client. */
export { paytmCustomerId }

export interface StartCheckoutInput {
  productId: string
  customer: CustomerDetails
  userId?: string | null
  paymentLink?: { id: string; amount: number; preferredOrderId: string } | null
  actor?: string
  /** The price the buyer's page showed (NewOrder.shownPrice): another one refuses the order. */
  shownPrice?: number | null
  /**
   * False when whoever starts the payment may not see the customer's details (a payment link
   * opened by someone else, docs/payments.md "Payment links"): the gateway's page is then not
   * pre-filled with the customer's e-mail and phone.
   */
  seesCustomer?: boolean
}

export type StartedCheckout = CreatedOrder<ProcessTransactionForm>

/**
 * Creates the order and the signed form that sends the buyer to Paytm. Throws OrderError
 * (product missing or out of stock) or PaytmRequestError (cannot sign: no order is kept).
 */
export async function startPaytmCheckout(
  db: DB,
  setup: PaytmSetup,
  input: StartCheckoutInput,
  now = () => new Date(),
): Promise<StartedCheckout> {
  return createOrder(
    db,
    {
      productId: input.productId,
      customer: input.customer,
      userId: input.userId ?? null,
      gateway: 'paytm',
      testMode: setup.testMode,
      paymentLink: input.paymentLink ?? null,
      actor: input.actor,
      shownPrice: input.shownPrice ?? null,
    },
    {
      now: () => now().getTime(),
      async prepare(trx, order) {
        const form = buildProcessTransactionForm(
          {
            orderId: order.id,
            custId: paytmCustomerId(order.userId, order.customerEmail, setup.config.merchantKey),
            amountPaise: order.amount,
            callbackUrl: setup.callbackUrl,
            // Both optional for Paytm (as paytmEmail leaves out an address it refuses): for a
            // payer who may not see the customer, left out (docs/payments.md, "Payment links").
            email: input.seesCustomer === false ? null : paytmEmail(order.customerEmail),
            mobile: input.seesCustomer === false ? null : order.customerPhone,
          },
          setup.config,
        )
        // Written with the order: a buyer who pays and never comes back is still found.
        await enqueueJob(trx, RECONCILE_JOB, reconcilePayload(order.id, 1, true), {
          runAt: new Date(new Date(order.createdAt).getTime() + reconcileDelayMs(1)),
        })
        return form
      },
    },
  )
}

// ---------------------------------------------------------------------------------------------
// Applying what the status API says

function answerOf(status: PaytmOrderStatus) {
  return { status: status.status, respCode: status.respCode, respMsg: status.respMsg }
}

/**
 * Acts on a status API answer for an order, by the rules every gateway shares
 * (applyGatewayStatus) plus Paytm's own: with `callback` (a verified callback), success needs
 * the callback to say TXN_SUCCESS for our amount too, and a failing callback is final when the
 * status API knows no payment at all (e.g. Paytm refused the request). The check is counted.
 */
async function applyStatus(
  db: DB,
  order: Order,
  status: PaytmOrderStatus,
  via: 'callback' | 'reconciliation' | 'verify-payment',
  callback: PaytmCallback | null,
  now: Date,
): Promise<Decision> {
  const details = {
    statusApi: status.source,
    ...(callback
      ? {
          callbackStatus: callback.status,
          callbackAmount: callback.amountPaise,
          callbackRespCode: callback.respCode,
        }
      : {}),
  }
  const shared = paymentStatusOf(status)
  const apply = (answer: GatewayPaymentStatus) =>
    applyGatewayStatus(db, order, answer, via, now, { details })
  const unchanged = async (outcome: PaymentOutcome): Promise<Decision> => {
    await recordStatusCheck(db, order.id, answerOf(status), now)
    return { outcome, status: order.status }
  }
  if (status.status === 'TXN_SUCCESS' && callback && status.amountPaise === order.amount) {
    if (callback.amountPaise !== order.amount) {
      const shown = callback.amountPaise === null ? 'no amount' : formatRupees(callback.amountPaise)
      await warnOnce(
        db,
        order,
        'amount_mismatch',
        `Paytm's callback reports a payment of ${shown}, but the order is for ${formatRupees(order.amount)}; not marked paid`,
        { via, ...details, state: shared.state, status: status.status, txnId: status.txnId },
      )
      return unchanged('amount-mismatch')
    }
    if (callback.status !== 'TXN_SUCCESS') {
      // The status API says paid while the browser's callback does not: the status API is asked
      // again, alone, by the job (which needs no callback), right away.
      await scheduleCheck(db, order.id, now, 0)
      return unchanged('pending')
    }
  }
  if (status.status === 'UNKNOWN' && callback?.status === 'TXN_FAILURE')
    return apply({
      ...shared,
      state: 'failed',
      status: callback.status,
      respCode: callback.respCode,
      respMsg: callback.respMsg,
    })
  if (status.status === 'UNKNOWN' && callback?.status === 'TXN_SUCCESS') {
    await warnOnce(
      db,
      order,
      'status_disagrees',
      `The callback says paid but the status API knows no payment (${status.respCode} ${status.respMsg}); not marked paid`,
      { via, ...details, status: status.status, respCode: status.respCode },
    )
    return unchanged('pending')
  }
  // UNKNOWN alone is "no payment yet" for Paytm: pending, as the shared rules keep it.
  return apply(shared)
}

/**
 * Whether the Paytm configured now may sign a payment request for `order`: a pending Paytm
 * order of the same mode (the simulator's key never signs a live order, so a buyer cannot pay a
 * live order at the simulator and have it confirmed there).
 */
export function paytmMaySign(
  order: Pick<Order, 'status' | 'gateway' | 'testMode'>,
  setup: Pick<PaytmSetup, 'testMode'>,
): boolean {
  return order.status === 'pending' && order.gateway === 'paytm' && sameMode(order, setup)
}

/** Whether this Paytm may decide the order: test-mode orders only by the simulator, and the other way round. */
export function sameMode(
  order: Pick<Order, 'testMode'>,
  setup: Pick<PaytmSetup, 'testMode'>,
): boolean {
  return order.testMode === setup.testMode
}

/** Asks the status API; an outage is returned (and counted on the order), not thrown. */
async function askStatus(
  db: DB,
  setup: PaytmSetup,
  order: Order,
  options: FlowOptions,
  now: Date,
): Promise<PaytmOrderStatus | GatewayUnavailableError> {
  try {
    return await fetchOrderStatus(order.id, setup.config, {
      fetch: options.fetch,
      timeoutMs: options.statusTimeoutMs,
    })
  } catch (error) {
    if (!(error instanceof GatewayUnavailableError)) throw error
    await recordStatusCheck(db, order.id, null, now)
    return error
  }
}

// ---------------------------------------------------------------------------------------------
// The callback

export type CallbackResult =
  | { kind: 'rejected'; reason: PaytmCallbackRejection; claimedOrderId: string | null }
  | { kind: 'unknown-order'; orderId: string }
  | { kind: 'handled'; orderId: string; outcome: PaymentOutcome; status: OrderStatus }

/**
 * Handles Paytm's callback (the browser's form POST). Never throws for anything the request
 * contains; the caller redirects to the result page, which shows our record of the order.
 */
export async function handlePaytmCallback(
  db: DB,
  setup: PaytmSetup,
  fields: CallbackFields,
  options: FlowOptions = {},
): Promise<CallbackResult> {
  const log = options.log ?? defaultLog
  const now = options.now?.() ?? new Date()
  const verified = verifyCallback(fields, setup.config.merchantKey, {
    expectedMid: setup.config.mid,
  })
  if (!verified.ok) {
    // Unverified: nothing is written for it (anyone can post here), only logged.
    log(
      `[payments] refused a Paytm callback (${verified.reason}) claiming order ${JSON.stringify(verified.claimedOrderId?.slice(0, 60) ?? null)}`,
    )
    return { kind: 'rejected', reason: verified.reason, claimedOrderId: verified.claimedOrderId }
  }
  const callback = verified.callback
  const order = await getOrder(db, callback.orderId)
  // Another gateway's order is not Paytm's to decide (Paytm knows no payment for it and would
  // fail it): treated as one we do not have.
  if (!order || order.gateway !== 'paytm') {
    log(`[payments] verified Paytm callback for an order we do not have: ${callback.orderId}`)
    return { kind: 'unknown-order', orderId: callback.orderId }
  }
  if (!sameMode(order, setup)) {
    // The simulator signs for whoever drives it: it may only ever decide test-mode orders.
    log(
      `[payments] refused a ${setup.testMode ? 'test-mode' : 'live'} Paytm callback for ${order.testMode ? 'test-mode' : 'live'} order ${order.id}`,
    )
    return { kind: 'unknown-order', orderId: callback.orderId }
  }
  if ((SETTLED_STATUSES as readonly string[]).includes(order.status)) {
    // A paid order stays paid, whatever this callback says.
    return { kind: 'handled', orderId: order.id, outcome: 'unchanged', status: order.status }
  }
  // A callback posted again (a reload, or the buyer replaying the signed form) asks Paytm at
  // most every few seconds. A pending order's callback inside that gap still asks a few times:
  // it is usually the buyer arriving from Paytm just after a check made by verify-payment, and
  // must not be held at pending by it; a form replayed beyond that answers from our record.
  if (!(await mayAskOnReturn(db, order, now)) && !(await mayAskWhilePending(db, order, now)))
    return answeredFromRecord(db, order)
  const status = await askStatus(db, setup, order, options, now)
  if (status instanceof GatewayUnavailableError) {
    log(
      `[payments] ${order.id}: callback ${callback.status} not confirmed, ${status.message}; reconciliation will ask again`,
    )
    if (order.status === 'pending') await scheduleCheck(db, order.id, now, QUICK_CHECK_DELAY_MS)
    return { kind: 'handled', orderId: order.id, outcome: 'unconfirmed', status: order.status }
  }
  const decision = await applyStatus(db, order, status, 'callback', callback, now)
  if (
    decision.outcome === 'pending' &&
    decision.status === 'pending' &&
    status.status !== 'TXN_SUCCESS'
  ) {
    await scheduleCheck(db, order.id, now, QUICK_CHECK_DELAY_MS)
  }
  return { kind: 'handled', orderId: order.id, ...decision }
}

/** A pending order's callback inside the turn gap: counted per order (paytmPendingCallbackOrder). */
async function mayAskWhilePending(db: DB, order: Order, now: Date): Promise<boolean> {
  if (order.status !== 'pending') return false
  return (await hitPolicy(db, 'paytmPendingCallbackOrder', order.id, now)).allowed
}

// ---------------------------------------------------------------------------------------------
// Reconciliation

export interface ReconcilePayload {
  orderId: string
  /** 1-based number of this check in the order's chain. */
  check: number
  /** Chained checks schedule the next one; a quick check (after a PENDING answer) does not. */
  chain: boolean
}

export function reconcilePayload(orderId: string, check: number, chain: boolean): ReconcilePayload {
  return { orderId, check, chain }
}

function parsePayload(payload: unknown): ReconcilePayload | null {
  const p = payload as Partial<ReconcilePayload> | null
  if (!p || typeof p.orderId !== 'string') return null
  return {
    orderId: p.orderId,
    check: typeof p.check === 'number' && p.check >= 1 ? p.check : 1,
    chain: p.chain !== false,
  }
}

async function scheduleCheck(db: DB, orderId: string, now: Date, delayMs: number): Promise<void> {
  await enqueueJob(db, RECONCILE_JOB, reconcilePayload(orderId, 1, false), {
    runAt: new Date(now.getTime() + delayMs),
    maxAttempts: 3,
  })
  if (delayMs === 0) wakeJobRunner()
}

export type ReconcileResult =
  /** No such Paytm order (none at all, or another gateway's). */
  | { kind: 'gone' }
  | { kind: 'final'; status: OrderStatus }
  | { kind: 'checked'; outcome: PaymentOutcome; status: OrderStatus }
  | { kind: 'expired' }
  | { kind: 'unavailable'; error: GatewayUnavailableError }
  /** The Paytm configured now cannot be asked about this order (`reason`); asked again later. */
  | { kind: 'cannot-ask'; reason: string }

/**
 * Asks the status API about one order and applies the answer (status alone decides here: the
 * request is ours, server to server). Expires a pending order past the reconciliation window.
 */
export async function reconcileOrder(
  db: DB,
  setup: PaytmSetup,
  orderId: string,
  options: FlowOptions & { via?: 'reconciliation' | 'verify-payment' } = {},
): Promise<ReconcileResult> {
  const now = options.now?.() ?? new Date()
  const order = await getOrder(db, orderId)
  // Another gateway's order is left to that gateway's reconciliation: Paytm would answer 334
  // for it and expire it here (verify-payment takes any order id).
  if (!order || order.gateway !== 'paytm') return { kind: 'gone' }
  if (order.status !== 'pending') return { kind: 'final', status: order.status }
  // A live order is never decided by the simulator, nor a test order by a real Paytm (which
  // would only ever answer "Invalid Order ID" for it): asked again later, expired at the end.
  if (!sameMode(order, setup)) return cannotAsk(db, order, otherModeReason(order, 'Paytm'), now)
  const status = await askStatus(db, setup, order, options, now)
  if (status instanceof GatewayUnavailableError) {
    if (await expireUnanswered(db, order, status.message, now)) return { kind: 'expired' }
    return { kind: 'unavailable', error: status }
  }
  const decision = await applyStatus(db, order, status, options.via ?? 'reconciliation', null, now)
  const age = now.getTime() - new Date(order.createdAt).getTime()
  // Paytm has never heard of the order ten minutes on: the buyer never reached the payment page.
  // Stop asking (an abandoned checkout costs a few checks, not a day of them); a late callback
  // can still pay an expired order.
  const neverReachedPaytm =
    status.status === 'UNKNOWN' && status.respCode === '334' && age >= UNKNOWN_ORDER_EXPIRY_MS
  if (decision.status === 'pending' && (age >= RECONCILE_WINDOW_MS || neverReachedPaytm)) {
    const expired = await markOrderExpired(
      db,
      order.id,
      neverReachedPaytm
        ? 'Paytm never received this order within 10 minutes (the buyer did not reach the payment page)'
        : `No final answer from Paytm within 24 hours (last: ${status.status} ${status.respCode} ${status.respMsg})`,
      now,
    )
    if (expired.changed) return { kind: 'expired' }
  }
  return { kind: 'checked', ...decision }
}

export interface PaymentJobOptions extends FlowOptions {
  /** The Paytm to ask (resolved per run, so a change on the Gateways page applies). */
  resolveSetup: () => Promise<PaytmSetup | null>
}

/** The next check of a pending order's chain: a growing gap, the last at the window's end. */
async function scheduleNextCheck(
  db: DB,
  order: Pick<Order, 'id' | 'createdAt'>,
  check: number,
  now: Date,
): Promise<void> {
  const deadline = new Date(order.createdAt).getTime() + RECONCILE_WINDOW_MS
  const runAt = Math.min(deadline, now.getTime() + reconcileDelayMs(check + 1))
  await enqueueJob(db, RECONCILE_JOB, reconcilePayload(order.id, check + 1, true), {
    runAt: new Date(runAt),
  })
}

/**
 * The reconciliation job. Each run checks one order; a chained check schedules the next with a
 * growing gap (reconcileDelayMs), the last one at the end of the 24-hour window. When the
 * status API is down the job fails and the job runner retries it with backoff; if it gives up,
 * the chain still goes on, and so it does when the runner stopped during the last attempt
 * (unless that run had scheduled the next check already).
 */
export function paymentJobHandlers(db: DB, options: PaymentJobOptions): JobHandlers {
  const log = options.log ?? defaultLog
  return {
    [RECONCILE_JOB]: {
      run: (job) => runReconcileJob(job),
      abandoned: continueLostChain(db, {
        type: RECONCILE_JOB,
        parse: parsePayload,
        scheduleNext: scheduleNextCheck,
        now: () => options.now?.() ?? new Date(),
      }),
    },
  }

  async function runReconcileJob(job: Job): Promise<void> {
    const payload = parsePayload(job.payload)
    if (!payload) return
    const now = options.now?.() ?? new Date()
    const setup = await options.resolveSetup()
    let result: ReconcileResult
    if (setup) result = await reconcileOrder(db, setup, payload.orderId, options)
    else {
      const pending = await getOrder(db, payload.orderId)
      if (!pending || pending.status !== 'pending') return
      result = await cannotAsk(db, pending, 'payments through Paytm are switched off', now)
    }
    if (result.kind === 'gone' || result.kind === 'final' || result.kind === 'expired') return
    if (result.kind === 'cannot-ask')
      log(`[payments] ${payload.orderId}: cannot ask Paytm now (${result.reason}); later`)
    if (result.kind === 'checked' && result.status !== 'pending') return
    if (
      result.kind === 'checked' &&
      result.outcome !== 'pending' &&
      result.outcome !== 'amount-mismatch'
    )
      return
    const order = await getOrder(db, payload.orderId)
    if (!order || order.status !== 'pending') return
    // Retrying at once would not help when Paytm cannot be asked: the chain goes on.
    const lastAttempt = job.attempt >= job.maxAttempts
    if (payload.chain && (result.kind !== 'unavailable' || lastAttempt))
      await scheduleNextCheck(db, order, payload.check, now)
    if (result.kind === 'unavailable') {
      log(`[payments] ${order.id}: status check failed (${result.error.message})`)
      throw result.error
    }
  }
}
