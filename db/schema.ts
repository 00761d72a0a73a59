import type { Generated, Insertable, Selectable, Updateable } from 'kysely'

/**
 * Kysely's view of the database, in camelCase (the CamelCasePlugin maps to the
 * snake_case columns). Booleans are stored as 0/1 integers and timestamps as
 * ISO-8601 UTC text so that both engines behave the same; see
 * docs/decisions/0002-kysely-with-two-engines.md.
 */
export interface Database {
  category: CategoryTable
  product: ProductTable
  siteSetting: SiteSettingTable
}

export interface CategoryTable {
  name: string
  slug: string
  sortOrder: number
}

export interface ProductTable {
  id: string
  title: string
  slug: string
  description: string
  shortDescription: string
  /** Storage key under the storage root (e.g. products/1715_ab12.webp) or an absolute URL. */
  image: string
  /** Sale price in paise. */
  price: number
  /** Original (struck-through) price in paise. */
  originalPrice: number
  category: string
  featured: number
  inStock: number
  buyNowLink: string | null
  /** JSON array of strings. */
  tags: string
  validity: string
  deliveryTime: string
  /** JSON array of strings. */
  features: string
  metaTitle: string
  metaDescription: string
  /** JSON array of strings. */
  keywords: string
  rating: number
  reviews: number
  createdAt: string
  updatedAt: string
}

export interface SiteSettingTable {
  key: string
  /** JSON value. */
  value: string
  updatedAt: string
}

export type ProductRow = Selectable<ProductTable>
export type NewProductRow = Insertable<ProductTable>
export type ProductRowUpdate = Updateable<ProductTable>
// Re-exported so later tables can use it without importing kysely here.
export type { Generated }
