import http from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  generatePaytmChecksum,
  verifyPaytmChecksum,
} from '../../app/lib/payments/paytm-checksum.server'
import { createPaytmSimulator } from './simulator'
import { readForm, startPaytmSimulator, type RunningPaytmSimulator } from './testing'

const CALLBACK_URL = 'http://127.0.0.1:3000/payments/paytm/callback'

let sim: RunningPaytmSimulator
let orderSeq = 0

beforeEach(async () => {
  sim = await startPaytmSimulator({ settlePendingAfterMs: 150 })
})

afterEach(async () => {
  await sim.close()
})

/** A processTransaction request as our integration signs it. */
function signedRequest(
  overrides: Record<string, string> = {},
): Record<string, string> & { ORDER_ID: string; CHECKSUMHASH: string } {
  const fields = {
    MID: sim.mid,
    WEBSITE: 'WEBSTAGING',
    CHANNEL_ID: 'WEB',
    INDUSTRY_TYPE_ID: 'Retail',
    ORDER_ID: `ORD_${Date.now()}_${++orderSeq}`,
    CUST_ID: 'CUST_42',
    TXN_AMOUNT: '1499.00',
    CALLBACK_URL,
    EMAIL: 'buyer@example.com',
    MOBILE_NO: '9876543210',
    ...overrides,
  }
  return { ...fields, CHECKSUMHASH: generatePaytmChecksum(fields, sim.merchantKey) }
}

async function post(path: string, fields: Record<string, string>) {
  const response = await fetch(new URL(path, sim.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })
  return { status: response.status, headers: response.headers, html: await response.text() }
}

async function postJson(path: string, body: unknown, target = sim) {
  const response = await fetch(`${target.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await response.text()
  const isJson = response.headers.get('content-type')?.includes('json')
  // Responses are checked field by field with toMatchObject, so a loose type is enough here.
  return {
    status: response.status,
    text,
    json: isJson ? (JSON.parse(text) as Record<string, any>) : undefined,
  }
}

/** Opens the payment page for a signed request and presses one of its buttons. */
async function pay(
  outcome: 'success' | 'failure' | 'pending',
  request = signedRequest(),
  mode = 'UPI',
) {
  const page = await post('/theia/processTransaction', request)
  expect(page.status).toBe(200)
  const buttons = readForm(page.html)
  const callback = await post(buttons.action, { ...buttons.fields, PAYMENTMODE: mode, outcome })
  expect(callback.status).toBe(200)
  return { request, buttons, callbackHtml: callback.html, callback: readForm(callback.html) }
}

function legacyStatus(
  orderId: string,
  options: { target?: RunningPaytmSimulator; key?: string } = {},
) {
  const target = options.target ?? sim
  const key = options.key ?? target.merchantKey
  const params = { MID: target.mid, ORDERID: orderId }
  return postJson(
    '/order/status',
    { ...params, CHECKSUMHASH: generatePaytmChecksum(params, key) },
    target,
  )
}

function v3Status(orderId: string, key = sim.merchantKey) {
  const body = JSON.stringify({ mid: sim.mid, orderId })
  return postJson(
    '/v3/order/status',
    `{"body":${body},"head":{"signature":"${generatePaytmChecksum(body, key)}"}}`,
  )
}

const CALLBACK_FIELD_ORDER = [
  'MID',
  'ORDERID',
  'TXNID',
  'BANKTXNID',
  'TXNAMOUNT',
  'CURRENCY',
  'STATUS',
  'RESPCODE',
  'RESPMSG',
  'TXNDATE',
  'GATEWAYNAME',
  'BANKNAME',
  'PAYMENTMODE',
  'CHECKSUMHASH',
]

function expectSigned(fields: Record<string, string>) {
  expect(verifyPaytmChecksum(fields, sim.merchantKey, fields.CHECKSUMHASH)).toBe(true)
}

describe('processTransaction', () => {
  it('shows the order, the amount in rupees and the three outcome buttons for a correctly signed request', async () => {
    const request = signedRequest({ TXN_AMOUNT: '149999.50' })
    const page = await post('/theia/processTransaction', request)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page.html).toContain('Paytm simulator — test mode, no real money')
    expect(page.html).toContain(request.ORDER_ID)
    expect(page.html).toContain(sim.mid)
    expect(page.html).toContain('₹1,49,999.50')
    for (const label of ['Simulate success', 'Simulate failure', 'Leave pending']) {
      expect(page.html).toMatch(new RegExp(`<button [^>]*>${label}</button>`))
    }
    for (const [mode, label] of [
      ['UPI', 'UPI'],
      ['CC', 'Card'],
      ['NB', 'Net Banking'],
      ['PPI', 'Wallet'],
    ]) {
      expect(page.html).toContain(`<label><input type="radio" name="PAYMENTMODE" value="${mode}"`)
      expect(page.html).toContain(`> ${label}</label>`)
    }
    expect(page.html).toContain('<legend>Payment method</legend>')
    expect(page.html).toContain('prefers-color-scheme: dark')
    expect(page.html).toContain('name="viewport"')
  })

  it('answers a bad checksum with an unsigned TXN_FAILURE 330 callback and records no transaction', async () => {
    const request = {
      ...signedRequest(),
      CHECKSUMHASH: generatePaytmChecksum({ other: 'thing' }, sim.merchantKey),
    }
    const page = await post('/theia/processTransaction', request)
    const callback = readForm(page.html)
    expect(callback.action).toBe(CALLBACK_URL)
    expect(callback.fields).toMatchObject({
      ORDERID: request.ORDER_ID,
      STATUS: 'TXN_FAILURE',
      RESPCODE: '330',
      RESPMSG: 'Invalid checksum',
    })
    // Anyone can post here: a signed failure would let them fail someone else's order.
    expect(callback.fields.CHECKSUMHASH).toBeUndefined()
    expect((await legacyStatus(request.ORDER_ID)).json).toMatchObject({
      RESPCODE: '334',
      RESPMSG: 'Invalid Order ID',
    })
  })

  it('refuses a request whose amount was tampered with after it was signed', async () => {
    const request = { ...signedRequest(), TXN_AMOUNT: '1.00' }
    const callback = readForm((await post('/theia/processTransaction', request)).html)
    expect(callback.fields).toMatchObject({
      STATUS: 'TXN_FAILURE',
      RESPCODE: '330',
      TXNAMOUNT: '1.00',
    })
    expect(callback.fields.TXNID).toBe('')
  })

  it('refuses an unknown merchant with a 330 callback it cannot sign', async () => {
    const fields = { ...signedRequest(), MID: 'SOMEONEELSE000000001' }
    const callback = readForm((await post('/theia/processTransaction', fields)).html)
    expect(callback.fields).toMatchObject({ RESPCODE: '330', STATUS: 'TXN_FAILURE' })
    expect(callback.fields.CHECKSUMHASH).toBeUndefined()
  })

  it('shows an error page, not a callback, when there is no usable CALLBACK_URL', async () => {
    const page = await post(
      '/theia/processTransaction',
      signedRequest({ CALLBACK_URL: 'javascript:alert(1)' }),
    )
    expect(page.status).toBe(400)
    expect(page.html).toContain('CALLBACK_URL')
    expect(page.html).not.toContain('<script')
  })

  it('refuses correctly signed values Paytm does not accept, naming them', async () => {
    const page = await post(
      '/theia/processTransaction',
      signedRequest({ CUST_ID: 'null', TXN_AMOUNT: '12.345' }),
    )
    expect(page.status).toBe(400)
    expect(page.html).toContain('CUST_ID, TXN_AMOUNT')
  })
})

describe('the outcome buttons', () => {
  it('posts a signed success callback with exactly the documented fields', async () => {
    const { request, callback, callbackHtml } = await pay('success', signedRequest(), 'CC')
    expect(callback.action).toBe(CALLBACK_URL)
    expect(Object.keys(callback.fields)).toEqual(CALLBACK_FIELD_ORDER)
    expect(callback.fields).toMatchObject({
      MID: sim.mid,
      ORDERID: request.ORDER_ID,
      TXNAMOUNT: '1499.00',
      CURRENCY: 'INR',
      STATUS: 'TXN_SUCCESS',
      RESPCODE: '01',
      RESPMSG: 'Txn Success',
      PAYMENTMODE: 'CC',
      GATEWAYNAME: 'HDFC',
      BANKNAME: 'HDFC Bank',
    })
    expect(callback.fields.TXNID).toMatch(/^\d{35}$/)
    expect(callback.fields.BANKTXNID).toMatch(/^\d+$/)
    expect(callback.fields.TXNDATE).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d$/)
    expectSigned(callback.fields)
    // It submits itself, and still works without JavaScript.
    expect(callbackHtml).toMatch(
      /<script nonce="[^"]+">document\.getElementById\('callback'\)\.submit\(\)<\/script>/,
    )
    expect(callbackHtml).toContain('<button type="submit" class="primary">Continue</button>')
  })

  it('posts a signed failure callback with RESPCODE 227 and the declined message', async () => {
    const { callback } = await pay('failure', signedRequest(), 'NB')
    expect(callback.fields).toMatchObject({
      STATUS: 'TXN_FAILURE',
      RESPCODE: '227',
      RESPMSG:
        'Your payment has been declined by your bank. Please try again or use a different method.',
      PAYMENTMODE: 'NB',
      BANKTXNID: '',
    })
    expectSigned(callback.fields)
  })

  it('posts a signed PENDING callback with RESPCODE 402', async () => {
    const { callback } = await pay('pending', signedRequest(), 'PPI')
    expect(callback.fields).toMatchObject({
      STATUS: 'PENDING',
      RESPCODE: '402',
      PAYMENTMODE: 'PPI',
    })
    expect(callback.fields.RESPMSG).toMatch(/^Looks like the payment is not complete/)
    expectSigned(callback.fields)
  })

  it('repeats the first outcome when the outcome form is posted again, never changing it', async () => {
    const { buttons, callback } = await pay('failure')
    const again = readForm(
      (await post(buttons.action, { ...buttons.fields, PAYMENTMODE: 'UPI', outcome: 'success' }))
        .html,
    )
    expect(again.fields.STATUS).toBe('TXN_FAILURE')
    expect(again.fields.TXNID).toBe(callback.fields.TXNID)
  })

  it("answers a payment page's buttons only with the secret that page handed out", async () => {
    const request = signedRequest()
    const page = await post('/theia/processTransaction', request)
    const buttons = readForm(page.html)
    expect(buttons.fields.PAGE_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // Someone else who knows the order id (it is no secret) tries to answer the page.
    for (const secret of [undefined, '', 'x'.repeat(43), `${buttons.fields.PAGE_SECRET}x`]) {
      const { PAGE_SECRET: _dropped, ...rest } = buttons.fields
      const forged = await post(buttons.action, {
        ...rest,
        ...(secret === undefined ? {} : { PAGE_SECRET: secret }),
        PAYMENTMODE: 'UPI',
        outcome: 'failure',
      })
      expect(forged.status).toBe(404)
      expect(forged.html).not.toContain('CHECKSUMHASH')
    }
    expect((await legacyStatus(request.ORDER_ID)).json).toMatchObject({ RESPCODE: '400' })
    // The buyer's own page still works.
    const callback = readForm(
      (await post(buttons.action, { ...buttons.fields, PAYMENTMODE: 'UPI', outcome: 'success' }))
        .html,
    )
    expect(callback.fields.STATUS).toBe('TXN_SUCCESS')
  })

  it('refuses a second payment for an order id that is already final', async () => {
    const { request } = await pay('success')
    const refusal = readForm((await post('/theia/processTransaction', request)).html)
    expect(refusal.fields).toMatchObject({ STATUS: 'TXN_FAILURE', RESPCODE: '325' })
    expectSigned(refusal.fields)
    expect((await legacyStatus(request.ORDER_ID)).json?.STATUS).toBe('TXN_SUCCESS')
  })
})

describe('status APIs', () => {
  it('answers the legacy API with the documented uppercase fields for a paid order', async () => {
    const { request, callback } = await pay('success')
    const { status, json } = await legacyStatus(request.ORDER_ID)
    expect(status).toBe(200)
    expect(json).toEqual({
      TXNID: callback.fields.TXNID,
      BANKTXNID: callback.fields.BANKTXNID,
      ORDERID: request.ORDER_ID,
      TXNAMOUNT: '1499.00',
      STATUS: 'TXN_SUCCESS',
      TXNTYPE: 'SALE',
      GATEWAYNAME: 'PPBL',
      RESPCODE: '01',
      RESPMSG: 'Txn Success',
      BANKNAME: '',
      MID: sim.mid,
      PAYMENTMODE: 'UPI',
      REFUNDAMT: '0.00',
      TXNDATE: callback.fields.TXNDATE,
    })
  })

  it('answers the v3 API with resultInfo and a body signed as sent', async () => {
    const { request, callback } = await pay('failure')
    const { json, text } = await v3Status(request.ORDER_ID)
    expect(json?.body).toMatchObject({
      resultInfo: { resultStatus: 'TXN_FAILURE', resultCode: '227' },
      txnId: callback.fields.TXNID,
      orderId: request.ORDER_ID,
      txnAmount: '1499.00',
      txnType: 'SALE',
      mid: sim.mid,
      paymentMode: 'UPI',
    })
    const bodyText = text.slice(text.indexOf('"body":') + '"body":'.length, -1)
    expect(verifyPaytmChecksum(bodyText, sim.merchantKey, json?.head.signature)).toBe(true)
  })

  it('answers 334 Invalid Order ID for an order it never saw, on both APIs', async () => {
    expect((await legacyStatus('ORD_NEVER_SEEN')).json).toMatchObject({
      RESPCODE: '334',
      RESPMSG: 'Invalid Order ID',
    })
    expect((await v3Status('ORD_NEVER_SEEN')).json?.body.resultInfo).toEqual({
      resultStatus: 'TXN_FAILURE',
      resultCode: '334',
      resultMsg: 'Invalid Order ID',
    })
  })

  it('refuses status requests signed with the wrong key (330)', async () => {
    const { request } = await pay('success')
    const wrongKey = 'Zz9@yY8#xX7&wW6!'
    expect((await legacyStatus(request.ORDER_ID, { key: wrongKey })).json).toMatchObject({
      RESPCODE: '330',
    })
    expect((await v3Status(request.ORDER_ID, wrongKey)).json?.body.resultInfo.resultCode).toBe(
      '330',
    )
  })

  it('checks the v3 signature over the body string exactly as it was sent', async () => {
    const { request } = await pay('success')
    const spaced = `{ "mid": "${sim.mid}", "orderId": "${request.ORDER_ID}" }`
    const compact = JSON.stringify({ mid: sim.mid, orderId: request.ORDER_ID })
    const asSent = await postJson(
      '/v3/order/status',
      `{"head":{"signature":"${generatePaytmChecksum(spaced, sim.merchantKey)}"}, "body" : ${spaced}}`,
    )
    expect(asSent.json?.body.resultInfo.resultStatus).toBe('TXN_SUCCESS')
    const reserialised = await postJson(
      '/v3/order/status',
      `{"body":${spaced},"head":{"signature":"${generatePaytmChecksum(compact, sim.merchantKey)}"}}`,
    )
    expect(reserialised.json?.body.resultInfo.resultCode).toBe('330')
  })

  it('reports a transaction left pending as PENDING, then as paid once settlePendingAfterMs has passed', async () => {
    const { request } = await pay('pending')
    expect((await legacyStatus(request.ORDER_ID)).json).toMatchObject({
      STATUS: 'PENDING',
      RESPCODE: '402',
      BANKTXNID: '',
    })
    await vi.waitFor(
      async () =>
        expect((await v3Status(request.ORDER_ID)).json?.body.resultInfo.resultStatus).toBe(
          'TXN_SUCCESS',
        ),
      { timeout: 3000, interval: 50 },
    )
    const settled = (await legacyStatus(request.ORDER_ID)).json
    expect(settled).toMatchObject({ STATUS: 'TXN_SUCCESS', RESPCODE: '01', TXNAMOUNT: '1499.00' })
    expect(settled?.BANKTXNID).toMatch(/^\d+$/)
  })

  it('reports an opened but unanswered payment page as not confirmed yet (PENDING 400)', async () => {
    const request = signedRequest()
    await post('/theia/processTransaction', request)
    expect((await legacyStatus(request.ORDER_ID)).json).toMatchObject({
      STATUS: 'PENDING',
      RESPCODE: '400',
    })
  })
})

describe('test controls', () => {
  it('forces a transaction state and amount, and reports it through the status APIs', async () => {
    const forced = await postJson('/__control/transactions/ORD_FORCED_1', {
      status: 'TXN_SUCCESS',
      mid: sim.mid,
      amount: '1.00',
    })
    expect(forced.status).toBe(200)
    expect((await legacyStatus('ORD_FORCED_1')).json).toMatchObject({
      STATUS: 'TXN_SUCCESS',
      TXNAMOUNT: '1.00',
    })

    const { request } = await pay('success')
    await postJson(`/__control/transactions/${request.ORDER_ID}`, { status: 'TXN_FAILURE' })
    expect((await v3Status(request.ORDER_ID)).json?.body.resultInfo).toMatchObject({
      resultStatus: 'TXN_FAILURE',
    })

    const inspected = await fetch(`${sim.url}/__control/transactions/${request.ORDER_ID}`)
    expect(
      ((await inspected.json()) as { transactions: { status: string }[] }).transactions[0]?.status,
    ).toBe('TXN_FAILURE')
  })

  it('settles a forced PENDING only when asked to, once settlePendingAfterMs has passed', async () => {
    let clock = 1_700_000_000_000
    const timed = await startPaytmSimulator({ settlePendingAfterMs: 5000, now: () => clock })
    try {
      const force = (orderId: string, settle?: boolean) =>
        postJson(
          `/__control/transactions/${orderId}`,
          { status: 'PENDING', mid: timed.mid, amount: '10.00', settle },
          timed,
        )
      await force('ORD_STUCK', false)
      await force('ORD_SETTLES')
      clock += 4999
      expect((await legacyStatus('ORD_SETTLES', { target: timed })).json?.STATUS).toBe('PENDING')
      clock += 1
      expect((await legacyStatus('ORD_SETTLES', { target: timed })).json?.STATUS).toBe(
        'TXN_SUCCESS',
      )
      expect((await legacyStatus('ORD_STUCK', { target: timed })).json?.STATUS).toBe('PENDING')
    } finally {
      await timed.close()
    }
  })

  it('reports its health', async () => {
    const health = await fetch(`${sim.url}/__control/health`)
    expect(await health.json()).toEqual({ ok: true, simulator: 'paytm', transactions: 0 })
  })

  it('refuses to create a transaction without a merchant and amount', async () => {
    expect(
      (await postJson('/__control/transactions/ORD_X', { status: 'TXN_SUCCESS' })).status,
    ).toBe(404)
    expect((await postJson('/__control/transactions/ORD_X', { status: 'PAID' })).status).toBe(400)
  })

  it('takes the status APIs down with an outage and brings them back', async () => {
    await postJson('/__control/outage', { enabled: true })
    expect((await legacyStatus('ORD_ANY')).status).toBe(503)
    expect((await v3Status('ORD_ANY')).status).toBe(503)
    await postJson('/__control/outage', { enabled: false, legacy: true })
    expect((await v3Status('ORD_ANY')).status).toBe(200)
    expect((await legacyStatus('ORD_ANY')).status).toBe(503)
  })

  it('serves no control endpoints when control is off', async () => {
    const quiet = await startPaytmSimulator({ control: false })
    try {
      const response = await fetch(`${quiet.url}/__control/outage`, {
        method: 'POST',
        body: '{"enabled":true}',
      })
      expect(response.status).toBe(404)
    } finally {
      await quiet.close()
    }
  })
})

describe('mounting', () => {
  it('works under a base path on a plain http server, and leaves other paths alone', async () => {
    const mounted = await startPaytmSimulator({ basePath: '/__simulator/paytm/' })
    try {
      expect(mounted.url).toMatch(/\/__simulator\/paytm$/)
      const fields = { ...signedRequest(), MID: mounted.mid }
      const page = await fetch(`${mounted.url}/theia/processTransaction`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      })
      expect(readForm(await page.text()).action).toBe('/__simulator/paytm/theia/simulator/respond')
      const outside = await fetch(new URL('/theia/processTransaction', mounted.url), {
        method: 'POST',
      })
      expect(outside.status).toBe(404)
    } finally {
      await mounted.close()
    }
  })

  it('works mounted in an express app with app.use(basePath, handler)', async () => {
    const app = express()
    app.use(
      '/__simulator/paytm',
      createPaytmSimulator({
        resolveMerchantKey: (mid) => (mid === sim.mid ? sim.merchantKey : undefined),
      }),
    )
    app.use((_req, res) => {
      res.status(418).send('the app')
    })
    const server = http.createServer(app)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const page = await fetch(`${base}/__simulator/paytm/theia/processTransaction`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(signedRequest()),
      })
      expect(page.status).toBe(200)
      expect(readForm(await page.text()).action).toBe('/__simulator/paytm/theia/simulator/respond')
      // Paths the simulator does not serve fall through to the rest of the app.
      expect((await fetch(`${base}/__simulator/paytm/nothing-here`)).status).toBe(418)
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})
