import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPaytmSimulator, type RunningPaytmSimulator } from '../../../simulators/paytm/testing'
import {
  razorpayControl,
  startRazorpaySimulator,
  simulateRazorpayPayment,
  type RunningRazorpaySimulator,
} from '../../../simulators/razorpay/testing'
import { GatewayRefusedError, GatewayUnreachableError } from './gateway.server'
import { verifyPaytmChecksum } from './paytm-checksum.server'
import {
  applyPaytmRefund,
  fetchPaytmRefundStatus,
  PAYTM_STAGING_DEFAULTS,
  paytmGateway,
  type PaytmConfig,
} from './paytm.server'
import { createRazorpayOrder, razorpayGateway, type RazorpayConfig } from './razorpay.server'

/**
 * The refund clients against the protocol: the exact requests (Paytm's signed body, Razorpay's
 * Basic auth and idempotency key) and the answers of the simulators that speak it, including a
 * repeated request under the same key, which must return the first refund and not make another.
 */

function recordingFetch(answer: unknown) {
  const calls: { url: string; init: RequestInit }[] = []
  const fetchImpl = (async (url: string | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} })
    return new Response(JSON.stringify(answer), { status: 200 })
  }) as typeof fetch
  return { calls, fetchImpl }
}

const order = (id: string, amountPaise: number) => ({
  id,
  amountPaise,
  customerName: 'Asha Rao',
  customerEmail: 'asha@example.test',
  customerPhone: '9876543210',
  userId: null,
  gatewayOrderId: null,
})

describe('Paytm refund API', () => {
  let sim: RunningPaytmSimulator
  let config: PaytmConfig

  beforeAll(async () => {
    sim = await startPaytmSimulator()
    config = {
      ...PAYTM_STAGING_DEFAULTS,
      mid: sim.mid,
      merchantKey: sim.merchantKey,
      host: sim.url,
    }
  })
  afterAll(() => sim.close())

  /** A captured payment of `amount` (Paytm's text) for `orderId`; returns its TXNID. */
  async function paid(orderId: string, amount: string): Promise<string> {
    const res = await fetch(`${sim.url}/__control/transactions/${orderId}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ status: 'TXN_SUCCESS', mid: sim.mid, amount }),
    })
    const body = (await res.json()) as { transactions: { txnId: string }[] }
    return body.transactions[0]!.txnId
  }

  it('posts {body, head.signature} to /refund/apply, signed over the exact body text', async () => {
    const { calls, fetchImpl } = recordingFetch({
      head: {},
      body: {
        orderId: 'ORD_1',
        mid: config.mid,
        refId: 'RFD_a',
        refundId: '555',
        refundAmount: '250.50',
        resultInfo: { resultStatus: 'PENDING', resultCode: '601', resultMsg: 'pending' },
      },
    })
    const answer = await applyPaytmRefund(
      { orderId: 'ORD_1', txnId: 'T1', refId: 'RFD_a', amountPaise: 25_050 },
      config,
      { fetch: fetchImpl },
    )
    expect(answer).toMatchObject({ status: 'pending', refundId: '555', amountPaise: 25_050 })
    expect(calls).toHaveLength(1)
    expect(calls[0]!.url).toBe(`${sim.url}/refund/apply`)
    const sent = String(calls[0]!.init.body)
    const bodyText = /^\{"body":(\{.*?\}),"head":/.exec(sent)![1]!
    expect(JSON.parse(bodyText)).toEqual({
      mid: config.mid,
      txnType: 'REFUND',
      orderId: 'ORD_1',
      txnId: 'T1',
      refId: 'RFD_a',
      refundAmount: '250.50',
    })
    const signature = (JSON.parse(sent) as { head: { signature: string } }).head.signature
    expect(verifyPaytmChecksum(bodyText, config.merchantKey, signature)).toBe(true)
  })

  it('refunds part of a payment once per refId, then reports it processed', async () => {
    const txnId = await paid('ORD_REFUND_1', '1499.00')
    const gateway = paytmGateway(config, { callbackUrl: 'http://shop.test/cb' })
    const request = {
      order: order('ORD_REFUND_1', 149_900),
      paymentId: txnId,
      refundId: 'RFD_first',
      amountPaise: 50_050,
      reason: 'Wrong region',
    }
    const first = await gateway.refund(request)
    expect(first).toMatchObject({ status: 'pending', amountPaise: 50_050 })
    expect(first.refundId).toMatch(/^\d+$/)
    // The same refId again (a retried job) answers with the same refund, not a second one.
    const again = await gateway.refund(request)
    expect(again.refundId).toBe(first.refundId)
    const status = await gateway.refundStatus({ ...request, gatewayRefundId: first.refundId })
    expect(status).toMatchObject({
      status: 'processed',
      refundId: first.refundId,
      amountPaise: 50_050,
    })
    // Only 998.50 is left: more is refused with Paytm's message.
    await expect(
      gateway.refund({ ...request, refundId: 'RFD_second', amountPaise: 99_851 }),
    ).rejects.toThrow(/Invalid refund amount \(619\)/)
    await expect(
      gateway.refund({ ...request, refundId: 'RFD_second', amountPaise: 99_850 }),
    ).resolves.toMatchObject({ status: 'pending', amountPaise: 99_850 })
  })

  it('refuses a refund signed with another key, and a payment it does not hold', async () => {
    const txnId = await paid('ORD_REFUND_2', '10.00')
    const wrongKey = { ...config, merchantKey: 'zZ9#kL9@xY2&mN5!' }
    const error = await applyPaytmRefund(
      { orderId: 'ORD_REFUND_2', txnId, refId: 'RFD_x', amountPaise: 100 },
      wrongKey,
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GatewayRefusedError)
    expect((error as Error).message).toMatch(/Invalid checksum \(330\)/)
    await expect(
      applyPaytmRefund(
        { orderId: 'ORD_REFUND_2', txnId: 'OTHER', refId: 'RFD_y', amountPaise: 100 },
        config,
      ),
    ).rejects.toThrow(/Order Details not found/)
  })

  it('reports an unknown refId as unknown, and an unreachable host as unreachable', async () => {
    expect(
      await fetchPaytmRefundStatus({ orderId: 'ORD_NONE', refId: 'RFD_none' }, config),
    ).toMatchObject({ status: 'unknown', resultCode: '631' })
    await expect(
      fetchPaytmRefundStatus(
        { orderId: 'ORD_NONE', refId: 'RFD_none' },
        { ...config, host: 'http://127.0.0.1:9' },
        { timeoutMs: 2000 },
      ),
    ).rejects.toBeInstanceOf(GatewayUnreachableError)
  })

  it('never sends a refId carrying the word REFUND (Paytm reserves it)', async () => {
    await expect(
      applyPaytmRefund(
        { orderId: 'ORD_1', txnId: 'T1', refId: 'my-refund-1', amountPaise: 100 },
        config,
      ),
    ).rejects.toBeInstanceOf(GatewayRefusedError)
  })
})

describe('Razorpay refunds API', () => {
  let sim: RunningRazorpaySimulator
  let config: RazorpayConfig

  beforeAll(async () => {
    sim = await startRazorpaySimulator()
    config = {
      keyId: sim.keyId,
      keySecret: sim.keySecret,
      webhookSecret: sim.webhookSecret,
      host: sim.url,
      checkoutScript: `${sim.url}/v1/checkout.js`,
    }
  })
  afterAll(() => sim.close())

  async function capturedPayment(amountPaise: number): Promise<string> {
    const created = await createRazorpayOrder(config, {
      amountPaise,
      receipt: `ORD_${amountPaise}`,
    })
    const back = await simulateRazorpayPayment(sim, created.id, 'http://shop.test/cb', 'success')
    return back.fields.razorpay_payment_id!
  }

  it('sends the amount, the reason and our refund id as X-Refund-Idempotency', async () => {
    const { calls, fetchImpl } = recordingFetch({
      id: 'rfnd_abc',
      payment_id: 'pay_abc',
      amount: 5000,
      status: 'processed',
    })
    const gateway = razorpayGateway(
      config,
      { shopName: 'Shop', callbackUrl: 'x' },
      { fetch: fetchImpl },
    )
    const refund = await gateway.refund({
      order: order('ORD_1', 10_000),
      paymentId: 'pay_abc',
      refundId: 'RFD_key_0001',
      amountPaise: 5000,
      reason: 'Duplicate purchase',
    })
    expect(refund).toMatchObject({ refundId: 'rfnd_abc', status: 'processed', amountPaise: 5000 })
    expect(calls[0]!.url).toBe(`${sim.url}/v1/payments/pay_abc/refund`)
    const headers = calls[0]!.init.headers as Record<string, string>
    expect(headers['X-Refund-Idempotency']).toBe('RFD_key_0001')
    expect(Object.keys(headers).filter((h) => /idempotency/i.test(h))).toEqual([
      'X-Refund-Idempotency',
    ])
    expect(headers.Authorization).toBe(
      `Basic ${Buffer.from(`${config.keyId}:${config.keySecret}`).toString('base64')}`,
    )
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({
      amount: 5000,
      notes: { reason: 'Duplicate purchase' },
    })
  })

  it('refunds once per key, reports the refund, and refuses more than was captured', async () => {
    const paymentId = await capturedPayment(20_000)
    const gateway = razorpayGateway(config, { shopName: 'Shop', callbackUrl: 'x' })
    const request = {
      order: order('ORD_2', 20_000),
      paymentId,
      refundId: 'RFD_one_0001',
      amountPaise: 12_550,
      reason: '',
    }
    const first = await gateway.refund(request)
    expect(first).toMatchObject({ status: 'processed', amountPaise: 12_550 })
    expect(first.refundId).toMatch(/^rfnd_/)
    expect((await gateway.refund(request)).refundId).toBe(first.refundId)
    expect(
      await gateway.refundStatus({ ...request, gatewayRefundId: first.refundId }),
    ).toMatchObject({ status: 'processed', refundId: first.refundId })
    // 74.50 left: 74.51 is refused by Razorpay, 74.50 goes through.
    await expect(
      gateway.refund({ ...request, refundId: 'RFD_two_0001', amountPaise: 7451 }),
    ).rejects.toBeInstanceOf(GatewayRefusedError)
    await expect(
      gateway.refund({ ...request, refundId: 'RFD_two_0001', amountPaise: 7450 }),
    ).resolves.toMatchObject({ status: 'processed' })
  })

  it('refuses another amount under a key already used, refunding nothing more', async () => {
    const paymentId = await capturedPayment(20_000)
    const gateway = razorpayGateway(config, { shopName: 'Shop', callbackUrl: 'x' })
    const request = {
      order: order('ORD_4', 20_000),
      paymentId,
      refundId: 'RFD_four_001',
      amountPaise: 5000,
      reason: '',
    }
    await expect(gateway.refund(request)).resolves.toMatchObject({ status: 'processed' })
    const error = await gateway.refund({ ...request, amountPaise: 6000 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GatewayRefusedError)
    expect((error as GatewayRefusedError).status).toBe(400)
    // 150 left: the refused request took nothing.
    await expect(
      gateway.refund({ ...request, refundId: 'RFD_four_002', amountPaise: 15_000 }),
    ).resolves.toMatchObject({ status: 'processed', amountPaise: 15_000 })
  })

  it('takes 409 (the same refund still in progress) as "ask again", and the retry refunds once', async () => {
    const paymentId = await capturedPayment(20_000)
    const gateway = razorpayGateway(config, { shopName: 'Shop', callbackUrl: 'x' })
    const request = {
      order: order('ORD_5', 20_000),
      paymentId,
      refundId: 'RFD_five_001',
      amountPaise: 20_000,
      reason: '',
    }
    await razorpayControl(sim, 'refund-in-progress', { count: 1 })
    await expect(gateway.refund(request)).rejects.toBeInstanceOf(GatewayUnreachableError)
    const refund = await gateway.refund(request)
    expect(refund).toMatchObject({ status: 'processed', amountPaise: 20_000 })
    expect((await gateway.refund(request)).refundId).toBe(refund.refundId)
  })

  it('refuses with wrong keys as Razorpay does (401)', async () => {
    const paymentId = await capturedPayment(10_000)
    const gateway = razorpayGateway(
      { ...config, keySecret: 'wrong' },
      { shopName: 'S', callbackUrl: 'x' },
    )
    const error = await gateway
      .refund({
        order: order('ORD_3', 10_000),
        paymentId,
        refundId: 'RFD_3_00001',
        amountPaise: 100,
        reason: '',
      })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GatewayRefusedError)
    expect((error as GatewayRefusedError).status).toBe(401)
  })
})
