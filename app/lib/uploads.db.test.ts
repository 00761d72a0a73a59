import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProduct, deleteProduct, type ProductInput } from '~/data/product.server'
import { fileTestDb } from '../../tests/helpers/db'
import { createImageService } from './images.server'
import { createLocalStorage, type Storage } from './storage.server'
import { removeProductImage } from '~/services/product-images.server'
import { storeProductImage } from './uploads.server'

/** Replaced and deleted product images leave storage, unless another product still shows them. */
const t = fileTestDb()
let root: string
let storage: Storage
let cacheDir: string

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-uploads-db-'))
  storage = createLocalStorage(path.join(root, 'uploads'))
  cacheDir = path.join(root, 'cache')
})
afterAll(async () => {
  fs.rmSync(root, { recursive: true, force: true })
})

const product = (image: string, slug: string): ProductInput => ({
  title: slug,
  slug,
  description: 'd',
  shortDescription: 's',
  image,
  price: 100,
  originalPrice: 200,
  category: 'Streaming',
  featured: false,
  inStock: true,
  buyNowLink: null,
  tags: [],
  validity: '',
  deliveryTime: '',
  features: [],
  metaTitle: '',
  metaDescription: '',
  keywords: [],
})

describe(`removing product images (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('removes an image nobody shows, with its cached variants', async () => {
    const images = createImageService({ storage, cacheDir })
    const bytes = await sharp({
      create: { width: 64, height: 48, channels: 3, background: '#123456' },
    })
      .png()
      .toBuffer()
    const stored = await storeProductImage({ bytes }, { storage, images })
    expect(fs.existsSync(path.join(cacheDir, stored.key))).toBe(true)
    const created = await createProduct(t.db, product(stored.key, 'one'))

    // Still shown by the product: kept.
    expect(await removeProductImage(t.db, storage, stored.key, { cacheDir })).toBe(false)
    expect(await storage.exists(stored.key)).toBe(true)

    await deleteProduct(t.db, created.id)
    expect(await removeProductImage(t.db, storage, stored.key, { cacheDir })).toBe(true)
    expect(await storage.exists(stored.key)).toBe(false)
    expect(fs.existsSync(path.join(cacheDir, stored.key))).toBe(false)
  })

  it('keeps an image another product shows, and never touches images hosted elsewhere', async () => {
    await storage.put('products/shared.png', Buffer.from('x'), 'image/png')
    const a = await createProduct(t.db, product('products/shared.png', 'shared-a'))
    await createProduct(t.db, product('products/shared.png', 'shared-b'))
    await deleteProduct(t.db, a.id)
    expect(await removeProductImage(t.db, storage, 'products/shared.png', { cacheDir })).toBe(false)
    expect(await storage.exists('products/shared.png')).toBe(true)
    expect(
      await removeProductImage(t.db, storage, 'https://cdn.example.in/products/x.png', {
        cacheDir,
      }),
    ).toBe(false)
    expect(await removeProductImage(t.db, storage, '../keybazaar.db', { cacheDir })).toBe(false)
  })
})
