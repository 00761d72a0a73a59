import crypto from 'node:crypto'
import { z } from 'zod'
import { gatewayFetch } from './http.server'
import {
  answerJson,
  answerText,
  GatewayRefusedError,
  GatewayUnreachableError,
  hexEquals,
  unreachableError,
  webhookBody,
  type GatewayOrder,
  type GatewayPaymentStatus,
  type GatewayRefund,
  type GatewayRefundQuery,
  type GatewayRefundRequest,
  type PaymentGateway,
  type Verified,
} from './gateway.server'

/**
 * Razorpay (PROTOCOLS.md §2): Orders API, Checkout, the payment signature on the browser's
 * return, signed webhooks and the payments API. The official SDK hard-codes its host, so the
 * REST API is called with fetch and a configurable base URL (a simulator in tests).
 */

export const RAZORPAY_API_HOST = 'https://api.razorpay.com'
export const RAZORPAY_CHECKOUT_SCRIPT = 'https://checkout.razorpay.com/v1/checkout.js'

export interface RazorpayConfig {
  keyId: string
  keySecret: string
  /** Signs webhooks; set in Razorpay's dashboard beside the webhook URL. */
  webhookSecret: string
  /** https://api.razorpay.com, or a simulator's base URL. */
  host: string
  /** Where Checkout's script loads from: the real one, or the simulator's stand-in. */
  checkoutScript: string
}

export interface RazorpayRequestOptions {
  fetch?: typeof globalThis.fetch
  timeoutMs?: number
}

// ---------------------------------------------------------------------------------------------
// Signatures

function hmacHex(secret: string, text: string): string {
  return crypto.createHmac('sha256', secret).update(text, 'utf8').digest('hex')
}

/** razorpay_signature = hex(HMAC_SHA256(key_secret, order_id + "|" + payment_id)). */
export function paymentSignature(orderId: string, paymentId: string, keySecret: string): string {
  return hmacHex(keySecret, `${orderId}|${paymentId}`)
}

/** Checks a browser's razorpay_signature against the order id WE stored, in constant time. */
export function verifyPaymentSignature(
  storedOrderId: string,
  paymentId: string,
  signature: string,
  keySecret: string,
): boolean {
  return hexEquals(paymentSignature(storedOrderId, paymentId, keySecret), signature)
}

/** X-Razorpay-Signature = hex(HMAC_SHA256(webhook_secret, raw body)). */
export function webhookSignature(rawBody: string, webhookSecret: string): string {
  return hmacHex(webhookSecret, rawBody)
}

// ---------------------------------------------------------------------------------------------
// Entities

const paymentSchema = z.looseObject({
  id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.string(),
  order_id: z.string().nullable().optional(),
  method: z.string().nullable().optional(),
  captured: z.boolean().optional(),
  acquirer_data: z.looseObject({ bank_transaction_id: z.string().nullish() }).nullish(),
  error_code: z.string().nullish(),
  error_description: z.string().nullish(),
})
export type RazorpayPayment = z.infer<typeof paymentSchema>

const orderSchema = z.looseObject({
  id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  receipt: z.string().nullish(),
  status: z.string(),
})
export type RazorpayOrder = z.infer<typeof orderSchema>

const refundSchema = z.looseObject({
  id: z.string(),
  payment_id: z.string(),
  amount: z.number().int(),
  status: z.string(),
})
export type RazorpayRefundEntity = z.infer<typeof refundSchema>

/**
 * What one payment means for our order. Only a captured payment pays: one in status `refunded`
 * has had its money given back (Razorpay refunds an authorized payment nobody captured in
 * time), so it can never pay an order, and like a failure it will not change again.
 */
export function paymentState(payment: RazorpayPayment): GatewayPaymentStatus['state'] {
  if (payment.status === 'captured') return 'paid'
  if (payment.status === 'failed' || payment.status === 'refunded') return 'failed'
  return 'pending'
}

export function statusOfPayment(payment: RazorpayPayment): GatewayPaymentStatus {
  return {
    state: paymentState(payment),
    txnId: payment.id,
    bankTxnId: payment.acquirer_data?.bank_transaction_id ?? null,
    amountPaise: payment.currency === 'INR' ? payment.amount : null,
    paymentMode: payment.method ?? null,
    status: payment.status,
    respCode: payment.error_code ?? payment.status,
    respMsg:
      payment.error_description ??
      (payment.status === 'refunded' ? 'Razorpay refunded this payment; it pays nothing' : ''),
  }
}

/**
 * What the payments of one Razorpay order mean: a captured payment wins (the one for our
 * amount first), then one in progress, then a failure; no payment at all is 'unknown'.
 */
export function statusOfPayments(
  payments: readonly RazorpayPayment[],
  amountPaise: number,
): GatewayPaymentStatus {
  const rank = (p: RazorpayPayment) =>
    paymentState(p) === 'paid'
      ? p.amount === amountPaise && p.currency === 'INR'
        ? 0
        : 1
      : paymentState(p) === 'pending'
        ? 2
        : 3
  const best = [...payments].sort((a, b) => rank(a) - rank(b))[0]
  if (!best)
    return {
      state: 'unknown',
      txnId: null,
      bankTxnId: null,
      amountPaise: null,
      paymentMode: null,
      status: 'no_payment',
      respCode: 'no_payment',
      respMsg: 'No payment has been made for this order',
    }
  return statusOfPayment(best)
}

// ---------------------------------------------------------------------------------------------
// Webhooks

export const RAZORPAY_WEBHOOK_EVENTS = [
  'payment.captured',
  'payment.failed',
  'order.paid',
  'refund.processed',
] as const
export type RazorpayWebhookEventName = (typeof RAZORPAY_WEBHOOK_EVENTS)[number]

const webhookSchema = z.looseObject({
  event: z.string(),
  payload: z.looseObject({
    payment: z.looseObject({ entity: paymentSchema }).optional(),
    order: z.looseObject({ entity: orderSchema }).optional(),
    refund: z.looseObject({ entity: refundSchema }).optional(),
  }),
  created_at: z.number().optional(),
})

export interface RazorpayWebhookEvent {
  /** x-razorpay-event-id: the same for every retry of one event. */
  eventId: string
  event: RazorpayWebhookEventName
  /** Razorpay's order id the event is about. */
  orderId: string | null
  payment: RazorpayPayment | null
  order: RazorpayOrder | null
  refund: RazorpayRefundEntity | null
}

export type WebhookRejection =
  'missing-signature' | 'bad-signature' | 'missing-event-id' | 'malformed' | 'ignored-event'

/**
 * Verifies X-Razorpay-Signature over the raw bytes (re-serialised JSON would not match), then
 * parses the event. Only the events the shop acts on are accepted; others are 'ignored-event'.
 */
export function verifyRazorpayWebhook(
  rawBody: string,
  headers: Headers,
  webhookSecret: string,
): Verified<RazorpayWebhookEvent, WebhookRejection> {
  const signature = headers.get('x-razorpay-signature')
  if (!signature) return { ok: false, reason: 'missing-signature' }
  if (!webhookSecret || !hexEquals(webhookSignature(rawBody, webhookSecret), signature.trim()))
    return { ok: false, reason: 'bad-signature' }
  const eventId = headers.get('x-razorpay-event-id')?.trim()
  if (!eventId || eventId.length > 100) return { ok: false, reason: 'missing-event-id' }
  const body = webhookBody(rawBody, webhookSchema)
  if (!body) return { ok: false, reason: 'malformed' }
  const event = body.event
  if (!(RAZORPAY_WEBHOOK_EVENTS as readonly string[]).includes(event))
    return { ok: false, reason: 'ignored-event' }
  const payment = body.payload.payment?.entity ?? null
  const order = body.payload.order?.entity ?? null
  const refund = body.payload.refund?.entity ?? null
  return {
    ok: true,
    value: {
      eventId,
      event: event as RazorpayWebhookEventName,
      orderId: order?.id ?? payment?.order_id ?? null,
      payment,
      order,
      refund,
    },
  }
}

// ---------------------------------------------------------------------------------------------
// REST API

async function call<T>(
  config: RazorpayConfig,
  method: 'GET' | 'POST',
  path: string,
  schema: z.ZodType<T>,
  body: unknown,
  options: RazorpayRequestOptions & { idempotencyKey?: string },
): Promise<T> {
  const fetchImpl = options.fetch ?? gatewayFetch
  const auth = Buffer.from(`${config.keyId}:${config.keySecret}`).toString('base64')
  const what = `Razorpay ${method} ${path}`
  let response: Response
  try {
    response = await fetchImpl(`${config.host.replace(/\/+$/, '')}${path}`, {
      method,
      headers: {
        Authorization: `Basic ${auth}`,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(options.idempotencyKey ? { 'X-Refund-Idempotency': options.idempotencyKey } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    })
  } catch (error) {
    throw unreachableError(what, error)
  }
  const text = await answerText(response, what)
  // 409 to an idempotent request: the first one under this key is still being processed.
  // Asking again later under the same key is safe and answers with its outcome.
  if (response.status === 409 && options.idempotencyKey)
    throw new GatewayUnreachableError(`${what}: HTTP 409, the same request is still in progress`)
  const json = answerJson(text, what)
  if (!response.ok) {
    const description =
      (json as { error?: { description?: unknown } } | null)?.error?.description ?? ''
    throw new GatewayRefusedError(
      `Razorpay ${method} ${path}: HTTP ${response.status} ${String(description).slice(0, 200)}`,
      response.status,
    )
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success)
    throw new GatewayUnreachableError(`Razorpay ${method} ${path}: unexpected answer`)
  return parsed.data
}

/** POST /v1/orders: amount in integer paise (>= 100), receipt = our order id. */
export async function createRazorpayOrder(
  config: RazorpayConfig,
  input: { amountPaise: number; receipt: string; notes?: Record<string, string> },
  options: RazorpayRequestOptions = {},
): Promise<RazorpayOrder> {
  if (!Number.isInteger(input.amountPaise) || input.amountPaise < 100)
    throw new GatewayRefusedError('Razorpay needs an amount of at least ₹1.00', 400)
  if (input.receipt.length > 40)
    throw new GatewayRefusedError('Razorpay receipts are at most 40 characters', 400)
  const order = await call(
    config,
    'POST',
    '/v1/orders',
    orderSchema,
    {
      amount: input.amountPaise,
      currency: 'INR',
      receipt: input.receipt,
      notes: input.notes ?? {},
    },
    options,
  )
  if (order.amount !== input.amountPaise || order.currency !== 'INR')
    throw new GatewayUnreachableError('Razorpay created an order for another amount')
  return order
}

export function fetchRazorpayPayment(
  config: RazorpayConfig,
  paymentId: string,
  options: RazorpayRequestOptions = {},
): Promise<RazorpayPayment> {
  if (!/^pay_[A-Za-z0-9]{1,40}$/.test(paymentId))
    return Promise.reject(new GatewayRefusedError('Not a Razorpay payment id', 400))
  return call(config, 'GET', `/v1/payments/${paymentId}`, paymentSchema, undefined, options)
}

const collectionSchema = z.looseObject({ items: z.array(paymentSchema) })

export async function fetchRazorpayOrderPayments(
  config: RazorpayConfig,
  orderId: string,
  options: RazorpayRequestOptions = {},
): Promise<RazorpayPayment[]> {
  if (!/^order_[A-Za-z0-9]{1,40}$/.test(orderId))
    throw new GatewayRefusedError('Not a Razorpay order id', 400)
  const list = await call(
    config,
    'GET',
    `/v1/orders/${orderId}/payments`,
    collectionSchema,
    undefined,
    options,
  )
  return list.items
}

/**
 * POST /v1/payments/{id}/refund with `{amount, notes}`; the X-Refund-Idempotency key (at least
 * 10 characters of letters, digits, `-` and `_`) makes a repeated request answer with the first
 * refund instead of refunding again. A repeat must carry the same body.
 */
export async function refundRazorpayPayment(
  config: RazorpayConfig,
  paymentId: string,
  amountPaise: number,
  options: RazorpayRequestOptions & { reason?: string; idempotencyKey?: string } = {},
): Promise<RazorpayRefundEntity> {
  if (!/^pay_[A-Za-z0-9]{1,40}$/.test(paymentId))
    throw new GatewayRefusedError('Not a Razorpay payment id', 400)
  if (!Number.isSafeInteger(amountPaise) || amountPaise < 100)
    throw new GatewayRefusedError('Razorpay refunds need an amount of at least ₹1.00', 400)
  return call(
    config,
    'POST',
    `/v1/payments/${paymentId}/refund`,
    refundSchema,
    { amount: amountPaise, notes: options.reason ? { reason: options.reason.slice(0, 250) } : {} },
    options,
  )
}

/** GET /v1/payments/{id}/refunds/{refund_id}: one refund of a payment. */
export function fetchRazorpayRefund(
  config: RazorpayConfig,
  paymentId: string,
  refundId: string,
  options: RazorpayRequestOptions = {},
): Promise<RazorpayRefundEntity> {
  if (!/^pay_[A-Za-z0-9]{1,40}$/.test(paymentId) || !/^rfnd_[A-Za-z0-9]{1,40}$/.test(refundId))
    return Promise.reject(new GatewayRefusedError('Not a Razorpay refund id', 400))
  return call(
    config,
    'GET',
    `/v1/payments/${paymentId}/refunds/${refundId}`,
    refundSchema,
    undefined,
    options,
  )
}

/**
 * GET /v1/orders?count=1 with the keys: the cheapest call that proves Razorpay accepts them
 * (the Gateways page's Test connection). Throws GatewayRefusedError with Razorpay's words
 * (401 'Authentication failed') or GatewayUnreachableError.
 */
export async function checkRazorpayKeys(
  config: RazorpayConfig,
  options: RazorpayRequestOptions = {},
): Promise<void> {
  await call(
    config,
    'GET',
    '/v1/orders?count=1',
    z.looseObject({ items: z.array(z.unknown()) }),
    undefined,
    options,
  )
}

/** A refund entity in the terms every gateway shares. */
export function refundOf(refund: RazorpayRefundEntity): GatewayRefund {
  return {
    refundId: refund.id,
    amountPaise: refund.amount,
    status:
      refund.status === 'processed'
        ? 'processed'
        : refund.status === 'failed'
          ? 'failed'
          : 'pending',
    message: `Razorpay refund ${refund.status}`,
  }
}

// ---------------------------------------------------------------------------------------------
// The gateway

export interface RazorpayCheckout {
  /** Checkout's script (the real one, or the simulator's stand-in). */
  script: string
  /** The options passed to `new Razorpay(options)`. */
  options: {
    key: string
    amount: number
    currency: 'INR'
    name: string
    description: string
    order_id: string
    callback_url: string
    prefill: { name: string; email: string; contact: string }
    notes: { order: string }
  }
}

export interface RazorpayReturn {
  paymentId: string
  razorpayOrderId: string
}

export function razorpayGateway(
  config: RazorpayConfig,
  settings: { shopName: string; callbackUrl: string },
  options: RazorpayRequestOptions = {},
): PaymentGateway<
  RazorpayCheckout & { razorpayOrderId: string },
  RazorpayReturn,
  RazorpayWebhookEvent
> {
  return {
    id: 'razorpay',
    async startPayment(order: GatewayOrder) {
      const created = await createRazorpayOrder(
        config,
        { amountPaise: order.amountPaise, receipt: order.id, notes: { order: order.id } },
        options,
      )
      return {
        razorpayOrderId: created.id,
        script: config.checkoutScript,
        options: {
          key: config.keyId,
          amount: order.amountPaise,
          currency: 'INR',
          name: settings.shopName,
          description: `Order ${order.id}`,
          order_id: created.id,
          callback_url: settings.callbackUrl,
          prefill: {
            name: order.customerName,
            email: order.customerEmail,
            contact: order.customerPhone,
          },
          notes: { order: order.id },
        },
      }
    },
    verifyReturn(fields, order) {
      const paymentId = fields.razorpay_payment_id ?? ''
      const signature = fields.razorpay_signature ?? ''
      if (!order.gatewayOrderId) return { ok: false, reason: 'no-gateway-order' }
      if (!/^pay_[A-Za-z0-9]{1,40}$/.test(paymentId)) return { ok: false, reason: 'malformed' }
      // The signature is checked against the order id WE stored, not the one the browser sent.
      if (!verifyPaymentSignature(order.gatewayOrderId, paymentId, signature, config.keySecret))
        return { ok: false, reason: 'bad-signature' }
      return { ok: true, value: { paymentId, razorpayOrderId: order.gatewayOrderId } }
    },
    verifyWebhook(rawBody, headers) {
      return verifyRazorpayWebhook(rawBody, headers, config.webhookSecret)
    },
    async queryStatus(order) {
      if (!order.gatewayOrderId) return statusOfPayments([], order.amountPaise)
      const payments = await fetchRazorpayOrderPayments(config, order.gatewayOrderId, options)
      return statusOfPayments(payments, order.amountPaise)
    },
    async refund(request: GatewayRefundRequest) {
      const refund = await refundRazorpayPayment(config, request.paymentId, request.amountPaise, {
        ...options,
        reason: request.reason,
        idempotencyKey: request.refundId,
      })
      return refundOf(refund)
    },
    async refundStatus(query: GatewayRefundQuery) {
      // Without Razorpay's id the refund is asked for again under the same idempotency key,
      // which answers with the refund made the first time (the workflow does that).
      if (!query.gatewayRefundId) return null
      return refundOf(
        await fetchRazorpayRefund(config, query.paymentId, query.gatewayRefundId, options),
      )
    },
  }
}
