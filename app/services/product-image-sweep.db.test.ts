import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createProduct, deleteProduct } from '~/data/product.server'
import type { DB } from '~/lib/db.server'
import { createImageService } from '~/lib/images.server'
import { startJobRunner } from '~/lib/jobs.server'
import { createS3Storage } from '~/lib/s3.server'
import { createLocalStorage, type Storage } from '~/lib/storage.server'
import { storeProductImage } from '~/lib/uploads.server'
import { fileSecondConnection, fileTestDb } from '../../tests/helpers/db'
import { productInput } from '../../tests/factories'
import { startFakeS3 } from '../../tests/helpers/s3'
import {
  PRODUCT_IMAGE_SWEEP_GRACE_MS,
  PRODUCT_IMAGE_SWEEP_JOB,
  productImageSweepJobHandlers,
  scheduleProductImageSweep,
  sweepAbandonedProductImages,
} from './product-image-sweep.server'

/**
 * The sweep of abandoned product image uploads (docs/admin.md, "Images"), on SQLite and
 * PostgreSQL, over local disk and the S3 client: what it removes, what it keeps, and that the
 * cluster runs it once an hour.
 */
const t = fileTestDb()
/** A second connection to the same database, as a second app process would have. */
const other = fileSecondConnection(t)
const HOUR = 60 * 60_000
let root: string
let storage: Storage
let cacheDir: string
let lines: string[]
const log = (line: string) => void lines.push(line)

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-sweep-'))
})
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true })
})
beforeEach(async () => {
  await t.db.deleteFrom('product').execute()
  await t.db.deleteFrom('job').execute()
  fs.rmSync(path.join(root, 'uploads'), { recursive: true, force: true })
  fs.rmSync(path.join(root, 'cache'), { recursive: true, force: true })
  storage = createLocalStorage(path.join(root, 'uploads'))
  cacheDir = path.join(root, 'cache')
  lines = []
})
afterEach(() => {
  vi.restoreAllMocks()
})

/** Stores a file at `key` as if written `ageMs` ago (the file's time is its age). */
async function putAged(key: string, ageMs: number): Promise<string> {
  await storage.put(key, Buffer.from(key), 'image/png')
  const when = new Date(Date.now() - ageMs)
  fs.utimesSync(path.join(root, 'uploads', key), when, when)
  return key
}

const exists = (key: string) => storage.exists(key)
const showing = (db: DB, image: string) => createProduct(db, productInput({ image }))

describe(`the sweep of abandoned uploads (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('removes an old upload no product shows, with its cached variants, and keeps every other file', async () => {
    const images = createImageService({ storage, cacheDir })
    const bytes = await sharp({
      create: { width: 64, height: 48, channels: 3, background: '#123456' },
    })
      .png()
      .toBuffer()
    // Uploaded two days ago in a form that was never saved: its WebP variants were made then.
    const abandoned = (await storeProductImage({ bytes }, { storage, images })).key
    const aged = new Date(Date.now() - 48 * HOUR)
    fs.utimesSync(path.join(root, 'uploads', abandoned), aged, aged)
    expect(fs.readdirSync(path.join(cacheDir, abandoned)).length).toBeGreaterThan(0)

    // Shown by products: as its key, and as the URLs of our own an older release saved.
    const shown = await putAged('products/100_shown.png', 48 * HOUR)
    const asImageUrl = await putAged('products/101_image-url.webp', 48 * HOUR)
    const asUploadsUrl = await putAged('products/102_uploads-url.jpg', 48 * HOUR)
    const asEncodedPath = await putAged('products/103_encoded.png', 48 * HOUR)
    await showing(t.db, shown)
    await showing(t.db, `/images/${asImageUrl}?w=640&v=abc123`)
    await showing(t.db, `https://shop.example.in/uploads/${asUploadsUrl}`)
    await showing(t.db, '/uploads/products%2F103_encoded.png')
    // A product deleted without its image being removed (a crash in between): nobody's now.
    const deletedProducts = await putAged('products/104_deleted-product.png', 48 * HOUR)
    await deleteProduct(t.db, (await showing(t.db, deletedProducts)).id)
    // Not a product's, but only a prefix of one's name: it goes too.
    const prefixOfShown = await putAged('products/100_shown.pn', 48 * HOUR)

    // Young: a form may still be open with these.
    const young = await putAged('products/200_young.png', HOUR)
    const almostOld = await putAged('products/201_almost.png', PRODUCT_IMAGE_SWEEP_GRACE_MS - HOUR)
    // Not under products/, or not an upload's name: never touched.
    const avatar = await putAged('avatars/300_photo.webp', 48 * HOUR)
    const sibling = await putAged('products-archive/301_old.png', 48 * HOUR)
    const nested = await putAged('products/nested/302_other.png', 48 * HOUR)

    const result = await sweepAbandonedProductImages(t.db, { storage, cacheDir, log })
    expect(result).toEqual({
      removed: [prefixOfShown, deletedProducts, abandoned].sort(),
      kept: [],
      failed: [],
    })
    expect(await exists(abandoned)).toBe(false)
    expect(fs.existsSync(path.join(cacheDir, abandoned))).toBe(false)
    expect(await exists(deletedProducts)).toBe(false)
    for (const key of [
      shown,
      asImageUrl,
      asUploadsUrl,
      asEncodedPath,
      young,
      almostOld,
      avatar,
      sibling,
      nested,
    ])
      expect({ key, exists: await exists(key) }).toEqual({ key, exists: true })
    // Each removal is logged, with a summary.
    expect(lines.filter((line) => line.startsWith('[uploads] removed abandoned upload'))).toEqual(
      result.removed.map((key) => expect.stringContaining(key) as unknown),
    )
    expect(lines.at(-1)).toBe(
      '[uploads] sweep of abandoned uploads: 3 removed, 0 kept (shown by a product now), 0 failed',
    )

    // A second run finds nothing to do.
    expect(await sweepAbandonedProductImages(t.db, { storage, cacheDir, log })).toEqual({
      removed: [],
      kept: [],
      failed: [],
    })
  })

  it('keeps a file a product came to show between the listing and its removal', async () => {
    const saved = await putAged('products/400_saved-meanwhile.png', 48 * HOUR)
    const abandoned = await putAged('products/401_abandoned.png', 48 * HOUR)
    // An admin saves a product with the file right after the sweep has read the listing.
    const racing: Storage = {
      ...storage,
      async *list(prefix) {
        yield* storage.list(prefix)
        await showing(other.db, `/uploads/${saved}`)
      },
    }
    const result = await sweepAbandonedProductImages(t.db, { storage: racing, cacheDir, log })
    expect(result).toEqual({ removed: [abandoned], kept: [saved], failed: [] })
    expect(await exists(saved)).toBe(true)
    expect(await exists(abandoned)).toBe(false)
  })

  it('removes at most the bound a run, and goes on past a file it cannot remove', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const keys = [
      await putAged('products/500_a.png', 48 * HOUR),
      await putAged('products/501_b.png', 48 * HOUR),
      await putAged('products/502_c.png', 48 * HOUR),
    ]
    const refusing: Storage = {
      ...storage,
      async delete(key) {
        if (key === keys[0]) throw new Error('storage said no')
        await storage.delete(key)
      },
    }
    const first = await sweepAbandonedProductImages(t.db, {
      storage: refusing,
      cacheDir,
      log,
      maxRemovals: 2,
    })
    expect(first).toEqual({ removed: [keys[1]], kept: [], failed: [keys[0]] })
    expect(errors).toHaveBeenCalledWith(
      `[uploads] could not remove abandoned upload ${keys[0]}:`,
      'storage said no',
    )
    expect(await exists(keys[2]!)).toBe(true)

    const second = await sweepAbandonedProductImages(t.db, {
      storage,
      cacheDir,
      log,
      maxRemovals: 2,
    })
    expect(second.removed).toEqual([keys[0], keys[2]])
    for (const key of keys) expect(await exists(key)).toBe(false)
  })

  it('sweeps S3-compatible storage alike, by the objects’ LastModified', async () => {
    const s3 = await startFakeS3({
      bucket: 'shop-media',
      accessKeyId: 'FAKEACCESSKEY',
      secretAccessKey: 'fake-secret-key-0123456789',
    })
    try {
      const bucket = createS3Storage({
        endpoint: s3.url,
        bucket: 'shop-media',
        accessKeyId: 'FAKEACCESSKEY',
        secretAccessKey: 'fake-secret-key-0123456789',
        region: 'ap-south-1',
      })
      const put = (key: string, ageMs: number) =>
        s3.objects.set(key, {
          body: Buffer.from(key),
          contentType: 'image/png',
          modified: new Date(Date.now() - ageMs),
        })
      put('products/600_abandoned.png', 48 * HOUR)
      put('products/601_shown.png', 48 * HOUR)
      put('products/602_young.png', HOUR)
      put('avatars/603_photo.webp', 48 * HOUR)
      await showing(t.db, 'products/601_shown.png')

      const result = await sweepAbandonedProductImages(t.db, { storage: bucket, log })
      expect(result.removed).toEqual(['products/600_abandoned.png'])
      expect([...s3.objects.keys()].sort()).toEqual([
        'avatars/603_photo.webp',
        'products/601_shown.png',
        'products/602_young.png',
      ])
      expect(s3.requests.some((request) => request.query?.includes('list-type=2'))).toBe(true)
    } finally {
      await s3.close()
    }
  })

  it('is one job an hour for the whole cluster: two runners, one sweep', async () => {
    const abandoned = await putAged('products/700_abandoned.png', 48 * HOUR)
    let runs = 0
    const runner = (db: DB, workerId: string) => {
      const sweep = productImageSweepJobHandlers(db, () => ({ storage, cacheDir, log }))
      return startJobRunner(
        db,
        {
          [PRODUCT_IMAGE_SWEEP_JOB]: async (job) => {
            runs++
            const handler = sweep[PRODUCT_IMAGE_SWEEP_JOB]
            if (typeof handler === 'function') await handler(job)
          },
        },
        {
          workerId,
          pollMs: 20,
          log,
          housekeeping: [(db) => scheduleProductImageSweep(db)],
        },
      )
    }
    // Two processes start together; each one's housekeeping asks for this hour's sweep.
    const runners = [runner(t.db, 'first'), runner(other.db, 'second')]
    try {
      await expect
        .poll(
          async () =>
            (
              await t.db
                .selectFrom('job')
                .select('status')
                .where('type', '=', PRODUCT_IMAGE_SWEEP_JOB)
                .execute()
            ).map((row) => row.status),
          { timeout: 10_000 },
        )
        .toEqual(['done'])
      // Both passes have had time to look again: still one job, run once.
      await new Promise((resolve) => setTimeout(resolve, 200))
    } finally {
      await Promise.all(runners.map((one) => one.stop()))
    }
    expect(runs).toBe(1)
    expect(await exists(abandoned)).toBe(false)
    const jobs = await t.db
      .selectFrom('job')
      .select('id')
      .where('type', '=', PRODUCT_IMAGE_SWEEP_JOB)
      .execute()
    expect(jobs).toHaveLength(1)
    // The next hour brings the next one, once however many ask.
    const nextHour = new Date(Date.now() + HOUR)
    expect(await scheduleProductImageSweep(t.db, nextHour)).toBe(true)
    expect(await scheduleProductImageSweep(other.db, nextHour)).toBe(false)
  })
})
