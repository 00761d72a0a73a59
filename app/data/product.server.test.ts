import { describe, expect, it } from 'vitest'
import { productInput } from '../../tests/factories'
import { fileTestDb } from '../../tests/helpers/db'
import {
  countProducts,
  createProduct,
  getProductBySlug,
  getProductBySlugOrId,
  listCategories,
  listProducts,
  type ProductInput,
} from './product.server'

const t = fileTestDb()

/** The product these tests store and read back, with a value in every list. */
function testProduct(overrides: Partial<ProductInput> = {}): ProductInput {
  return productInput({
    title: 'Test Product',
    slug: 'test-product',
    description: 'Long description',
    shortDescription: 'Short',
    image: 'products/test.webp',
    price: 49_900,
    originalPrice: 99_900,
    tags: ['a', 'b'],
    features: ['One', 'Two'],
    keywords: ['k'],
    ...overrides,
  })
}

describe(`product data (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('stores a product and reads it back with lists, booleans, paise and the derived discount', async () => {
    const created = await createProduct(
      t.db,
      testProduct({ featured: true }),
      new Date('2026-01-01T00:00:00Z'),
    )
    const read = await getProductBySlug(t.db, 'test-product')
    expect(read).toEqual(created)
    expect(read).toMatchObject({
      price: 49_900,
      originalPrice: 99_900,
      discount: 50,
      featured: true,
      inStock: true,
      tags: ['a', 'b'],
      features: ['One', 'Two'],
      keywords: ['k'],
      createdAt: '2026-01-01T00:00:00.000Z',
    })
  })

  it('finds a product by slug or by id, preferring the slug', async () => {
    const byId = await createProduct(t.db, testProduct({ title: 'Other', slug: 'other' }))
    expect((await getProductBySlugOrId(t.db, byId.id))?.slug).toBe('other')
    expect((await getProductBySlugOrId(t.db, 'test-product'))?.title).toBe('Test Product')
    // A product whose slug equals another product's id wins over that product.
    await createProduct(t.db, testProduct({ title: 'Slug twin', slug: byId.id }))
    expect((await getProductBySlugOrId(t.db, byId.id))?.title).toBe('Slug twin')
    expect(await getProductBySlugOrId(t.db, 'missing')).toBeNull()
  })

  it('lists newest first and filters featured products and categories case-insensitively', async () => {
    await createProduct(
      t.db,
      testProduct({ title: 'Theme', slug: 'theme', category: 'WordPress Themes' }),
      new Date('2030-01-01T00:00:00Z'),
    )
    const all = await listProducts(t.db)
    expect(all[0]?.slug).toBe('theme')
    expect(all).toHaveLength(await countProducts(t.db))
    expect((await listProducts(t.db, { featured: true })).map((p) => p.slug)).toEqual([
      'test-product',
    ])
    expect((await listProducts(t.db, { category: 'wordpress THEMES' })).map((p) => p.slug)).toEqual(
      ['theme'],
    )
  })

  it('lists the categories in display order', async () => {
    const categories = await listCategories(t.db)
    expect(categories).toHaveLength(12)
    expect(categories[0]).toBe('Streaming')
    expect(categories.at(-1)).toBe('Education')
  })
})
