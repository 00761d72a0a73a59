import type { z } from 'zod'

/**
 * The one shape every payment gateway's protocol client takes (docs/payments.md, "Gateways").
 * A client knows its gateway's wire protocol and nothing about our database: the payment
 * workflow in app/services/payment/ stores orders and decides what an answer means for them.
 *
 *   startPayment   what the buyer's browser needs to reach the gateway for one order
 *   verifyReturn   checks what the browser brings back (never enough on its own to mark paid)
 *   verifyWebhook  checks a server-to-server notification on its raw bytes and parses it
 *   queryStatus    asks the gateway, server to server, what happened to an order
 *   refund         asks the gateway to return money for a captured payment (all or part)
 *   refundStatus   asks the gateway what became of a refund asked for before
 */

export type GatewayId = 'paytm' | 'razorpay' | 'phonepe'

/** What a gateway says about one of our orders, in the workflow's terms. */
export interface GatewayPaymentStatus {
  /**
   * paid: captured/settled for `amountPaise`; failed: final failure; pending: in progress;
   * unknown: the gateway holds no payment for the order (never reached, or refused).
   */
  state: 'paid' | 'failed' | 'pending' | 'unknown'
  /** The gateway's payment id (unique per payment across orders). */
  txnId: string | null
  bankTxnId: string | null
  /** Exact paise the gateway holds for the payment; the workflow compares it with ours. */
  amountPaise: number | null
  paymentMode: string | null
  /** The gateway's own words for the status, for the order's record. */
  status: string
  respCode: string
  respMsg: string
}

/** The order as a gateway needs it: amounts come from our database, never from a browser. */
export interface GatewayOrder {
  id: string
  amountPaise: number
  customerName: string
  customerEmail: string
  customerPhone: string
  userId: string | null
  /** The gateway's own id for the order, when it issues one (Razorpay's order_...). */
  gatewayOrderId: string | null
}

/** The gateway or its status API could not be reached or answered unusably; try again later. */
export class GatewayUnreachableError extends Error {
  override name = 'GatewayUnreachableError'
}

/** A request to `what` ("Razorpay POST /v1/orders") that got no answer: timed out or unreachable. */
export function unreachableError(what: string, error: unknown): GatewayUnreachableError {
  return new GatewayUnreachableError(
    `${what}: ${(error as Error).name === 'TimeoutError' ? 'timed out' : 'unreachable'}`,
    { cause: error },
  )
}

/** The body of the gateway's answer to `what`; an outage (HTTP 5xx or 429) throws. */
export async function answerText(response: Response, what: string): Promise<string> {
  const text = await response.text().catch(() => '')
  if (response.status >= 500 || response.status === 429)
    throw new GatewayUnreachableError(`${what}: HTTP ${response.status}`)
  return text
}

/** The gateway's answer to `what` as JSON; anything else is an outage. */
export function answerJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw new GatewayUnreachableError(`${what}: not JSON`)
  }
}

/** A webhook's raw body read as JSON of `schema`'s shape; null when it is not (malformed). */
export function webhookBody<T>(rawBody: string, schema: z.ZodType<T>): T | null {
  let json: unknown
  try {
    json = JSON.parse(rawBody)
  } catch {
    return null
  }
  const parsed = schema.safeParse(json)
  return parsed.success ? parsed.data : null
}

/** The gateway refused a request as wrong (4xx): trying again the same way will not help. */
export class GatewayRefusedError extends Error {
  override name = 'GatewayRefusedError'
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
  }
}

export type Verified<T, Reason extends string = string> =
  { ok: true; value: T } | { ok: false; reason: Reason }

export interface GatewayRefund {
  /** The gateway's id for the refund; null when it issues none (yet). */
  refundId: string | null
  status: 'pending' | 'processed' | 'failed'
  amountPaise: number
  /** The gateway's own words about the refund, for the order's record. */
  message: string
}

/** A refund of (part of) one captured payment. */
export interface GatewayRefundRequest {
  order: GatewayOrder
  /** The gateway's payment id (our order's gateway transaction id). */
  paymentId: string
  /**
   * Our id for the refund, unique and stable across retries: sent as the gateway's
   * idempotency key (Paytm's refId, Razorpay's X-Refund-Idempotency), so asking twice refunds once.
   */
  refundId: string
  amountPaise: number
  reason: string
}

export interface GatewayRefundQuery {
  order: GatewayOrder
  paymentId: string
  refundId: string
  /** The gateway's id for the refund, when it gave one. */
  gatewayRefundId: string | null
  amountPaise: number
}

/**
 * A gateway's protocol client. `Start` is what the browser is handed, `Return` the verified
 * browser return, `Event` a verified webhook.
 */
export interface PaymentGateway<Start, Return, Event> {
  readonly id: GatewayId
  startPayment(order: GatewayOrder): Promise<Start>
  verifyReturn(fields: Readonly<Record<string, string>>, order: GatewayOrder): Verified<Return>
  verifyWebhook(rawBody: string, headers: Headers): Verified<Event>
  queryStatus(order: GatewayOrder): Promise<GatewayPaymentStatus>
  refund(request: GatewayRefundRequest): Promise<GatewayRefund>
  /** What became of a refund; null when the gateway knows no such refund. */
  refundStatus(query: GatewayRefundQuery): Promise<GatewayRefund | null>
}

/** A constant-time comparison of two lowercase hex strings (false for different lengths). */
export function hexEquals(expected: string, received: string): boolean {
  if (expected.length !== received.length || !/^[0-9a-f]*$/.test(received)) return false
  let diff = 0
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ received.charCodeAt(i)
  return diff === 0
}
