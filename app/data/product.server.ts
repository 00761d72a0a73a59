import { sql } from 'kysely'
import type { DB } from '~/lib/db.server'
import { engineOf, toFlag } from '~/lib/db.server'
import { newId } from '~/lib/id.server'
import { discountPercent } from '~/lib/money'
import { paginate } from '~/lib/paginate'
import { containsAny } from '~/lib/sql-contains'
import type { ItemsByKind, StockKinds } from '~/lib/stock-status'
import type { DeliveryMode, ProductRow } from '../../db/schema'
import {
  type ReviewScope,
  reviewSummaries,
  shopReviewStats,
  WITH_TEST_ORDERS,
} from './review.server'
import { copyProductDelivery } from './stock.server'

/** A product as the app uses it: parsed lists, real booleans, prices in paise. */
export interface Product {
  id: string
  title: string
  slug: string
  description: string
  shortDescription: string
  image: string
  price: number
  originalPrice: number
  /** Rounded percent off the original price (derived, never stored). */
  discount: number
  category: string
  featured: boolean
  inStock: boolean
  buyNowLink: string | null
  tags: string[]
  validity: string
  deliveryTime: string
  features: string[]
  metaTitle: string
  metaDescription: string
  keywords: string[]
  createdAt: string
  updatedAt: string
}

export type ProductInput = Omit<Product, 'id' | 'discount' | 'createdAt' | 'updatedAt'>

const productColumns = [
  'id',
  'title',
  'slug',
  'description',
  'shortDescription',
  'image',
  'price',
  'originalPrice',
  'category',
  'featured',
  'inStock',
  'buyNowLink',
  'tags',
  'validity',
  'deliveryTime',
  'features',
  'metaTitle',
  'metaDescription',
  'keywords',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof ProductRow)[]

function parseList(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json)
    return Array.isArray(value)
      ? value.filter((item): item is string => typeof item === 'string')
      : []
  } catch {
    return []
  }
}

function toProduct(row: ProductRow): Product {
  return {
    ...row,
    price: Number(row.price),
    originalPrice: Number(row.originalPrice),
    discount: discountPercent(Number(row.price), Number(row.originalPrice)),
    featured: Boolean(row.featured),
    inStock: Boolean(row.inStock),
    tags: parseList(row.tags),
    features: parseList(row.features),
    keywords: parseList(row.keywords),
  }
}

/**
 * The product's own columns, named one by one: an input object carrying more (a form's
 * delivery fields, a plaintext shared secret) never reaches the table by accident.
 */
function toRow(input: ProductInput) {
  return {
    title: input.title,
    slug: input.slug,
    description: input.description,
    shortDescription: input.shortDescription,
    image: input.image,
    price: input.price,
    originalPrice: input.originalPrice,
    category: input.category,
    featured: toFlag(input.featured),
    inStock: toFlag(input.inStock),
    buyNowLink: input.buyNowLink,
    tags: JSON.stringify(input.tags),
    validity: input.validity,
    deliveryTime: input.deliveryTime,
    features: JSON.stringify(input.features),
    metaTitle: input.metaTitle,
    metaDescription: input.metaDescription,
    keywords: JSON.stringify(input.keywords),
  }
}

export interface ProductFilter {
  featured?: boolean
  /** Compared case-insensitively, as the spec's category chips do. */
  category?: string
  limit?: number
}

/** Products, newest first. */
export async function listProducts(db: DB, filter: ProductFilter = {}): Promise<Product[]> {
  let query = db.selectFrom('product').select(productColumns)
  if (filter.featured !== undefined) query = query.where('featured', '=', toFlag(filter.featured))
  if (filter.category) {
    query = query.where(sql`lower(category)`, '=', filter.category.toLowerCase())
  }
  if (filter.limit) query = query.limit(filter.limit)
  const rows = await query.orderBy('createdAt', 'desc').orderBy('id').execute()
  return rows.map(toProduct)
}

/** A product as the back office's product pickers list it (the Payment Links form's). */
export interface ProductChoice {
  id: string
  title: string
  price: number
  /** What sellableNow reads besides the stock (productAvailability). */
  inStock: boolean
  buyNowLink: string | null
}

/**
 * Every product, newest first as listProducts orders them, with only what a picker shows and
 * sellableNow (app/services/payment/offered-gateways.server.ts) needs: not the descriptions,
 * lists and SEO text listProducts reads, which the Payment Links page would load on every view
 * and after every action for nothing.
 */
export async function listProductChoices(db: DB): Promise<ProductChoice[]> {
  const rows = await db
    .selectFrom('product')
    .select(['id', 'title', 'price', 'inStock', 'buyNowLink'])
    .orderBy('createdAt', 'desc')
    .orderBy('id')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    price: Number(row.price),
    inStock: Boolean(row.inStock),
    buyNowLink: row.buyNowLink,
  }))
}

/** The product page parameter may be a slug or an id; the slug wins. */
export async function getProductBySlugOrId(db: DB, slugOrId: string): Promise<Product | null> {
  const row = await db
    .selectFrom('product')
    .select(productColumns)
    .where((eb) => eb.or([eb('slug', '=', slugOrId), eb('id', '=', slugOrId)]))
    .orderBy(sql`case when slug = ${slugOrId} then 0 else 1 end`)
    .executeTakeFirst()
  return row ? toProduct(row) : null
}

export async function getProductBySlug(db: DB, slug: string): Promise<Product | null> {
  const row = await db
    .selectFrom('product')
    .select(productColumns)
    .where('slug', '=', slug)
    .executeTakeFirst()
  return row ? toProduct(row) : null
}

export async function countProducts(db: DB): Promise<number> {
  const { count } = await db
    .selectFrom('product')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(count)
}

/** Inserts a product; `now` is injectable so seeds can order products deterministically. */
export async function createProduct(
  db: DB,
  input: ProductInput,
  now: Date = new Date(),
): Promise<Product> {
  const timestamp = now.toISOString()
  const row = { id: newId(), ...toRow(input), createdAt: timestamp, updatedAt: timestamp }
  await db.insertInto('product').values(row).execute()
  return toProduct(row)
}

/** The category names in display order. */
export async function listCategories(db: DB): Promise<string[]> {
  const rows = await db.selectFrom('category').select('name').orderBy('sortOrder').execute()
  return rows.map((row) => row.name)
}

// ---------------------------------------------------------------------------------------
// The admin catalogue: one product by id, the paginated list with its figures,
// update, delete and duplicate.

export async function getProductById(db: DB, id: string): Promise<Product | null> {
  const row = await db
    .selectFrom('product')
    .select(productColumns)
    .where('id', '=', id)
    .executeTakeFirst()
  return row ? toProduct(row) : null
}

/** The admin list's figures, over every product (never just the page on screen). */
export interface ProductStats {
  total: number
  /**
   * Buyers can order them now (shown as Active): switched on and, for a product delivered from
   * stock, holding an item of a kind that sells now (app/lib/stock-status.ts, `forSale`).
   */
  active: number
  /** Mean rating of the reviews the shop shows (its review scope), 0 without reviews. */
  averageRating: number
  /** Reviews the shop shows. */
  totalReviews: number
}

export async function productStats(
  db: DB,
  scope: ReviewScope = WITH_TEST_ORDERS,
  kinds: StockKinds = 'both',
): Promise<ProductStats> {
  const row = await db
    .selectFrom('product')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('total'),
      eb.fn
        .sum<number | string | null>(sql`case when ${forSaleNow(kinds)} then 1 else 0 end`)
        .as('active'),
    ])
    .executeTakeFirstOrThrow()
  const reviews = await shopReviewStats(db, scope)
  // PostgreSQL answers bigint and numeric as text; SQLite as numbers (or null on no rows).
  return {
    total: Number(row.total),
    active: Number(row.active ?? 0),
    averageRating: reviews.average,
    totalReviews: reviews.count,
  }
}

/**
 * `forSale` (app/lib/stock-status.ts) of the product row in SQL: switched on, and sent to a buy
 * now link, delivered by hand, a shared secret outside test mode, or from stock with an
 * available item of `kinds` (one index probe per product, stock_item_allocation_idx).
 */
function forSaleNow(kinds: StockKinds) {
  const kind =
    kinds === 'both' ? sql`` : sql`and stock_item.test_item = ${sql.lit(kinds === 'test' ? 1 : 0)}`
  // Test mode never delivers a shared secret (docs/delivery.md, "Test mode").
  const otherModes = kinds === 'test' ? sql`'manual'` : sql`'manual', 'shared'`
  return sql`(product.in_stock = 1 and (coalesce(product.buy_now_link, '') <> ''
    or product.delivery_mode in (${otherModes})
    or (product.delivery_mode = 'stock' and exists (select 1 from stock_item
      where stock_item.product_id = product.id ${kind} and stock_item.status = 'available'))))`
}

/** One row of the admin products table: only what the table shows. */
export interface ProductListItem {
  id: string
  title: string
  slug: string
  image: string
  price: number
  originalPrice: number
  category: string
  inStock: boolean
  /** From the product's visible reviews (app/data/review.server.ts). */
  rating: number
  reviews: number
  deliveryMode: DeliveryMode
  /** Buyers go there instead of checkout (whether it sells: app/lib/stock-status.ts). */
  buyNowLink: string | null
}

export interface ProductPageQuery {
  /** Part of the title, any case. */
  search?: string
  /** Exact category name. */
  category?: string
  /** 1-based; clamped to the last page. */
  page?: number
  pageSize?: number
}

export interface ProductPage {
  items: ProductListItem[]
  /** Products matching the search and category. */
  total: number
  page: number
  pageSize: number
  pageCount: number
}

export const ADMIN_PAGE_SIZE = 20

/**
 * A page of products, newest first, filtered in SQL: 5,000 products cost one count and one
 * page of rows, in a few milliseconds on either engine (migration 0030's indexes serve the order).
 */
export async function listProductsPage(
  db: DB,
  query: ProductPageQuery = {},
  scope: ReviewScope = WITH_TEST_ORDERS,
): Promise<ProductPage> {
  const search = query.search?.trim()
  let base = db.selectFrom('product')
  if (search) base = base.where(containsAny([sql`lower(title)`], search))
  if (query.category) base = base.where('category', '=', query.category)

  const { count } = await base
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  const total = Number(count)
  const { page, pageSize, pageCount, offset } = paginate(total, query, {
    defaultSize: ADMIN_PAGE_SIZE,
    maxSize: 100,
  })
  const rows = await base
    .select([
      'id',
      'title',
      'slug',
      'image',
      'price',
      'originalPrice',
      'category',
      'inStock',
      'deliveryMode',
      'buyNowLink',
    ])
    // Both descending, so the (category,) created_at, id indexes serve it read backwards.
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize)
    .offset(offset)
    .execute()
  const summaries = await reviewSummaries(
    db,
    rows.map((row) => row.id),
    scope,
  )
  return {
    items: rows.map((row) => ({
      ...row,
      price: Number(row.price),
      originalPrice: Number(row.originalPrice),
      inStock: Boolean(row.inStock),
      rating: summaries.get(row.id)?.average ?? 0,
      reviews: summaries.get(row.id)?.count ?? 0,
    })),
    total,
    page,
    pageSize,
    pageCount,
  }
}

/** Whether another product (not `exceptId`) already has the slug. */
export async function isSlugTaken(db: DB, slug: string, exceptId?: string): Promise<boolean> {
  let query = db.selectFrom('product').select('id').where('slug', '=', slug)
  if (exceptId) query = query.where('id', '!=', exceptId)
  return (await query.executeTakeFirst()) !== undefined
}

/** The slug belongs to another product (checked first; the unique index settles races). */
export class SlugTakenError extends Error {
  override name = 'SlugTakenError'
  constructor(readonly slug: string) {
    super(`The slug "${slug}" is already used by another product`)
  }
}

/** Runs a write; a unique-index failure caused by the slug becomes SlugTakenError. */
async function guardSlug<T>(
  db: DB,
  slug: string,
  exceptId: string | undefined,
  write: () => Promise<T>,
): Promise<T> {
  if (await isSlugTaken(db, slug, exceptId)) throw new SlugTakenError(slug)
  try {
    return await write()
  } catch (error) {
    if (await isSlugTaken(db, slug, exceptId)) throw new SlugTakenError(slug)
    throw error
  }
}

/** Like createProduct, but a taken slug throws SlugTakenError (the admin form's field error). */
export async function createProductChecked(
  db: DB,
  input: ProductInput,
  now: Date = new Date(),
): Promise<Product> {
  return guardSlug(db, input.slug, undefined, () => createProduct(db, input, now))
}

/** Replaces a product's fields (id and createdAt stay); null when there is no such product. */
export async function updateProduct(
  db: DB,
  id: string,
  input: ProductInput,
  now: Date = new Date(),
): Promise<Product | null> {
  return guardSlug(db, input.slug, id, async () => {
    const result = await db
      .updateTable('product')
      .set({ ...toRow(input), updatedAt: now.toISOString() })
      .where('id', '=', id)
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) === 0) return null
    return getProductById(db, id)
  })
}

/** Deletes a product; returns what was deleted (its image is the caller's to remove), or null. */
export async function deleteProduct(
  db: DB,
  id: string,
): Promise<Pick<Product, 'id' | 'title' | 'image'> | null> {
  // One statement, so it can run inside the caller's transaction.
  const row = await db
    .deleteFrom('product')
    .where('id', '=', id)
    .returning(['id', 'title', 'image'])
    .executeTakeFirst()
  return row ?? null
}

/**
 * Takes a product's row for the rest of the transaction, before deciding whether it may be
 * deleted, or whether an edit still applies to it. On PostgreSQL a FOR UPDATE lock: an order
 * being created for the product holds a key-share lock on the row (its foreign key) until it
 * commits, so this waits for it and the count that follows sees the order; an order whose insert
 * comes later waits for the delete and then fails its foreign key, which createOrder reports as
 * "Product not found". Two edits of one product take turns the same way, and the second reads
 * the first's values (updateProductAudited in app/services/product-admin.server.ts). On SQLite
 * the transaction already holds the database's single write lock from its start (BEGIN
 * IMMEDIATE, app/lib/db.server.ts), so a plain read is enough. Call it inside the transaction
 * that deletes or edits. An edit (`for: 'edit'`) takes FOR NO KEY UPDATE instead, the lock its
 * own UPDATE takes anyway: two edits still take turns, but a checkout's order insert (whose
 * foreign key takes a key-share lock on the product) does not wait for the edit.
 */
export async function lockProduct(
  db: DB,
  id: string,
  options: { for?: 'delete' | 'edit' } = {},
): Promise<boolean> {
  const postgres = engineOf(db) === 'postgres'
  // A delete on PostgreSQL holds the product's orders first, in the order a payment takes them
  // (its order's row, then the product's: lockSharedDelivery, or the stock for an item): deleting
  // writes every order of the product (its foreign key is set to null), and waiting for those
  // after holding the product would deadlock with a late payment of one of them.
  if (postgres && options.for !== 'edit')
    await sql`select count(*) from (select 1 from "order" where product_id = ${id} for no key update) as held`.execute(
      db,
    )
  const row = await db
    .selectFrom('product')
    .select('id')
    .where('id', '=', id)
    .$if(postgres && options.for === 'edit', (qb) => qb.forNoKeyUpdate())
    .$if(postgres && options.for !== 'edit', (qb) => qb.forUpdate())
    .executeTakeFirst()
  return Boolean(row)
}

/**
 * A shared account's delivery mode and secret, read to deliver them (app/services/fulfilment.server.ts).
 * On PostgreSQL the row is held FOR SHARE: an edit that clears or replaces the secret first copies
 * it to each delivered order (keepSharedSecretForBuyers) with the row held FOR NO KEY UPDATE
 * (lockProduct), so a delivery waits for such an edit and reads what it left, or the edit waits
 * for the delivery and copies the secret to it. SQLite runs one writer at a time.
 */
export async function lockSharedDelivery(
  db: DB,
  id: string,
): Promise<{ deliveryMode: DeliveryMode; sharedSecret: string | null } | null> {
  const row = await db
    .selectFrom('product')
    .select(['deliveryMode', 'sharedSecret'])
    .where('id', '=', id)
    .$if(engineOf(db) === 'postgres', (qb) => qb.forShare())
    .executeTakeFirst()
  return row ?? null
}

/** Orders still to be paid or delivered, the statuses that keep a product from being deleted. */
export const OPEN_ORDER_STATUSES = ['pending', 'paid', 'awaiting_stock'] as const

/**
 * What a product's buyers are still owed or about to pay, which keeps it from being deleted:
 * real orders not finished yet (being paid, paid and waiting to be delivered by hand, waiting for
 * stock) and payment links not yet paid (a link makes its order only when the buyer opens it, and
 * stays payable until paid or cancelled). Simulated (test-mode) orders do not count: no buyer is
 * owed anything for them.
 */
export async function countOpenSales(
  db: DB,
  productId: string,
): Promise<{ orders: number; paymentLinks: number }> {
  const [orders, links] = await Promise.all([
    db
      .selectFrom('order')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('productId', '=', productId)
      .where('status', 'in', OPEN_ORDER_STATUSES)
      .where('testMode', '=', toFlag(false))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('paymentLink')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('productId', '=', productId)
      .where('status', '=', 'active')
      .executeTakeFirstOrThrow(),
  ])
  return { orders: Number(orders.count), paymentLinks: Number(links.count) }
}

/** A stored product image's key as it appears in an image value: the key, or inside a URL. */
const NAMED_PRODUCT_IMAGE = /products\/([A-Za-z0-9][A-Za-z0-9._-]{0,200})/g

/**
 * The stored product images (storage keys under products/) an image value shows: the key itself,
 * or one of our URLs for it (/images/<key>?w=..., /uploads/<key>, the storage's public URL,
 * whole or as a path, percent-encoded or not). A value saved through the product form is the
 * bare key (docs/admin.md, "Images"), but rows written before that, or copied from them, may
 * hold a URL; the product shows the file all the same.
 */
export function productImageKeysIn(image: string): Set<string> {
  const keys = new Set<string>()
  let decoded = image
  try {
    decoded = decodeURIComponent(image)
  } catch {
    // Not percent-encoded text: the value as it is.
  }
  for (const text of new Set([image, decoded])) {
    for (const [, name] of text.matchAll(NAMED_PRODUCT_IMAGE)) keys.add(`products/${name}`)
  }
  return keys
}

/**
 * How many products (other than `exceptId`) show this stored image, as its key or in one of our
 * URLs for it (productImageKeysIn). The database picks the products whose image names the file
 * in any case; productImageKeysIn decides.
 */
export async function countProductsUsingImage(
  db: DB,
  image: string,
  exceptId?: string,
): Promise<number> {
  const name = image.slice(image.lastIndexOf('/') + 1)
  let query = db
    .selectFrom('product')
    .select('image')
    .where((eb) =>
      eb.or([eb('image', '=', image), ...(name ? [containsAny([sql`lower(image)`], name)] : [])]),
    )
  if (exceptId) query = query.where('id', '!=', exceptId)
  const rows = await query.execute()
  return rows.filter((row) => row.image === image || productImageKeysIn(row.image).has(image))
    .length
}

/**
 * Every stored product image some product shows (productImageKeysIn over every product's image),
 * read in one query: the sweep of abandoned uploads keeps these (docs/admin.md, "Images").
 */
export async function productImageKeysInUse(db: DB): Promise<Set<string>> {
  const rows = await db
    .selectFrom('product')
    .select('image')
    .where(containsAny([sql`lower(image)`], 'products'))
    .execute()
  const keys = new Set<string>()
  for (const row of rows) for (const key of productImageKeysIn(row.image)) keys.add(key)
  return keys
}

/**
 * The title and slug of the n-th copy: ' (Copy)' and '-copy' first, then ' (Copy 2)' and
 * '-copy-2' and so on, so a copy never takes another product's slug.
 */
export function copyNames(title: string, slug: string, n: number): { title: string; slug: string } {
  return n === 1
    ? { title: `${title} (Copy)`, slug: `${slug}-copy` }
    : { title: `${title} (Copy ${n})`, slug: `${slug}-copy-${n}` }
}

/** The first free copy number for a slug (one query over the slugs that could clash). */
async function nextCopyNumber(db: DB, slug: string): Promise<number> {
  const base = `${slug}-copy`
  const rows = await db
    .selectFrom('product')
    .select('slug')
    // Slugs hold only a-z, 0-9 and hyphens, so the pattern has no wildcards of its own.
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute()
  const taken = new Set(rows.map((row) => row.slug))
  let n = 1
  while (taken.has(copyNames('', slug, n).slug)) n += 1
  return n
}

/**
 * What an admin sets on a product: all of it but its id, the discount (derived from the prices)
 * and its times. A copy starts from these, and the audit log compares them.
 */
export function productOwnFields(product: Product) {
  const {
    id: _id,
    discount: _discount,
    createdAt: _created,
    updatedAt: _updated,
    ...fields
  } = product
  return fields
}

/**
 * Copies a product: title ' (Copy)', slug '-copy' (made unique), a new id and
 * new timestamps; everything else as the source, except the image when `image` is given (the
 * caller copies the stored file, so deleting one product never removes the other's image).
 * Null when the source does not exist.
 */
export async function duplicateProduct(
  db: DB,
  id: string,
  options: { now?: Date; image?: string; appSecret?: string } = {},
): Promise<Product | null> {
  const source = await getProductById(db, id)
  if (!source) return null
  const fields = productOwnFields(source)
  // Two admins copying the same product at once: the loser of the unique index tries again.
  for (let attempt = 0; ; attempt += 1) {
    const names = copyNames(source.title, source.slug, await nextCopyNumber(db, source.slug))
    let copy: Product
    try {
      copy = await createProductChecked(
        db,
        { ...fields, ...names, image: options.image ?? source.image },
        options.now,
      )
    } catch (error) {
      if (!(error instanceof SlugTakenError) || attempt >= 4) throw error
      continue
    }
    // The copy sells the same way (never the stock itself: items belong to one product). If this
    // step failed the copy would stay `manual`, the safe default: nothing is sold unseen.
    await copyProductDelivery(db, options.appSecret ?? null, source.id, copy.id, options.now)
    return copy
  }
}

// ---------------------------------------------------------------------------------------
// Delivery and availability: how a product is delivered, and whether buyers can
// order it now. A `stock` product is available only while it has an available stock item.

/** The delivery settings the admin form shows; the shared secret itself never leaves here. */
export async function getProductDelivery(
  db: DB,
  id: string,
): Promise<{ mode: DeliveryMode; hasSharedSecret: boolean } | null> {
  const row = await db
    .selectFrom('product')
    .select(['deliveryMode', 'sharedSecret'])
    .where('id', '=', id)
    .executeTakeFirst()
  return row ? { mode: row.deliveryMode, hasSharedSecret: Boolean(row.sharedSecret) } : null
}

/**
 * The products among `ids` delivered as one shared account (deliveryMode 'shared'): a test-mode
 * order never gets the shared secret, so a simulator cannot sell them (app/data/order.server.ts).
 */
export async function sharedProductIds(db: DB, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set()
  const rows = await db
    .selectFrom('product')
    .select('id')
    .where('id', 'in', ids)
    .where('deliveryMode', '=', 'shared')
    .execute()
  return new Set(rows.map((row) => row.id))
}

/** Which items count as stock: real and test ones (true), real ones (false), test ones ('only'). */
export type ItemsCounted = boolean | 'only'

/**
 * Available stock items of the `stock` products among `ids` (every product when omitted).
 * Products delivered otherwise are absent: their availability is the owner's inStock alone.
 *
 * `testItems` says whether test items count: they sell only through a built-in simulator, so
 * while checkout offers none (testItemsOnSale, app/services/payment/offered-gateways.server.ts) a
 * product whose items are all test items is out of stock for buyers (docs/delivery.md). 'only'
 * counts test items alone: what a simulator can deliver.
 *
 * With `upTo`, each count stops there (the value is the smaller of the stock and `upTo`): the
 * storefront only asks whether an item is left, or whether only a few are. That reads at most
 * `upTo` index entries per product, however much stock was imported; a full count reads them all
 * (about 4 ms on SQLite at 15,000 items, 12 ms at 50,000, on every page that showed the product).
 */
export async function stockLeftByProduct(
  db: DB,
  ids: readonly string[] | undefined,
  options: { upTo?: number; testItems: ItemsCounted },
): Promise<Map<string, number>> {
  if (ids && ids.length === 0) return new Map()
  const { upTo, testItems } = options
  let query
  if (upTo === undefined) {
    query = db
      .selectFrom('product')
      .leftJoin('stockItem', (join) => {
        const available = join
          .onRef('stockItem.productId', '=', 'product.id')
          .on('stockItem.status', '=', 'available')
        return testItems === true
          ? available
          : available.on('stockItem.testItem', '=', testItems === 'only' ? 1 : 0)
      })
      .select((eb) => ['product.id', eb.fn.count<number | string>('stockItem.id').as('available')])
      .where('product.deliveryMode', '=', 'stock')
      .groupBy('product.id')
  } else {
    query = db
      .selectFrom('product')
      .select((eb) => [
        'product.id',
        eb
          .selectFrom(
            eb
              .selectFrom('stockItem')
              .select('stockItem.id')
              .whereRef('stockItem.productId', '=', 'product.id')
              .where('stockItem.status', '=', 'available')
              .$if(testItems !== true, (qb) =>
                qb.where('stockItem.testItem', '=', testItems === 'only' ? 1 : 0),
              )
              .limit(upTo)
              .as('few'),
          )
          .select((inner) => inner.fn.countAll<number | string>().as('count'))
          .as('available'),
      ])
      .where('product.deliveryMode', '=', 'stock')
  }
  if (ids) query = query.where('product.id', 'in', ids)
  const rows = await query.execute()
  return new Map(rows.map((row) => [row.id, Number(row.available ?? 0)]))
}

/**
 * Available items of the `stock` products among `ids`, real and test apart, counted in full (the
 * admin's list: a page of products). Products without any are absent.
 */
export async function stockByKind(
  db: DB,
  ids: readonly string[],
): Promise<Map<string, ItemsByKind>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .selectFrom('stockItem')
    .innerJoin('product', 'product.id', 'stockItem.productId')
    .select((eb) => [
      'stockItem.productId',
      'stockItem.testItem',
      eb.fn.countAll<number | string>().as('count'),
    ])
    .where('stockItem.productId', 'in', ids)
    .where('stockItem.status', '=', 'available')
    .where('product.deliveryMode', '=', 'stock')
    .groupBy(['stockItem.productId', 'stockItem.testItem'])
    .execute()
  const counts = new Map<string, ItemsByKind>()
  for (const row of rows) {
    if (row.productId === null) continue
    const kinds = counts.get(row.productId) ?? { real: 0, test: 0 }
    kinds[Number(row.testItem) ? 'test' : 'real'] += Number(row.count)
    counts.set(row.productId, kinds)
  }
  return counts
}

export interface Availability {
  /** Buyers can order it: the owner's switch is on and, for a `stock` product, an item is left. */
  inStock: boolean
  /** Items left for a `stock` product; null for other products (and for buy-now links). */
  stockLeft: number | null
}

/**
 * Whether a product can be ordered, from its inStock switch and its stock (stockLeftByProduct).
 * A buy now link sends buyers elsewhere and bypasses delivery, so the shop's stock does not
 * limit it, except at checkout (`viaCheckout`), where an order would be delivered from stock.
 */
export function productAvailability(
  product: { id: string; inStock: boolean; buyNowLink: string | null },
  stockLeft: ReadonlyMap<string, number>,
  options: { viaCheckout?: boolean } = {},
): Availability {
  const left = product.buyNowLink && !options.viaCheckout ? undefined : stockLeft.get(product.id)
  if (left === undefined) return { inStock: product.inStock, stockLeft: null }
  return { inStock: product.inStock && left > 0, stockLeft: left }
}
