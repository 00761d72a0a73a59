import { sql } from 'kysely'
import type { DB } from '~/lib/db.server'
import { toFlag } from '~/lib/db.server'
import { newId } from '~/lib/id.server'
import { discountPercent } from '~/lib/money'
import type { ProductRow } from '../../db/schema'

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
  rating: number
  reviews: number
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
  'rating',
  'reviews',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof ProductRow)[]

function parseList(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json)
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
  } catch {
    return []
  }
}

function toProduct(row: ProductRow): Product {
  return {
    ...row,
    // PostgreSQL returns REAL columns as numbers, SQLite too; Number() keeps both honest.
    rating: Number(row.rating),
    reviews: Number(row.reviews),
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

function toRow(input: ProductInput) {
  return {
    ...input,
    featured: toFlag(input.featured),
    inStock: toFlag(input.inStock),
    tags: JSON.stringify(input.tags),
    features: JSON.stringify(input.features),
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
