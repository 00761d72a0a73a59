import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listProducts } from '~/data/product.server'
import { createLocalStorage } from '~/lib/storage.server'
import { createTestDb, type TestDb } from '../../../tests/helpers/db'
import { CATEGORIES } from '../../../db/migrations/0001_catalogue'
import { seedDemo, shouldSeedOnStart } from './'

const TEST_SECRET = 'seed-test-secret-'.padEnd(48, 'x')
let t: TestDb
let uploads: string
beforeAll(async () => {
  t = await createTestDb()
  uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-seed-'))
})
afterAll(async () => {
  await t.destroy()
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
      expect(product.rating).toBeGreaterThan(0)
      expect(product.reviews).toBeGreaterThan(0)
      expect(product.validity).not.toBe('')
    }
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
    const third = await seedDemo(t.db, storage, TEST_SECRET)
    expect(third).toEqual({ created: 0, skipped: total })
    const products = await listProducts(t.db)
    expect(products).toHaveLength(total)
    expect(products.find((p) => p.slug === 'streamverse-premium-12-months')?.title).toBe(
      'Edited by the owner',
    )
  })
})
