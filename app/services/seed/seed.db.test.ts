import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listProducts } from '~/data/product.server'
import { createLocalStorage } from '~/lib/storage.server'
import { fileTestDb } from '../../../tests/helpers/db'
import { CATEGORIES } from '../../../db/migrations/0001_catalogue'
import { listProductReviews, reviewSummaries } from '~/data/review.server'
import type { Env } from '~/lib/env.server'
import { ORDER_MAIL_JOB } from '~/services/notifications/order-mail.server'
import { storefrontReviewScope } from '~/services/reviews.server'
import { readSiteSettings, updateSiteSettings } from '~/data/settings.server'
import { DEMO_SEED_MARKER, demoBuyerEmail, seedDemo, shouldSeedOnStart } from './'
import { DEMO_REVIEWS } from './demo-reviews'

const TEST_SECRET = 'seed-test-secret-'.padEnd(48, 'x')
const t = fileTestDb()
let uploads: string
beforeAll(async () => {
  uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-seed-'))
})
afterAll(async () => {
  fs.rmSync(uploads, { recursive: true, force: true })
})

// Drawing 26 artworks with sharp takes about 19 s on a busy two-core machine, near the default 20 s.
describe(`demo seed (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, { timeout: 60_000 }, () => {
  it('seeds an empty SQLite database by default, PostgreSQL only when asked, never with SEED_DEMO=0', async () => {
    expect(await shouldSeedOnStart(t.db, { seedDemo: undefined, engine: 'sqlite' })).toBe(true)
    expect(await shouldSeedOnStart(t.db, { seedDemo: undefined, engine: 'postgres' })).toBe(false)
    expect(await shouldSeedOnStart(t.db, { seedDemo: true, engine: 'postgres' })).toBe(true)
    expect(await shouldSeedOnStart(t.db, { seedDemo: false, engine: 'sqlite' })).toBe(false)
  })

  it('adds at least 24 products over all twelve categories, with generated images', async () => {
    const storage = createLocalStorage(uploads)
    const result = await seedDemo(t.db, storage, TEST_SECRET)
    expect(result.created).toBeGreaterThanOrEqual(24)
    const products = await listProducts(t.db)
    expect(products).toHaveLength(result.created)
    expect(new Set(products.map((p) => p.category))).toEqual(new Set(CATEGORIES))
    expect(products.some((p) => p.featured)).toBe(true)
    expect(products.some((p) => !p.inStock)).toBe(true)
    for (const product of products) {
      expect(product.price).toBeLessThan(product.originalPrice)
      expect(product.discount).toBeGreaterThan(0)
      expect(product.features.length).toBeGreaterThan(0)
      expect(product.tags.length).toBeGreaterThan(0)
      expect(product.validity).not.toBe('')
    }
    // Reviews from fictional buyers' delivered orders, with no mail queued to those buyers.
    const reviews = await t.db
      .selectFrom('review')
      .innerJoin('order', 'order.id', 'review.orderId')
      .innerJoin('user', 'user.id', 'review.userId')
      .select(['order.status', 'order.userId', 'review.userId as author', 'user.email', 'order.id'])
      .execute()
    expect(reviews).toHaveLength(DEMO_REVIEWS.length)
    for (const review of reviews) {
      expect(review.status).toBe('delivered')
      expect(review.userId).toBe(review.author)
      expect(review.email).toMatch(/\.demo-buyer@example\.test$/)
    }
    expect(reviews.map((r) => r.email).sort()).toEqual(
      DEMO_REVIEWS.map((demo) => demoBuyerEmail(demo.buyer)).sort(),
    )
    const mails = await t.db
      .selectFrom('job')
      .select('payload')
      .where('type', '=', ORDER_MAIL_JOB)
      .execute()
    for (const review of reviews)
      expect(mails.some((m) => m.payload.includes(review.id))).toBe(false)
    const streamverse = products.find((p) => p.slug === 'streamverse-premium-12-months')!
    expect((await reviewSummaries(t.db, [streamverse.id])).get(streamverse.id)).toEqual({
      count: 3,
      average: 4.7,
    })
    expect((await listProductReviews(t.db, streamverse.id)).items[0]?.reviewer).toBe('Priya S.')
    // They are of test-mode orders: a fresh install (every way to pay a simulator) shows them,
    // a shop with a live gateway would not (docs/reviews.md).
    const simulators = { PUBLIC_URL: 'https://shop.example.in', APP_SECRET: TEST_SECRET } as Env
    const scope = await storefrontReviewScope(t.db, simulators)
    expect((await reviewSummaries(t.db, [streamverse.id], scope)).get(streamverse.id)?.count).toBe(
      3,
    )
    expect((await reviewSummaries(t.db, [streamverse.id], { testOrders: false })).size).toBe(0)

    const first = products[0]!
    const image = await sharp(path.join(uploads, first.image)).metadata()
    expect(image).toMatchObject({ format: 'webp', width: 1200, height: 900 })
  })

  it('does not seed again on the next start, even after the owner deletes products', async () => {
    await t.db.deleteFrom('product').execute()
    expect(await shouldSeedOnStart(t.db, { seedDemo: undefined, engine: 'sqlite' })).toBe(false)
  })

  it('is idempotent when run again: missing products come back, existing ones are left alone', async () => {
    const storage = createLocalStorage(uploads)
    const again = await seedDemo(t.db, storage, TEST_SECRET)
    const total = again.created
    expect(total).toBeGreaterThanOrEqual(24)
    await t.db
      .updateTable('product')
      .set({ title: 'Edited by the owner' })
      .where('slug', '=', 'streamverse-premium-12-months')
      .execute()
    const reviewsBefore = await t.db.selectFrom('review').select('id').execute()
    const third = await seedDemo(t.db, storage, TEST_SECRET)
    expect(third).toEqual({ created: 0, skipped: total })
    // The fictional buyers exist already: no second order or review each.
    expect(await t.db.selectFrom('review').select('id').execute()).toHaveLength(
      reviewsBefore.length,
    )
    const products = await listProducts(t.db)
    expect(products).toHaveLength(total)
    expect(products.find((p) => p.slug === 'streamverse-premium-12-months')?.title).toBe(
      'Edited by the owner',
    )
  })

  it('keeps the name and contacts of a shop the owner set up (npm run db:seed on it)', async () => {
    // A shop that was never seeded (SEED_DEMO=0, or PostgreSQL) and was set up by its owner.
    await t.db
      .deleteFrom('siteSetting')
      .where('key', 'in', [DEMO_SEED_MARKER, 'whatsappNumber'])
      .execute()
    await updateSiteSettings(t.db, {
      siteName: 'Asha Digital',
      contactEmail: 'help@asha.example.in',
      phoneNumber: '+91 91234 56789',
    })
    await seedDemo(t.db, createLocalStorage(uploads), TEST_SECRET)
    const settings = await readSiteSettings(t.db)
    expect(settings).toMatchObject({
      siteName: 'Asha Digital',
      contactEmail: 'help@asha.example.in',
      phoneNumber: '+91 91234 56789',
    })
    // A setting the owner never saved gets the demo's.
    expect(settings.whatsappNumber).toBe('919876543210')
  })
})
