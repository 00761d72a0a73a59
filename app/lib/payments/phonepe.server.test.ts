import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  phonePeConfigFor,
  phonePeControl,
  simulatePhonePePayment,
  startPhonePeSimulator,
  type RunningPhonePeSimulator,
} from '../../../simulators/phonepe/testing'
import { GatewayRefusedError, GatewayUnreachableError } from './gateway.server'
import {
  createPhonePePayment,
  fetchPhonePeOrderStatus,
  memoryTokenStore,
  phonePeGateway,
  phonePeHosts,
  phonePeTokenProvider,
  refundPhonePeOrder,
  statusOfPhonePeOrder,
  tokenCacheKey,
  tokenIsFresh,
  verifyPhonePeWebhook,
  verifyWebhookAuthorization,
  webhookAuthorization,
  type PhonePeConfig,
  type PhonePeToken,
  type PhonePeTokenStore,
} from './phonepe.server'

/**
 * PhonePe's protocol client: webhook authorisation against the vectors made with the official
 * pg-sdk-node (tests/fixtures/payment-vectors.json), the token cache, and the REST calls against
 * the local simulator over HTTP.
 */
const vectors = JSON.parse(
  fs.readFileSync(
    path.join(import.meta.dirname, '../../../tests/fixtures/payment-vectors.json'),
    'utf8',
  ),
) as {
  phonepe: {
    v2WebhookAuthorization: {
      username: string
      password: string
      authorization: string
      sdkValid: boolean
      sdkValidWith_SHA256_prefix: boolean
    }[]
  }
}

describe('webhook authorisation (vectors from pg-sdk-node)', () => {
  const cases = vectors.phonepe.v2WebhookAuthorization
  it('has vectors to check', () => expect(cases.length).toBeGreaterThanOrEqual(3))

  it.each(cases)('SHA-256 of "$username:password" is the Authorization header', (v) => {
    expect(webhookAuthorization(v.username, v.password)).toBe(v.authorization)
    expect(verifyWebhookAuthorization(v.authorization, v.username, v.password)).toBe(v.sdkValid)
    // The SDK refuses the header with a "SHA256 " prefix; so do we.
    expect(verifyWebhookAuthorization(`SHA256 ${v.authorization}`, v.username, v.password)).toBe(
      v.sdkValidWith_SHA256_prefix,
    )
  })

  it('refuses another password, a missing header, empty credentials and uppercase hex', () => {
    const v = cases[0]!
    expect(verifyWebhookAuthorization(v.authorization, v.username, `${v.password}x`)).toBe(false)
    expect(verifyWebhookAuthorization(null, v.username, v.password)).toBe(false)
    expect(verifyWebhookAuthorization(webhookAuthorization('', ''), '', '')).toBe(false)
    expect(verifyWebhookAuthorization(v.authorization.toUpperCase(), v.username, v.password)).toBe(
      false,
    )
  })

  it('parses an authorised event and refuses the rest', () => {
    const v = cases[1]!
    const credentials = { username: v.username, password: v.password }
    const body = JSON.stringify({
      event: 'checkout.order.completed',
      payload: { merchantOrderId: 'ORD_1_2', orderId: 'OMO123', state: 'COMPLETED', amount: 100 },
    })
    const headers = new Headers({ Authorization: v.authorization })
    expect(verifyPhonePeWebhook(body, headers, credentials)).toEqual({
      ok: true,
      value: {
        event: 'checkout.order.completed',
        merchantOrderId: 'ORD_1_2',
        orderId: 'OMO123',
        state: 'COMPLETED',
      },
    })
    expect(verifyPhonePeWebhook(body, new Headers(), credentials)).toEqual({
      ok: false,
      reason: 'unauthorised',
    })
    expect(verifyPhonePeWebhook('{not json', headers, credentials)).toEqual({
      ok: false,
      reason: 'malformed',
    })
    const odd = body.replace('ORD_1_2', '../../x')
    expect(verifyPhonePeWebhook(odd, headers, credentials)).toEqual({
      ok: false,
      reason: 'malformed',
    })
    const other = body.replace('checkout.order.completed', 'pg.refund.completed')
    expect(verifyPhonePeWebhook(other, headers, credentials)).toEqual({
      ok: false,
      reason: 'ignored-event',
    })
  })
})

describe('status mapping', () => {
  const detail = { transactionId: 'OM1', paymentMode: 'UPI_QR', amount: 1000, timestamp: 1 }
  it('COMPLETED is paid with the completed attempt and the order amount', () => {
    expect(
      statusOfPhonePeOrder({
        state: 'COMPLETED',
        amount: 1000,
        paymentDetails: [
          { ...detail, transactionId: 'OM0', state: 'FAILED' },
          { ...detail, state: 'COMPLETED', rail: { utr: '1234' } },
        ],
      }),
    ).toMatchObject({
      state: 'paid',
      txnId: 'OM1',
      bankTxnId: '1234',
      amountPaise: 1000,
      // PhonePe's own words: its state, and no code it did not send.
      status: 'COMPLETED',
      respCode: 'COMPLETED',
    })
  })
  it('FAILED is failed with its error code; PENDING without an attempt is no payment', () => {
    expect(
      statusOfPhonePeOrder({
        state: 'FAILED',
        amount: 1000,
        paymentDetails: [{ ...detail, state: 'FAILED', errorCode: 'PAYMENT_DECLINED' }],
      }),
    ).toMatchObject({
      state: 'failed',
      respCode: 'PAYMENT_DECLINED',
      respMsg: 'Payment failed (PAYMENT_DECLINED)',
      amountPaise: null,
    })
    // A UPI network code the buyer can act on reads as words, the codes kept beside them.
    const failedWith = (detailedErrorCode: string) =>
      statusOfPhonePeOrder({
        state: 'FAILED',
        amount: 1000,
        paymentDetails: [
          { ...detail, state: 'FAILED', errorCode: 'PAYMENT_DECLINED', detailedErrorCode },
        ],
      }).respMsg
    expect(failedWith('ZM')).toBe('The UPI PIN entered was not correct (PAYMENT_DECLINED: ZM)')
    expect(failedWith('Z9')).toBe(
      'The bank account did not have enough balance (PAYMENT_DECLINED: Z9)',
    )
    expect(failedWith('QQ')).toBe('Payment failed (PAYMENT_DECLINED: QQ)')
    expect(failedWith('constructor')).toBe('Payment failed (PAYMENT_DECLINED: constructor)')
    expect(
      statusOfPhonePeOrder({ state: 'PENDING', amount: 1000, paymentDetails: [] }),
    ).toMatchObject({ state: 'unknown' })
    expect(
      statusOfPhonePeOrder({
        state: 'PENDING',
        amount: 1000,
        paymentDetails: [{ ...detail, state: 'PENDING' }],
      }),
    ).toMatchObject({ state: 'pending', amountPaise: null })
  })
})

describe('hosts', () => {
  it('uses the sandbox and production hosts, or one base URL for a simulator', () => {
    expect(phonePeHosts('sandbox')).toEqual({
      pgHost: 'https://api-preprod.phonepe.com/apis/pg-sandbox',
      oauthHost: 'https://api-preprod.phonepe.com/apis/pg-sandbox',
    })
    expect(phonePeHosts('production')).toEqual({
      pgHost: 'https://api.phonepe.com/apis/pg',
      oauthHost: 'https://api.phonepe.com/apis/identity-manager',
    })
    expect(phonePeHosts('production', 'http://127.0.0.1:4300/')).toEqual({
      pgHost: 'http://127.0.0.1:4300',
      oauthHost: 'http://127.0.0.1:4300',
    })
  })
})

describe('against the simulator', () => {
  let sim: RunningPhonePeSimulator
  let config: PhonePeConfig
  beforeAll(async () => {
    sim = await startPhonePeSimulator({ tokenLifetimeSeconds: 3600 })
    config = phonePeConfigFor(sim)
  })
  afterAll(() => sim.close())
  afterEach(async () => {
    await phonePeControl(sim, 'outage', { enabled: false })
  })
  const issued = async () =>
    ((await phonePeControl(sim, 'counters')).body as { tokensIssued: number }).tokensIssued

  it('caches the token until half its life, shares it through the store, and refreshes it', async () => {
    const store = memoryTokenStore()
    let now = new Date()
    const before = await issued()
    const a = phonePeTokenProvider(config, store, { now: () => now })
    const first = await a.get()
    expect(first.tokenType).toBe('O-Bearer')
    expect(first.expiresAt - first.issuedAt).toBe(3600)
    expect(await a.get()).toEqual(first)
    // Another process reading the same store uses the same token.
    const b = phonePeTokenProvider(config, store, { now: () => now })
    expect((await b.get()).accessToken).toBe(first.accessToken)
    expect(await issued()).toBe(before + 1)
    // Just before half its life: still used; at half its life: a new one.
    now = new Date((first.issuedAt + 1799) * 1000)
    expect((await a.get()).accessToken).toBe(first.accessToken)
    now = new Date((first.issuedAt + 1800) * 1000)
    const refreshed = await a.get()
    expect(refreshed.accessToken).not.toBe(first.accessToken)
    expect(await issued()).toBe(before + 2)
  })

  it('keeps the token it handed out in memory while it is fresh, and asks the store again when it is not', async () => {
    const store = memoryTokenStore()
    let reads = 0
    const counting: PhonePeTokenStore = {
      read: (key) => {
        reads += 1
        return store.read(key)
      },
      write: (key, token) => store.write(key, token),
    }
    let now = new Date()
    const provider = phonePeTokenProvider(config, counting, { now: () => now })
    const first = await provider.get()
    expect(reads).toBe(1)
    expect(await provider.get()).toEqual(first)
    expect(await provider.get()).toEqual(first)
    expect(reads).toBe(1)
    // At half its life another process has already stored a new one: that one is used, not fetched.
    const before = await issued()
    const renewed = {
      ...first,
      accessToken: 'renewed-elsewhere',
      issuedAt: first.issuedAt + 1800,
      expiresAt: first.expiresAt + 1800,
    }
    await store.write(tokenCacheKey(config), renewed)
    now = new Date((first.issuedAt + 1800) * 1000)
    expect(await provider.get()).toEqual(renewed)
    expect(reads).toBe(2)
    expect(await issued()).toBe(before)
    // A token the API refused is never handed out again, even from memory.
    const replaced = await provider.get(renewed.accessToken)
    expect(replaced.accessToken).not.toBe(renewed.accessToken)
    expect(await issued()).toBe(before + 1)
  })

  it('concurrent callers share one token request', async () => {
    const before = await issued()
    const provider = phonePeTokenProvider(config, memoryTokenStore())
    const tokens = await Promise.all(Array.from({ length: 8 }, () => provider.get()))
    expect(new Set(tokens.map((t) => t.accessToken)).size).toBe(1)
    expect(await issued()).toBe(before + 1)
  })

  it('freshness is decided at half-life', () => {
    const token: PhonePeToken = {
      accessToken: 'x',
      tokenType: 'O-Bearer',
      issuedAt: 1000,
      expiresAt: 2000,
    }
    expect(tokenIsFresh(token, 1499)).toBe(true)
    expect(tokenIsFresh(token, 1500)).toBe(false)
  })

  it('wrong credentials are refused, an outage is unreachable', async () => {
    const wrong = phonePeTokenProvider({ ...config, clientSecret: 'nope' }, memoryTokenStore())
    await expect(wrong.get()).rejects.toBeInstanceOf(GatewayRefusedError)
    await phonePeControl(sim, 'outage', { enabled: true })
    const down = phonePeTokenProvider(config, memoryTokenStore())
    await expect(down.get()).rejects.toBeInstanceOf(GatewayUnreachableError)
  })

  it('pays, reads the status and refunds with the real request shapes', async () => {
    const tokens = phonePeTokenProvider(config, memoryTokenStore())
    const id = `ORD_${Date.now()}_1`
    const created = await createPhonePePayment(config, tokens, {
      merchantOrderId: id,
      amountPaise: 149_900,
      redirectUrl: `http://shop.test/return?order=${id}`,
    })
    expect(created.state).toBe('PENDING')
    expect(created.orderId).toMatch(/^OMO/)
    expect(created.redirectUrl.startsWith(`${sim.url}/pay/`)).toBe(true)
    expect(statusOfPhonePeOrder(await fetchPhonePeOrderStatus(config, tokens, id))).toMatchObject({
      state: 'unknown',
    })
    // The same merchantOrderId cannot be paid twice.
    await expect(
      createPhonePePayment(config, tokens, {
        merchantOrderId: id,
        amountPaise: 149_900,
        redirectUrl: 'http://shop.test/return',
      }),
    ).rejects.toBeInstanceOf(GatewayRefusedError)
    expect(await simulatePhonePePayment(created.redirectUrl, 'success')).toBe(
      `http://shop.test/return?order=${id}`,
    )
    const status = statusOfPhonePeOrder(await fetchPhonePeOrderStatus(config, tokens, id))
    expect(status).toMatchObject({ state: 'paid', amountPaise: 149_900 })
    expect(status.txnId).toMatch(/^OM/)

    const gateway = phonePeGateway(config, { returnUrl: () => '', tokens })
    const order = {
      id,
      amountPaise: 149_900,
      customerName: 'Asha Verma',
      customerEmail: 'asha@example.in',
      customerPhone: '9876543210',
      userId: null,
      gatewayOrderId: created.orderId,
    }
    const request = { order, paymentId: status.txnId!, amountPaise: 50_000, reason: '' }
    // Not a PhonePe refund id: refused before anything is sent.
    await expect(gateway.refund({ ...request, refundId: 'no spaces' })).rejects.toBeInstanceOf(
      GatewayRefusedError,
    )
    const refund = await gateway.refund({ ...request, refundId: `${id}-R1` })
    expect(refund).toMatchObject({ amountPaise: 50_000, status: 'pending' })
    // The same refund id again is the same refund, not a second one.
    const again = await refundPhonePeOrder(config, tokens, {
      merchantRefundId: `${id}-R1`,
      originalMerchantOrderId: id,
      amountPaise: 50_000,
    })
    expect(again.refundId).toBe(refund.refundId)
    // Its status through the gateway interface; an id PhonePe never saw is no refund.
    const query = { order, paymentId: status.txnId!, gatewayRefundId: null, amountPaise: 50_000 }
    expect(await gateway.refundStatus({ ...query, refundId: `${id}-R1` })).toMatchObject({
      refundId: refund.refundId,
      amountPaise: 50_000,
    })
    expect(await gateway.refundStatus({ ...query, refundId: `${id}-R9` })).toBeNull()
    await expect(
      refundPhonePeOrder(config, tokens, {
        merchantRefundId: `${id}-R2`,
        originalMerchantOrderId: id,
        amountPaise: 100_000,
      }),
    ).rejects.toBeInstanceOf(GatewayRefusedError)
  })

  it('an unknown order is no payment; a status API outage is unreachable', async () => {
    const tokens = phonePeTokenProvider(config, memoryTokenStore())
    const gateway = phonePeGateway(config, { returnUrl: () => '', tokens })
    const order = {
      id: 'ORD_0_404',
      amountPaise: 100,
      customerName: '',
      customerEmail: '',
      customerPhone: '',
      userId: null,
      gatewayOrderId: null,
    }
    expect(await gateway.queryStatus(order)).toMatchObject({ state: 'unknown' })
    await phonePeControl(sim, 'outage', { enabled: true })
    await expect(gateway.queryStatus(order)).rejects.toBeInstanceOf(GatewayUnreachableError)
  })

  it('a token the API no longer accepts is replaced once, for every process', async () => {
    const store: PhonePeTokenStore = memoryTokenStore()
    const tokens = phonePeTokenProvider(config, store)
    const old = await tokens.get()
    await phonePeControl(sim, 'revoke-tokens')
    const before = await issued()
    // The call is retried with a new token, which replaces the stored one.
    await expect(fetchPhonePeOrderStatus(config, tokens, 'ORD_0_1')).rejects.toMatchObject({
      name: 'PhonePeOrderNotFoundError',
    })
    expect(await issued()).toBe(before + 1)
    expect((await tokens.get()).accessToken).not.toBe(old.accessToken)
    // Credentials PhonePe stops accepting altogether: an outage, not a loop.
    const wrong = { ...config, clientSecret: 'changed' }
    const stale = phonePeTokenProvider(wrong, memoryTokenStore())
    await expect(fetchPhonePeOrderStatus(wrong, stale, 'ORD_0_1')).rejects.toBeInstanceOf(
      GatewayRefusedError,
    )
  })
})
