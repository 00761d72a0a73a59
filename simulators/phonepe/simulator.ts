import crypto from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { formatRupees } from '../../app/lib/money'
import { escapeHtml } from '../../app/lib/html'
import { parseForm, parseJson, readBody, sendJson, sendText } from '../paytm/http'
import {
  isPaymentOutcome,
  nodeHandler,
  outcomeButtons,
  randomFrom,
  sendWebhook,
  simulatorPages,
  type NodeHandler,
} from '../kit'

/**
 * A local PhonePe that speaks Standard Checkout v2 (PROTOCOLS.md §3) over HTTP: the OAuth
 * client-credentials token (/v1/oauth/token), checkout/v2/pay (answering with the redirectUrl of
 * its own payment page), the order status API, refunds and their status, a payment page with
 * Simulate success / failure / pending that sends the buyer back to the merchant's
 * redirectUrl, and webhooks authorised with SHA-256 of the configured "username:password".
 * The payment APIs need a token it issued (`Authorization: O-Bearer <token>`). State is in
 * memory.
 */

export const PHONEPE_SIMULATOR_DEFAULTS = {
  clientId: 'SIMTEST_PhonePeClient01',
  clientSecret: 'sim_phonepe_client_secret_7c1d',
  clientVersion: '1',
  webhookUsername: 'sim_user_01',
  webhookPassword: 'simPass2024',
} as const

export const PHONEPE_BANNER = 'PhonePe simulator — test mode, no real money'

export interface PhonePeSimulatorOptions {
  clientId: string
  clientSecret: string
  clientVersion: string
  webhookUsername: string
  webhookPassword: string
  /** The simulator's own address as browsers reach it (its payment page's redirectUrl). */
  publicUrl: string
  /** Where webhooks are sent (the shop's /api/payments/phonepe/webhook); none when unset. */
  webhookUrl?: string
  /** Seconds a token lives (PhonePe's tokens live for hours; tests shorten it). */
  tokenLifetimeSeconds?: number
  /** Test controls under /__control (settle a pending payment, outage, tampering, counters). */
  control?: boolean
  fetch?: typeof globalThis.fetch
}

export type { NodeHandler }

type State = 'PENDING' | 'COMPLETED' | 'FAILED'

interface SimPaymentDetail {
  paymentMode: string
  transactionId: string
  timestamp: number
  amount: number
  state: State
  errorCode?: string
  detailedErrorCode?: string
  rail: { type: 'UPI'; utr: string | null }
}

interface SimOrder {
  orderId: string
  merchantOrderId: string
  amount: number
  state: State
  expireAt: number
  metaInfo: Record<string, unknown>
  redirectUrl: string
  /** The payment page's address part: only the browser the merchant sent there knows it. */
  pageToken: string
  paymentDetails: SimPaymentDetail[]
  /** An amount to report instead of the real one (a test control: a tampered answer). */
  reportedAmount?: number
  refunded: number
}

interface SimRefund {
  merchantRefundId: string
  refundId: string
  originalMerchantOrderId: string
  amount: number
  state: 'PENDING' | 'COMPLETED' | 'FAILED'
  timestamp: number
}

const MERCHANT_ID = /^[A-Za-z0-9_-]{1,63}$/

const random = (length: number) => randomFrom('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', length)

function same(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && crypto.timingSafeEqual(x, y)
}

function error(res: ServerResponse, status: number, code: string, message: string) {
  sendJson(res, status, { success: false, code, message, data: {} })
}

/** The payment page's colours. */
const THEME = {
  light:
    '--bg:#f5f3fb; --card:#fff; --text:#1f1147; --muted:#574f70; --border:#ddd6f3; --accent:#5f259f; --accent-text:#fff; --bad:#b42318; --banner-bg:#fff4ce; --banner-text:#5c4400; --focus:#1d4ed8;',
  dark: '--bg:#120b1f; --card:#1d1430; --text:#efe9fb; --muted:#b7abd3; --border:#3a2d57; --accent:#b48cf0; --accent-text:#160a2a; --bad:#f87171; --banner-bg:#3d3000; --banner-text:#ffe58a; --focus:#93c5fd;',
}

const sendPage = simulatorPages(THEME, PHONEPE_BANNER)

export function createPhonePeSimulator(options: PhonePeSimulatorOptions): NodeHandler {
  const orders = new Map<string, SimOrder>()
  const byPageToken = new Map<string, SimOrder>()
  const tokens = new Map<string, number>()
  const refunds = new Map<string, SimRefund>()
  const counters = { tokensIssued: 0, statusCalls: 0 }
  let outage = false
  const fetchImpl = options.fetch ?? globalThis.fetch
  const lifetime = options.tokenLifetimeSeconds ?? 3600
  const publicUrl = options.publicUrl.replace(/\/+$/, '')
  const authorization = crypto
    .createHash('sha256')
    .update(`${options.webhookUsername}:${options.webhookPassword}`)
    .digest('hex')

  function bearer(req: IncomingMessage): boolean {
    const match = /^O-Bearer (\S+)$/.exec(req.headers.authorization ?? '')
    const expiresAt = match ? tokens.get(match[1]!) : undefined
    return expiresAt !== undefined && expiresAt > Date.now() / 1000
  }

  function expireIfDue(order: SimOrder) {
    if (
      order.state === 'PENDING' &&
      order.paymentDetails.length === 0 &&
      Date.now() > order.expireAt
    )
      order.state = 'FAILED'
  }

  function statusOf(order: SimOrder) {
    expireIfDue(order)
    return {
      orderId: order.orderId,
      state: order.state,
      amount: order.reportedAmount ?? order.amount,
      expireAt: order.expireAt,
      metaInfo: order.metaInfo,
      ...(order.state === 'FAILED' && order.paymentDetails.length === 0
        ? { errorCode: 'TXN_AUTO_FAILED', detailedErrorCode: 'ORDER_EXPIRED' }
        : {}),
      paymentDetails: order.paymentDetails,
    }
  }

  /** Sends a webhook for a final order, retrying a few times on failure. */
  function webhook(order: SimOrder): void {
    if (!options.webhookUrl || order.state === 'PENDING') return
    const event = order.state === 'COMPLETED' ? 'checkout.order.completed' : 'checkout.order.failed'
    const body = JSON.stringify({
      event,
      type: event.toUpperCase().replace(/\./g, '_'),
      payload: {
        merchantId: 'SIMPGMERCHANT',
        merchantOrderId: order.merchantOrderId,
        ...statusOf(order),
      },
    })
    sendWebhook(fetchImpl, options.webhookUrl, { Authorization: authorization }, body)
  }

  function attempt(order: SimOrder, state: State): SimPaymentDetail {
    const detail: SimPaymentDetail = {
      paymentMode: 'UPI_COLLECT',
      transactionId: `OM${random(20)}`,
      timestamp: Date.now(),
      amount: order.amount,
      state,
      rail: {
        type: 'UPI',
        utr: state === 'COMPLETED' ? String(crypto.randomInt(1e11, 1e12 - 1)) : null,
      },
      ...(state === 'FAILED' ? { errorCode: 'PAYMENT_DECLINED', detailedErrorCode: 'ZM' } : {}),
    }
    order.paymentDetails.push(detail)
    order.state = state
    return detail
  }

  function settle(order: SimOrder, state: 'COMPLETED' | 'FAILED'): boolean {
    const pending = order.paymentDetails.find((d) => d.state === 'PENDING')
    if (order.state !== 'PENDING' || !pending) return false
    pending.state = state
    if (state === 'COMPLETED') pending.rail.utr = String(crypto.randomInt(1e11, 1e12 - 1))
    else Object.assign(pending, { errorCode: 'PAYMENT_DECLINED', detailedErrorCode: 'ZM' })
    order.state = state
    return true
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://simulator')
    const path = url.pathname
    const method = req.method ?? 'GET'

    // The payment page and its buttons (the buyer's browser).
    let match = /^\/pay\/([A-Za-z0-9_-]{43})(\/respond)?$/.exec(path)
    if (match) {
      const order = byPageToken.get(match[1]!)
      if (!order) {
        sendPage(
          res,
          404,
          'Payment not found',
          '<h1 class="bad">This payment link is not valid</h1>',
        )
        return true
      }
      expireIfDue(order)
      if (method === 'GET' && !match[2]) {
        if (order.state !== 'PENDING' || order.paymentDetails.length > 0) {
          sendPage(
            res,
            409,
            'Already attempted',
            '<h1 class="bad">This order can no longer be paid</h1>',
          )
          return true
        }
        sendPage(
          res,
          200,
          'Pay · PhonePe simulator',
          `<h1>Pay with PhonePe</h1>
<dl><dt>Order</dt><dd>${escapeHtml(order.merchantOrderId)}</dd><dt>Amount</dt><dd>${escapeHtml(formatRupees(order.amount))}</dd></dl>
<form method="post" action="${escapeHtml(`${publicUrl}/pay/${order.pageToken}/respond`)}">
${outcomeButtons()}</form>`,
        )
        return true
      }
      if (method === 'POST' && match[2]) {
        const fields = parseForm(await readBody(req))
        const outcome = fields?.outcome
        if (!isPaymentOutcome(outcome)) {
          sendText(res, 400, 'Choose an outcome')
          return true
        }
        if (order.state === 'PENDING' && order.paymentDetails.length === 0) {
          attempt(
            order,
            outcome === 'success' ? 'COMPLETED' : outcome === 'failure' ? 'FAILED' : 'PENDING',
          )
          webhook(order)
        }
        // PhonePe sends the buyer back with a plain GET to the merchant's redirectUrl.
        res.statusCode = 303
        res.setHeader('Location', order.redirectUrl)
        res.setHeader('Cache-Control', 'no-store')
        res.end()
        return true
      }
      return false
    }

    if (path.startsWith('/__control/')) {
      if (!options.control) return false
      const parsed = method === 'POST' ? parseJson(await readBody(req)) : null
      const body = (parsed?.value ?? {}) as Record<string, unknown>
      const order = orders.get(String(body.merchantOrderId ?? ''))
      if (path === '/__control/outage') {
        outage = body.enabled === true
        sendJson(res, 200, { outage })
        return true
      }
      if (path === '/__control/counters') {
        sendJson(res, 200, counters)
        return true
      }
      if (path === '/__control/revoke-tokens') {
        tokens.clear()
        sendJson(res, 200, { revoked: true })
        return true
      }
      if (!order) {
        sendJson(res, 404, { error: 'no such order' })
        return true
      }
      if (path === '/__control/settle') {
        const state = body.state === 'FAILED' ? 'FAILED' : 'COMPLETED'
        if (!settle(order, state)) {
          sendJson(res, 409, { error: 'no pending payment' })
          return true
        }
        if (body.webhook !== false) webhook(order)
        sendJson(res, 200, statusOf(order))
        return true
      }
      if (path === '/__control/pay') {
        // A payment made without the browser (for data tests): completes the order at once.
        if (order.state !== 'PENDING') {
          sendJson(res, 409, { error: 'order is final' })
          return true
        }
        attempt(
          order,
          body.state === 'FAILED' ? 'FAILED' : body.state === 'PENDING' ? 'PENDING' : 'COMPLETED',
        )
        if (body.webhook !== false) webhook(order)
        sendJson(res, 200, statusOf(order))
        return true
      }
      if (path === '/__control/tamper') {
        order.reportedAmount = typeof body.amount === 'number' ? body.amount : undefined
        sendJson(res, 200, statusOf(order))
        return true
      }
      return false
    }

    if (method === 'POST' && path === '/v1/oauth/token') {
      if (outage) return (error(res, 503, 'INTERNAL_SERVER_ERROR', 'Simulated outage'), true)
      const fields = parseForm(await readBody(req))
      if (
        !fields ||
        fields.grant_type !== 'client_credentials' ||
        !same(fields.client_id ?? '', options.clientId) ||
        !same(fields.client_secret ?? '', options.clientSecret) ||
        fields.client_version !== options.clientVersion
      ) {
        sendJson(res, 401, {
          code: '401',
          message: 'Client Not Found',
          errorCode: 'INVALID_CLIENT',
        })
        return true
      }
      const token = crypto.randomBytes(32).toString('base64url')
      const issuedAt = Math.floor(Date.now() / 1000)
      const expiresAt = issuedAt + lifetime
      tokens.set(token, expiresAt)
      counters.tokensIssued += 1
      sendJson(res, 200, {
        access_token: token,
        encrypted_access_token: token,
        expires_in: null,
        issued_at: issuedAt,
        expires_at: expiresAt,
        session_expires_at: expiresAt,
        token_type: 'O-Bearer',
      })
      return true
    }

    if (!path.startsWith('/checkout/v2/') && !path.startsWith('/payments/v2/')) return false
    if (outage) return (error(res, 503, 'INTERNAL_SERVER_ERROR', 'Simulated outage'), true)
    if (!bearer(req)) return (error(res, 401, 'UNAUTHORIZED', 'Unauthorized'), true)

    if (method === 'POST' && path === '/checkout/v2/pay') {
      const parsed = parseJson(await readBody(req))
      const body = (parsed?.value ?? null) as Record<string, any> | null
      if (!body) return (error(res, 400, 'BAD_REQUEST', 'The request body is not JSON'), true)
      const merchantOrderId = body.merchantOrderId
      if (typeof merchantOrderId !== 'string' || !MERCHANT_ID.test(merchantOrderId))
        return (error(res, 400, 'BAD_REQUEST', 'merchantOrderId is invalid'), true)
      if (orders.has(merchantOrderId))
        return (error(res, 400, 'BAD_REQUEST', 'Duplicate merchantOrderId'), true)
      const amount = body.amount
      if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 100)
        return (error(res, 400, 'BAD_REQUEST', 'amount must be at least 100 paise'), true)
      const flow = body.paymentFlow
      const redirectUrl = flow?.merchantUrls?.redirectUrl
      if (
        flow?.type !== 'PG_CHECKOUT' ||
        typeof redirectUrl !== 'string' ||
        !/^https?:\/\//.test(redirectUrl)
      )
        return (
          error(res, 400, 'BAD_REQUEST', 'paymentFlow.merchantUrls.redirectUrl is required'),
          true
        )
      const expireAfter =
        typeof body.expireAfter === 'number' && body.expireAfter >= 300 && body.expireAfter <= 3600
          ? body.expireAfter
          : 1200
      const order: SimOrder = {
        orderId: `OMO${random(20)}`,
        merchantOrderId,
        amount,
        state: 'PENDING',
        expireAt: Date.now() + expireAfter * 1000,
        metaInfo: body.metaInfo && typeof body.metaInfo === 'object' ? body.metaInfo : {},
        redirectUrl,
        pageToken: crypto.randomBytes(32).toString('base64url'),
        paymentDetails: [],
        refunded: 0,
      }
      orders.set(merchantOrderId, order)
      byPageToken.set(order.pageToken, order)
      sendJson(res, 200, {
        orderId: order.orderId,
        state: order.state,
        expireAt: order.expireAt,
        redirectUrl: `${publicUrl}/pay/${order.pageToken}`,
      })
      return true
    }

    match = /^\/checkout\/v2\/order\/([^/]+)\/status$/.exec(path)
    if (method === 'GET' && match) {
      counters.statusCalls += 1
      const order = orders.get(decodeURIComponent(match[1]!))
      if (!order) return (error(res, 404, 'ORDER_NOT_FOUND', 'No order found'), true)
      sendJson(res, 200, statusOf(order))
      return true
    }

    if (method === 'POST' && path === '/payments/v2/refund') {
      const parsed = parseJson(await readBody(req))
      const body = (parsed?.value ?? null) as Record<string, unknown> | null
      const merchantRefundId = body?.merchantRefundId
      if (!body || typeof merchantRefundId !== 'string' || !MERCHANT_ID.test(merchantRefundId))
        return (error(res, 400, 'BAD_REQUEST', 'merchantRefundId is invalid'), true)
      const existing = refunds.get(merchantRefundId)
      if (existing)
        return (
          sendJson(res, 200, {
            refundId: existing.refundId,
            amount: existing.amount,
            state: existing.state,
          }),
          true
        )
      const order = orders.get(String(body.originalMerchantOrderId ?? ''))
      if (!order) return (error(res, 404, 'ORDER_NOT_FOUND', 'No order found'), true)
      if (order.state !== 'COMPLETED')
        return (error(res, 400, 'BAD_REQUEST', 'The order is not completed'), true)
      const amount = body.amount
      if (
        typeof amount !== 'number' ||
        !Number.isInteger(amount) ||
        amount < 100 ||
        amount > order.amount - order.refunded
      )
        return (
          error(res, 400, 'BAD_REQUEST', 'The refund amount is more than the amount left'),
          true
        )
      const refund: SimRefund = {
        merchantRefundId,
        refundId: `OMR${random(20)}`,
        originalMerchantOrderId: order.merchantOrderId,
        amount,
        state: 'PENDING',
        timestamp: Date.now(),
      }
      refunds.set(merchantRefundId, refund)
      order.refunded += amount
      sendJson(res, 200, { refundId: refund.refundId, amount: refund.amount, state: refund.state })
      // The bank confirms shortly after.
      setTimeout(() => (refund.state = 'COMPLETED'), 200).unref()
      return true
    }

    match = /^\/payments\/v2\/refund\/([^/]+)\/status$/.exec(path)
    if (method === 'GET' && match) {
      const refund = refunds.get(decodeURIComponent(match[1]!))
      if (!refund) return (error(res, 404, 'REFUND_NOT_FOUND', 'No refund found'), true)
      sendJson(res, 200, {
        merchantId: 'SIMPGMERCHANT',
        merchantRefundId: refund.merchantRefundId,
        originalMerchantOrderId: refund.originalMerchantOrderId,
        amount: refund.amount,
        state: refund.state,
        timestamp: refund.timestamp,
        refundId: refund.refundId,
      })
      return true
    }
    return false
  }

  return nodeHandler(handle)
}
