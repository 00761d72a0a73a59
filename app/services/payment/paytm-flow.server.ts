import {
  appendOrderEvent,
  createOrder,
  DuplicateTransactionError,
  getOrder,
  lastOrderEventType,
  markOrderExpired,
  markOrderFailed,
  recordStatusCheck,
  SETTLED_STATUSES,
  type CreatedOrder,
  type CustomerDetails,
  type Order,
  type OrderStatus,
} from '~/data/order.server'
import { markOrderPaid } from '~/services/fulfilment.server'
import type { DB } from '~/lib/db.server'
import { enqueueJob, wakeJobRunner, type Job, type JobHandlers } from '~/lib/jobs.server'
import { formatRupees } from '~/lib/money'
import type { PaytmSetup } from './config.server'
import {
  buildProcessTransactionForm,
  fetchOrderStatus,
  GatewayUnavailableError,
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
/** Reconciliation gives up on an order this long after it was created. */
export const RECONCILE_WINDOW_MS = 24 * 60 * 60_000
/**
 * An order Paytm still does not know (334) this long after creation was abandoned before
 * payment: the signed form submits itself at once, so a buyer who reached Paytm is known to it
 * within seconds. Together with the gaps below an abandoned checkout costs four status checks.
 */
export const UNKNOWN_ORDER_EXPIRY_MS = 10 * 60_000
/** After a PENDING answer the next look comes soon: most pending payments settle within seconds. */
export const QUICK_CHECK_DELAY_MS = 10_000
/** A status check older than this may be repeated on request (verify-payment). */
export const STATUS_CHECK_MIN_INTERVAL_MS = 10_000

/** Minutes between chained checks (docs/payments.md, Reconciliation); the last gap repeats. */
const RECONCILE_GAPS_MINUTES = [1, 2, 5, 10, 30, 60, 120, 240] as const

/** Gap before chained check number `check` (1-based): 1, 2, 5, 10, 30, 60, 120, then 240 minutes. */
export function reconcileDelayMs(check: number): number {
  const index = Math.min(Math.max(0, check - 1), RECONCILE_GAPS_MINUTES.length - 1)
  return RECONCILE_GAPS_MINUTES[index]! * 60_000
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
    },
    {
      now: () => now().getTime(),
      async prepare(trx, order) {
        const form = buildProcessTransactionForm(
          {
            orderId: order.id,
            custId: paytmCustomerId(order.userId, order.customerEmail),
            amountPaise: order.amount,
            callbackUrl: setup.callbackUrl,
            email: paytmEmail(order.customerEmail),
            mobile: order.customerPhone,
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

export type PaymentOutcome =
  /** This call moved the order to paid. */
  | 'paid'
  /** This call moved the order to failed. */
  | 'failed'
  /** Still waiting for a final answer; reconciliation continues. */
  | 'pending'
  /** Nothing to do: the order was already final (or already moved by a concurrent call). */
  | 'unchanged'
  /** The gateway reports success for an amount other than ours: never paid; see the timeline. */
  | 'amount-mismatch'
  /** The status API could not be asked; the order is untouched and will be checked again. */
  | 'unconfirmed'

interface Decision {
  outcome: PaymentOutcome
  status: OrderStatus
}

async function warnOnce(
  db: DB,
  order: Order,
  type: string,
  message: string,
  data: unknown,
): Promise<void> {
  if ((await lastOrderEventType(db, order.id)) === type) return
  await appendOrderEvent(db, order.id, { type, message, data, actor: 'gateway' })
}

function answerOf(status: PaytmOrderStatus) {
  return { status: status.status, respCode: status.respCode, respMsg: status.respMsg }
}

/**
 * Acts on a status API answer for an order. With `callback`, it comes from a verified
 * callback and success needs the callback to say TXN_SUCCESS too (both must agree).
 * The check itself is counted on the order: in the same UPDATE when the status changes.
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
    via,
    statusApi: status.source,
    status: status.status,
    respCode: status.respCode,
    respMsg: status.respMsg,
    txnId: status.txnId,
    gatewayAmount: status.amountPaise,
    ...(callback
      ? {
          callbackStatus: callback.status,
          callbackAmount: callback.amountPaise,
          callbackRespCode: callback.respCode,
        }
      : {}),
  }
  const unchanged = async (
    outcome: PaymentOutcome,
    current: OrderStatus = order.status,
  ): Promise<Decision> => {
    await recordStatusCheck(db, order.id, answerOf(status), now)
    return { outcome, status: current }
  }
  const change = {
    expected: order.status,
    countsStatusCheck: true,
    data: details,
    actor: 'gateway',
  }
  if (status.status === 'TXN_SUCCESS') {
    const amountsMatch =
      status.amountPaise === order.amount && (!callback || callback.amountPaise === order.amount)
    if (!amountsMatch) {
      const shown = status.amountPaise === null ? 'no amount' : formatRupees(status.amountPaise)
      await warnOnce(
        db,
        order,
        'amount_mismatch',
        `Paytm reports success for ${shown}, but the order is for ${formatRupees(order.amount)}; not marked paid`,
        details,
      )
      return unchanged('amount-mismatch')
    }
    if (callback && callback.status !== 'TXN_SUCCESS') {
      // The status API says paid while the browser's callback does not: the status API is asked
      // again, alone, by the job (which needs no callback), right away.
      await scheduleCheck(db, order.id, now, 0)
      return unchanged('pending')
    }
    if (!status.txnId) {
      await warnOnce(
        db,
        order,
        'status_disagrees',
        'Paytm reports success without a transaction id; not marked paid',
        details,
      )
      return unchanged('pending')
    }
    try {
      const result = await markOrderPaid(
        db,
        order.id,
        {
          txnId: status.txnId,
          bankTxnId: status.bankTxnId,
          paymentMode: status.paymentMode,
          paidAmount: status.amountPaise ?? order.amount,
          respCode: status.respCode,
          respMsg: status.respMsg,
        },
        {
          ...change,
          message: `Payment of ${formatRupees(order.amount)} confirmed by Paytm (${via})`,
        },
        now,
      )
      return result.changed
        ? { outcome: 'paid', status: 'paid' }
        : { outcome: 'unchanged', status: result.status ?? order.status }
    } catch (error) {
      if (!(error instanceof DuplicateTransactionError)) throw error
      await warnOnce(
        db,
        order,
        'duplicate_txn_id',
        `Paytm transaction ${status.txnId} already paid another order; not marked paid`,
        details,
      )
      return unchanged('unchanged')
    }
  }
  const callbackFailed = callback?.status === 'TXN_FAILURE'
  // A failure is final when the status API confirms it, or when the verified callback says so
  // and the status API holds no payment at all for the order (e.g. Paytm refused the request).
  if (status.status === 'TXN_FAILURE' || (status.status === 'UNKNOWN' && callbackFailed)) {
    const source = status.status === 'TXN_FAILURE' ? status : callback!
    const result = await markOrderFailed(
      db,
      order.id,
      { status: 'TXN_FAILURE', respCode: source.respCode, respMsg: source.respMsg },
      { ...change, message: `Payment failed: ${source.respMsg || source.respCode} (${via})` },
      now,
    )
    if (result.changed) return { outcome: 'failed', status: 'failed' }
    return unchanged('unchanged', result.status ?? order.status)
  }
  if (status.status === 'UNKNOWN' && callback?.status === 'TXN_SUCCESS') {
    await warnOnce(
      db,
      order,
      'status_disagrees',
      `The callback says paid but the status API knows no payment (${status.respCode} ${status.respMsg}); not marked paid`,
      details,
    )
  }
  return unchanged('pending')
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
  if (!order) {
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
  | { kind: 'gone' }
  | { kind: 'final'; status: OrderStatus }
  | { kind: 'checked'; outcome: PaymentOutcome; status: OrderStatus }
  | { kind: 'expired' }
  | { kind: 'unavailable'; error: GatewayUnavailableError }

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
  if (!order) return { kind: 'gone' }
  if (order.status !== 'pending') return { kind: 'final', status: order.status }
  // A live order is never decided by the simulator, nor a test order by a real Paytm (which
  // would only ever answer "Invalid Order ID" for it): the chain stops, the order is left alone.
  if (!sameMode(order, setup)) return { kind: 'gone' }
  const status = await askStatus(db, setup, order, options, now)
  if (status instanceof GatewayUnavailableError) return { kind: 'unavailable', error: status }
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

/**
 * The reconciliation job. Each run checks one order; a chained check schedules the next with a
 * growing gap (reconcileDelayMs), the last one at the end of the 24-hour window. When the
 * status API is down the job fails and the job runner retries it with backoff; if it gives up,
 * the chain still goes on.
 */
export function paymentJobHandlers(db: DB, options: PaymentJobOptions): JobHandlers {
  const log = options.log ?? defaultLog
  return {
    async [RECONCILE_JOB](job: Job) {
      const payload = parsePayload(job.payload)
      if (!payload) return
      const now = options.now?.() ?? new Date()
      const setup = await options.resolveSetup()
      if (!setup) throw new Error('Payments are switched off (the Paytm gateway is inactive)')
      const result = await reconcileOrder(db, setup, payload.orderId, options)
      if (result.kind === 'gone' || result.kind === 'final' || result.kind === 'expired') return
      if (result.kind === 'checked' && result.status !== 'pending') return
      if (
        result.kind === 'checked' &&
        result.outcome !== 'pending' &&
        result.outcome !== 'amount-mismatch'
      )
        return
      const order = await getOrder(db, payload.orderId)
      if (!order || order.status !== 'pending') return
      const lastAttempt = job.attempt >= job.maxAttempts
      if (payload.chain && (result.kind === 'checked' || lastAttempt)) {
        const createdAt = new Date(order.createdAt).getTime()
        const deadline = createdAt + RECONCILE_WINDOW_MS
        const runAt = Math.min(deadline, now.getTime() + reconcileDelayMs(payload.check + 1))
        await enqueueJob(db, RECONCILE_JOB, reconcilePayload(order.id, payload.check + 1, true), {
          runAt: new Date(runAt),
        })
      }
      if (result.kind === 'unavailable') {
        log(`[payments] ${order.id}: status check failed (${result.error.message})`)
        throw result.error
      }
    },
  }
}
