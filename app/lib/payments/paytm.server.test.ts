import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  readForm,
  simulatePayment,
  startPaytmSimulator,
  type RunningPaytmSimulator,
} from '../../../simulators/paytm/testing'
import { paytmParamString, verifyPaytmChecksum } from './paytm-checksum.server'
import {
  GatewayUnavailableError,
  PAYTM_INITIATE_FAILED_MESSAGE,
  PAYTM_STAGING_DEFAULTS,
  PaytmRequestError,
  buildProcessTransactionForm,
  fetchOrderStatus,
  parsePaytmAmount,
  paytmCustomerId,
  verifyCallback,
  type PaytmConfig,
  type ProcessTransactionInput,
} from './paytm.server'

interface Vector {
  name: string
  params?: Record<string, string>
  signedString?: string
  checksum: string
}
const fixture = JSON.parse(
  fs.readFileSync(
    path.resolve(import.meta.dirname, '../../../tests/fixtures/payment-vectors.json'),
    'utf8',
  ),
) as { paytm: { key: string; vectors: Vector[] } }
const vectorKey = fixture.paytm.key
const requestVector = fixture.paytm.vectors.find(
  (v) => v.name === 'legacy processTransaction request',
)!
const callbackVector = fixture.paytm.vectors.find(
  (v) => v.name === 'legacy callback response (success)',
)!

let sim: RunningPaytmSimulator
let config: PaytmConfig
let orderSeq = 0

beforeAll(async () => {
  sim = await startPaytmSimulator({ settlePendingAfterMs: 60_000 })
  config = {
    ...PAYTM_STAGING_DEFAULTS,
    mid: sim.mid,
    merchantKey: sim.merchantKey,
    host: `${sim.url}/`,
  }
})

afterAll(async () => {
  await sim.close()
})

function anOrder(overrides: Partial<ProcessTransactionInput> = {}): ProcessTransactionInput {
  return {
    orderId: `ORD_${Date.now()}_${++orderSeq}`,
    custId: 'CUST_42',
    amountPaise: 149_900,
    callbackUrl: 'http://127.0.0.1:3000/payments/paytm/callback',
    email: 'buyer@example.com',
    mobile: '9876543210',
    ...overrides,
  }
}

async function forceState(orderId: string, body: Record<string, unknown>) {
  const response = await fetch(`${sim.url}/__control/transactions/${orderId}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ mid: sim.mid, ...body }),
  })
  expect(response.status).toBe(200)
}

async function setOutage(outage: { v3?: boolean; legacy?: boolean }) {
  await fetch(`${sim.url}/__control/outage`, { method: 'POST', body: JSON.stringify(outage) })
}

describe('buildProcessTransactionForm', () => {
  it('builds the documented fields in order, with the amount as exact rupee text, signed', () => {
    const order = anOrder({ amountPaise: 149_905 })
    const form = buildProcessTransactionForm(order, config)
    expect(form.action).toBe(`${sim.url}/theia/processTransaction`)
    expect(Object.keys(form.fields)).toEqual([
      'MID',
      'WEBSITE',
      'CHANNEL_ID',
      'INDUSTRY_TYPE_ID',
      'ORDER_ID',
      'CUST_ID',
      'TXN_AMOUNT',
      'CALLBACK_URL',
      'EMAIL',
      'MOBILE_NO',
      'CHECKSUMHASH',
    ])
    expect(form.fields).toMatchObject({
      MID: sim.mid,
      WEBSITE: 'WEBSTAGING',
      CHANNEL_ID: 'WEB',
      INDUSTRY_TYPE_ID: 'Retail',
      ORDER_ID: order.orderId,
      TXN_AMOUNT: '1499.05',
    })
    expect(form.fields.CHECKSUMHASH).toHaveLength(108)
    expect(verifyPaytmChecksum(form.fields, sim.merchantKey, form.fields.CHECKSUMHASH)).toBe(true)
  })

  it('signs the same text as the official library for the vector request', () => {
    const p = requestVector.params!
    const form = buildProcessTransactionForm(
      {
        orderId: p.ORDER_ID!,
        custId: p.CUST_ID!,
        amountPaise: 149_900,
        callbackUrl: p.CALLBACK_URL!,
        email: p.EMAIL,
        mobile: p.MOBILE_NO,
      },
      {
        ...PAYTM_STAGING_DEFAULTS,
        mid: p.MID!,
        merchantKey: vectorKey,
        host: 'https://securegw-stage.paytm.in',
      },
    )
    const { CHECKSUMHASH, ...signed } = form.fields
    expect(signed).toEqual(p)
    expect(paytmParamString(signed)).toBe(requestVector.signedString)
    expect(verifyPaytmChecksum(signed, vectorKey, CHECKSUMHASH)).toBe(true)
    expect(form.action).toBe('https://securegw-stage.paytm.in/theia/processTransaction')
  })

  it('leaves out e-mail and mobile when the buyer gave none', () => {
    const form = buildProcessTransactionForm(anOrder({ email: '', mobile: null }), config)
    expect(form.fields).not.toHaveProperty('EMAIL')
    expect(form.fields).not.toHaveProperty('MOBILE_NO')
    expect(verifyPaytmChecksum(form.fields, sim.merchantKey, form.fields.CHECKSUMHASH)).toBe(true)
  })

  it.each([
    ['the text "null"', { custId: 'null' }, 'CUST_ID'],
    ['a pipe', { orderId: 'ORD|1' }, 'ORDER_ID'],
    ['the word REFUND', { orderId: 'ORD_REFUND_1' }, 'ORDER_ID'],
    ['an order id over 50 characters', { orderId: 'O'.repeat(51) }, 'ORDER_ID'],
    ['a space in the customer id', { custId: 'CUST 42' }, 'CUST_ID'],
    ['a zero amount', { amountPaise: 0 }, 'TXN_AMOUNT'],
    ['a fractional paise amount', { amountPaise: 1.5 }, 'TXN_AMOUNT'],
    ['an amount longer than 10 characters', { amountPaise: 100_000_000_00 }, 'TXN_AMOUNT'],
    ['a callback that is not http(s)', { callbackUrl: 'javascript:alert(1)' }, 'CALLBACK_URL'],
    ['an e-mail over 50 characters', { email: `${'b'.repeat(45)}@example.com` }, 'EMAIL'],
    ['a mobile number with letters', { mobile: '98765abc10' }, 'MOBILE_NO'],
  ] as const)('refuses %s and signs nothing', (_what, overrides, field) => {
    let error: unknown
    try {
      buildProcessTransactionForm(anOrder(overrides), config)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(PaytmRequestError)
    expect((error as PaytmRequestError).field).toBe(field)
    expect((error as PaytmRequestError).userMessage).toBe(
      'Failed to initiate payment. Please try again.',
    )
  })

  it('has no fallback checksum: an unusable merchant key is an error for the buyer', () => {
    expect(() =>
      buildProcessTransactionForm(anOrder(), { ...config, merchantKey: 'not-sixteen' }),
    ).toThrow(
      expect.objectContaining({
        name: 'PaytmRequestError',
        field: 'CHECKSUMHASH',
        userMessage: PAYTM_INITIATE_FAILED_MESSAGE,
      }),
    )
  })

  it('is accepted by the simulator, which shows the payment page', async () => {
    const form = buildProcessTransactionForm(anOrder(), config)
    const response = await fetch(form.action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form.fields }),
    })
    const html = await response.text()
    expect(response.status).toBe(200)
    expect(html).toContain('Simulate success')
    expect(html).toContain(form.fields.ORDER_ID)
  })
})

describe('paytmCustomerId', () => {
  const KEY = 'kbMerchantKey001'
  it("is the account's id when signed in, else one id per guest address", () => {
    expect(paytmCustomerId('u1AbC', 'asha@example.in', KEY)).toBe('USR_u1AbC')
    const guest = paytmCustomerId(null, 'asha@example.in', KEY)
    expect(guest).toMatch(/^CUST_[0-9a-f]{24}$/)
    expect(paytmCustomerId(null, 'Asha@Example.in', KEY)).toBe(guest)
    expect(paytmCustomerId(null, 'ravi@example.in', KEY)).not.toBe(guest)
  })

  it('cannot be checked against guesses of the address without the merchant key', () => {
    const email = 'asha@example.in'
    const guest = paytmCustomerId(null, email, KEY)
    // Not the address's plain hash, which anyone could compute for a guess.
    const plain = crypto.createHash('sha256').update(email).digest('hex').slice(0, 24)
    expect(guest).not.toBe(`CUST_${plain}`)
    expect(paytmCustomerId(null, email, 'anotherMerchant1')).not.toBe(guest)
  })
})

describe('parsePaytmAmount', () => {
  it('reads Paytm amount text as exact paise', () => {
    expect(parsePaytmAmount('1499.00')).toBe(149_900)
    expect(parsePaytmAmount('0.29')).toBe(29)
    expect(parsePaytmAmount('1499.5')).toBe(149_950)
    expect(parsePaytmAmount('1499')).toBe(149_900)
    expect(parsePaytmAmount('9999999.99')).toBe(999_999_999)
  })

  it('refuses anything that is not plain amount text', () => {
    for (const text of [
      '',
      ' 1499.00',
      '1,499.00',
      '-1.00',
      '1.001',
      '1e3',
      '0x10',
      'NaN',
      '1499.',
    ]) {
      expect(parsePaytmAmount(text)).toBeNull()
    }
  })
})

describe('verifyCallback', () => {
  const received = () => ({ ...callbackVector.params!, CHECKSUMHASH: callbackVector.checksum })

  it('accepts the official callback vector and reads it into a typed callback', () => {
    const result = verifyCallback(received(), vectorKey, { expectedMid: 'SIMMID12345678901234' })
    expect(result).toEqual({
      ok: true,
      callback: {
        mid: 'SIMMID12345678901234',
        orderId: 'ORD_20240501-0001',
        txnId: '20240501111212800110168123456789012',
        bankTxnId: '412233445566',
        amountPaise: 149_900,
        status: 'TXN_SUCCESS',
        respCode: '01',
        respMsg: 'Txn Success',
        txnDate: '2024-05-01 12:34:56.0',
        gatewayName: 'PPBL',
        bankName: null,
        paymentMode: 'UPI',
        fields: received(),
      },
    })
  })

  it('accepts the same callback as URLSearchParams or FormData, as an action receives it', () => {
    const asParams = new URLSearchParams(received())
    const asFormData = new FormData()
    for (const [name, value] of asParams) asFormData.append(name, value)
    expect(verifyCallback(asParams, vectorKey).ok).toBe(true)
    expect(verifyCallback(asFormData, vectorKey).ok).toBe(true)
  })

  it('rejects a callback whose amount was tampered with', () => {
    expect(verifyCallback({ ...received(), TXNAMOUNT: '1.00' }, vectorKey)).toEqual({
      ok: false,
      reason: 'invalid-checksum',
      claimedOrderId: 'ORD_20240501-0001',
    })
  })

  it('rejects a callback that was upgraded from failure to success', () => {
    expect(verifyCallback({ ...received(), STATUS: 'TXN_FAILURE' }, vectorKey)).toMatchObject({
      reason: 'invalid-checksum',
    })
  })

  it('rejects a callback without a checksum, or signed with another key', () => {
    const { CHECKSUMHASH: _dropped, ...unsigned } = received()
    expect(verifyCallback(unsigned, vectorKey)).toMatchObject({
      ok: false,
      reason: 'missing-checksum',
    })
    expect(verifyCallback(received(), 'Zz9@yY8#xX7&wW6!')).toMatchObject({
      ok: false,
      reason: 'invalid-checksum',
    })
  })

  it('rejects a field sent twice, since which copy was signed is unknowable', () => {
    const params = new URLSearchParams(received())
    params.append('STATUS', 'TXN_SUCCESS')
    expect(verifyCallback(params, vectorKey)).toMatchObject({ ok: false, reason: 'malformed' })
  })

  it('rejects a correctly signed callback for another merchant', () => {
    expect(verifyCallback(received(), vectorKey, { expectedMid: 'OTHERMID' })).toMatchObject({
      ok: false,
      reason: 'wrong-merchant',
    })
  })

  it('reads the callbacks the simulator posts for success, failure and pending', async () => {
    for (const [outcome, status, respCode] of [
      ['success', 'TXN_SUCCESS', '01'],
      ['failure', 'TXN_FAILURE', '227'],
      ['pending', 'PENDING', '402'],
    ] as const) {
      const form = buildProcessTransactionForm(anOrder({ amountPaise: 49_950 }), config)
      const callback = await simulatePayment(form, outcome)
      expect(callback.action).toBe(form.fields.CALLBACK_URL)
      const result = verifyCallback(callback.fields, config.merchantKey, {
        expectedMid: config.mid,
      })
      expect(result).toMatchObject({
        ok: true,
        callback: { orderId: form.fields.ORDER_ID, status, respCode, amountPaise: 49_950 },
      })
    }
  })

  it("refuses the simulator's refusal of a tampered amount: it is not signed, so nobody can use it to fail an order", async () => {
    const form = buildProcessTransactionForm(anOrder(), config)
    const response = await fetch(form.action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form.fields, TXN_AMOUNT: '1.00' }),
    })
    const callback = readForm(await response.text())
    expect(callback.fields).toMatchObject({ STATUS: 'TXN_FAILURE', RESPCODE: '330' })
    expect(verifyCallback(callback.fields, config.merchantKey)).toMatchObject({
      ok: false,
      reason: 'missing-checksum',
    })
  })
})

describe('fetchOrderStatus', () => {
  it('confirms a paid order through the v3 API, with the exact amount', async () => {
    const form = buildProcessTransactionForm(anOrder(), config)
    const callback = await simulatePayment(form, 'success', 'CC')
    const status = await fetchOrderStatus(form.fields.ORDER_ID, config, { timeoutMs: 5000 })
    expect(status).toMatchObject({
      status: 'TXN_SUCCESS',
      orderId: form.fields.ORDER_ID,
      txnId: callback.fields.TXNID,
      bankTxnId: callback.fields.BANKTXNID,
      amountPaise: 149_900,
      respCode: '01',
      respMsg: 'Txn Success',
      paymentMode: 'CC',
      source: 'v3',
    })
    expect(status.raw).toHaveProperty('body.resultInfo.resultStatus', 'TXN_SUCCESS')
  })

  it('reports failure and pending as the gateway says, with no bank transaction id for pending', async () => {
    await forceState('ORD_STATUS_FAILED', { status: 'TXN_FAILURE', amount: '10.00' })
    await forceState('ORD_STATUS_PENDING', { status: 'PENDING', amount: '10.00' })
    expect(await fetchOrderStatus('ORD_STATUS_FAILED', config)).toMatchObject({
      status: 'TXN_FAILURE',
      respCode: '227',
    })
    expect(await fetchOrderStatus('ORD_STATUS_PENDING', config)).toMatchObject({
      status: 'PENDING',
      respCode: '402',
      bankTxnId: null,
    })
  })

  it('reports the amount the gateway holds, so a mismatch with our order can be seen', async () => {
    await forceState('ORD_STATUS_SHORT', { status: 'TXN_SUCCESS', amount: '1.00' })
    expect(await fetchOrderStatus('ORD_STATUS_SHORT', config)).toMatchObject({
      status: 'TXN_SUCCESS',
      amountPaise: 100,
    })
  })

  it('answers UNKNOWN, not failure, for an order the gateway never saw (334)', async () => {
    expect(await fetchOrderStatus('ORD_NEVER_SENT', config)).toMatchObject({
      status: 'UNKNOWN',
      respCode: '334',
      amountPaise: null,
      txnId: null,
    })
  })

  it('answers UNKNOWN when the gateway refuses our signature (330)', async () => {
    await forceState('ORD_STATUS_KEY', { status: 'TXN_SUCCESS', amount: '10.00' })
    const wrongKey = { ...config, merchantKey: 'Zz9@yY8#xX7&wW6!' }
    expect(await fetchOrderStatus('ORD_STATUS_KEY', wrongKey)).toMatchObject({
      status: 'UNKNOWN',
      respCode: '330',
    })
  })

  describe('falls back to the legacy API when v3 cannot be used', () => {
    const v3Answers =
      (answer: (url: string, init?: RequestInit) => Promise<Response>): typeof fetch =>
      (input, init) => {
        const url = String(input)
        return url.endsWith('/v3/order/status') ? answer(url, init) : fetch(input, init)
      }

    it.each([
      ['v3 answers 404', () => Promise.resolve(new Response('Not Found', { status: 404 }))],
      [
        'v3 answers HTML',
        () => Promise.resolve(new Response('<html>maintenance</html>', { status: 200 })),
      ],
      ['v3 is unreachable', () => Promise.reject(new TypeError('fetch failed'))],
      ['v3 answers JSON of another shape', () => Promise.resolve(Response.json({ error: 'nope' }))],
    ])('when %s', async (_case, answer) => {
      await forceState('ORD_FALLBACK', { status: 'TXN_SUCCESS', amount: '1499.00' })
      const status = await fetchOrderStatus('ORD_FALLBACK', config, { fetch: v3Answers(answer) })
      expect(status).toMatchObject({
        status: 'TXN_SUCCESS',
        amountPaise: 149_900,
        source: 'legacy',
      })
      expect(status.raw).toHaveProperty('STATUS', 'TXN_SUCCESS')
    })

    it('when v3 does not answer within the timeout', async () => {
      await forceState('ORD_FALLBACK_SLOW', { status: 'PENDING', amount: '10.00' })
      const hangs = v3Answers(
        (_url, init) =>
          new Promise((_resolve, reject) => {
            init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))
          }),
      )
      const status = await fetchOrderStatus('ORD_FALLBACK_SLOW', config, {
        fetch: hangs,
        timeoutMs: 100,
      })
      expect(status).toMatchObject({ status: 'PENDING', source: 'legacy' })
    })

    it('when the v3 API is down (503)', async () => {
      await forceState('ORD_FALLBACK_503', { status: 'TXN_FAILURE', amount: '10.00' })
      await setOutage({ v3: true, legacy: false })
      try {
        expect(await fetchOrderStatus('ORD_FALLBACK_503', config)).toMatchObject({
          status: 'TXN_FAILURE',
          source: 'legacy',
        })
      } finally {
        await setOutage({ v3: false, legacy: false })
      }
    })
  })

  it('throws GatewayUnavailableError when both status APIs are down', async () => {
    await setOutage({ v3: true, legacy: true })
    try {
      const error = await fetchOrderStatus('ORD_ANY', config).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(GatewayUnavailableError)
      expect((error as GatewayUnavailableError).attempts).toEqual([
        { api: 'v3', reason: 'HTTP 503' },
        { api: 'legacy', reason: 'HTTP 503' },
      ])
    } finally {
      await setOutage({ v3: false, legacy: false })
    }
  })

  it('throws GatewayUnavailableError when nothing listens at the host', async () => {
    const gone = await startPaytmSimulator()
    await gone.close()
    const error = await fetchOrderStatus(
      'ORD_ANY',
      { ...config, host: gone.url },
      { timeoutMs: 2000 },
    ).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(GatewayUnavailableError)
    expect((error as GatewayUnavailableError).attempts.map((a) => a.reason)).toEqual([
      expect.stringMatching(/^network error/),
      expect.stringMatching(/^network error/),
    ])
  })
})
