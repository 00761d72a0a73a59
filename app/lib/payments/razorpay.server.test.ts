import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import razorpayUtils from 'razorpay/dist/utils/razorpay-utils.js'
import { GatewayRefusedError, GatewayUnreachableError } from './gateway.server'
import {
  createRazorpayOrder,
  fetchRazorpayOrderPayments,
  paymentSignature,
  razorpayGateway,
  statusOfPayments,
  verifyPaymentSignature,
  verifyRazorpayWebhook,
  webhookSignature,
  type RazorpayConfig,
  type RazorpayPayment,
} from './razorpay.server'

const { validatePaymentVerification, validateWebhookSignature } = razorpayUtils as {
  validatePaymentVerification: (
    params: { order_id: string; payment_id: string },
    signature: string,
    secret: string,
  ) => boolean
  validateWebhookSignature: (body: string, signature: string, secret: string) => boolean
}

interface Vectors {
  docsExampleCheck: { order_id: string; payment_id: string; secret: string; docSignature: string }
  paymentSignature: {
    key_secret: string
    vectors: { order_id: string; payment_id: string; razorpay_signature: string }[]
  }
  webhook: {
    webhook_secret: string
    vectors: { rawBody: string; x_razorpay_signature: string }[]
  }
}

const vectors = (
  JSON.parse(
    fs.readFileSync(
      path.resolve(import.meta.dirname, '../../../tests/fixtures/payment-vectors.json'),
      'utf8',
    ),
  ) as { razorpay: Vectors }
).razorpay

const config: RazorpayConfig = {
  keyId: 'rzp_test_key',
  keySecret: vectors.paymentSignature.key_secret,
  webhookSecret: vectors.webhook.webhook_secret,
  host: 'https://rzp.test',
  checkoutScript: 'https://rzp.test/v1/checkout.js',
}

function headers(values: Record<string, string>): Headers {
  return new Headers(values)
}

describe('Razorpay payment signature', () => {
  it('matches the official vectors and the documentation example', () => {
    for (const v of vectors.paymentSignature.vectors) {
      expect(paymentSignature(v.order_id, v.payment_id, vectors.paymentSignature.key_secret)).toBe(
        v.razorpay_signature,
      )
    }
    const doc = vectors.docsExampleCheck
    expect(paymentSignature(doc.order_id, doc.payment_id, doc.secret)).toBe(doc.docSignature)
  })

  it('ours is accepted by the official package, and theirs by ours', () => {
    const secret = 'another_secret_42'
    for (const [orderId, paymentId] of [
      ['order_Abc123', 'pay_Xyz789'],
      ['order_SimA1b2C3d4E5f', 'pay_SimZ9y8X7w6V5u'],
    ] as const) {
      const ours = paymentSignature(orderId, paymentId, secret)
      expect(
        validatePaymentVerification({ order_id: orderId, payment_id: paymentId }, ours, secret),
      ).toBe(true)
      expect(verifyPaymentSignature(orderId, paymentId, ours, secret)).toBe(true)
    }
    for (const v of vectors.paymentSignature.vectors) {
      expect(
        validatePaymentVerification(
          { order_id: v.order_id, payment_id: v.payment_id },
          v.razorpay_signature,
          vectors.paymentSignature.key_secret,
        ),
      ).toBe(true)
      expect(
        verifyPaymentSignature(
          v.order_id,
          v.payment_id,
          v.razorpay_signature,
          vectors.paymentSignature.key_secret,
        ),
      ).toBe(true)
    }
  })

  it('refuses a wrong signature, another payment, another order and another secret', () => {
    const v = vectors.paymentSignature.vectors[0]!
    const secret = vectors.paymentSignature.key_secret
    const flipped = (v.razorpay_signature[0] === 'a' ? 'b' : 'a') + v.razorpay_signature.slice(1)
    expect(verifyPaymentSignature(v.order_id, v.payment_id, flipped, secret)).toBe(false)
    expect(
      verifyPaymentSignature(v.order_id, 'pay_Other000001', v.razorpay_signature, secret),
    ).toBe(false)
    expect(
      verifyPaymentSignature('order_Other00001', v.payment_id, v.razorpay_signature, secret),
    ).toBe(false)
    expect(verifyPaymentSignature(v.order_id, v.payment_id, v.razorpay_signature, 'x')).toBe(false)
    expect(verifyPaymentSignature(v.order_id, v.payment_id, '', secret)).toBe(false)
    expect(
      verifyPaymentSignature(v.order_id, v.payment_id, v.razorpay_signature.toUpperCase(), secret),
    ).toBe(false)
  })
})

describe('Razorpay webhook', () => {
  const secret = vectors.webhook.webhook_secret

  it('matches the official vectors, both ways', () => {
    for (const v of vectors.webhook.vectors) {
      expect(webhookSignature(v.rawBody, secret)).toBe(v.x_razorpay_signature)
      expect(validateWebhookSignature(v.rawBody, webhookSignature(v.rawBody, secret), secret)).toBe(
        true,
      )
      const verified = verifyRazorpayWebhook(
        v.rawBody,
        headers({ 'x-razorpay-signature': v.x_razorpay_signature, 'x-razorpay-event-id': 'evt_1' }),
        secret,
      )
      expect(verified.ok).toBe(true)
    }
  })

  it('parses payment.captured and order.paid with their order and amount', () => {
    const [captured, orderPaid, failed] = vectors.webhook.vectors
    const h = (v: { x_razorpay_signature: string }) =>
      headers({ 'x-razorpay-signature': v.x_razorpay_signature, 'x-razorpay-event-id': 'evt_A' })
    const a = verifyRazorpayWebhook(captured!.rawBody, h(captured!), secret)
    expect(a.ok && a.value).toMatchObject({
      event: 'payment.captured',
      eventId: 'evt_A',
      orderId: 'order_SimA1b2C3d4E5f',
      payment: { id: 'pay_SimZ9y8X7w6V5u', amount: 149900, status: 'captured' },
    })
    const b = verifyRazorpayWebhook(orderPaid!.rawBody, h(orderPaid!), secret)
    expect(b.ok && b.value).toMatchObject({
      event: 'order.paid',
      orderId: 'order_SimA1b2C3d4E5f',
      order: { receipt: 'ORD_20240501-0001', amount: 149900 },
    })
    const c = verifyRazorpayWebhook(failed!.rawBody, h(failed!), secret)
    expect(c.ok && c.value).toMatchObject({
      event: 'payment.failed',
      payment: { status: 'failed' },
    })
  })

  it('refuses a tampered amount, a re-serialised body, a wrong secret and missing headers', () => {
    const v = vectors.webhook.vectors[0]!
    const ok = { 'x-razorpay-signature': v.x_razorpay_signature, 'x-razorpay-event-id': 'evt_1' }
    const tampered = v.rawBody.replace('"amount":149900', '"amount":100')
    expect(tampered).not.toBe(v.rawBody)
    expect(validateWebhookSignature(tampered, v.x_razorpay_signature, secret)).toBe(false)
    expect(verifyRazorpayWebhook(tampered, headers(ok), secret)).toEqual({
      ok: false,
      reason: 'bad-signature',
    })
    const pretty = JSON.stringify(JSON.parse(v.rawBody), null, 2)
    expect(verifyRazorpayWebhook(pretty, headers(ok), secret).ok).toBe(false)
    expect(verifyRazorpayWebhook(v.rawBody, headers(ok), 'other_secret').ok).toBe(false)
    expect(verifyRazorpayWebhook(v.rawBody, headers(ok), '').ok).toBe(false)
    expect(
      verifyRazorpayWebhook(v.rawBody, headers({ 'x-razorpay-event-id': 'evt_1' }), secret),
    ).toEqual({ ok: false, reason: 'missing-signature' })
    expect(
      verifyRazorpayWebhook(
        v.rawBody,
        headers({ 'x-razorpay-signature': v.x_razorpay_signature }),
        secret,
      ),
    ).toEqual({ ok: false, reason: 'missing-event-id' })
  })

  it('ignores events the shop does not act on, even when signed', () => {
    const body = JSON.stringify({ event: 'payment.authorized', payload: {} })
    const result = verifyRazorpayWebhook(
      body,
      headers({
        'x-razorpay-signature': webhookSignature(body, secret),
        'x-razorpay-event-id': 'e',
      }),
      secret,
    )
    expect(result).toEqual({ ok: false, reason: 'ignored-event' })
  })
})

describe('Razorpay REST client', () => {
  function answering(status: number, body: unknown, seen: Request[] = []): typeof fetch {
    return (async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Request(input, init))
      return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status })
    }) as typeof fetch
  }

  it('creates an order in paise with our order id as receipt, with Basic auth', async () => {
    const seen: Request[] = []
    const order = await createRazorpayOrder(
      config,
      { amountPaise: 149900, receipt: 'ORD_1_1' },
      {
        fetch: answering(
          200,
          {
            id: 'order_Abc',
            amount: 149900,
            currency: 'INR',
            receipt: 'ORD_1_1',
            status: 'created',
          },
          seen,
        ),
      },
    )
    expect(order.id).toBe('order_Abc')
    expect(seen[0]!.url).toBe('https://rzp.test/v1/orders')
    expect(seen[0]!.headers.get('authorization')).toBe(
      `Basic ${Buffer.from(`rzp_test_key:${config.keySecret}`).toString('base64')}`,
    )
    expect(await seen[0]!.json()).toEqual({
      amount: 149900,
      currency: 'INR',
      receipt: 'ORD_1_1',
      notes: {},
    })
  })

  it('refuses an order answered for another amount, and amounts under ₹1', async () => {
    await expect(
      createRazorpayOrder(
        config,
        { amountPaise: 149900, receipt: 'ORD_1' },
        {
          fetch: answering(200, { id: 'order_A', amount: 100, currency: 'INR', status: 'created' }),
        },
      ),
    ).rejects.toBeInstanceOf(GatewayUnreachableError)
    await expect(
      createRazorpayOrder(config, { amountPaise: 99, receipt: 'ORD_1' }),
    ).rejects.toBeInstanceOf(GatewayRefusedError)
  })

  it('tells an outage (5xx, network, not JSON) from a refusal (4xx)', async () => {
    const down = (async () => {
      throw new TypeError('fetch failed')
    }) as typeof fetch
    await expect(
      fetchRazorpayOrderPayments(config, 'order_A', { fetch: down }),
    ).rejects.toBeInstanceOf(GatewayUnreachableError)
    await expect(
      fetchRazorpayOrderPayments(config, 'order_A', { fetch: answering(503, 'busy') }),
    ).rejects.toBeInstanceOf(GatewayUnreachableError)
    await expect(
      fetchRazorpayOrderPayments(config, 'order_A', { fetch: answering(200, '<html>') }),
    ).rejects.toBeInstanceOf(GatewayUnreachableError)
    await expect(
      fetchRazorpayOrderPayments(config, 'order_A', {
        fetch: answering(400, { error: { description: 'The id provided does not exist' } }),
      }),
    ).rejects.toBeInstanceOf(GatewayRefusedError)
  })

  it('reads the payments of an order: captured for our amount wins', () => {
    const p = (id: string, status: string, amount = 149900): RazorpayPayment => ({
      id,
      status,
      amount,
      currency: 'INR',
      order_id: 'order_A',
    })
    expect(statusOfPayments([], 149900).state).toBe('unknown')
    expect(statusOfPayments([p('pay_1', 'failed')], 149900).state).toBe('failed')
    expect(statusOfPayments([p('pay_1', 'failed'), p('pay_2', 'authorized')], 149900).state).toBe(
      'pending',
    )
    const paid = statusOfPayments(
      [p('pay_1', 'failed'), p('pay_2', 'captured', 100), p('pay_3', 'captured')],
      149900,
    )
    expect(paid).toMatchObject({ state: 'paid', txnId: 'pay_3', amountPaise: 149900 })
    // A payment whose money went back never pays, even alone and for our exact amount.
    expect(statusOfPayments([p('pay_4', 'refunded')], 149900).state).toBe('failed')
    expect(
      statusOfPayments([p('pay_4', 'refunded'), p('pay_5', 'authorized')], 149900),
    ).toMatchObject({ state: 'pending', txnId: 'pay_5' })
  })

  it('verifies the browser return against the stored Razorpay order id', () => {
    const gateway = razorpayGateway(config, { shopName: 'Shop', callbackUrl: 'https://s/cb' })
    const order = {
      id: 'ORD_1',
      amountPaise: 149900,
      customerName: 'A',
      customerEmail: 'a@b.c',
      customerPhone: '9876543210',
      userId: null,
      gatewayOrderId: 'order_Stored',
    }
    const good = paymentSignature('order_Stored', 'pay_1', config.keySecret)
    expect(
      gateway.verifyReturn({ razorpay_payment_id: 'pay_1', razorpay_signature: good }, order),
    ).toEqual({ ok: true, value: { paymentId: 'pay_1', razorpayOrderId: 'order_Stored' } })
    // Signed for another Razorpay order (the browser's razorpay_order_id is not trusted).
    const other = paymentSignature('order_Other', 'pay_1', config.keySecret)
    expect(
      gateway.verifyReturn(
        {
          razorpay_payment_id: 'pay_1',
          razorpay_order_id: 'order_Other',
          razorpay_signature: other,
        },
        order,
      ).ok,
    ).toBe(false)
  })
})
