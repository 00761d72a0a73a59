import {
  appendOrderEvent,
  getOrder,
  getOrderByGatewayOrderId,
  type Order,
  type OrderStatus,
} from '~/data/order.server'
import {
  claimWebhookEvent,
  markWebhookEventHandled,
  releaseWebhookEvent,
} from '~/data/payment-webhook.server'
import type { DB } from '~/lib/db.server'
import { GatewayUnreachableError } from '~/lib/payments/gateway.server'
import { formatRupees } from '~/lib/money'
import {
  fetchRazorpayPayment,
  razorpayGateway,
  statusOfPayment,
  verifyRazorpayWebhook,
  type RazorpayCheckout,
  type RazorpayRequestOptions,
  type RazorpayWebhookEvent,
  type WebhookRejection,
} from '~/lib/payments/razorpay.server'
import {
  answeredFromRecord,
  applyGatewayStatus,
  applyReturnStatus,
  confirmReturn,
  gatewayOrderOf,
  isSettled,
  mayAskOnReturn,
  PaymentStartError,
  scheduleGatewayCheck,
  startGatewayCheckout,
  type PaymentOutcome,
  type ReconcilingGateway,
} from './gateway-flow.server'
import type { StartCheckoutInput } from './paytm-flow.server'
import type { RazorpaySetup } from './razorpay-config.server'
import { confirmRefundFromGateway } from './refunds.server'

/**
 * Razorpay on the shared payment workflow (docs/payments.md, "Razorpay"):
 *
 *   checkout   our order (price from the database) and its reconciliation job in one
 *              transaction, then Razorpay's order through the Orders API (amount in paise,
 *              receipt = our order id); if Razorpay cannot be reached, our order is marked
 *              failed and the buyer is offered the next gateway.
 *   return     Checkout posts razorpay_payment_id + razorpay_signature to our callback: the
 *              signature is checked against the Razorpay order id WE stored, then the payment is
 *              fetched server to server (one return per order every few seconds: the turn of
 *              mayAskOnReturn) and must be captured for exactly our amount.
 *   webhook    verified on the raw body with the webhook secret, claimed once by its
 *              x-razorpay-event-id, applied through the same compare-and-set transitions.
 */

export interface RazorpayFlowOptions extends RazorpayRequestOptions {
  now?: () => Date
  log?: (line: string) => void
  shopName?: string
}

const defaultLog = (line: string) => console.log(line)

export { PaymentStartError }

export interface StartedRazorpayCheckout {
  order: Order
  accessToken: string
  checkout: RazorpayCheckout
}

export function razorpayClient(setup: RazorpaySetup, options: RazorpayFlowOptions = {}) {
  return razorpayGateway(
    setup.config,
    { shopName: options.shopName ?? 'KeyBazaar', callbackUrl: setup.callbackUrl },
    { fetch: options.fetch, timeoutMs: options.timeoutMs },
  )
}

/** The job's view of Razorpay: its order payments API. */
export function razorpayReconciler(
  setup: RazorpaySetup,
  options: RazorpayFlowOptions = {},
): ReconcilingGateway {
  const client = razorpayClient(setup, options)
  return { testMode: setup.testMode, queryStatus: (order) => client.queryStatus(order) }
}

export async function startRazorpayCheckout(
  db: DB,
  setup: RazorpaySetup,
  input: StartCheckoutInput,
  options: RazorpayFlowOptions = {},
): Promise<StartedRazorpayCheckout> {
  const client = razorpayClient(setup, options)
  const { order, accessToken, started } = await startGatewayCheckout(
    db,
    { id: 'razorpay', testMode: setup.testMode },
    input,
    async (gatewayOrder) => {
      const checkout = await client.startPayment(gatewayOrder)
      return { ...checkout, gatewayOrderId: checkout.razorpayOrderId }
    },
    options,
  )
  // A payer who may not see the customer (a payment link opened by someone else) gets
  // Checkout without the customer's name, e-mail and phone (docs/payments.md, "Payment links").
  const checkoutOptions =
    input.seesCustomer === false
      ? { ...started.options, prefill: { name: '', email: '', contact: '' } }
      : started.options
  return {
    order,
    accessToken,
    checkout: { script: started.script, options: checkoutOptions },
  }
}

// ---------------------------------------------------------------------------------------------
// The browser's return (Checkout's callback_url)

/** The Razorpay order (`order_...`) a return names, success or failure; null when it names none. */
function claimedRazorpayOrderId(fields: Readonly<Record<string, string>>): string | null {
  const claimed = fields.razorpay_order_id ?? fields['error[metadata][order_id]'] ?? ''
  return /^order_[A-Za-z0-9]{1,40}$/.test(claimed) ? claimed : null
}

/**
 * Our order a return names through its Razorpay order id, whatever the return says and whether
 * or not it can be handled now: the result page shows the buyer our record of it (as Paytm's
 * and PhonePe's returns carry our order id). Nothing is decided from it.
 */
export async function razorpayReturnOrderId(
  db: DB,
  fields: Readonly<Record<string, string>>,
): Promise<string | null> {
  const claimed = claimedRazorpayOrderId(fields)
  return claimed ? ((await getOrderByGatewayOrderId(db, 'razorpay', claimed))?.id ?? null) : null
}

export type RazorpayReturnResult =
  | { kind: 'rejected'; reason: string; orderId: string | null }
  | { kind: 'unknown-order' }
  | { kind: 'handled'; orderId: string; outcome: PaymentOutcome; status: OrderStatus }

/**
 * Handles Checkout's POST to our callback. Success carries razorpay_payment_id,
 * razorpay_order_id and razorpay_signature; a failure carries error[...] fields, which are not
 * signed, so the order's payments are asked instead. Never throws for anything in the request.
 */
export async function handleRazorpayReturn(
  db: DB,
  setup: RazorpaySetup,
  fields: Readonly<Record<string, string>>,
  options: RazorpayFlowOptions = {},
): Promise<RazorpayReturnResult> {
  const log = options.log ?? defaultLog
  const now = options.now?.() ?? new Date()
  const claimedOrderId = claimedRazorpayOrderId(fields)
  if (!claimedOrderId) return { kind: 'unknown-order' }
  const order = await getOrderByGatewayOrderId(db, 'razorpay', claimedOrderId)
  if (!order || order.testMode !== setup.testMode) {
    log(`[payments] Razorpay return for an order we do not have: ${claimedOrderId}`)
    return { kind: 'unknown-order' }
  }
  if (isSettled(order.status))
    return { kind: 'handled', orderId: order.id, outcome: 'unchanged', status: order.status }
  const client = razorpayClient(setup, options)
  return confirmReturn(db, order, now, log, async (): Promise<RazorpayReturnResult> => {
    if (fields.razorpay_payment_id || fields.razorpay_signature) {
      const verified = client.verifyReturn(fields, gatewayOrderOf(order))
      if (!verified.ok) {
        // Unverified: nothing is written for it (anyone can post here), only logged.
        log(`[payments] refused a Razorpay return for ${order.id} (${verified.reason})`)
        return { kind: 'rejected', reason: verified.reason, orderId: order.id }
      }
      // Signed, but the same form can be posted again and again: while the payment is only
      // authorised the order stays pending, so each post would ask Razorpay once more. Posts
      // take turns per order like unsigned ones; a post without the turn shows the order as it is.
      if (!(await mayAskOnReturn(db, order, now))) return answeredFromRecord(db, order)
      const payment = await fetchRazorpayPayment(setup.config, verified.value.paymentId, options)
      if (payment.order_id !== order.gatewayOrderId) {
        log(`[payments] Razorpay payment ${payment.id} belongs to another order, not ${order.id}`)
        return { kind: 'rejected', reason: 'other-order', orderId: order.id }
      }
      // Authorised but not captured yet: applyReturnStatus looks again soon.
      return applyReturnStatus(db, order, statusOfPayment(payment), now)
    }
    // A failure (or a closed Checkout): only Razorpay's own record of the order decides. The
    // post is unsigned, so a repeat moments later answers from what we have.
    if (!(await mayAskOnReturn(db, order, now))) return answeredFromRecord(db, order)
    return applyReturnStatus(db, order, await client.queryStatus(gatewayOrderOf(order)), now)
  })
}

// ---------------------------------------------------------------------------------------------
// Webhooks

export type RazorpayWebhookResult =
  /** Refused: answered 400 (Razorpay shows it in the dashboard), nothing written. */
  | { kind: 'rejected'; reason: WebhookRejection }
  /** This event id was handled before (a retry or a replay): nothing done again. */
  | { kind: 'duplicate'; eventId: string }
  | { kind: 'unknown-order'; eventId: string }
  | { kind: 'handled'; eventId: string; orderId: string; outcome: PaymentOutcome | 'noted' }

/**
 * Handles one webhook delivery. Throws only when the database fails (the route answers 500 and
 * Razorpay retries); the event's claim is released first so the retry is acted on.
 */
export async function handleRazorpayWebhook(
  db: DB,
  setup: RazorpaySetup,
  rawBody: string,
  headers: Headers,
  options: RazorpayFlowOptions = {},
): Promise<RazorpayWebhookResult> {
  const log = options.log ?? defaultLog
  const now = options.now?.() ?? new Date()
  const verified = verifyRazorpayWebhook(rawBody, headers, setup.config.webhookSecret)
  if (!verified.ok) {
    if (verified.reason !== 'ignored-event')
      log(`[payments] refused a Razorpay webhook (${verified.reason})`)
    return { kind: 'rejected', reason: verified.reason }
  }
  const event = verified.value
  const order = event.orderId ? await getOrderByGatewayOrderId(db, 'razorpay', event.orderId) : null
  if (!order || order.testMode !== setup.testMode) {
    log(`[payments] Razorpay ${event.event} for an order we do not have: ${event.orderId ?? '-'}`)
    return { kind: 'unknown-order', eventId: event.eventId }
  }
  const claimed = await claimWebhookEvent(
    db,
    { gateway: 'razorpay', eventId: event.eventId, event: event.event, orderId: order.id },
    now,
  )
  if (!claimed) return { kind: 'duplicate', eventId: event.eventId }
  let result: RazorpayWebhookResult
  try {
    result = await actOnRazorpayEvent(db, setup, event, order, now, log, options)
  } catch (error) {
    await releaseWebhookEvent(db, 'razorpay', event.eventId)
    throw error
  }
  await markWebhookEventHandled(db, 'razorpay', event.eventId, now)
  return result
}

/** What one claimed, verified event does to its order. */
async function actOnRazorpayEvent(
  db: DB,
  setup: RazorpaySetup,
  event: RazorpayWebhookEvent,
  order: Order,
  now: Date,
  log: (line: string) => void,
  options: RazorpayFlowOptions,
): Promise<RazorpayWebhookResult> {
  if (event.event === 'refund.processed') {
    const refund = event.refund
    // A refund the shop asked for is settled (once, whoever comes first: this or the job).
    if (
      refund &&
      (await confirmRefundFromGateway(
        db,
        'razorpay',
        {
          gatewayRefundId: refund.id,
          status: 'processed',
          amountPaise: refund.amount,
          message: 'Razorpay refund processed',
        },
        now,
      ))
    )
      return { kind: 'handled', eventId: event.eventId, orderId: order.id, outcome: 'noted' }
    // One made in Razorpay's dashboard is noted on the timeline.
    await appendOrderEvent(db, order.id, {
      type: 'gateway_refund',
      message: `Razorpay processed refund ${refund?.id ?? ''} of ${refund ? formatRupees(refund.amount) : 'an unknown amount'}`,
      data: {
        refundId: refund?.id ?? null,
        amount: refund?.amount ?? null,
        paymentId: refund?.payment_id ?? null,
      },
      actor: 'gateway',
    })
    return { kind: 'handled', eventId: event.eventId, orderId: order.id, outcome: 'noted' }
  }
  const payment = event.payment
  if (!payment || payment.order_id !== order.gatewayOrderId) {
    log(`[payments] Razorpay ${event.event} without a payment of order ${order.id}`)
    return { kind: 'handled', eventId: event.eventId, orderId: order.id, outcome: 'unchanged' }
  }
  // The latest state of the order: events arrive in any order and concurrently.
  const current = (await getOrder(db, order.id)) ?? order
  let status = statusOfPayment(payment)
  if (status.state !== 'paid' && !isSettled(current.status)) {
    // One failed attempt is not the order's fate: the buyer may be paying again in the same
    // Checkout. As for a failure return, the order's payments decide (a captured one wins,
    // then one in progress); Razorpay unreachable: reconciliation decides later.
    try {
      status = await razorpayClient(setup, options).queryStatus(gatewayOrderOf(current))
    } catch (error) {
      if (!(error instanceof GatewayUnreachableError)) throw error
      log(`[payments] ${order.id}: Razorpay ${event.event} not confirmed, ${error.message}`)
      await scheduleGatewayCheck(db, order.id, now)
      return {
        kind: 'handled',
        eventId: event.eventId,
        orderId: order.id,
        outcome: 'unconfirmed',
      }
    }
  }
  const decision = await applyGatewayStatus(db, current, status, `webhook ${event.event}`, now, {
    countsStatusCheck: false,
  })
  if (decision.status === 'pending') await scheduleGatewayCheck(db, order.id, now)
  return { kind: 'handled', eventId: event.eventId, orderId: order.id, outcome: decision.outcome }
}
