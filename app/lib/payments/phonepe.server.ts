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
  type PaymentGateway,
  type Verified,
} from './gateway.server'

/**
 * PhonePe Standard Checkout v2 (PROTOCOLS.md §3, docs/payments.md "PhonePe"): an OAuth
 * client-credentials token, `checkout/v2/pay` (the buyer is sent to the returned redirectUrl),
 * the order status API, webhooks authorised by SHA-256 of "username:password", and refunds.
 * The browser's return is not signed, so only the status API decides. The official SDK is not
 * used: this talks to the REST API with fetch and configurable hosts (a simulator in tests).
 */

export const PHONEPE_HOSTS = {
  sandbox: {
    pg: 'https://api-preprod.phonepe.com/apis/pg-sandbox',
    oauth: 'https://api-preprod.phonepe.com/apis/pg-sandbox',
  },
  production: {
    pg: 'https://api.phonepe.com/apis/pg',
    oauth: 'https://api.phonepe.com/apis/identity-manager',
  },
} as const

export const PHONEPE_ENVIRONMENTS = ['sandbox', 'production'] as const
export type PhonePeEnvironment = (typeof PHONEPE_ENVIRONMENTS)[number]

/** How long PhonePe keeps an order payable (seconds): the 10 minutes after which we expire it. */
export const PHONEPE_EXPIRE_AFTER_SECONDS = 600

export interface PhonePeConfig {
  clientId: string
  clientSecret: string
  clientVersion: string
  /** Base of the payment APIs (checkout/v2/..., payments/v2/...). */
  pgHost: string
  /** Base of the token API (v1/oauth/token). */
  oauthHost: string
  /** The credentials PhonePe's webhooks carry (as SHA-256 of "username:password"). */
  webhookUsername: string
  webhookPassword: string
}

export interface PhonePeRequestOptions {
  fetch?: typeof globalThis.fetch
  timeoutMs?: number
}

/** The hosts of an environment, or one base URL for both (PHONEPE_HOST, a simulator). */
export function phonePeHosts(
  environment: PhonePeEnvironment,
  host?: string | null,
): { pgHost: string; oauthHost: string } {
  if (host) {
    const base = host.replace(/\/+$/, '')
    return { pgHost: base, oauthHost: base }
  }
  const hosts = PHONEPE_HOSTS[environment]
  return { pgHost: hosts.pg, oauthHost: hosts.oauth }
}

// ---------------------------------------------------------------------------------------------
// Webhook authorisation

/** Authorization = lowercase hex SHA-256 of "username:password" (pg-sdk-node's validateCallback). */
export function webhookAuthorization(username: string, password: string): string {
  return crypto.createHash('sha256').update(`${username}:${password}`, 'utf8').digest('hex')
}

/** Whether a webhook's Authorization header carries the configured credentials (constant time). */
export function verifyWebhookAuthorization(
  header: string | null,
  username: string,
  password: string,
): boolean {
  if (!header || !username || !password) return false
  return hexEquals(webhookAuthorization(username, password), header.trim())
}

// ---------------------------------------------------------------------------------------------
// OAuth token

const tokenSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  issued_at: z.number().int().nullish(),
  expires_at: z.number().int(),
})

/** A token as cached: epoch seconds as PhonePe gives them. */
export interface PhonePeToken {
  accessToken: string
  tokenType: string
  issuedAt: number
  expiresAt: number
}

/** Where tokens are shared (the database, so every process uses one; see docs/payments.md). */
export interface PhonePeTokenStore {
  read(key: string): Promise<PhonePeToken | null>
  write(key: string, token: PhonePeToken): Promise<void>
}

/** A token is used until half its life has passed (the SDK's rule), then a new one is fetched. */
export function tokenIsFresh(token: PhonePeToken, nowSeconds: number): boolean {
  const issued = Math.min(token.issuedAt, token.expiresAt)
  const refreshAt = issued + Math.floor((token.expiresAt - issued) / 2)
  return nowSeconds < refreshAt && nowSeconds < token.expiresAt
}

/** The cache key of a set of credentials: a hash, so the secret itself is never a key. */
export function tokenCacheKey(config: PhonePeConfig): string {
  return crypto
    .createHash('sha256')
    .update(
      [config.oauthHost, config.clientId, config.clientVersion, config.clientSecret].join('\u0000'),
    )
    .digest('hex')
}

const unreachable = (what: string, error: unknown) => unreachableError(`PhonePe ${what}`, error)

/** POST {oauth}/v1/oauth/token with the client credentials (form encoded). */
export async function fetchPhonePeToken(
  config: PhonePeConfig,
  options: PhonePeRequestOptions = {},
): Promise<PhonePeToken> {
  const fetchImpl = options.fetch ?? gatewayFetch
  let response: Response
  try {
    response = await fetchImpl(`${config.oauthHost}/v1/oauth/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: new URLSearchParams({
        client_id: config.clientId,
        client_version: config.clientVersion,
        client_secret: config.clientSecret,
        grant_type: 'client_credentials',
      }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    })
  } catch (error) {
    throw unreachable('token', error)
  }
  const text = await answerText(response, 'PhonePe token')
  if (!response.ok)
    throw new GatewayRefusedError(
      `PhonePe token: HTTP ${response.status} (check the client id, secret and version)`,
      response.status,
    )
  const parsed = tokenSchema.safeParse(answerJson(text, 'PhonePe token'))
  if (!parsed.success) throw new GatewayUnreachableError('PhonePe token: unexpected answer')
  const nowSeconds = Math.floor(Date.now() / 1000)
  return {
    accessToken: parsed.data.access_token,
    tokenType: parsed.data.token_type || 'O-Bearer',
    issuedAt: parsed.data.issued_at ?? nowSeconds,
    expiresAt: parsed.data.expires_at,
  }
}

/**
 * Hands out a token: the one in the store while it is fresh, otherwise a new one (stored for
 * every process). Concurrent callers of one provider share a single fetch. The token last handed
 * out is kept in memory while it is fresh, so a payment does not read the store for it each time;
 * once it is due for refresh the store is asked again first, where another process may already
 * have put a new one.
 */
export function phonePeTokenProvider(
  config: PhonePeConfig,
  store: PhonePeTokenStore,
  options: PhonePeRequestOptions & { now?: () => Date } = {},
) {
  const key = tokenCacheKey(config)
  let inflight: Promise<PhonePeToken> | null = null
  let held: PhonePeToken | null = null
  const nowSeconds = () => Math.floor((options.now?.() ?? new Date()).getTime() / 1000)
  const usable = (token: PhonePeToken | null, rejected?: string): token is PhonePeToken =>
    token !== null && token.accessToken !== rejected && tokenIsFresh(token, nowSeconds())
  return {
    /** A fresh token; `rejected` names one the API refused, which is never handed out again. */
    async get(rejected?: string): Promise<PhonePeToken> {
      if (usable(held, rejected)) return held
      const cached = await store.read(key)
      if (usable(cached, rejected)) return (held = cached)
      inflight ??= (async () => {
        try {
          const token = await fetchPhonePeToken(config, options)
          await store.write(key, token)
          held = token
          return token
        } finally {
          inflight = null
        }
      })()
      return inflight
    },
  }
}

export type PhonePeTokenProvider = ReturnType<typeof phonePeTokenProvider>

/** An in-memory store (the standalone tools and tests; the shop shares tokens in the database). */
export function memoryTokenStore(): PhonePeTokenStore {
  const tokens = new Map<string, PhonePeToken>()
  return {
    read: (key) => Promise.resolve(tokens.get(key) ?? null),
    write: (key, token) => {
      tokens.set(key, token)
      return Promise.resolve()
    },
  }
}

// ---------------------------------------------------------------------------------------------
// Entities

/** merchantOrderId and merchantRefundId: at most 63 of [A-Za-z0-9_-]. */
export const MERCHANT_ID_PATTERN = /^[A-Za-z0-9_-]{1,63}$/

const paymentDetailSchema = z.looseObject({
  transactionId: z.string().nullish(),
  paymentMode: z.string().nullish(),
  amount: z.number().int().nullish(),
  state: z.string(),
  timestamp: z.number().nullish(),
  errorCode: z.string().nullish(),
  detailedErrorCode: z.string().nullish(),
  rail: z.looseObject({ utr: z.string().nullish() }).nullish(),
})
export type PhonePePaymentDetail = z.infer<typeof paymentDetailSchema>

const orderStatusSchema = z.looseObject({
  orderId: z.string().nullish(),
  state: z.string(),
  amount: z.number().int(),
  expireAt: z.number().nullish(),
  errorCode: z.string().nullish(),
  detailedErrorCode: z.string().nullish(),
  paymentDetails: z.array(paymentDetailSchema).nullish(),
})
export type PhonePeOrderStatus = z.infer<typeof orderStatusSchema>

const payResponseSchema = z.looseObject({
  orderId: z.string().min(1),
  state: z.string(),
  expireAt: z.number().nullish(),
  redirectUrl: z.string().url(),
})
export type PhonePePayResponse = z.infer<typeof payResponseSchema>

const refundResponseSchema = z.looseObject({
  refundId: z.string().min(1),
  amount: z.number().int(),
  state: z.string(),
})
export type PhonePeRefundResponse = z.infer<typeof refundResponseSchema>

/**
 * A failed UPI payment's detailedErrorCode is the UPI network's (NPCI's) response code. The
 * common ones a buyer can act on, in words; any other code reads "Payment failed".
 */
const UPI_FAILURES = new Map<string, string>(
  Object.entries({
    ZM: 'The UPI PIN entered was not correct',
    Z9: 'The bank account did not have enough balance',
    ZA: 'The payment was declined in the UPI app',
    Z8: "The amount is above the bank account's limit for one payment",
    Z7: "The bank account's limit on the number of payments was reached",
    ZU: "The bank's daily limit was reached",
    YE: 'The bank account is blocked',
    ZX: 'The bank account is inactive',
    U69: 'The payment request expired before it was approved',
  }),
)

const NO_PAYMENT: GatewayPaymentStatus = {
  state: 'unknown',
  txnId: null,
  bankTxnId: null,
  amountPaise: null,
  paymentMode: null,
  status: 'NO_PAYMENT',
  respCode: 'NO_PAYMENT',
  respMsg: 'No payment has been made for this order',
}

/**
 * What PhonePe's order status means for our order. COMPLETED is paid (the completed attempt's
 * transaction id; the order's amount, which the workflow compares with ours); FAILED is failed;
 * PENDING with no attempt at all is 'unknown' (the buyer never paid), otherwise pending.
 */
export function statusOfPhonePeOrder(status: PhonePeOrderStatus): GatewayPaymentStatus {
  const details = status.paymentDetails ?? []
  const completed = details.find((d) => d.state === 'COMPLETED')
  const last = completed ?? details[details.length - 1]
  const base = {
    txnId: last?.transactionId ?? null,
    bankTxnId: last?.rail?.utr ?? null,
    paymentMode: last?.paymentMode ?? null,
    status: status.state.slice(0, 60),
  }
  if (status.state === 'COMPLETED') {
    return {
      ...base,
      state: 'paid',
      txnId: completed?.transactionId ?? null,
      amountPaise: status.amount,
      // PhonePe's answer for a completed order has its state and no code of its own.
      respCode: status.state,
      respMsg: 'Payment completed',
    }
  }
  if (status.state === 'FAILED') {
    const code = last?.errorCode ?? status.errorCode ?? 'FAILED'
    const detailed = last?.detailedErrorCode ?? status.detailedErrorCode ?? ''
    return {
      ...base,
      state: 'failed',
      amountPaise: null,
      respCode: code,
      // The buyer reads this on the result page; the codes stay for the shop and support.
      respMsg: `${UPI_FAILURES.get(detailed) ?? 'Payment failed'} (${detailed ? `${code}: ${detailed}` : code})`,
    }
  }
  if (details.length === 0) return { ...NO_PAYMENT, status: base.status }
  return {
    ...base,
    state: 'pending',
    amountPaise: null,
    respCode: status.state,
    respMsg: 'Payment in progress',
  }
}

// ---------------------------------------------------------------------------------------------
// Webhooks

export const PHONEPE_WEBHOOK_EVENTS = ['checkout.order.completed', 'checkout.order.failed'] as const
export type PhonePeWebhookEventName = (typeof PHONEPE_WEBHOOK_EVENTS)[number]

const webhookSchema = z.looseObject({
  event: z.string(),
  payload: z.looseObject({
    merchantOrderId: z.string(),
    orderId: z.string().nullish(),
    state: z.string().nullish(),
    amount: z.number().int().nullish(),
  }),
})

export interface PhonePeWebhookEvent {
  event: PhonePeWebhookEventName
  /** Our order id, as sent in checkout/v2/pay. */
  merchantOrderId: string
  /** PhonePe's order id. */
  orderId: string | null
  /** What the event claims; proves nothing (the header authorises the sender, not the body). */
  state: string | null
}

export type PhonePeWebhookRejection = 'unauthorised' | 'malformed' | 'ignored-event'

/**
 * Checks the Authorization header against the configured username and password, then parses
 * the event. The body is not signed: the workflow confirms every event with the status API.
 */
export function verifyPhonePeWebhook(
  rawBody: string,
  headers: Headers,
  credentials: { username: string; password: string },
): Verified<PhonePeWebhookEvent, PhonePeWebhookRejection> {
  if (
    !verifyWebhookAuthorization(
      headers.get('authorization'),
      credentials.username,
      credentials.password,
    )
  )
    return { ok: false, reason: 'unauthorised' }
  const body = webhookBody(rawBody, webhookSchema)
  if (!body || !MERCHANT_ID_PATTERN.test(body.payload.merchantOrderId))
    return { ok: false, reason: 'malformed' }
  const event = body.event
  if (!(PHONEPE_WEBHOOK_EVENTS as readonly string[]).includes(event))
    return { ok: false, reason: 'ignored-event' }
  return {
    ok: true,
    value: {
      event: event as PhonePeWebhookEventName,
      merchantOrderId: body.payload.merchantOrderId,
      orderId: body.payload.orderId ?? null,
      state: body.payload.state ?? null,
    },
  }
}

// ---------------------------------------------------------------------------------------------
// REST API

export class PhonePeOrderNotFoundError extends GatewayRefusedError {
  override name = 'PhonePeOrderNotFoundError'
}

async function call<T>(
  config: PhonePeConfig,
  tokens: PhonePeTokenProvider,
  method: 'GET' | 'POST',
  path: string,
  schema: z.ZodType<T>,
  body: unknown,
  options: PhonePeRequestOptions,
): Promise<T> {
  const fetchImpl = options.fetch ?? gatewayFetch
  let token = await tokens.get()
  let response = await send(token)
  if (response.status === 401) {
    // Revoked or expired early: one more try with a new token (stored for every process).
    await response.body?.cancel().catch(() => {})
    token = await tokens.get(token.accessToken)
    response = await send(token)
  }
  return read(response, method, path, schema)

  async function send(token: PhonePeToken): Promise<Response> {
    try {
      return await fetchImpl(`${config.pgHost}${path}`, {
        method,
        headers: {
          Authorization: `${token.tokenType || 'O-Bearer'} ${token.accessToken}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      })
    } catch (error) {
      throw unreachable(`${method} ${path}`, error)
    }
  }
}

async function read<T>(
  response: Response,
  method: string,
  path: string,
  schema: z.ZodType<T>,
): Promise<T> {
  const what = `PhonePe ${method} ${path}`
  const json = answerJson(await answerText(response, what), what)
  if (!response.ok) {
    const answer = (json ?? {}) as { code?: unknown; message?: unknown }
    const code = typeof answer.code === 'string' ? answer.code : ''
    const message = `PhonePe ${method} ${path}: HTTP ${response.status} ${code} ${String(answer.message ?? '').slice(0, 200)}`
    // A token PhonePe no longer accepts is an outage of ours, not a refusal of the request.
    if (response.status === 401) throw new GatewayUnreachableError(message)
    if (code === 'ORDER_NOT_FOUND' || response.status === 404)
      throw new PhonePeOrderNotFoundError(message, response.status)
    throw new GatewayRefusedError(message, response.status)
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success)
    throw new GatewayUnreachableError(`PhonePe ${method} ${path}: unexpected answer`)
  return parsed.data
}

/** POST {pg}/checkout/v2/pay: amount in paise from our order, merchantOrderId = our order id. */
export async function createPhonePePayment(
  config: PhonePeConfig,
  tokens: PhonePeTokenProvider,
  input: { merchantOrderId: string; amountPaise: number; redirectUrl: string; udf1?: string },
  options: PhonePeRequestOptions = {},
): Promise<PhonePePayResponse> {
  if (!MERCHANT_ID_PATTERN.test(input.merchantOrderId))
    throw new GatewayRefusedError('PhonePe order ids are at most 63 of A-Z a-z 0-9 _ -', 400)
  if (!Number.isInteger(input.amountPaise) || input.amountPaise < 100)
    throw new GatewayRefusedError('PhonePe needs an amount of at least ₹1.00', 400)
  return call(
    config,
    tokens,
    'POST',
    '/checkout/v2/pay',
    payResponseSchema,
    {
      merchantOrderId: input.merchantOrderId,
      amount: input.amountPaise,
      expireAfter: PHONEPE_EXPIRE_AFTER_SECONDS,
      metaInfo: { udf1: input.udf1 ?? input.merchantOrderId },
      paymentFlow: {
        type: 'PG_CHECKOUT',
        message: `Order ${input.merchantOrderId}`,
        merchantUrls: { redirectUrl: input.redirectUrl },
      },
    },
    options,
  )
}

/** GET {pg}/checkout/v2/order/{merchantOrderId}/status. */
export async function fetchPhonePeOrderStatus(
  config: PhonePeConfig,
  tokens: PhonePeTokenProvider,
  merchantOrderId: string,
  options: PhonePeRequestOptions = {},
): Promise<PhonePeOrderStatus> {
  if (!MERCHANT_ID_PATTERN.test(merchantOrderId))
    throw new GatewayRefusedError('Not a PhonePe merchant order id', 400)
  return call(
    config,
    tokens,
    'GET',
    `/checkout/v2/order/${merchantOrderId}/status?details=false`,
    orderStatusSchema,
    undefined,
    options,
  )
}

/** POST {pg}/payments/v2/refund: refunds part or all of a completed order. */
export async function refundPhonePeOrder(
  config: PhonePeConfig,
  tokens: PhonePeTokenProvider,
  input: { merchantRefundId: string; originalMerchantOrderId: string; amountPaise: number },
  options: PhonePeRequestOptions = {},
): Promise<PhonePeRefundResponse> {
  if (!MERCHANT_ID_PATTERN.test(input.merchantRefundId))
    throw new GatewayRefusedError('PhonePe refund ids are at most 63 of A-Z a-z 0-9 _ -', 400)
  if (!MERCHANT_ID_PATTERN.test(input.originalMerchantOrderId))
    throw new GatewayRefusedError('Not a PhonePe merchant order id', 400)
  if (!Number.isInteger(input.amountPaise) || input.amountPaise < 100)
    throw new GatewayRefusedError('PhonePe refunds are at least ₹1.00', 400)
  return call(
    config,
    tokens,
    'POST',
    '/payments/v2/refund',
    refundResponseSchema,
    {
      merchantRefundId: input.merchantRefundId,
      originalMerchantOrderId: input.originalMerchantOrderId,
      amount: input.amountPaise,
    },
    options,
  )
}

/** GET {pg}/payments/v2/refund/{merchantRefundId}/status: what became of a refund. */
export async function fetchPhonePeRefundStatus(
  config: PhonePeConfig,
  tokens: PhonePeTokenProvider,
  merchantRefundId: string,
  options: PhonePeRequestOptions = {},
): Promise<PhonePeRefundResponse> {
  if (!MERCHANT_ID_PATTERN.test(merchantRefundId))
    throw new GatewayRefusedError('PhonePe refund ids are at most 63 of A-Z a-z 0-9 _ -', 400)
  return call(
    config,
    tokens,
    'GET',
    `/payments/v2/refund/${merchantRefundId}/status`,
    refundResponseSchema,
    undefined,
    options,
  )
}

/** PhonePe's refund states in the shared terms (COMPLETED, FAILED, else still pending). */
function refundOf(refund: PhonePeRefundResponse): GatewayRefund {
  return {
    refundId: refund.refundId,
    amountPaise: refund.amount,
    status:
      refund.state === 'COMPLETED' ? 'processed' : refund.state === 'FAILED' ? 'failed' : 'pending',
    message: `PhonePe refund ${refund.refundId}: ${refund.state}`,
  }
}

// ---------------------------------------------------------------------------------------------
// The gateway

export interface PhonePeStart {
  /** PhonePe's order id (OMO...). */
  phonePeOrderId: string
  /** Where the buyer's browser goes to pay. */
  redirectUrl: string
}

export interface PhonePeReturn {
  merchantOrderId: string
}

/**
 * PhonePe on the gateway interface. `returnUrl(orderId)` is where PhonePe sends the buyer back
 * (our order id in it; the visit itself proves nothing). The refund needs our order id, which
 * PhonePe refunds by: pass it as `options.orderId`.
 */
export function phonePeGateway(
  config: PhonePeConfig,
  settings: { returnUrl: (orderId: string) => string; tokens: PhonePeTokenProvider },
  options: PhonePeRequestOptions = {},
): PaymentGateway<PhonePeStart, PhonePeReturn, PhonePeWebhookEvent> {
  const { tokens } = settings
  return {
    id: 'phonepe',
    async startPayment(order: GatewayOrder) {
      const created = await createPhonePePayment(
        config,
        tokens,
        {
          merchantOrderId: order.id,
          amountPaise: order.amountPaise,
          redirectUrl: settings.returnUrl(order.id),
        },
        options,
      )
      return { phonePeOrderId: created.orderId, redirectUrl: created.redirectUrl }
    },
    verifyReturn(fields, order) {
      // The redirect back carries nothing signed; it only names the order to ask about.
      if ((fields.order ?? order.id) !== order.id) return { ok: false, reason: 'other-order' }
      return { ok: true, value: { merchantOrderId: order.id } }
    },
    verifyWebhook(rawBody, headers) {
      return verifyPhonePeWebhook(rawBody, headers, {
        username: config.webhookUsername,
        password: config.webhookPassword,
      })
    },
    async queryStatus(order) {
      try {
        return statusOfPhonePeOrder(
          await fetchPhonePeOrderStatus(config, tokens, order.id, options),
        )
      } catch (error) {
        // PhonePe does not know the order: the pay request never reached it.
        if (error instanceof PhonePeOrderNotFoundError) return NO_PAYMENT
        throw error
      }
    },
    async refund(request) {
      // PhonePe refunds by our order id; our refund id is its merchantRefundId, so asking again
      // with the same id is the same refund.
      return refundOf(
        await refundPhonePeOrder(
          config,
          tokens,
          {
            merchantRefundId: request.refundId,
            originalMerchantOrderId: request.order.id,
            amountPaise: request.amountPaise,
          },
          options,
        ),
      )
    },
    async refundStatus(query) {
      try {
        return refundOf(await fetchPhonePeRefundStatus(config, tokens, query.refundId, options))
      } catch (error) {
        if (error instanceof PhonePeOrderNotFoundError) return null
        throw error
      }
    },
  }
}
