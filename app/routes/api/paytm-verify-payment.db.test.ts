import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOrder, listOrderEvents, type Order } from '~/data/order.server'
import { UNKNOWN_ORDER_EXPIRY_MS } from '~/services/payment/paytm-flow.server'
import { startPaytmSimulator, type RunningPaytmSimulator } from '../../../simulators/paytm/testing'
import { fileTestDb } from '../../../tests/helpers/db'
import { existingOrder } from '../../../tests/helpers/payments'
import { BUYER, makeProduct } from '../../../tests/factories'
import { action } from './paytm-verify-payment'

/**
 * POST /api/paytm/verify-payment against the real local Paytm simulator (over HTTP) and the
 * real database, on SQLite and on PostgreSQL. The route reads both through services()
 * (app/lib/app-context.server.ts), which answers whatever the process opened: here, this
 * file's test database and a Paytm configured by the environment to be the simulator.
 */
const t = fileTestDb()
let sim: RunningPaytmSimulator
let productId: string
const holder = globalThis as typeof globalThis & { __keybazaar?: unknown }
beforeAll(async () => {
  sim = await startPaytmSimulator()
  productId = (await makeProduct(t.db, { price: 149_900 })).id
  holder.__keybazaar = {
    db: t.db,
    engine: t.engine,
    env: {
      PUBLIC_URL: 'http://shop.test',
      APP_SECRET: 'a'.repeat(64),
      // Another host than Paytm's staging one: live orders, as the ones made below.
      PAYTM_MID: sim.mid,
      PAYTM_MERCHANT_KEY: sim.merchantKey,
      PAYTM_HOST: sim.url,
    },
  }
})
afterAll(async () => {
  holder.__keybazaar = undefined
  await sim.close()
})

/** A pending live order of `gateway`, created `ageMs` ago, that Paytm never saw. */
async function pendingOrder(gateway: string, ageMs: number): Promise<Order> {
  const created = await createOrder(
    t.db,
    { productId, customer: BUYER, gateway, testMode: false },
    { now: () => Date.now() - ageMs },
  )
  return created.order
}

async function verify(orderId: string, transactionId = 'TXN_1') {
  const answer: unknown = await action({
    request: new Request('http://shop.test/api/paytm/verify-payment', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ orderId, transactionId }),
    }),
    context: {},
    params: {},
  } as unknown as Parameters<typeof action>[0])
  const { data, init } = answer as { data: unknown; init: ResponseInit | null }
  return { data, status: init?.status ?? 200 }
}

describe(`/api/paytm/verify-payment (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it("leaves another gateway's pending order alone: Paytm's 334 does not expire it", async () => {
    const age = UNKNOWN_ORDER_EXPIRY_MS + 60_000
    const razorpay = await pendingOrder('razorpay', age)
    expect(await verify(razorpay.id)).toEqual({ data: { verified: false }, status: 200 })
    // Still Razorpay's to reconcile: pending, Paytm not asked, nothing on its timeline.
    expect(await existingOrder(t.db, razorpay.id)).toMatchObject({
      status: 'pending',
      statusChecks: 0,
      gatewayStatus: null,
    })
    expect((await listOrderEvents(t.db, razorpay.id)).map((e) => e.type)).toEqual(['created'])

    // A Paytm order in the same state is asked about, and expired on Paytm's 334.
    const paytm = await pendingOrder('paytm', age)
    expect(await verify(paytm.id)).toEqual({ data: { verified: false }, status: 200 })
    expect(await existingOrder(t.db, paytm.id)).toMatchObject({
      status: 'expired',
      gatewayRespCode: '334',
    })
  })
})

/**
 * A stand-in for Paytm's status API that counts the requests it gets and answers PENDING for
 * every order: what verify-payment's "at most once per 10 s per order" must hold to.
 */
async function countingPaytm(mid: string) {
  let statusRequests = 0
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      statusRequests++
      const orderId = (JSON.parse(body) as { body?: { orderId?: string } }).body?.orderId
      res.setHeader('Content-Type', 'application/json')
      res.end(
        JSON.stringify({
          body: {
            resultInfo: { resultStatus: 'PENDING', resultCode: '402', resultMsg: 'Pending' },
            orderId,
            mid,
            txnAmount: '1499.00',
          },
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => statusRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

describe(`/api/paytm/verify-payment under load (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('asks Paytm once for many requests at once about one pending order (docs/payments.md)', async () => {
    const paytm = await countingPaytm(sim.mid)
    const before = holder.__keybazaar as { env: Record<string, string> }
    holder.__keybazaar = { ...before, env: { ...before.env, PAYTM_HOST: paytm.url } }
    try {
      const order = await pendingOrder('paytm', 0)
      const answers = await Promise.all(Array.from({ length: 8 }, () => verify(order.id)))
      expect(answers.every((a) => a.status === 200)).toBe(true)
      expect(paytm.requests()).toBe(1)
      expect(await existingOrder(t.db, order.id)).toMatchObject({ status: 'pending' })
    } finally {
      holder.__keybazaar = before
      await paytm.close()
    }
  })
})
