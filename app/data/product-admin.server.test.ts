import { beforeEach, describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { productInput } from '../../tests/factories'
import {
  copyNames,
  countProductsUsingImage,
  createProduct,
  createProductChecked,
  deleteProduct,
  duplicateProduct,
  getProductById,
  getProductBySlug,
  isSlugTaken,
  listProductsPage,
  productImageKeysIn,
  productImageKeysInUse,
  productStats,
  SlugTakenError,
  updateProduct,
  type ProductInput,
} from './product.server'

/** The admin catalogue's data functions, on SQLite and on PostgreSQL. */
const t = fileTestDb()
beforeEach(async () => {
  await t.db.deleteFrom('product').execute()
})

let sequence = 0
/** A product of the admin's form, each with a picture of its own. */
function input(overrides: Partial<ProductInput> = {}): ProductInput {
  sequence += 1
  return productInput({
    image: `products/${sequence}_img.png`,
    price: 49_900,
    originalPrice: 99_900,
    ...overrides,
  })
}

/**
 * productStats counts `total` products, `active` of them in stock. Its rating figures come from
 * buyers' reviews (app/services/reviews.db.test.ts): none here.
 */
async function expectProductCounts(total: number, active: number) {
  expect(await productStats(t.db)).toEqual({ total, active, averageRating: 0, totalReviews: 0 })
}

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute))

describe(`admin product data (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('computes the figures over every product, not a page', async () => {
    await expectProductCounts(0, 0)
    for (let i = 0; i < 25; i += 1) {
      await createProduct(t.db, input({ inStock: i % 5 !== 0 }), at(i))
    }
    const page = await listProductsPage(t.db, { pageSize: 10 })
    expect(page.items).toHaveLength(10)
    await expectProductCounts(25, 20)
  })

  it('pages newest first, clamps the page, and reports the totals', async () => {
    for (let i = 0; i < 45; i += 1)
      await createProduct(t.db, input({ title: `Item ${String(i).padStart(2, '0')}` }), at(i))
    const first = await listProductsPage(t.db, { pageSize: 20 })
    expect(first).toMatchObject({ total: 45, page: 1, pageSize: 20, pageCount: 3 })
    expect(first.items[0]?.title).toBe('Item 44')
    const third = await listProductsPage(t.db, { page: 3, pageSize: 20 })
    expect(third.items.map((item) => item.title)).toEqual([
      'Item 04',
      'Item 03',
      'Item 02',
      'Item 01',
      'Item 00',
    ])
    expect((await listProductsPage(t.db, { page: 99, pageSize: 20 })).page).toBe(3)
    expect((await listProductsPage(t.db, { page: -4, pageSize: 20 })).page).toBe(1)
    // Only the table's columns, with numbers and booleans as such.
    expect(Object.keys(first.items[0]!).sort()).toEqual(
      [
        'buyNowLink',
        'category',
        'deliveryMode',
        'id',
        'image',
        'inStock',
        'originalPrice',
        'price',
        'rating',
        'reviews',
        'slug',
        'title',
      ].sort(),
    )
    expect(first.items[0]).toMatchObject({
      price: 49_900,
      inStock: true,
      rating: 0,
      reviews: 0,
      deliveryMode: 'manual',
    })
  })

  it('searches titles in any case, with % and _ taken literally, and filters by category', async () => {
    await createProduct(t.db, input({ title: 'StreamMax Premium', category: 'Streaming' }), at(1))
    await createProduct(
      t.db,
      input({ title: 'Office Suite 100% Pro', category: 'Software' }),
      at(2),
    )
    await createProduct(t.db, input({ title: 'Office_Suite Basic', category: 'Software' }), at(3))
    await createProduct(t.db, input({ title: 'streammax lite', category: 'Software' }), at(4))
    const titles = async (search: string, category?: string) =>
      (await listProductsPage(t.db, { search, category })).items.map((item) => item.title)
    expect(await titles('STREAMMAX')).toEqual(['streammax lite', 'StreamMax Premium'])
    expect(await titles('streammax', 'Streaming')).toEqual(['StreamMax Premium'])
    expect(await titles('100%')).toEqual(['Office Suite 100% Pro'])
    expect(await titles('e_s')).toEqual(['Office_Suite Basic'])
    expect(await titles('%')).toEqual(['Office Suite 100% Pro'])
    expect(await titles('', 'Software')).toHaveLength(3)
    expect(await listProductsPage(t.db, { search: 'nothing like it' })).toMatchObject({
      total: 0,
      items: [],
      page: 1,
      pageCount: 1,
    })
  })

  it('updates every field, keeps id and createdAt, and refuses another product’s slug', async () => {
    const product = await createProduct(t.db, input({ slug: 'original' }), at(0))
    const other = await createProduct(t.db, input({ slug: 'taken' }), at(1))
    const changes = input({
      title: 'Renamed',
      slug: 'renamed',
      price: 12_345,
      originalPrice: 20_000,
      featured: true,
      inStock: false,
      buyNowLink: 'https://example.in/buy',
      tags: ['x', 'y'],
      features: ['A', 'B'],
      keywords: ['k'],
      metaTitle: 'Meta',
    })
    const updated = await updateProduct(t.db, product.id, changes, at(30))
    expect(updated).toMatchObject({
      ...changes,
      id: product.id,
      createdAt: product.createdAt,
      updatedAt: at(30).toISOString(),
      discount: 38,
    })
    expect(await getProductById(t.db, product.id)).toEqual(updated)

    await expect(updateProduct(t.db, product.id, input({ slug: 'taken' }))).rejects.toBeInstanceOf(
      SlugTakenError,
    )
    // Keeping its own slug is fine.
    expect(
      await updateProduct(t.db, other.id, input({ slug: 'taken', title: 'Same slug' })),
    ).toMatchObject({ title: 'Same slug' })
    expect(await updateProduct(t.db, 'no-such-product', input())).toBeNull()
  })

  it('creates with a slug check, even when two saves race past the first check', async () => {
    await createProductChecked(t.db, input({ slug: 'unique' }))
    await expect(createProductChecked(t.db, input({ slug: 'unique' }))).rejects.toBeInstanceOf(
      SlugTakenError,
    )
    expect(await isSlugTaken(t.db, 'unique')).toBe(true)
    const results = await Promise.allSettled([
      createProductChecked(t.db, input({ slug: 'race' })),
      createProductChecked(t.db, input({ slug: 'race' })),
    ])
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    const failed = results.find((result) => result.status === 'rejected')
    expect(failed?.status === 'rejected' && failed.reason).toBeInstanceOf(SlugTakenError)
  })

  it('deletes a product and says what it was (its image is the caller’s to remove)', async () => {
    const product = await createProduct(t.db, input({ title: 'Gone', image: 'products/gone.png' }))
    expect(await deleteProduct(t.db, product.id)).toEqual({
      id: product.id,
      title: 'Gone',
      image: 'products/gone.png',
    })
    expect(await getProductById(t.db, product.id)).toBeNull()
    expect(await deleteProduct(t.db, product.id)).toBeNull()
  })

  it('keeps orders when their product is deleted (the order keeps the product name)', async () => {
    const product = await createProduct(t.db, input({ title: 'Sold once' }))
    const now = new Date().toISOString()
    await t.db
      .insertInto('order')
      .values({
        id: 'ORD_1_1',
        productId: product.id,
        productName: 'Sold once',
        amount: 49_900,
        customerName: 'Asha',
        customerEmail: 'asha@example.in',
        customerPhone: '9876543210',
        accessTokenHash: 'hash-1',
        createdAt: now,
        updatedAt: now,
      })
      .execute()
    expect(await deleteProduct(t.db, product.id)).not.toBeNull()
    const order = await t.db
      .selectFrom('order')
      .select(['productId', 'productName'])
      .where('id', '=', 'ORD_1_1')
      .executeTakeFirstOrThrow()
    expect(order).toEqual({ productId: null, productName: 'Sold once' })
    await t.db.deleteFrom('order').execute()
  })

  it('counts the products showing an image', async () => {
    const a = await createProduct(t.db, input({ image: 'products/shared.png' }))
    await createProduct(t.db, input({ image: 'products/shared.png' }))
    expect(await countProductsUsingImage(t.db, 'products/shared.png')).toBe(2)
    expect(await countProductsUsingImage(t.db, 'products/shared.png', a.id)).toBe(1)
    expect(await countProductsUsingImage(t.db, 'products/none.png')).toBe(0)
  })

  it('counts a product showing an image through one of our URLs for it as showing it', async () => {
    const key = 'products/1715_ab12.png'
    const forms = [
      `/images/${key}?w=640&v=abc`,
      `/uploads/${key}`,
      `https://shop.example.in/uploads/${key}`,
      `https://cdn.example.in/${key}`,
      '/uploads/products%2F1715_ab12.png',
    ]
    for (const image of forms) expect(productImageKeysIn(image)).toEqual(new Set([key]))
    const [first] = await Promise.all(forms.map((image) => createProduct(t.db, input({ image }))))
    expect(await countProductsUsingImage(t.db, key)).toBe(forms.length)
    expect(await countProductsUsingImage(t.db, key, first!.id)).toBe(forms.length - 1)
    // A longer name that starts like it, or the same name elsewhere than products/, is another file.
    await createProduct(t.db, input({ image: 'products/1715_ab12.png.bak' }))
    await createProduct(t.db, input({ image: 'https://elsewhere.example/1715_ab12.png' }))
    expect(await countProductsUsingImage(t.db, 'products/1715_ab12.pn')).toBe(0)
    expect(await countProductsUsingImage(t.db, key)).toBe(forms.length)
    expect(await productImageKeysInUse(t.db)).toEqual(new Set([key, 'products/1715_ab12.png.bak']))
  })

  it('duplicates with " (Copy)" and "-copy", made unique, with a new id and timestamps', async () => {
    const source = await createProduct(
      t.db,
      input({ title: 'CineNova', slug: 'cinenova', featured: true, tags: ['t'] }),
      at(0),
    )
    const first = await duplicateProduct(t.db, source.id, {
      now: at(10),
      image: 'products/copied.png',
    })
    expect(first).toMatchObject({
      title: 'CineNova (Copy)',
      slug: 'cinenova-copy',
      image: 'products/copied.png',
      featured: true,
      tags: ['t'],
      price: source.price,
      createdAt: at(10).toISOString(),
      updatedAt: at(10).toISOString(),
    })
    expect(first?.id).not.toBe(source.id)
    const second = await duplicateProduct(t.db, source.id, { now: at(11) })
    expect(second).toMatchObject({
      title: 'CineNova (Copy 2)',
      slug: 'cinenova-copy-2',
      image: source.image,
    })
    // A copy of a copy, and a gap in the numbers, still find a free slug.
    await t.db.deleteFrom('product').where('slug', '=', 'cinenova-copy').execute()
    expect((await duplicateProduct(t.db, source.id))?.slug).toBe('cinenova-copy')
    expect((await duplicateProduct(t.db, second!.id))?.slug).toBe('cinenova-copy-2-copy')
    expect(await getProductBySlug(t.db, 'cinenova')).toEqual(source)
    expect(await duplicateProduct(t.db, 'no-such-product')).toBeNull()
    expect(copyNames('A', 'a', 3)).toEqual({ title: 'A (Copy 3)', slug: 'a-copy-3' })
  })

  it('serves a page and the figures of 5,000 products', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      id: `bulk${String(i).padStart(5, '0')}`,
      title: `Bulk product ${i}`,
      slug: `bulk-product-${i}`,
      price: 10_000 + i,
      originalPrice: 20_000,
      category: i % 2 ? 'Software' : 'Streaming',
      inStock: i % 10 ? 1 : 0,
      createdAt: at(i).toISOString(),
      updatedAt: at(i).toISOString(),
    }))
    for (let i = 0; i < rows.length; i += 500)
      await t.db
        .insertInto('product')
        .values(rows.slice(i, i + 500))
        .execute()
    const page = await listProductsPage(t.db, {
      category: 'Software',
      search: 'product 49',
      page: 2,
      pageSize: 20,
    })
    expect(page.total).toBe(56)
    expect(page.items).toHaveLength(20)
    await expectProductCounts(5000, 4500)
  })
})
