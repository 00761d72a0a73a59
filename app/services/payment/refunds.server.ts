import { refundAmountTooMuch } from '~/lib/validation/order-actions'
import type { Transaction } from 'kysely'
import { issueCreditNoteWithinRefund } from '~/data/credit-note.server'
import { resolveOrderReport } from '~/data/order-report.server'
import { appendOrderEvent, getOrder, type Order } from '~/data/order.server'
import { getSiteSettings } from '~/data/settings.server'
import {
  createRefundRequest,
  getRefund,
  getRefundByGatewayId,
  markOrderRefundedByGateway,
  markRefundChecksStopped,
  markRefundPending,
  processedRefundTotal,
  recordRefundCheck,
  settleRefund,
  type OrderRefund,
} from '~/data/refund.server'
import type { DB } from '~/lib/db.server'
import {
  enqueueJob,
  livePayloads,
  wakeJobRunner,
  type Job,
  type JobHandlers,
} from '~/lib/jobs.server'
import { enqueueOrderMail } from '~/services/notifications/order-mail.server'
import { mailRefundNeedsCheck } from '~/services/notifications/shop-mail.server'
import { formatRupees } from '~/lib/money'
import { gatewayLabel } from '~/lib/validation/gateway'
import {
  GatewayRefusedError,
  GatewayUnreachableError,
  type GatewayRefund,
  type GatewayRefundQuery,
  type GatewayRefundRequest,
} from '~/lib/payments/gateway.server'
import type { Database } from '../../../db/schema'
import { gatewayOrderOf } from './gateway-flow.server'

/**
 * Refunds through a gateway's refund API (docs/payments.md, "Refunds"):
 *
 *   request   the admin's Refund writes a refund row (its id came with the form, so a double
 *             click writes one) for at most what is left to refund, and a job, together;
 *   job       asks what became of the refund, and when the gateway has none, its refund API
 *             with our refund id as its idempotency key (Paytm's refId, Razorpay's
 *             X-Refund-Idempotency), so a retried job refunds once; records the gateway's refund
 *             id; while the refund is pending, asks its status with growing gaps;
 *   confirm   the status answer or a webhook (Razorpay's refund.processed) settles the refund
 *             once (compare-and-set). When everything paid has gone back, the order becomes
 *             refunded and its item is revoked; the buyer is e-mailed either way. A refund
 *             that fails is mailed to the shop, which still owes the buyer the money.
 */
export const REFUND_JOB = 'payment.refund'

/** Gaps before the status checks of a pending refund; the last one repeats. */
const REFUND_CHECK_GAPS_MS = [
  10_000,
  30_000,
  60_000,
  5 * 60_000,
  15 * 60_000,
  60 * 60_000,
  4 * 60 * 60_000,
]
/** A refund still pending after this many checks (about a week) is left for the admin. */
const MAX_REFUND_CHECKS = 50

export function refundCheckDelayMs(check: number): number {
  const index = Math.min(Math.max(0, check - 1), REFUND_CHECK_GAPS_MS.length - 1)
  return REFUND_CHECK_GAPS_MS[index]!
}

/** What the workflow needs of a gateway to refund through it. */
export interface RefundingGateway {
  /** True for a built-in simulator: it can refund only test-mode orders, and only it can. */
  testMode: boolean
  refund(request: GatewayRefundRequest): Promise<GatewayRefund>
  refundStatus(query: GatewayRefundQuery): Promise<GatewayRefund | null>
}

export type RefundGatewayResolver = (gateway: string) => Promise<RefundingGateway | null>

export type RefundRequestResult =
  | {
      ok: true
      message: string
      refundId: string
      /** The same refund asked again (same refund id): nothing new was written. */
      repeated?: true
    }
  | { ok: false; message: string; field?: 'amount' }

/**
 * The admin's Refund: writes the request and its job once per `refundId`, for 1 paisa up to
 * what is left to refund. Nothing is sent to the gateway here; the job does it right away.
 */
export async function requestGatewayRefund(
  db: DB,
  input: { refundId: string; orderId: string; amountPaise: number; reason: string; actor: string },
  now = new Date(),
): Promise<RefundRequestResult> {
  const result = await createRefundRequest(
    db,
    { ...input, id: input.refundId },
    now,
    async (trx, refund) => {
      await appendOrderEvent(
        trx,
        refund.orderId,
        {
          type: 'refund_requested',
          message: `Refund of ${formatRupees(refund.amount)} requested through ${gatewayLabel(refund.gateway)}${refund.reason ? `: ${refund.reason}` : ''}`,
          data: { refundId: refund.id, amount: refund.amount, reason: refund.reason },
          actor: input.actor,
        },
        now,
      )
      await enqueueJob(trx, REFUND_JOB, { refundId: refund.id, check: 0 }, { maxAttempts: 8 })
    },
  )
  switch (result.kind) {
    case 'created':
      wakeJobRunner()
      return {
        ok: true,
        refundId: result.refund.id,
        message: `Refund of ${formatRupees(result.refund.amount)} sent to ${gatewayLabel(result.refund.gateway)}; the order changes when ${gatewayLabel(result.refund.gateway)} confirms it.`,
      }
    case 'duplicate':
      return {
        ok: true,
        repeated: true,
        refundId: result.refund.id,
        message: `This refund was already requested (${formatRupees(result.refund.amount)}); it was not sent again.`,
      }
    case 'not-refundable':
      return {
        ok: false,
        message: result.status
          ? `Refund does not apply to an order that is ${result.status.replace('_', ' ')}. Nothing was changed.`
          : 'Order not found',
      }
    case 'no-payment':
      return {
        ok: false,
        message: 'This order has no gateway payment to refund. Nothing was changed.',
      }
    case 'too-much':
      return {
        ok: false,
        field: 'amount',
        message: refundAmountTooMuch(result.leftPaise),
      }
  }
}

/**
 * Paise of an order's refunds (`refunds`, all or the unanswered ones) the gateway has not
 * answered yet (requested or pending): those
 * KeyBazaar still asks about (a refund job is due or running), and those it has stopped asking
 * about (their checks ran out after about a week, or their job failed), which only the gateway's
 * dashboard can tell. 'Mark refunded' waits for the first (the money may still go back), not
 * for the second (app/services/order-actions.server.ts).
 */
export async function unansweredRefunds(
  db: DB,
  refunds: readonly Pick<OrderRefund, 'id' | 'amount' | 'status' | 'checksStoppedAt'>[],
  now = new Date(),
): Promise<{ checking: number; stopped: number }> {
  const open = refunds.filter(
    (refund) => refund.status === 'requested' || refund.status === 'pending',
  )
  if (open.length === 0) return { checking: 0, stopped: 0 }
  // Live refund jobs are few (one per unanswered refund).
  const live = new Set(
    (await livePayloads(db, REFUND_JOB, now)).map(
      (payload) => (payload as { refundId?: unknown } | null)?.refundId,
    ),
  )
  const sum = { checking: 0, stopped: 0 }
  for (const refund of open)
    sum[!refund.checksStoppedAt && live.has(refund.id) ? 'checking' : 'stopped'] += Number(
      refund.amount,
    )
  return sum
}

/**
 * A refund settled processed where the buyer may have had the money twice: the timeline says so
 * (`refund_warning`) and the shop is mailed, in the refund's transaction.
 */
async function warnOfDoubleRefund(
  trx: Transaction<Database>,
  orderId: string,
  message: string,
  data: unknown,
  at: Date,
) {
  await appendOrderEvent(
    trx,
    orderId,
    { type: 'refund_warning', message, data, actor: 'gateway' },
    at.toISOString(),
  )
  await mailRefundNeedsCheck(trx, {
    orderId,
    subject: 'the buyer may have been refunded twice',
    why: message,
    todo: 'Compare the refunds in the gateway’s dashboard with your own records (a bank transfer, say). If the buyer got the money twice, ask them to return the second payment.',
  })
}

/** The order's side of a settled refund, inside its transaction. */
async function onSettled(
  trx: Transaction<Database>,
  refund: OrderRefund,
  order: Order,
  via: string,
  at: Date,
  wasFailed: boolean,
) {
  const gateway = gatewayLabel(refund.gateway)
  const reference = refund.gatewayRefundId ? ` (${refund.gatewayRefundId})` : ''
  const data = {
    refundId: refund.id,
    gatewayRefundId: refund.gatewayRefundId,
    amount: refund.amount,
    via,
  }
  if (refund.status === 'failed') {
    const message =
      `${gateway} did not refund ${formatRupees(refund.amount)}${reference}: ${refund.gatewayMessage ?? ''}`.trim()
    await appendOrderEvent(
      trx,
      order.id,
      { type: 'refund_failed', message, data, actor: 'gateway' },
      at,
    )
    // The buyer is still owed the money: the shop is mailed, as when KeyBazaar stops asking
    // about a refund (docs/payments.md, "Refunds"). Once per refund: a refund settles once. A
    // test order took no money, so its mail is an alert like others (Settings may switch it off).
    await mailRefundNeedsCheck(trx, {
      orderId: order.id,
      subject: `a refund through ${gateway} failed`,
      why: message,
      todo: order.testMode
        ? 'This is a test order: no real money was taken, so nobody is owed anything.'
        : `No money went back to the buyer. Put right what ${gateway} reports (a balance too low to refund from, say) and refund again from the order page; where it offers no Refund (the gateway now takes test payments only), return the money yourself and record it with Mark refunded.`,
      owed: !order.testMode,
    })
    return
  }
  const paid = order.paidAmount ?? order.amount
  const refunded = await processedRefundTotal(trx, order.id)
  const iso = at.toISOString()
  // The refund's credit note, with it (docs/delivery.md, "Credit notes").
  const { creditNote, failure } = await issueCreditNoteWithinRefund(
    trx,
    { orderId: order.id, source: refund.id, amountPaise: refund.amount, reason: refund.reason },
    await getSiteSettings(trx),
    at,
  )
  if (failure)
    await appendOrderEvent(
      trx,
      order.id,
      {
        type: 'credit_note_failed',
        message: `No credit note could be issued for the refund of ${formatRupees(refund.amount)}: ${failure}`,
        data,
        actor: 'system',
      },
      at,
    )
  // Refunded already (marked refunded while this refund was recorded failed, say): the buyer
  // was told, and may have been paid twice, which only the shop can sort out.
  if ((await getOrder(trx, order.id))?.status === 'refunded') {
    await warnOfDoubleRefund(
      trx,
      order.id,
      `${gateway} reports a refund of ${formatRupees(refund.amount)}${reference} processed (${via}) after the order was already refunded; the buyer is not e-mailed again. Check that the buyer was not refunded twice.`,
      data,
      at,
    )
    return
  }
  if (wasFailed)
    await warnOfDoubleRefund(
      trx,
      order.id,
      `${gateway} reports refund${reference} processed after it was recorded as failed; it now counts as refunded. Check that the buyer was not refunded twice.`,
      data,
      at,
    )
  if (refunded >= paid) {
    const changed = await markOrderRefundedByGateway(
      trx,
      order.id,
      {
        message: `${gateway} refunded ${formatRupees(refund.amount)}${reference} (${via}); the delivered item is revoked`,
        data,
        actor: 'gateway',
      },
      iso,
    )
    if (changed) {
      await resolveOrderReport(
        trx,
        { orderId: order.id, resolution: 'refunded', actor: refund.requestedBy },
        at,
      )
      await enqueueOrderMail(trx, {
        orderId: order.id,
        kind: 'refunded',
        creditNoteId: creditNote?.id,
        message: `We have refunded ${formatRupees(refund.amount)} for ${order.productName}${refunded > refund.amount ? `, ${formatRupees(refunded)} in all` : ''}. Refunds usually reach your account within 5 to 7 working days, depending on your bank.`,
      })
      return
    }
  }
  await appendOrderEvent(
    trx,
    order.id,
    {
      type: 'refund_processed',
      message: `${gateway} refunded ${formatRupees(refund.amount)} of ${formatRupees(paid)}${reference} (${via})`,
      data,
      actor: 'gateway',
    },
    iso,
  )
  await enqueueOrderMail(trx, {
    orderId: order.id,
    kind: 'refunded',
    creditNoteId: creditNote?.id,
    message: `We have refunded ${formatRupees(refund.amount)} of your payment of ${formatRupees(paid)} for ${order.productName}. Refunds usually reach your account within 5 to 7 working days, depending on your bank.`,
  })
}

/**
 * Settles a refund once with the gateway's final answer; false when it was settled before.
 * `wasFailed`: a refund recorded failed that the gateway now reports processed.
 */
async function settle(
  db: DB,
  refund: OrderRefund,
  answer: GatewayRefund & { status: 'processed' | 'failed' },
  via: string,
  now: Date,
  wasFailed = false,
): Promise<boolean> {
  const order = await getOrder(db, refund.orderId)
  if (!order) return false
  const settled = await settleRefund(
    db,
    refund.id,
    { status: answer.status, gatewayRefundId: answer.refundId, message: answer.message },
    now,
    (trx, before) =>
      onSettled(
        trx,
        {
          ...before,
          status: answer.status,
          gatewayRefundId: answer.refundId ?? before.gatewayRefundId,
          gatewayMessage: answer.message,
        },
        order,
        via,
        now,
        wasFailed,
      ),
    wasFailed ? ['failed'] : undefined,
  )
  return settled !== null
}

/**
 * The checks of a refund ran out without a final answer, or its job gives up on an error: the
 * timeline says KeyBazaar stopped asking, and the shop is mailed to look the refund up in the
 * gateway's dashboard (the order page's Mark refunded is no longer held up by it:
 * unansweredRefunds).
 */
async function stopAskingAbout(
  db: DB,
  refund: OrderRefund,
  reason: { checks: number } | { error: string },
  now: Date,
) {
  const gateway = gatewayLabel(refund.gateway)
  const reference = refund.gatewayRefundId ? ` (${refund.gatewayRefundId})` : ''
  const how =
    'checks' in reason
      ? ` after ${reason.checks} checks over about a week`
      : `: each try ended in an error (${reason.error.slice(0, 200)})`
  const why = `${gateway} gave no final answer about the refund of ${formatRupees(refund.amount)}${reference}${how}; KeyBazaar has stopped asking.`
  const at = now.toISOString()
  await db.transaction().execute(async (trx) => {
    // Marked once: a handler run again, or a refund settled meanwhile, tells nobody.
    if (!(await markRefundChecksStopped(trx, refund, at))) return
    await appendOrderEvent(
      trx,
      refund.orderId,
      {
        type: 'refund_warning',
        message: why,
        data: { refundId: refund.id, gatewayRefundId: refund.gatewayRefundId, ...reason },
        actor: 'system',
      },
      at,
    )
    await mailRefundNeedsCheck(trx, {
      orderId: refund.orderId,
      subject: `no answer from ${gateway} about a refund`,
      why,
      todo: `Look the refund up in ${gateway}’s dashboard. If the money went back to the buyer, or you return it yourself, record it with Mark refunded on the order page.`,
    })
  })
}

export type RefundRunResult =
  | { kind: 'gone' }
  | { kind: 'final'; status: OrderRefund['status'] }
  | { kind: 'processed' | 'failed' }
  /** `refused`: the status check was refused (logged; the refund is checked again later). */
  | { kind: 'pending'; refused?: string }

/**
 * One run of the refund job: asks the gateway to refund (first run) or what became of the
 * refund (later runs), and applies the answer. Throws GatewayUnreachableError when the gateway
 * cannot be asked (the job runner retries; the idempotency key keeps a retry from refunding
 * twice).
 */
export async function runRefund(
  db: DB,
  gateway: RefundingGateway,
  refundId: string,
  now = new Date(),
): Promise<RefundRunResult> {
  const refund = await getRefund(db, refundId)
  if (!refund) return { kind: 'gone' }
  if (refund.status !== 'requested' && refund.status !== 'pending')
    return { kind: 'final', status: refund.status }
  const order = await getOrder(db, refund.orderId)
  if (!order || !order.gatewayTxnId) return { kind: 'gone' }
  const refusal = async (message: string) => {
    await settle(
      db,
      refund,
      { refundId: null, status: 'failed', amountPaise: refund.amount, message },
      'refund API',
      now,
    )
    return { kind: 'failed' } as const
  }
  const refusedCheck = async (message: string) => {
    await recordRefundCheck(
      db,
      refund.id,
      `Refused while checking the refund, asking again later: ${message}`,
      now,
    )
    return { kind: 'pending', refused: message } as const
  }
  // A test gateway (the simulator, a sandbox) never refunds a live payment, nor a real one a test one. A refund the
  // gateway accepted before the switch is not failed for it: it is checked again later.
  if (order.testMode !== gateway.testMode) {
    const reason = order.testMode
      ? 'this payment was made in test mode and the gateway now configured is a real one'
      : 'this payment was real and the gateway now configured takes test payments only'
    return refund.status === 'requested' ? refusal(reason) : refusedCheck(reason)
  }
  const request = {
    order: gatewayOrderOf(order),
    paymentId: order.gatewayTxnId,
    refundId: refund.id,
    amountPaise: refund.amount,
    reason: refund.reason,
  }
  // First what became of the refund: a job retried after a lost answer finds the refund made
  // the first time (not every refund API answers a repeated id with its refund; some refuse it).
  // Only the refund request's own refusal means no refund was made: once the gateway accepted
  // it, a refusal (its status API answering 401 after the keys were changed, say) says nothing
  // about the money, so the refund stays pending and is checked again.
  let answer: GatewayRefund | null = null
  try {
    answer = await gateway.refundStatus({ ...request, gatewayRefundId: refund.gatewayRefundId })
  } catch (error) {
    if (!(error instanceof GatewayRefusedError)) throw error
    if (refund.status === 'pending') return refusedCheck(error.message)
  }
  if (!answer) {
    // Not made yet, or the gateway has no record under our id: ask for the refund (again,
    // under the same idempotency key, so a refund made before is answered, not repeated).
    try {
      answer = await gateway.refund(request)
    } catch (error) {
      if (!(error instanceof GatewayRefusedError)) throw error
      if (refund.status === 'requested') return refusal(error.message)
      return refusedCheck(error.message)
    }
  }
  if (answer.status === 'processed' || answer.status === 'failed') {
    await settle(
      db,
      refund,
      { ...answer, status: answer.status },
      refund.status === 'pending' ? 'refund status' : 'refund API',
      now,
    )
    return { kind: answer.status }
  }
  if (refund.status === 'requested' || (answer.refundId && !refund.gatewayRefundId))
    await markRefundPending(
      db,
      refund.id,
      { gatewayRefundId: answer.refundId, message: answer.message },
      now,
    )
  else await recordRefundCheck(db, refund.id, answer.message, now)
  return { kind: 'pending' }
}

/**
 * A gateway's notification that one of its refunds was processed (Razorpay's refund.processed).
 * Returns false when the refund is not one the shop asked for (made in the gateway's dashboard),
 * so the caller only notes it.
 */
export async function confirmRefundFromGateway(
  db: DB,
  gateway: string,
  answer: {
    gatewayRefundId: string
    status: 'processed' | 'failed'
    amountPaise: number
    message: string
  },
  now = new Date(),
): Promise<boolean> {
  const refund = await getRefundByGatewayId(db, gateway, answer.gatewayRefundId)
  if (!refund) return false
  const settlement = {
    refundId: answer.gatewayRefundId,
    status: answer.status,
    amountPaise: answer.amountPaise,
    message: answer.message,
  }
  if (refund.status === 'requested' || refund.status === 'pending')
    await settle(db, refund, settlement, 'webhook', now)
  // The gateway's word that its refund went through outranks an earlier failure we recorded:
  // the money is back with the buyer, so the refund counts (with a warning on the timeline).
  else if (refund.status === 'failed' && answer.status === 'processed')
    await settle(db, refund, settlement, 'webhook', now, true)
  return true
}

export interface RefundJobOptions {
  resolveGateway: RefundGatewayResolver
  now?: () => Date
  log?: (line: string) => void
}

interface RefundJobPayload {
  refundId: string
  check: number
}

function refundJobPayload(job: Job): RefundJobPayload | null {
  const payload = job.payload as { refundId?: unknown; check?: unknown } | null
  if (!payload || typeof payload.refundId !== 'string') return null
  const check = typeof payload.check === 'number' && payload.check >= 0 ? payload.check : 0
  return { refundId: payload.refundId, check }
}

/**
 * The refund job: one run per refund step; a pending refund schedules its next check. A job
 * whose runner stopped during its last attempt (a restart, a crash) says nothing about the
 * gateway, so the refund is asked about again at the next gap, as when the gateway cannot be
 * reached (unless that run had already scheduled the next check, which goes on asking).
 */
export function refundJobHandlers(db: DB, options: RefundJobOptions): JobHandlers {
  const log = options.log ?? ((line: string) => console.log(line))
  return {
    [REFUND_JOB]: {
      run: (job) => runRefundJob(job),
      abandoned: async (job, reason) => {
        const payload = refundJobPayload(job)
        if (!payload) return
        const refund = await getRefund(db, payload.refundId)
        if (!refund || (refund.status !== 'requested' && refund.status !== 'pending')) return
        const now = options.now?.() ?? new Date()
        const later = (await livePayloads(db, REFUND_JOB, now)).some((live) => {
          const next = live as Partial<RefundJobPayload> | null
          return next?.refundId === refund.id && (next.check ?? 0) > payload.check
        })
        if (later) return
        log(`[payments] refund ${refund.id}: ${reason}; asking again later`)
        await askAgainLater(refund, payload.check, now)
      },
    },
  }

  async function runRefundJob(job: Job): Promise<void> {
    const payload = refundJobPayload(job)
    if (!payload) return
    const { check } = payload
    const refund = await getRefund(db, payload.refundId)
    if (!refund || (refund.status !== 'requested' && refund.status !== 'pending')) return
    const gateway = await options.resolveGateway(refund.gateway)
    const now = options.now?.() ?? new Date()
    let result: RefundRunResult
    if (!gateway) {
      // Switched off on the Gateways page: nothing is sent, and the refund is asked about
      // again at the next gap (a refund is never dropped for a setting).
      log(`[payments] refund ${refund.id}: ${refund.gateway} is switched off; asking again later`)
      result = { kind: 'pending' }
    } else
      try {
        result = await runRefund(db, gateway, refund.id, now)
      } catch (error) {
        if (!(error instanceof GatewayUnreachableError)) {
          // The runner gives up after this attempt: the shop is told, as when checks run out.
          if (job.attempt >= job.maxAttempts)
            await stopAskingAbout(
              db,
              refund,
              { error: error instanceof Error ? error.message : String(error) },
              now,
            )
          throw error
        }
        log(`[payments] refund ${refund.id}: ${error.message}`)
        // The runner retries with backoff; once it would give up, the checks go on instead.
        if (job.attempt < job.maxAttempts) throw error
        result = { kind: 'pending' }
      }
    // The order has no payment at the gateway to refund (it should not happen): the refund
    // can never be asked about, so the shop is told at once.
    if (result.kind === 'gone')
      await stopAskingAbout(
        db,
        refund,
        { error: 'the order has no payment at the gateway to refund' },
        now,
      )
    if (result.kind !== 'pending') return
    if (result.refused)
      log(
        `[payments] refund ${refund.id}: status check refused, asking again later: ${result.refused}`,
      )
    await askAgainLater(refund, check, now)
  }

  /** Queues check `check + 1` of a refund still pending, or tells the shop the checks ran out. */
  async function askAgainLater(refund: OrderRefund, check: number, now: Date): Promise<void> {
    if (check + 1 >= MAX_REFUND_CHECKS) {
      log(
        `[payments] refund ${refund.id} still pending after ${check + 1} checks; left for the admin`,
      )
      await stopAskingAbout(db, refund, { checks: check + 1 }, now)
      return
    }
    await enqueueJob(
      db,
      REFUND_JOB,
      { refundId: refund.id, check: check + 1 },
      { runAt: new Date(now.getTime() + refundCheckDelayMs(check + 1)), maxAttempts: 8 },
    )
  }
}
