import {
  appendOrderEvent,
  claimStatusCheck,
  createOrder,
  DuplicateTransactionError,
  getOrder,
  lastOrderEventType,
  markOrderExpired,
  markOrderFailed,
  recordStatusCheck,
  setGatewayOrderId,
  SETTLED_STATUSES,
  takeOrderRows,
  type Order,
  type OrderStatus,
} from '~/data/order.server'
import { markOrderPaid } from '~/services/fulfilment.server'
import { mailPaymentNeedsCheck } from '~/services/notifications/shop-mail.server'
import type { DB } from '~/lib/db.server'
import {
  enqueueJob,
  livePayloads,
  wakeJobRunner,
  type Job,
  type JobHandlers,
} from '~/lib/jobs.server'
import { formatRupees } from '~/lib/money'
import { gatewayLabel } from '~/lib/validation/gateway'
import {
  GatewayRefusedError,
  GatewayUnreachableError,
  type GatewayOrder,
  type GatewayPaymentStatus,
} from '~/lib/payments/gateway.server'
import type { StartCheckoutInput } from './paytm-flow.server'

/**
 * The payment workflow every gateway after Paytm plugs into (docs/payments.md, "Gateways"):
 * a gateway's protocol client (app/lib/payments/gateway.server.ts) answers what happened to an
 * order, and this decides what that means for the order, once:
 *
 *   paid     only for the exact amount of our order and with the gateway's payment id
 *            (unique: one payment never pays two orders); delivery commits with it;
 *   failed   pending -> failed; a later confirmed payment still pays a failed order;
 *   pending  counted on the order; reconciliation asks again with growing gaps, and expires
 *            the order after 24 hours (or 10 minutes with no payment at all).
 *
 * Every change is a compare-and-set (app/data/order.server.ts), so duplicate or out-of-order
 * returns, webhooks and jobs change an order once and deliver once.
 */

export const GATEWAY_RECONCILE_JOB = 'payment.reconcile-gateway'

/** Reconciliation gives up on an order this long after it was created. */
export const RECONCILE_WINDOW_MS = 24 * 60 * 60_000
/**
 * An order a gateway still holds no payment for (Paytm: 334) this long after creation was
 * abandoned before payment: the buyer's browser reaches the gateway at once, so a buyer who did
 * is known to it within seconds. Together with the gaps below an abandoned checkout costs four status checks.
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

/** A gateway could not start the payment; the order is failed and the buyer may try another way. */
export class PaymentStartError extends Error {
  override name = 'PaymentStartError'
  constructor(
    message: string,
    readonly orderId: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/**
 * Checkout at a gateway on this workflow: our order (price from the database) and its first
 * reconciliation check in one transaction, then, outside it (no database lock held across the
 * network), the gateway's own order through `start`, whose id is recorded on our order. If the
 * gateway cannot start the payment, our order is marked failed and PaymentStartError thrown.
 */
export async function startGatewayCheckout<Started extends { gatewayOrderId: string | null }>(
  db: DB,
  gateway: { id: string; testMode: boolean },
  input: StartCheckoutInput,
  start: (order: GatewayOrder) => Promise<Started>,
  options: { now?: () => Date; log?: (line: string) => void } = {},
): Promise<{ order: Order; accessToken: string; started: Started }> {
  const now = options.now ?? (() => new Date())
  const label = gatewayLabel(gateway.id)
  const created = await createOrder(
    db,
    {
      productId: input.productId,
      customer: input.customer,
      userId: input.userId ?? null,
      gateway: gateway.id,
      testMode: gateway.testMode,
      paymentLink: input.paymentLink ?? null,
      actor: input.actor,
      shownPrice: input.shownPrice ?? null,
    },
    {
      now: () => now().getTime(),
      async prepare(trx, order) {
        // Written with the order: a buyer who pays and never comes back is still found.
        await enqueueJob(trx, GATEWAY_RECONCILE_JOB, gatewayReconcilePayload(order.id, 1, true), {
          runAt: new Date(new Date(order.createdAt).getTime() + reconcileDelayMs(1)),
        })
      },
    },
  )
  const order = created.order
  try {
    const started = await start(gatewayOrderOf(order))
    if (started.gatewayOrderId) await setGatewayOrderId(db, order.id, started.gatewayOrderId)
    return {
      order: { ...order, gatewayOrderId: started.gatewayOrderId ?? order.gatewayOrderId },
      accessToken: created.accessToken,
      started,
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    ;(options.log ?? console.log)(`[payments] ${order.id}: ${label} order not created: ${reason}`)
    await markOrderFailed(
      db,
      order.id,
      { status: 'NOT_STARTED', respCode: 'order_create_failed', respMsg: reason.slice(0, 500) },
      { message: `${label} could not start the payment`, actor: 'gateway', data: { reason } },
      now(),
    )
    throw new PaymentStartError(reason, order.id, { cause: error })
  }
}

export interface Decision {
  outcome: PaymentOutcome
  status: OrderStatus
}

export function gatewayOrderOf(order: Order): GatewayOrder {
  return {
    id: order.id,
    amountPaise: order.amount,
    customerName: order.customerName,
    customerEmail: order.customerEmail,
    customerPhone: order.customerPhone,
    userId: order.userId,
    gatewayOrderId: order.gatewayOrderId,
  }
}

/** Paid (or past it): nothing a gateway says later changes the order. */
export function isSettled(status: OrderStatus): boolean {
  return (SETTLED_STATUSES as readonly string[]).includes(status)
}

/** What the buyer's return from a gateway did to an order. */
export interface HandledReturn extends Decision {
  kind: 'handled'
  orderId: string
}

/** A status the gateway's own API gave on the buyer's return; a pending one is asked again soon. */
export async function applyReturnStatus(
  db: DB,
  order: Order,
  status: GatewayPaymentStatus,
  now: Date,
): Promise<HandledReturn> {
  const decision = await applyGatewayStatus(db, order, status, 'return', now)
  if (decision.status === 'pending') await scheduleGatewayCheck(db, order.id, now)
  return { kind: 'handled', orderId: order.id, ...decision }
}

/** A buyer's return (signed or not) asks the gateway at most this often per order. */
export const RETURN_CHECK_MIN_INTERVAL_MS = 3_000

/**
 * Whether a buyer's return may ask the gateway about `order` now: once per
 * RETURN_CHECK_MIN_INTERVAL_MS, however many arrive together; the others answer from our record.
 * A reload, a replayed URL or a re-posted signed form (a payment authorised but not captured yet
 * stays pending, so nothing else stops it) would otherwise call the gateway each time. The turn
 * is a compare-and-set (claimStatusCheck), taken even when the order was never checked: of many
 * first returns at once, one asks (docs/payments.md, "Razorpay" and "PhonePe").
 */
export async function mayAskOnReturn(db: DB, order: Order, now: Date): Promise<boolean> {
  return claimStatusCheck(db, order.id, now, RETURN_CHECK_MIN_INTERVAL_MS)
}

/**
 * What a return answers without asking the gateway (see mayAskOnReturn): the order as it is
 * now, read again, so a return that lost its turn to one that has just settled the order says so.
 */
export async function answeredFromRecord(db: DB, order: Order): Promise<HandledReturn> {
  const current = (await getOrder(db, order.id)) ?? order
  return {
    kind: 'handled',
    orderId: current.id,
    outcome: current.status === 'pending' ? 'pending' : 'unchanged',
    status: current.status,
  }
}

/**
 * Runs `confirm` for the buyer's return; when the gateway cannot be reached, the order stays as
 * it is and reconciliation asks again soon.
 */
export async function confirmReturn<Result>(
  db: DB,
  order: Order,
  now: Date,
  log: (line: string) => void,
  confirm: () => Promise<Result>,
): Promise<Result | HandledReturn> {
  try {
    return await confirm()
  } catch (error) {
    if (!(error instanceof GatewayUnreachableError)) throw error
    await recordStatusCheck(db, order.id, null, now)
    const label = gatewayLabel(order.gateway)
    log(
      `[payments] ${order.id}: ${label} return not confirmed, ${error.message}; reconciliation will ask again`,
    )
    await scheduleGatewayCheck(db, order.id, now)
    return { kind: 'handled', orderId: order.id, outcome: 'unconfirmed', status: order.status }
  }
}

/**
 * Warnings about money the gateway says it took but the order could not accept (another amount,
 * no payment id, an id that paid another order): the buyer may have paid for nothing, so the
 * shop is told as well as the timeline (docs/payments.md).
 */
const MONEY_WARNINGS = new Set(['amount_mismatch', 'payment_without_id', 'duplicate_txn_id'])

/**
 * A timeline warning that changes nothing, written once in a row (not again on every check).
 * For a real order, a warning about money taken (MONEY_WARNINGS) also mails the shop, once.
 */
export async function warnOnce(db: DB, order: Order, type: string, message: string, data: unknown) {
  // The order's row first: a callback and a status check warning at once take turns, so the
  // second sees the first's warning, and the warning and its mail land together.
  await db.transaction().execute(async (trx) => {
    await takeOrderRows(trx).where('id', '=', order.id).execute()
    if ((await lastOrderEventType(trx, order.id)) === type) return
    await appendOrderEvent(trx, order.id, { type, message, data, actor: 'gateway' })
    if (MONEY_WARNINGS.has(type) && !order.testMode)
      await mailPaymentNeedsCheck(trx, { orderId: order.id, why: message })
  })
}

/** What an order's timeline keeps of a gateway's answer, beside `context` (how it was asked). */
export function gatewayStatusDetails(
  status: GatewayPaymentStatus,
  context: Record<string, unknown>,
): Record<string, unknown> {
  return {
    ...context,
    state: status.state,
    status: status.status,
    respCode: status.respCode,
    respMsg: status.respMsg,
    txnId: status.txnId,
    gatewayAmount: status.amountPaise,
  }
}

/**
 * Acts on what a gateway says about an order (a status API answer, a verified webhook, or a
 * payment fetched after a verified return). `via` names the path for the timeline.
 */
export async function applyGatewayStatus(
  db: DB,
  order: Order,
  status: GatewayPaymentStatus,
  via: string,
  now: Date,
  /** `details`: what else the timeline keeps (Paytm: which status API answered, the callback). */
  options: { countsStatusCheck?: boolean; details?: Record<string, unknown> } = {},
): Promise<Decision> {
  const label = gatewayLabel(order.gateway)
  const counts = options.countsStatusCheck ?? true
  const details = gatewayStatusDetails(status, { via, ...options.details })
  const answer = {
    status: status.status.slice(0, 60),
    respCode: status.respCode.slice(0, 60),
    respMsg: status.respMsg,
  }
  const unchanged = async (outcome: PaymentOutcome, current: OrderStatus = order.status) => {
    if (counts) await recordStatusCheck(db, order.id, answer, now)
    return { outcome, status: current }
  }
  const change = {
    expected: order.status,
    countsStatusCheck: counts,
    data: details,
    actor: 'gateway',
  }
  if (status.state === 'paid') {
    if (status.amountPaise !== order.amount) {
      const shown = status.amountPaise === null ? 'no amount' : formatRupees(status.amountPaise)
      await warnOnce(
        db,
        order,
        'amount_mismatch',
        `${label} reports a payment of ${shown}, but the order is for ${formatRupees(order.amount)}; not marked paid`,
        details,
      )
      return unchanged('amount-mismatch')
    }
    if (!status.txnId) {
      await warnOnce(
        db,
        order,
        'payment_without_id',
        `${label} reports a payment without its id; not marked paid`,
        details,
      )
      return unchanged('pending')
    }
    try {
      const result = await markOrderPaid(
        db,
        order.id,
        {
          status: status.status,
          txnId: status.txnId,
          bankTxnId: status.bankTxnId,
          paymentMode: status.paymentMode,
          paidAmount: status.amountPaise,
          respCode: status.respCode.slice(0, 60),
          respMsg: status.respMsg,
        },
        {
          ...change,
          message: `Payment of ${formatRupees(order.amount)} confirmed by ${label} (${via})`,
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
        `${label} payment ${status.txnId} already paid another order; not marked paid`,
        details,
      )
      return unchanged('unchanged')
    }
  }
  if (status.state === 'failed') {
    const result = await markOrderFailed(
      db,
      order.id,
      { status: answer.status, respCode: answer.respCode, respMsg: status.respMsg.slice(0, 500) },
      { ...change, message: `Payment failed: ${status.respMsg || status.respCode} (${via})` },
      now,
    )
    if (result.changed) return { outcome: 'failed', status: 'failed' }
    return unchanged('unchanged', result.status ?? order.status)
  }
  return unchanged('pending')
}

export interface GatewayReconcilePayload {
  orderId: string
  check: number
  chain: boolean
}

export function gatewayReconcilePayload(
  orderId: string,
  check: number,
  chain: boolean,
): GatewayReconcilePayload {
  return { orderId, check, chain }
}

/** A one-off status check soon (after a pending answer or an outage). */
export async function scheduleGatewayCheck(
  db: DB,
  orderId: string,
  now: Date,
  delayMs = QUICK_CHECK_DELAY_MS,
): Promise<void> {
  await enqueueJob(db, GATEWAY_RECONCILE_JOB, gatewayReconcilePayload(orderId, 1, false), {
    runAt: new Date(now.getTime() + delayMs),
    maxAttempts: 3,
  })
  if (delayMs === 0) wakeJobRunner()
}

/** What the job needs of a gateway: its status API, and whether it takes test payments only. */
export interface ReconcilingGateway {
  testMode: boolean
  queryStatus(order: GatewayOrder): Promise<GatewayPaymentStatus>
}

export type GatewayReconcileResult =
  | { kind: 'gone' }
  | { kind: 'final'; status: OrderStatus }
  | { kind: 'checked'; outcome: PaymentOutcome; status: OrderStatus }
  | { kind: 'expired' }
  | { kind: 'unavailable'; error: GatewayUnreachableError }
  /** The gateway configured now cannot be asked about this order (`reason`); asked again later. */
  | { kind: 'cannot-ask'; reason: string }

/** Why the gateway configured now cannot decide `order`: it is set up for the other mode. */
export function otherModeReason(order: { testMode: boolean }, label: string): string {
  return order.testMode
    ? `the order was placed in test mode and the ${label} configured now is a real one`
    : `the order is live and the ${label} configured now takes test payments only`
}

/**
 * A pending order nobody could get an answer about for the whole reconciliation window
 * (the gateway down, refusing us, switched off or set up for the other mode): expired, saying
 * why, so it does not stay pending for ever. A late payment can still pay an expired order, and
 * the admin's Confirm payment can still ask.
 */
export async function expireUnanswered(
  db: DB,
  order: Order,
  reason: string,
  now: Date,
): Promise<boolean> {
  if (now.getTime() - new Date(order.createdAt).getTime() < RECONCILE_WINDOW_MS) return false
  const label = gatewayLabel(order.gateway)
  const expired = await markOrderExpired(
    db,
    order.id,
    `No answer from ${label} within 24 hours (${reason})`,
    now,
  )
  return expired.changed
}

/**
 * The gateway cannot be asked about `order` now (`reason`): expired when its reconciliation
 * window is over (expireUnanswered), otherwise asked again at the next check.
 */
export async function cannotAsk(
  db: DB,
  order: Order,
  reason: string,
  now: Date,
): Promise<{ kind: 'expired' } | { kind: 'cannot-ask'; reason: string }> {
  return (await expireUnanswered(db, order, reason, now))
    ? { kind: 'expired' }
    : { kind: 'cannot-ask', reason }
}

/** Asks the gateway about one pending order and applies the answer; expires it when due. */
export async function reconcileGatewayOrder(
  db: DB,
  gateway: ReconcilingGateway,
  orderId: string,
  now: Date,
): Promise<GatewayReconcileResult> {
  const order = await getOrder(db, orderId)
  if (!order) return { kind: 'gone' }
  if (order.status !== 'pending') return { kind: 'final', status: order.status }
  const label = gatewayLabel(order.gateway)
  // The simulator never decides a live order, nor a real gateway a test one.
  if (order.testMode !== gateway.testMode)
    return cannotAsk(db, order, otherModeReason(order, label), now)
  let status: GatewayPaymentStatus
  try {
    status = await gateway.queryStatus(gatewayOrderOf(order))
  } catch (error) {
    // Refused (e.g. 401 after the keys were changed): say so and ask again later.
    if (error instanceof GatewayRefusedError) return cannotAsk(db, order, error.message, now)
    if (!(error instanceof GatewayUnreachableError)) throw error
    await recordStatusCheck(db, order.id, null, now)
    if (await expireUnanswered(db, order, error.message, now)) return { kind: 'expired' }
    return { kind: 'unavailable', error }
  }
  const decision = await applyGatewayStatus(db, order, status, 'reconciliation', now)
  const age = now.getTime() - new Date(order.createdAt).getTime()
  const neverPaid = status.state === 'unknown' && age >= UNKNOWN_ORDER_EXPIRY_MS
  if (decision.status === 'pending' && (age >= RECONCILE_WINDOW_MS || neverPaid)) {
    const expired = await markOrderExpired(
      db,
      order.id,
      neverPaid
        ? `${label} received no payment for this order within 10 minutes (the buyer did not pay)`
        : `No final answer from ${label} within 24 hours (last: ${status.status})`,
      now,
    )
    if (expired.changed) return { kind: 'expired' }
  }
  return { kind: 'checked', ...decision }
}

export interface GatewayJobOptions {
  /** The gateway an order was placed with, resolved per run (the Gateways page may change). */
  resolveGateway: (gateway: string) => Promise<ReconcilingGateway | null>
  now?: () => Date
  log?: (line: string) => void
}

function parseGatewayPayload(payload: unknown): GatewayReconcilePayload | null {
  const p = payload as Partial<GatewayReconcilePayload> | null
  if (!p || typeof p.orderId !== 'string') return null
  return {
    orderId: p.orderId,
    check: typeof p.check === 'number' && p.check >= 1 ? p.check : 1,
    chain: p.chain !== false,
  }
}

/** The next check of a pending order's chain: a growing gap, the last at the window's end. */
async function scheduleNextGatewayCheck(
  db: DB,
  order: Pick<Order, 'id' | 'createdAt'>,
  check: number,
  now: Date,
): Promise<void> {
  const deadline = new Date(order.createdAt).getTime() + RECONCILE_WINDOW_MS
  const runAt = Math.min(deadline, now.getTime() + reconcileDelayMs(check + 1))
  await enqueueJob(db, GATEWAY_RECONCILE_JOB, gatewayReconcilePayload(order.id, check + 1, true), {
    runAt: new Date(runAt),
  })
}

/**
 * The `abandoned` step of a reconciliation chain (app/lib/jobs.server.ts), for Paytm's job and
 * this workflow's: a chained check lost on its last attempt schedules the next one, for an order
 * still pending, unless that run had scheduled it already.
 */
export function continueLostChain<
  Payload extends { orderId: string; check: number; chain: boolean },
>(
  db: DB,
  chain: {
    type: string
    parse: (payload: unknown) => Payload | null
    scheduleNext: (db: DB, order: Order, check: number, now: Date) => Promise<void>
    now: () => Date
  },
): (job: Job) => Promise<void> {
  return async (job) => {
    const payload = chain.parse(job.payload)
    if (!payload?.chain) return
    const order = await getOrder(db, payload.orderId)
    if (!order || order.status !== 'pending') return
    const now = chain.now()
    const scheduled = (await livePayloads(db, chain.type, now)).some((live) => {
      const next = chain.parse(live)
      return next?.orderId === order.id && next.chain && next.check > payload.check
    })
    if (!scheduled) await chain.scheduleNext(db, order, payload.check, now)
  }
}

/**
 * The reconciliation job for gateways on this workflow: each run checks one order; a chained
 * check schedules the next with a growing gap (reconcileDelayMs), up to 24 hours. The chain goes
 * on when the runner gives up on a check (the gateway down on every attempt, or the runner
 * stopped during the last one, unless that run had scheduled the next check already).
 */
export function gatewayJobHandlers(db: DB, options: GatewayJobOptions): JobHandlers {
  const log = options.log ?? ((line: string) => console.log(line))
  return {
    [GATEWAY_RECONCILE_JOB]: {
      run: (job) => runGatewayReconcileJob(job),
      abandoned: continueLostChain(db, {
        type: GATEWAY_RECONCILE_JOB,
        parse: parseGatewayPayload,
        scheduleNext: scheduleNextGatewayCheck,
        now: () => options.now?.() ?? new Date(),
      }),
    },
  }

  async function runGatewayReconcileJob(job: Job): Promise<void> {
    const payload = parseGatewayPayload(job.payload)
    if (!payload) return
    const { check, chain } = payload
    const now = options.now?.() ?? new Date()
    const order = await getOrder(db, payload.orderId)
    if (!order || order.status !== 'pending') return
    const gateway = await options.resolveGateway(order.gateway)
    const result: GatewayReconcileResult = gateway
      ? await reconcileGatewayOrder(db, gateway, order.id, now)
      : await cannotAsk(
          db,
          order,
          `payments through ${gatewayLabel(order.gateway)} are switched off`,
          now,
        )
    if (result.kind === 'gone' || result.kind === 'final' || result.kind === 'expired') return
    if (result.kind === 'checked' && result.status !== 'pending') return
    if (result.kind === 'cannot-ask')
      log(`[payments] ${order.id}: cannot ask ${order.gateway} now (${result.reason}); later`)
    // Retrying at once would not help the gateway that cannot be asked: the chain goes on.
    const lastAttempt = job.attempt >= job.maxAttempts
    if (chain && (result.kind !== 'unavailable' || lastAttempt))
      await scheduleNextGatewayCheck(db, order, check, now)
    if (result.kind === 'unavailable') {
      log(`[payments] ${order.id}: ${order.gateway} status check failed (${result.error.message})`)
      throw result.error
    }
  }
}
