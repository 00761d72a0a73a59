import { describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../tests/helpers/db'
import { pageText, renderPage, serveTestDb } from '../../../tests/helpers/route-render'
import { BUYER, makeCustomer, makeProduct, payOrder } from '../../../tests/factories'
import {
  createOrder,
  markOrderExpired,
  markOrderFailed,
  type CustomerDetails,
} from '~/data/order.server'
import { createPaymentLink } from '~/data/payment-link.server'
import { ORDER_ACCESS_COOKIE } from '~/services/order-access.server'
import PaymentResult, {
  clientLoader,
  headers,
  keepsLastAnswer,
  LATE_CONFIRMATION_MS,
  loader,
  nextPollDelay,
  showOnScreen,
} from './callback'

/**
 * /payment/callback as the server renders it: what a pending or failed order's page offers, when
 * it keeps asking the server, and who reads the buyer's e-mail address on it. Signing in is not
 * what is tested here: getUser answers with this file's signed-in user, or nobody.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/auth.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  getUser: vi.fn(async () => signedIn.user),
}))

const t = fileTestDb()
serveTestDb(t, { env: { PUBLIC_URL: 'http://shop.test', APP_SECRET: 'x'.repeat(32) } })

const ROUTE = {
  id: 'routes/payment/callback',
  path: '/payment/callback',
  Component: PaymentResult,
  loader,
}

interface Visit {
  /** The order's checkout token, in this browser's order cookie. */
  cookie?: string
  /** A token in the address, as the order's e-mails carry it. */
  token?: string
}

/** The result page for `orderId` as this visitor gets it: its text, markup and loader data. */
async function open(orderId: string, visit: Visit = {}) {
  const query = new URLSearchParams({
    ORDERID: orderId,
    ...(visit.token ? { token: visit.token } : {}),
  })
  const cookie = visit.cookie ? `${ORDER_ACCESS_COOKIE}=${orderId}~${visit.cookie}` : null
  const { html, context } = await renderPage(
    ROUTE,
    new Request(`http://shop.test/payment/callback?${query}`, {
      headers: cookie ? { Cookie: cookie } : {},
    }),
    { clientIp: '203.0.113.40' },
  )
  const data = context.loaderData[ROUTE.id] as { poll: string | null; state: string }
  return { html, text: pageText(html), data }
}

/** A guest's pending order, with the token checkout put in their browser. */
async function pendingOrder(customer: CustomerDetails = BUYER) {
  const product = await makeProduct(t.db, { title: 'Music Family Plan' })
  return createOrder(t.db, { productId: product.id, customer })
}

const declined = { status: 'TXN_FAILURE', respCode: '227', respMsg: 'Declined by your bank.' }

describe(`the payment result page (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('while processing, links the order page and offers help, and promises the mail', async () => {
    const { order, accessToken } = await pendingOrder()
    const page = await open(order.id, { cookie: accessToken })
    expect(page.data).toMatchObject({ state: 'processing', poll: 'fast' })
    expect(page.text).toContain('Processing Payment...')
    expect(page.text).toContain(
      'Your bank or UPI app has not confirmed the payment yet. This page updates by itself; you can also leave it — we e-mail you when it is confirmed.',
    )
    expect(page.html).toContain(`href="/orders/${order.id}"`)
    expect(page.text).toContain('View order')
    expect(page.text).toContain('Need help?')
    expect(page.text).toContain('If money left your account, it is not lost')
    // Without JavaScript the page reloads itself.
    expect(page.html).toContain('<meta http-equiv="refresh" content="5"/>')
  })

  it('keeps asking about a failed or expired order for a day, and says so beside Retry', async () => {
    const failed = await pendingOrder()
    await markOrderFailed(t.db, failed.order.id, declined, { message: 'failed' })
    const page = await open(failed.order.id, { cookie: failed.accessToken })
    expect(page.data).toMatchObject({ state: 'failed', poll: 'slow' })
    expect(page.text).toContain('Payment Failed')
    expect(page.text).toContain(
      'If you approved the payment in your UPI app or bank, wait a minute before trying again — this page updates by itself.',
    )
    expect(page.text).toContain('Retry Payment')
    expect(page.html).toContain(`href="/orders/${failed.order.id}"`)
    expect(page.html).toContain('<meta http-equiv="refresh" content="30"/>')

    const expired = await pendingOrder()
    await markOrderExpired(t.db, expired.order.id, 'no answer in 24 hours')
    expect((await open(expired.order.id, { cookie: expired.accessToken })).data).toMatchObject({
      state: 'failed',
      poll: 'slow',
    })
  })

  it('stops asking about a payment that failed more than a day ago', async () => {
    const { order, accessToken } = await pendingOrder()
    const longAgo = new Date(Date.now() - LATE_CONFIRMATION_MS - 60_000)
    await markOrderFailed(t.db, order.id, declined, { message: 'failed' }, longAgo)
    const page = await open(order.id, { cookie: accessToken })
    expect(page.data).toMatchObject({ state: 'failed', poll: null })
    expect(page.text).toContain('Payment Failed')
    expect(page.text).not.toContain('this page updates by itself')
    expect(page.html).not.toContain('http-equiv="refresh"')
  })

  it('does not ask about a paid order again', async () => {
    const { order, accessToken } = await pendingOrder()
    await payOrder(t.db, order)
    expect((await open(order.id, { cookie: accessToken })).data).toMatchObject({
      state: 'success',
      poll: null,
    })
  })

  it('shows the buyer their e-mail address, and a stranger nothing of the order', async () => {
    const buyer = { ...BUYER, email: 'meera.iyer@example.in' }
    const { order, accessToken } = await pendingOrder(buyer)
    await payOrder(t.db, order)
    const own = await open(order.id, { cookie: accessToken })
    expect(own.text).toContain('Payment Successful!')
    expect(own.text).toContain(
      'We have e-mailed the link to your order page to meera.iyer@example.in',
    )

    const stranger = await open(order.id)
    expect(stranger.data.state).toBe('unavailable')
    expect(stranger.html).not.toContain('meera')
    expect(stranger.html).not.toContain('m***@example.in')
  })

  it("masks a payment link's customer for whoever holds only the cookie of its order", async () => {
    const customer = { name: 'Kiran Das', email: 'kiran.das@example.in', phone: '9988771133' }
    const product = await makeProduct(t.db, { title: 'Office Suite Key' })
    const link = await createPaymentLink(
      t.db,
      { productId: product.id, customer, createdBy: null },
      'http://shop.test',
    )
    // Anyone with the link may press Pay: checkout gives that browser the order's cookie.
    const { order, accessToken } = await createOrder(t.db, {
      productId: product.id,
      customer,
      paymentLink: { id: link.id, amount: link.amount, preferredOrderId: link.orderId },
    })
    await payOrder(t.db, order)
    const payer = await open(order.id, { cookie: accessToken })
    expect(payer.text).toContain('Payment Successful!')
    expect(payer.text).toContain('We have e-mailed the link to your order page to k***@example.in')
    expect(payer.html).not.toContain('kiran.das')

    // The order's own e-mail link, and the customer signed in, see it in full.
    const fromMail = await open(order.id, { token: accessToken })
    expect(fromMail.text).toContain('to kiran.das@example.in')
    const account = await makeCustomer(t.db, { email: customer.email })
    signedIn.user = {
      ...account,
      emailVerified: true,
      isAdmin: false,
      permissions: { canManageOrders: false },
    }
    try {
      expect((await open(order.id)).text).toContain('to kiran.das@example.in')
    } finally {
      signedIn.user = null
    }
  })

  it("masks a payment link's customer for a signed-in stranger who pressed Pay", async () => {
    const customer = { name: 'Anil Rao', email: 'anil.rao@example.in', phone: '9988771144' }
    const product = await makeProduct(t.db, { title: 'Office Suite Key' })
    const link = await createPaymentLink(
      t.db,
      { productId: product.id, customer, createdBy: null },
      'http://shop.test',
    )
    // Pay records whoever is signed in as the order's user: the order opens as theirs.
    const stranger = await makeCustomer(t.db, { email: 'someone.else@example.in' })
    const { order, accessToken } = await createOrder(t.db, {
      productId: product.id,
      customer,
      userId: stranger.id,
      paymentLink: { id: link.id, amount: link.amount, preferredOrderId: link.orderId },
    })
    await payOrder(t.db, order)
    const signIn = (account: { id: string; email: string }) => {
      signedIn.user = {
        ...account,
        emailVerified: true,
        isAdmin: false,
        permissions: { canManageOrders: false },
      }
    }
    try {
      signIn(stranger)
      for (const visit of [{}, { cookie: accessToken }]) {
        const page = await open(order.id, visit)
        expect(page.text).toContain('Payment Successful!')
        expect(page.text).toContain('to your order page to a***@example.in')
        expect(page.html).not.toContain('anil.rao')
      }

      // The customer, signed in with the verified address the link was made out to, sees it.
      signIn(await makeCustomer(t.db, { email: customer.email }))
      const own = await open(order.id, { cookie: accessToken })
      expect(own.text).toContain('to your order page to anil.rao@example.in')
    } finally {
      signedIn.user = null
    }
  })

  it('is stored by no cache and answered per browser', () => {
    const answer = headers({
      actionHeaders: new Headers({ 'Retry-After': '60' }),
    } as unknown as Parameters<typeof headers>[0])
    expect(answer.get('Cache-Control')).toBe('private, no-store')
    expect(answer.get('Vary')).toBe('Cookie')
    expect(answer.get('Retry-After')).toBe('60')
  })
})

describe('the gaps between polls', () => {
  it('grow from 1.5 s to 10 s while processing, and are 30 s for a failed order', () => {
    expect([0, 1, 5, 8, 20].map((attempts) => nextPollDelay('fast', attempts, 0))).toEqual([
      1500, 2500, 6500, 9500, 10_000,
    ])
    expect(nextPollDelay('slow', 3, 0)).toBe(30_000)
  })

  it('wait longer after polls that failed, up to a minute', () => {
    expect([1, 2, 3, 4, 5, 9].map((failed) => nextPollDelay('fast', 0, failed))).toEqual([
      5_000, 10_000, 20_000, 40_000, 60_000, 60_000,
    ])
    expect(nextPollDelay('slow', 0, 1)).toBe(30_000)
    expect(nextPollDelay('slow', 0, 4)).toBe(40_000)
  })
})

describe('a load of the result page that fails in the browser', () => {
  const orderId = 'ORD_1700000000000_1'
  const processing = { found: true, orderId, state: 'processing', poll: 'fast' } as const

  /** clientLoader for the order's page, the server answering `server` (or failing). */
  function load(server: 'processing' | 'fails', signal?: AbortSignal) {
    return clientLoader({
      request: new Request(`http://shop.test/payment/callback?ORDERID=${orderId}`, { signal }),
      serverLoader: async () => {
        if (server === 'fails') throw new TypeError('Failed to fetch')
        return processing
      },
    } as never)
  }

  it('keeps the page on screen as it was, and fails once the buyer has left it', async () => {
    expect(await load('processing')).toBe(processing)
    const leave = showOnScreen(orderId)
    // A poll of the page on screen that cannot reach the shop: the page stays as it was.
    expect(await load('fails')).toBe(processing)
    // Through View order and back again while offline: that navigation fails as before.
    leave()
    await expect(load('fails')).rejects.toThrow('Failed to fetch')
    // Another order's page on screen is no reason to show this one's last answer either.
    const other = showOnScreen('ORD_1700000000000_2')
    await expect(load('fails')).rejects.toThrow('Failed to fetch')
    other()
  })

  it('is answered from the last answer only for a poll of the order on screen', () => {
    const poll = { orderId, aborted: false }
    expect(keepsLastAnswer(poll, orderId, { poll: 'fast' })).toBe(true)
    expect(keepsLastAnswer(poll, orderId, { poll: 'slow' })).toBe(true)
    // Not shown now: the first visit, or a return after leaving the page.
    expect(keepsLastAnswer(poll, null, { poll: 'fast' })).toBe(false)
    expect(keepsLastAnswer(poll, 'ORD_1700000000000_2', { poll: 'fast' })).toBe(false)
    // Nothing that could still change, nothing kept, or a load the browser gave up itself.
    expect(keepsLastAnswer(poll, orderId, { poll: null })).toBe(false)
    expect(keepsLastAnswer(poll, orderId, undefined)).toBe(false)
    expect(keepsLastAnswer({ orderId, aborted: true }, orderId, { poll: 'fast' })).toBe(false)
  })
})
