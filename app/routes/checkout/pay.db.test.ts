import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fileTestDb } from '../../../tests/helpers/db'
import { RATE_LIMIT_POLICIES } from '~/lib/rate-limit.server'
import { PAYMENT_LINK_MESSAGES } from '~/data/payment-link.server'
import { headers, loader } from './pay'

const t = fileTestDb()
// The loader reads the database through services() (app/lib/app-context.server.ts), which
// answers whatever the process opened: here, this file's test database.
const holder = globalThis as typeof globalThis & { __keybazaar?: unknown }
beforeAll(() => {
  holder.__keybazaar = { db: t.db, engine: t.engine, env: { PUBLIC_URL: 'http://shop.test' } }
})
afterAll(() => {
  holder.__keybazaar = undefined
})

/** The loader's answer for a made-up link, as the page gets it: its data, status and headers. */
async function open(ip: string, order = 'ORD_1700000000000_123') {
  const answer: unknown = await loader({
    request: new Request(`http://shop.test/payment/pay?order=${order}&amount=999&product=p1`),
    context: { clientIp: ip },
    params: {},
  } as unknown as Parameters<typeof loader>[0])
  const { data, init } = answer as { data: unknown; init: ResponseInit | null }
  return { data, status: init?.status ?? 200, headers: new Headers(init?.headers) }
}

describe(`/payment/pay (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('counts links that do not open against the address, then answers 429', async () => {
    const ip = '203.0.113.20'
    for (let i = 0; i < RATE_LIMIT_POLICIES.orderTokenIp.limit; i++) {
      expect(await open(ip, `ORD_17000000000${String(i).padStart(2, '0')}_1`)).toMatchObject({
        status: 404,
        data: { ok: false, message: PAYMENT_LINK_MESSAGES.notFound },
      })
    }
    const limited = await open(ip)
    expect(limited.status).toBe(429)
    expect((limited.data as { message: string }).message).toMatch(/^Too many attempts\. /)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    // Another address is not held back.
    expect((await open('203.0.113.21')).status).toBe(404)
  })

  it('is never cached: the page names the link’s customer', () => {
    const answer = headers({
      actionHeaders: new Headers(),
      loaderHeaders: new Headers({ 'Retry-After': '60' }),
    } as unknown as Parameters<typeof headers>[0])
    expect(answer).toEqual({ 'Cache-Control': 'private, no-store', 'Retry-After': '60' })
  })
})
