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
 * A local Razorpay that speaks the protocol of PROTOCOLS.md §2 over HTTP: the Orders API
 * (Basic auth), a stand-in for Checkout's checkout.js at the same path shape (/v1/checkout.js),
 * a payment page with Simulate success / failure / pending, the signed return to the
 * merchant's callback_url, signed webhooks (payment.captured, order.paid, payment.failed,
 * refund.processed), and the order payments, payment, refund and refund status APIs. State is
 * in memory.
 */

export const RAZORPAY_SIMULATOR_DEFAULTS = {
  keyId: 'rzp_test_SimulatorKey01',
  keySecret: 'sim_key_secret_9f8e7d6c5b4a',
  webhookSecret: 'sim_webhook_secret_123',
} as const

export const RAZORPAY_BANNER = 'Razorpay simulator — test mode, no real money'

export interface RazorpaySimulatorOptions {
  keyId: string
  keySecret: string
  webhookSecret: string
  /** Where signed webhooks are sent (the shop's /api/payments/razorpay/webhook); none when unset. */
  webhookUrl?: string
  /** Test controls under /__control (settle a pending payment, outage, refunds in progress). */
  control?: boolean
  fetch?: typeof globalThis.fetch
}

export type { NodeHandler }

interface SimOrder {
  id: string
  amount: number
  currency: 'INR'
  receipt: string
  notes: Record<string, string>
  status: 'created' | 'attempted' | 'paid'
  attempts: number
  created_at: number
  /** The page's secret: only the browser that opened Checkout may answer it. */
  pageSecret: string
}

interface SimPayment {
  id: string
  entity: 'payment'
  amount: number
  currency: 'INR'
  status: 'created' | 'authorized' | 'captured' | 'failed' | 'refunded'
  order_id: string
  method: string
  captured: boolean
  amount_refunded: number
  acquirer_data: { bank_transaction_id: string | null }
  error_code: string | null
  error_description: string | null
  created_at: number
}

const random = (length: number) =>
  randomFrom('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', length)
const seconds = () => Math.floor(Date.now() / 1000)
const hmac = (secret: string, text: string) =>
  crypto.createHmac('sha256', secret).update(text).digest('hex')

function error(res: ServerResponse, status: number, description: string) {
  sendJson(res, status, {
    error: {
      code: 'BAD_REQUEST_ERROR',
      description,
      source: 'business',
      reason: 'input_validation_failed',
    },
  })
}

/** The payment page's colours. */
const THEME = {
  light:
    '--bg:#f4f7fb; --card:#fff; --text:#0d2366; --muted:#52606d; --border:#d9e2ec; --accent:#3395ff; --accent-text:#fff; --bad:#b42318; --banner-bg:#fff4ce; --banner-text:#5c4400; --focus:#1d4ed8;',
  dark: '--bg:#0b1622; --card:#13212f; --text:#e6edf3; --muted:#9fb3c8; --border:#2a3b4d; --accent:#3395ff; --accent-text:#00111f; --bad:#f87171; --banner-bg:#3d3000; --banner-text:#ffe58a; --focus:#93c5fd;',
}

const sendPage = simulatorPages(THEME, RAZORPAY_BANNER)

function hidden(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([n, v]) => `<input type="hidden" name="${escapeHtml(n)}" value="${escapeHtml(v)}">`)
    .join('\n')
}

/**
 * The stand-in for checkout.js: `new Razorpay(options).open()` posts the options to the
 * simulator's payment page (the real one opens a modal on Razorpay's own pages).
 */
const CHECKOUT_JS = `(function () {
  var script = document.currentScript;
  var base = script ? script.src.replace(/\\/v1\\/checkout\\.js.*$/, '') : '';
  function Razorpay(options) { this.options = options || {}; }
  Razorpay.prototype.on = function () { return this; };
  Razorpay.prototype.open = function () {
    var o = this.options, form = document.createElement('form');
    form.method = 'post'; form.action = base + '/v1/checkout/pay';
    var fields = { key: o.key, order_id: o.order_id, callback_url: o.callback_url, name: o.name || '',
      description: o.description || '', 'prefill[email]': (o.prefill && o.prefill.email) || '' };
    Object.keys(fields).forEach(function (name) {
      var input = document.createElement('input');
      input.type = 'hidden'; input.name = name; input.value = fields[name] == null ? '' : String(fields[name]);
      form.appendChild(input);
    });
    document.body.appendChild(form); form.submit();
  };
  window.Razorpay = Razorpay;
})();
`

export function createRazorpaySimulator(options: RazorpaySimulatorOptions): NodeHandler {
  const orders = new Map<string, SimOrder>()
  const payments = new Map<string, SimPayment>()
  const refunds = new Map<
    string,
    { id: string; payment_id: string; amount: number; status: string }
  >()
  let outage = false
  /** Refund requests still to answer 409, as Razorpay does while the same key is in progress. */
  let refundsInProgress = 0
  const fetchImpl = options.fetch ?? globalThis.fetch

  function authorised(req: IncomingMessage): boolean {
    const header = req.headers.authorization ?? ''
    const expected = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')}`
    return (
      header.length === expected.length &&
      crypto.timingSafeEqual(Buffer.from(header), Buffer.from(expected))
    )
  }

  /** Sends a signed webhook, retrying a few times on failure (Razorpay retries for 24 h). */
  function webhook(event: string, payload: Record<string, unknown>): void {
    if (!options.webhookUrl) return
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_Simulator00001',
      event,
      contains: Object.keys(payload),
      payload,
      created_at: seconds(),
    })
    const eventId = `evt_${random(14)}`
    sendWebhook(
      fetchImpl,
      options.webhookUrl,
      { 'X-Razorpay-Signature': hmac(options.webhookSecret, body), 'X-Razorpay-Event-Id': eventId },
      body,
    )
  }

  function paymentEvents(payment: SimPayment): void {
    const order = orders.get(payment.order_id)
    if (payment.status === 'captured') {
      webhook('payment.captured', { payment: { entity: payment } })
      if (order)
        webhook('order.paid', {
          payment: { entity: payment },
          order: { entity: publicOrder(order) },
        })
    } else if (payment.status === 'failed') {
      webhook('payment.failed', { payment: { entity: payment } })
    }
  }

  function publicOrder(order: SimOrder) {
    const paid = order.status === 'paid' ? order.amount : 0
    return {
      id: order.id,
      entity: 'order',
      amount: order.amount,
      amount_paid: paid,
      amount_due: order.amount - paid,
      currency: order.currency,
      receipt: order.receipt,
      status: order.status,
      attempts: order.attempts,
      notes: order.notes,
      created_at: order.created_at,
    }
  }

  function settle(payment: SimPayment, status: 'captured' | 'failed'): void {
    payment.status = status
    payment.captured = status === 'captured'
    if (status === 'captured') {
      payment.acquirer_data.bank_transaction_id = String(crypto.randomInt(1e11, 1e12 - 1))
      const order = orders.get(payment.order_id)
      if (order) order.status = 'paid'
    } else {
      payment.error_code = 'BAD_REQUEST_ERROR'
      payment.error_description = 'Payment failed at the simulated bank'
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://simulator')
    const path = url.pathname
    const method = req.method ?? 'GET'

    if (method === 'GET' && path === '/v1/checkout.js') {
      res.setHeader('Cache-Control', 'no-store')
      res.setHeader('Content-Type', 'application/javascript; charset=utf-8')
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin')
      res.end(CHECKOUT_JS)
      return true
    }

    if (method === 'POST' && path === '/v1/checkout/pay') {
      const fields = parseForm(await readBody(req))
      const order = fields ? orders.get(fields.order_id ?? '') : undefined
      if (
        !fields ||
        !order ||
        fields.key !== options.keyId ||
        !/^https?:\/\//.test(fields.callback_url ?? '')
      ) {
        sendPage(
          res,
          400,
          'Payment cannot start',
          '<h1 class="bad">Payment cannot start</h1><p>This order or key is not known to Razorpay.</p>',
        )
        return true
      }
      if (order.status === 'paid') {
        sendPage(res, 409, 'Already paid', '<h1 class="bad">This order is already paid</h1>')
        return true
      }
      sendPage(
        res,
        200,
        'Pay · Razorpay simulator',
        `<h1>${escapeHtml(fields.name || 'Merchant')}</h1>
<dl><dt>Order</dt><dd>${escapeHtml(order.receipt)}</dd><dt>Amount</dt><dd>${escapeHtml(formatRupees(order.amount))}</dd>
<dt>Email</dt><dd>${escapeHtml(fields['prefill[email]'] ?? '')}</dd></dl>
<form method="post" action="respond">
${hidden({ order_id: order.id, callback_url: fields.callback_url!, page_secret: order.pageSecret })}
${outcomeButtons()}</form>`,
      )
      return true
    }

    if (method === 'POST' && path === '/v1/checkout/respond') {
      const fields = parseForm(await readBody(req))
      const order = fields ? orders.get(fields.order_id ?? '') : undefined
      const secretOk =
        order &&
        fields?.page_secret &&
        fields.page_secret.length === order.pageSecret.length &&
        crypto.timingSafeEqual(Buffer.from(fields.page_secret), Buffer.from(order.pageSecret))
      const outcome = fields?.outcome
      if (!fields || !order || !secretOk || !isPaymentOutcome(outcome)) {
        sendText(res, 404, 'Not found')
        return true
      }
      order.attempts += 1
      if (order.status === 'created') order.status = 'attempted'
      const payment: SimPayment = {
        id: `pay_${random(14)}`,
        entity: 'payment',
        amount: order.amount,
        currency: 'INR',
        status: 'authorized',
        order_id: order.id,
        method: 'upi',
        captured: false,
        amount_refunded: 0,
        acquirer_data: { bank_transaction_id: null },
        error_code: null,
        error_description: null,
        created_at: seconds(),
      }
      payments.set(payment.id, payment)
      if (outcome === 'success') settle(payment, 'captured')
      if (outcome === 'failure') settle(payment, 'failed')
      paymentEvents(payment)
      const back: Record<string, string> =
        payment.status === 'failed'
          ? {
              'error[code]': 'BAD_REQUEST_ERROR',
              'error[description]': 'Payment failed',
              'error[source]': 'customer',
              'error[step]': 'payment_authentication',
              'error[reason]': 'payment_failed',
              'error[metadata][order_id]': order.id,
              'error[metadata][payment_id]': payment.id,
            }
          : {
              razorpay_payment_id: payment.id,
              razorpay_order_id: order.id,
              razorpay_signature: hmac(options.keySecret, `${order.id}|${payment.id}`),
            }
      sendPage(
        res,
        200,
        'Returning to the merchant · Razorpay simulator',
        (nonce) => `<h1>Returning to the merchant…</h1>
<form id="callback" method="post" action="${escapeHtml(fields.callback_url ?? '')}">${hidden(back)}
<div class="actions"><button type="submit" class="primary">Continue</button></div></form>
<script nonce="${nonce}">document.getElementById('callback').submit()</script>`,
      )
      return true
    }

    if (path.startsWith('/__control/')) {
      if (!options.control) return false
      const parsed = method === 'POST' ? parseJson(await readBody(req)) : null
      const body = (parsed?.value ?? {}) as Record<string, unknown>
      if (path === '/__control/outage') {
        outage = body.enabled === true
        sendJson(res, 200, { outage })
        return true
      }
      if (path === '/__control/refund-in-progress') {
        refundsInProgress = typeof body.count === 'number' ? body.count : 1
        sendJson(res, 200, { refundsInProgress })
        return true
      }
      if (path === '/__control/settle') {
        const payment = payments.get(String(body.payment_id ?? ''))
        if (!payment || payment.status !== 'authorized') {
          sendJson(res, 404, { error: 'no pending payment' })
          return true
        }
        if (body.status === 'refunded') {
          // Razorpay gives back an authorized payment nobody captured in time: refunded,
          // never captured.
          payment.status = 'refunded'
          payment.amount_refunded = payment.amount
          sendJson(res, 200, payment)
          return true
        }
        settle(payment, body.status === 'failed' ? 'failed' : 'captured')
        paymentEvents(payment)
        sendJson(res, 200, payment)
        return true
      }
      if (path === '/__control/payments') {
        const orderId = url.searchParams.get('order_id')
        sendJson(
          res,
          200,
          [...payments.values()].filter((p) => !orderId || p.order_id === orderId),
        )
        return true
      }
      return false
    }

    if (!path.startsWith('/v1/')) return false
    if (outage) {
      sendJson(res, 503, { error: { code: 'SERVER_ERROR', description: 'Simulated outage' } })
      return true
    }
    if (!authorised(req)) {
      sendJson(res, 401, {
        error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed' },
      })
      return true
    }

    if (method === 'POST' && path === '/v1/orders') {
      const parsed = parseJson(await readBody(req))
      const body = (parsed?.value ?? null) as Record<string, unknown> | null
      if (!body) return (error(res, 400, 'The request body is not JSON'), true)
      const amount = body.amount
      if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 100)
        return (error(res, 400, 'The amount must be atleast INR 1.00'), true)
      if (body.currency !== 'INR') return (error(res, 400, 'Currency is not supported'), true)
      const receipt = typeof body.receipt === 'string' ? body.receipt : ''
      if (receipt.length > 40)
        return (error(res, 400, 'receipt: the length must be no more than 40.'), true)
      const order: SimOrder = {
        id: `order_${random(14)}`,
        amount,
        currency: 'INR',
        receipt,
        notes: (body.notes && typeof body.notes === 'object' ? body.notes : {}) as Record<
          string,
          string
        >,
        status: 'created',
        attempts: 0,
        created_at: seconds(),
        pageSecret: crypto.randomBytes(32).toString('base64url'),
      }
      orders.set(order.id, order)
      sendJson(res, 200, publicOrder(order))
      return true
    }

    if (method === 'GET' && path === '/v1/orders') {
      const count = Math.min(100, Math.max(1, Number(url.searchParams.get('count') ?? 10) || 10))
      const items = [...orders.values()].slice(-count).reverse().map(publicOrder)
      sendJson(res, 200, { entity: 'collection', count: items.length, items })
      return true
    }

    let match = /^\/v1\/orders\/(order_[A-Za-z0-9]+)(\/payments)?$/.exec(path)
    if (method === 'GET' && match) {
      const order = orders.get(match[1]!)
      if (!order) return (error(res, 400, 'The id provided does not exist'), true)
      if (!match[2]) return (sendJson(res, 200, publicOrder(order)), true)
      const items = [...payments.values()].filter((p) => p.order_id === order.id)
      sendJson(res, 200, { entity: 'collection', count: items.length, items })
      return true
    }

    match = /^\/v1\/payments\/(pay_[A-Za-z0-9]+)\/refunds\/(rfnd_[A-Za-z0-9]+)$/.exec(path)
    if (match && method === 'GET') {
      const refund = refunds.get(match[2]!)
      if (!refund || refund.payment_id !== match[1])
        return (error(res, 400, 'The id provided does not exist'), true)
      sendJson(res, 200, { entity: 'refund', currency: 'INR', ...refund })
      return true
    }

    match = /^\/v1\/payments\/(pay_[A-Za-z0-9]+)(\/refund)?$/.exec(path)
    if (match) {
      const payment = payments.get(match[1]!)
      if (!payment) return (error(res, 400, 'The id provided does not exist'), true)
      if (method === 'GET' && !match[2]) return (sendJson(res, 200, payment), true)
      if (method === 'POST' && match[2]) {
        const parsed = parseJson(await readBody(req))
        const body = (parsed?.value ?? {}) as Record<string, unknown>
        // Razorpay's idempotent refund: a request repeated under the same X-Refund-Idempotency
        // key answers with the first refund; the same key with another amount is refused; 409
        // while the first request is still being processed (refundsInProgress, a test control).
        const header = req.headers['x-refund-idempotency']
        const idempotencyKey = typeof header === 'string' ? header : undefined
        if (idempotencyKey !== undefined && !/^[A-Za-z0-9_-]{10,}$/.test(idempotencyKey))
          return (error(res, 400, 'The idempotency key is invalid'), true)
        if (idempotencyKey !== undefined && refundsInProgress > 0) {
          refundsInProgress--
          return (
            error(res, 409, 'A request with the same idempotency key is being processed'),
            true
          )
        }
        const left = payment.amount - payment.amount_refunded
        const amount = typeof body.amount === 'number' ? body.amount : left
        const existing = idempotencyKey ? refunds.get(`key:${idempotencyKey}`) : undefined
        if (existing && existing.amount !== amount)
          return (
            error(
              res,
              400,
              'Different request with the same idempotency key has already been processed.',
            ),
            true
          )
        if (existing)
          return (sendJson(res, 200, { entity: 'refund', currency: 'INR', ...existing }), true)
        if (payment.status !== 'captured' && payment.status !== 'refunded')
          return (error(res, 400, 'The payment has not been captured'), true)
        if (!Number.isInteger(amount) || amount < 100 || amount > left)
          return (
            error(res, 400, 'The refund amount provided is greater than amount captured'),
            true
          )
        const refund = {
          id: `rfnd_${random(14)}`,
          payment_id: payment.id,
          amount,
          status: 'processed',
        }
        refunds.set(refund.id, refund)
        if (typeof idempotencyKey === 'string') refunds.set(`key:${idempotencyKey}`, refund)
        payment.amount_refunded += amount
        if (payment.amount_refunded === payment.amount) payment.status = 'refunded'
        webhook('refund.processed', {
          refund: { entity: { entity: 'refund', currency: 'INR', ...refund } },
          payment: { entity: payment },
        })
        sendJson(res, 200, { entity: 'refund', currency: 'INR', ...refund })
        return true
      }
    }
    return false
  }

  return nodeHandler(handle)
}
