import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { RazorpaySetup } from '~/services/payment/razorpay-config.server'
import {
  startRazorpayCheckout,
  type StartedRazorpayCheckout,
} from '~/services/payment/razorpay-flow.server'
import {
  simulateRazorpayPayment,
  startRazorpaySimulator,
  type RunningRazorpaySimulator,
} from '../../../simulators/razorpay/testing'
import { fileTestDb } from '../../../tests/helpers/db'
import { addGatewayInTesting, existingOrder } from '../../../tests/helpers/payments'
import { BUYER, makeProduct } from '../../../tests/factories'
import { action } from './razorpay-callback'

/**
 * POST /api/payments/razorpay/callback against the local Razorpay simulator (over HTTP) and the
 * real database, on SQLite and on PostgreSQL. The route reads both through services()
 * (app/lib/app-context.server.ts): here, this file's test database and the environment each
 * test sets.
 */
const t = fileTestDb()
const CALLBACK = 'http://shop.test/api/payments/razorpay/callback'
const quiet = { log: () => {} }
let sim: RunningRazorpaySimulator
let setup: RazorpaySetup
let productId: string
const holder = globalThis as typeof globalThis & { __keybazaar?: unknown }

/**
 * The shop's environment: Razorpay's keys (the simulator's unless told) at the simulator (or
 * `host`), or none.
 */
function useEnv(keys: { keySecret?: string; host?: string } | null) {
  holder.__keybazaar = {
    db: t.db,
    engine: t.engine,
    env: {
      PUBLIC_URL: 'http://shop.test',
      APP_SECRET: 'a'.repeat(64),
      ...(keys
        ? {
            RAZORPAY_KEY_ID: sim.keyId,
            RAZORPAY_KEY_SECRET: keys.keySecret ?? sim.keySecret,
            RAZORPAY_HOST: keys.host ?? sim.url,
          }
        : {}),
    },
  }
}

beforeAll(async () => {
  // The route logs every return it cannot act on; expected here.
  vi.spyOn(console, 'error').mockImplementation(() => {})
  vi.spyOn(console, 'log').mockImplementation(() => {})
  sim = await startRazorpaySimulator()
  setup = {
    config: {
      keyId: sim.keyId,
      keySecret: sim.keySecret,
      webhookSecret: sim.webhookSecret,
      host: sim.url,
      checkoutScript: `${sim.url}/v1/checkout.js`,
    },
    callbackUrl: CALLBACK,
    source: 'environment',
    testMode: false,
  }
  productId = (await makeProduct(t.db, { price: 149_900 })).id
})
afterAll(async () => {
  holder.__keybazaar = undefined
  vi.restoreAllMocks()
  await sim.close()
})

const checkout = (): Promise<StartedRazorpayCheckout> =>
  startRazorpayCheckout(t.db, setup, { productId, customer: BUYER }, quiet)

/** Checkout's POST to the callback; the redirect's Location. */
async function postReturn(fields: Record<string, string>): Promise<string | null> {
  const response = (await action({
    request: new Request(CALLBACK, { method: 'POST', body: new URLSearchParams(fields) }),
    context: {},
    params: {},
  } as unknown as Parameters<typeof action>[0])) as Response
  expect(response.status).toBe(303)
  return response.headers.get('Location')
}

/** A host in front of the simulator that passes every request on and counts them. */
async function countingProxy(target: string) {
  const requests: string[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`)
      const headers = new Headers()
      for (const name of ['authorization', 'content-type'])
        if (typeof req.headers[name] === 'string') headers.set(name, req.headers[name])
      fetch(`${target}${req.url}`, {
        method: req.method,
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      })
        .then(async (answer) => {
          res.writeHead(answer.status, {
            'Content-Type': answer.headers.get('content-type') ?? 'application/json',
          })
          res.end(Buffer.from(await answer.arrayBuffer()))
        })
        .catch(() => {
          res.writeHead(502)
          res.end()
        })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

describe(`/api/payments/razorpay/callback (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('answers simultaneous posts of one signed return with the order’s page, asking Razorpay once', async () => {
    const started = await checkout()
    const back = await simulateRazorpayPayment(
      sim,
      started.order.gatewayOrderId!,
      CALLBACK,
      'success',
    )
    const razorpay = await countingProxy(sim.url)
    useEnv({ host: razorpay.url })
    try {
      const locations = await Promise.all(Array.from({ length: 8 }, () => postReturn(back.fields)))
      // Every post, the one that asked and those that answered from our record, goes on to the
      // order's result page, which shows it as it stands (paid, or processing while polled).
      expect(new Set(locations)).toEqual(
        new Set([`/payment/callback?ORDERID=${encodeURIComponent(started.order.id)}`]),
      )
      expect(razorpay.requests.filter((r) => r.startsWith('GET /v1/payments/'))).toHaveLength(1)
      expect(await existingOrder(t.db, started.order.id)).toMatchObject({
        status: 'paid',
        gatewayTxnId: back.fields.razorpay_payment_id,
      })
    } finally {
      await razorpay.close()
    }
  })

  it('sends the buyer to their order when the payments API refuses our keys', async () => {
    const started = await checkout()
    const back = await simulateRazorpayPayment(
      sim,
      started.order.gatewayOrderId!,
      CALLBACK,
      'failure',
    )
    // The keys were changed since: Razorpay answers 401, which the return cannot get past.
    useEnv({ keySecret: 'changed-secret-0000000000' })
    expect(await postReturn(back.fields)).toBe(
      `/payment/callback?ORDERID=${encodeURIComponent(started.order.id)}`,
    )
    expect((await existingOrder(t.db, started.order.id)).status).toBe('pending')
  })

  it('sends a buyer who has just paid to their order while Razorpay is switched off', async () => {
    const started = await checkout()
    const back = await simulateRazorpayPayment(
      sim,
      started.order.gatewayOrderId!,
      CALLBACK,
      'success',
    )
    await addGatewayInTesting(t.db, 'razorpay')
    await t.db
      .updateTable('paymentGateway')
      .set({ status: 'inactive' })
      .where('id', '=', 'razorpay')
      .execute()
    useEnv(null)
    try {
      expect(await postReturn(back.fields)).toBe(
        `/payment/callback?ORDERID=${encodeURIComponent(started.order.id)}`,
      )
    } finally {
      await t.db.deleteFrom('paymentGateway').where('id', '=', 'razorpay').execute()
    }
  })

  it('names no order for a return about an order we do not have', async () => {
    useEnv({})
    expect(
      await postReturn({
        razorpay_order_id: 'order_Nope0000001',
        razorpay_payment_id: 'pay_X',
        razorpay_signature: 'a',
      }),
    ).toBe('/payment/callback')
  })
})
