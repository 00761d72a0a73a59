import { GATEWAY_MODE_FIELD } from '~/lib/validation/checkout'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../tests/helpers/db'
import { RATE_LIMIT_POLICIES } from '~/lib/rate-limit.server'
import {
  createPaymentLink,
  PAYMENT_LINK_MESSAGES,
  type PaymentLink,
} from '~/data/payment-link.server'
import type { CheckoutResult } from '~/components/checkout/checkout-form'
import type * as Auth from '~/services/auth.server'
import {
  startRazorpaySimulator,
  type RunningRazorpaySimulator,
} from '../../../simulators/razorpay/testing'
import { makeAdmin, makeCustomer, makeProduct } from '../../../tests/factories'
import { CHECKOUT_CHANGED_MESSAGES } from './checkout.server'
import { action, headers, loader, shouldRevalidate } from './pay'
import { action as generateChecksum } from '../api/paytm-generate-checksum'

// Who is signed in, as the page's getUser answers (null: nobody).
const viewer = vi.hoisted(() => ({ user: null as Auth.AuthUser | null }))
vi.mock('~/services/auth.server', async (importOriginal) => ({
  ...(await importOriginal<typeof Auth>()),
  getUser: () => Promise.resolve(viewer.user),
}))

const t = fileTestDb()
// The loader reads the database through services() (app/lib/app-context.server.ts), which
// answers whatever the process opened: here, this file's test database, with Paytm's built-in
// simulator and a Razorpay (the local simulator, over HTTP) configured by the environment.
const holder = globalThis as typeof globalThis & { __keybazaar?: unknown }
let razorpay: RunningRazorpaySimulator
let productId: string
beforeAll(async () => {
  razorpay = await startRazorpaySimulator()
  holder.__keybazaar = {
    db: t.db,
    engine: t.engine,
    env: {
      PUBLIC_URL: 'http://shop.test',
      APP_SECRET: 'a'.repeat(64),
      RAZORPAY_KEY_ID: razorpay.keyId,
      RAZORPAY_KEY_SECRET: razorpay.keySecret,
      RAZORPAY_HOST: razorpay.url,
    },
  }
  productId = (await makeProduct(t.db, { price: 149_900 })).id
})
afterAll(async () => {
  holder.__keybazaar = undefined
  await razorpay.close()
})
afterEach(() => {
  viewer.user = null
})

const CUSTOMER = { name: 'Rohan Mehta', phone: '9988776655' }
let links = 0
/** An admin's link for Rohan Mehta (a new e-mail address each time, for the checkout limits). */
async function paymentLink(): Promise<PaymentLink> {
  return createPaymentLink(
    t.db,
    {
      productId,
      amount: 99_900,
      customer: { ...CUSTOMER, email: `rohan.${++links}@example.test` },
      createdBy: null,
    },
    'http://shop.test',
  )
}

/** Pressing Pay on the link's page with this way to pay: the action's answer. */
async function pressPay(link: PaymentLink, gateway: string, modes: string[] = []) {
  const form = new URLSearchParams({ gateway })
  for (const mode of modes) form.append(GATEWAY_MODE_FIELD, mode)
  const answer: unknown = await action({
    request: new Request(link.paymentUrl, { method: 'POST', body: form }),
    context: { clientIp: '203.0.113.30' },
    params: {},
  } as unknown as Parameters<typeof action>[0])
  const { data, init } = answer as { data: CheckoutResult; init: ResponseInit | null }
  return { data, status: init?.status ?? 200 }
}

/** Signed in as `profile`, as getUser answers for the session. */
function signIn(
  profile: Omit<Auth.AuthUser, 'isAdmin' | 'updatedAt' | 'lastActiveAt'>,
  isAdmin = false,
) {
  viewer.user = { ...profile, isAdmin }
}

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

  it('a stranger pressing Pay gets no customer details, at Paytm or Razorpay', async () => {
    for (const gateway of ['paytm', 'razorpay']) {
      const link = await paymentLink()
      const { data, status } = await pressPay(link, gateway)
      expect(status, gateway).toBe(200)
      if (!data.ok) throw new Error(`${gateway}: ${data.formError}`)
      // Nowhere in the answer: not the hidden fields of Paytm's form, nor Razorpay's options.
      const answer = JSON.stringify(data)
      for (const detail of [link.customerEmail, CUSTOMER.phone, CUSTOMER.name])
        expect(answer, `${gateway}: ${detail}`).not.toContain(detail)
      if (data.payment.kind === 'form') {
        expect(data.payment.fields).not.toHaveProperty('EMAIL')
        expect(data.payment.fields).not.toHaveProperty('MOBILE_NO')
      } else {
        expect(data.payment).toMatchObject({
          kind: 'razorpay',
          options: { prefill: { name: '', email: '', contact: '' } },
        })
      }
    }
  })

  it("nor through the checksum API, which refuses a link order's request naming an e-mail or phone", async () => {
    const link = await paymentLink()
    const { data } = await pressPay(link, 'paytm')
    if (!data.ok || data.payment.kind !== 'form') throw new Error('no Paytm form')
    const { CHECKSUMHASH: _, ...fields } = data.payment.fields
    const sign = async (extra: Record<string, string>) => {
      const answer: unknown = await generateChecksum({
        request: new Request('http://shop.test/api/paytm/generate-checksum', {
          method: 'POST',
          body: JSON.stringify({ ...fields, ...extra }),
        }),
        params: {},
        context: {},
      } as never)
      return (answer as { init: ResponseInit | null }).init?.status ?? 200
    }
    expect(await sign({})).toBe(200)
    // Right or wrong, a guess gets the same answer.
    const guesses: Record<string, string>[] = [
      { EMAIL: link.customerEmail },
      { EMAIL: 'someone@example.test' },
      { MOBILE_NO: CUSTOMER.phone },
      { MOBILE_NO: '9000000000' },
    ]
    for (const guess of guesses) expect(await sign(guess), JSON.stringify(guess)).toBe(400)
  })

  it("nor in a refused Pay's answer", async () => {
    const link = await paymentLink()
    // The page was rendered with Paytm taking real money; it is the simulator.
    const refused = await pressPay(link, 'paytm', ['paytm:live'])
    expect(refused).toMatchObject({
      status: 409,
      data: { ok: false, formError: CHECKOUT_CHANGED_MESSAGES.modeChanged },
    })
    expect(refused.data).not.toHaveProperty('values')
    expect(JSON.stringify(refused.data)).not.toContain(link.customerEmail)
    expect(JSON.stringify(refused.data)).not.toContain(CUSTOMER.phone)
  })

  it('pre-fills the gateway’s page for the customer signed in, and for an admin', async () => {
    const link = await paymentLink()
    signIn({ ...(await makeCustomer(t.db, { email: link.customerEmail })), emailVerified: true })
    const paytm = await pressPay(link, 'paytm', ['paytm:test', 'razorpay:live'])
    expect(paytm.data).toMatchObject({
      ok: true,
      payment: { kind: 'form', fields: { EMAIL: link.customerEmail, MOBILE_NO: CUSTOMER.phone } },
    })
    signIn(await makeAdmin(t.db), true)
    const other = await paymentLink()
    expect((await pressPay(other, 'razorpay')).data).toMatchObject({
      ok: true,
      payment: {
        kind: 'razorpay',
        options: {
          prefill: { name: CUSTOMER.name, email: other.customerEmail, contact: CUSTOMER.phone },
        },
      },
    })
  })

  it('gives the order to the account that pressed Pay only when that is the customer', async () => {
    const userOf = async (link: PaymentLink) =>
      (
        await t.db
          .selectFrom('order')
          .select('userId')
          .where('id', '=', link.orderId)
          .executeTakeFirstOrThrow()
      ).userId
    // A stranger who was sent the link, signed in: the order does not become theirs.
    const stranger = await paymentLink()
    signIn({ ...(await makeCustomer(t.db)), emailVerified: true })
    expect((await pressPay(stranger, 'paytm')).status).toBe(200)
    expect(await userOf(stranger)).toBeNull()
    // Nor an admin's, paying for the customer.
    const forCustomer = await paymentLink()
    signIn(await makeAdmin(t.db), true)
    expect((await pressPay(forCustomer, 'paytm')).status).toBe(200)
    expect(await userOf(forCustomer)).toBeNull()
    // The customer, signed in with the verified address the link names: theirs.
    const own = await paymentLink()
    const customer = await makeCustomer(t.db, { email: own.customerEmail })
    signIn({ ...customer, emailVerified: true })
    expect((await pressPay(own, 'paytm')).status).toBe(200)
    expect(await userOf(own)).toBe(customer.id)
  })

  it('loads the page again after a Pay refused with 409, so it shows the ways to pay as they are now', () => {
    const args = (actionStatus: number) =>
      ({
        formMethod: 'POST',
        actionStatus,
        defaultShouldRevalidate: true,
      }) as unknown as Parameters<typeof shouldRevalidate>[0]
    expect(shouldRevalidate(args(409))).toBe(true)
    expect(shouldRevalidate(args(200))).toBe(false)
    expect(shouldRevalidate(args(503))).toBe(false)
  })
})
