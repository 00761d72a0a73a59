import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../tests/helpers/db'
import { gatewayForm } from '../../../tests/helpers/forms'
import { serveTestDb } from '../../../tests/helpers/route-render'
import { makeCustomer, makePaidOrder, makeStockedProduct } from '../../../tests/factories'
import { saveGateway } from '~/data/gateway.server'
import { readPageCacheVersion } from '~/data/page-cache-version.server'
import { createLocalStorage } from '~/lib/storage.server'
import { importStock } from '~/services/fulfilment.server'
import { orderPath } from '~/lib/order-status'
import { saveReview } from '~/services/reviews.server'
import { loader as homeLoader } from './home'
import { loader, meta } from './product'

/**
 * The product page's and the home page's reviews as their loaders answer them, on a shop that
 * goes live: reviews of test-mode orders count while every way to pay is a simulator (the
 * demo's), and leave the list, the rating, the JSON-LD and the "Write a review" offer once a
 * live gateway is active (docs/reviews.md).
 */
const viewer = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/auth.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  getUser: vi.fn(async () => viewer.user),
}))

const t = fileTestDb()
const SECRET = 'x'.repeat(32)
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-product-page-'))
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))
serveTestDb(t, {
  env: { PUBLIC_URL: 'https://shop.example.in', APP_SECRET: SECRET, DATA_DIR: dataDir },
  storage: createLocalStorage(path.join(dataDir, 'uploads')),
})

const text = { title: 'Works well', body: 'Activated on the first try, no trouble at all.' }

async function productPage(slug: string, user: unknown = null) {
  viewer.user = user
  const request = new Request(`https://shop.example.in/product/${slug}`)
  const data = await loader({ request, params: { slugOrId: slug }, context: {} } as never)
  const tags = meta({ data, matches: [] } as never) as Array<Record<string, unknown>>
  const jsonLd = tags.find((tag) => 'script:ld+json' in tag)?.['script:ld+json'] as
    Record<string, unknown> | undefined
  return { data, aggregateRating: jsonLd?.aggregateRating ?? null }
}

async function homeCardRating(productId: string) {
  viewer.user = null
  const request = new Request('https://shop.example.in/')
  const data = await homeLoader({ request, params: {}, context: {} } as never)
  return data.products.find((card) => card.id === productId)?.rating
}

describe(`reviews of test orders on the storefront (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('count while the shop is in test mode and leave every public figure once it is live', async () => {
    // A real item and test items: one real sale, two through the simulator.
    const product = await makeStockedProduct(t.db, SECRET, [`real-${crypto.randomUUID()}`])
    await importStock(t.db, {
      productId: product.id,
      content: [1, 2].map((n) => `test-${n}-${crypto.randomUUID()}`).join('\n'),
      format: 'lines',
      appSecret: SECRET,
      testItems: true,
    })
    const buyer = await makeCustomer(t.db, { name: 'Real Buyer' })
    const real = await makePaidOrder(t.db, product.id, { userId: buyer.id })
    const tester = await makeCustomer(t.db, { name: 'Test Buyer' })
    const tried = await makePaidOrder(t.db, product.id, { userId: tester.id, testMode: true })
    const again = await makePaidOrder(t.db, product.id, { userId: tester.id, testMode: true })
    const asTester = { ...tester, emailVerified: true }
    for (const [who, order, rating] of [
      [buyer, real, 5],
      [tester, tried, 1],
    ] as const) {
      const saved = await saveReview(
        t.db,
        { id: who.id, email: who.email, emailVerified: true },
        order.id,
        { rating, ...text },
      )
      if (!saved.ok) throw new Error(saved.error)
    }

    // Every way to pay is a simulator: both reviews count, and the other test order may be
    // reviewed.
    const demo = await productPage(product.slug)
    expect([demo.data.product.rating, demo.data.product.reviews]).toEqual([3, 2])
    expect(demo.data.reviews.items.map((review) => review.rating).sort()).toEqual([1, 5])
    expect(demo.data.reviews.distribution.map((row) => row.count)).toEqual([1, 0, 0, 0, 1])
    expect(demo.aggregateRating).toMatchObject({ ratingValue: 3, reviewCount: 2 })
    expect((await productPage(product.slug, asTester)).data.reviews.writeHref).toBe(
      `${orderPath(again.id)}#review`,
    )
    expect(await homeCardRating(product.id)).toBe(3)

    // The owner makes Paytm live: the cached pages go (the version moves) and the test review
    // leaves the list, the stars, the rating, the JSON-LD and the home page's card.
    const version = await readPageCacheVersion(t.db)
    const saved = await saveGateway(t.db, SECRET, {
      mode: 'add',
      ...gatewayForm({
        name: 'Paytm',
        type: 'paytm',
        status: 'active',
        merchantId: 'KEYBAZ12345678901234',
        merchantKey: 'abcdefghijklmnop',
        website: 'DEFAULT',
        environment: 'production',
      }),
    })
    expect(saved).toMatchObject({ ok: true })
    expect(await readPageCacheVersion(t.db)).toBeGreaterThan(version)
    const live = await productPage(product.slug)
    expect([live.data.product.rating, live.data.product.reviews]).toEqual([5, 1])
    expect(live.data.reviews.items.map((review) => review.rating)).toEqual([5])
    expect(live.data.reviews.distribution.map((row) => row.count)).toEqual([1, 0, 0, 0, 0])
    expect(live.aggregateRating).toMatchObject({ ratingValue: 5, reviewCount: 1 })
    expect((await productPage(product.slug, asTester)).data.reviews.writeHref).toBeNull()
    expect(await homeCardRating(product.id)).toBe(5)
  })
})
