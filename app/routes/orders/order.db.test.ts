import crypto from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../tests/helpers/db'
import { serveTestDb } from '../../../tests/helpers/route-render'
import { makeCustomer, makePaidOrder, makeStockedProduct } from '../../../tests/factories'
import { importStock } from '~/services/fulfilment.server'
import { loader } from './order'

/**
 * The order page's review section, as its loader answers it: a delivered test-mode order (paid
 * through a simulator) is offered for review while the shop takes no real money, as the demo's
 * are, and not once a live gateway is active (docs/reviews.md). Who may open the order is not
 * what is tested here: the access check answers with this file's viewer.
 */
const viewing = vi.hoisted(() => ({ viewer: null as unknown }))
vi.mock('~/services/order-access.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requireViewableOrder: vi.fn(async () => viewing.viewer),
}))

const SECRET = 'order-page-test-secret-0123456789abcdef'
const SIMULATORS = { PUBLIC_URL: 'https://shop.example.in', APP_SECRET: SECRET }
/** Paytm's merchant in the environment, on its live host. */
const PAYTM_LIVE = {
  ...SIMULATORS,
  PAYTM_MID: 'ENVMID',
  PAYTM_MERCHANT_KEY: 'abcdefghijklmnop',
  PAYTM_HOST: 'https://securegw.paytm.in',
}

const t = fileTestDb()
serveTestDb(t, { env: SIMULATORS })
const holder = globalThis as typeof globalThis & { __keybazaar?: { env: unknown } }

async function reviewSection(orderId: string) {
  const answer = (await loader({
    request: new Request(`https://shop.example.in/orders/${orderId}`),
    params: { orderId },
    context: {},
  } as never)) as unknown as { data: { review: { mode: string | null } | null } }
  return answer.data.review
}

describe(`the order page's review (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('offers a test-mode order for review only while no live gateway is active', async () => {
    const product = await makeStockedProduct(t.db, SECRET, [])
    await importStock(t.db, {
      productId: product.id,
      content: `test-item-${crypto.randomUUID()}`,
      format: 'lines',
      appSecret: SECRET,
      testItems: true,
    })
    const buyer = await makeCustomer(t.db)
    const order = await makePaidOrder(t.db, product.id, { userId: buyer.id, testMode: true })
    expect(order.status).toBe('delivered')
    viewing.viewer = {
      order,
      user: { id: buyer.id, email: buyer.email, emailVerified: true },
      actor: `user:${buyer.id}`,
      queryToken: null,
      via: 'account',
    }

    // A fresh install: every way to pay is a simulator, and the order may be reviewed.
    expect(await reviewSection(order.id)).toMatchObject({ mode: 'write' })
    // Live Paytm: the review form is not offered (saveReview refuses it too).
    holder.__keybazaar!.env = PAYTM_LIVE
    try {
      expect(await reviewSection(order.id)).toBeNull()
    } finally {
      holder.__keybazaar!.env = SIMULATORS
    }
  })
})
