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

/** Columns with a database default are Generated<>: optional on insert. */
export interface ProductTable {
  id: string
  title: string
  slug: string
  description: Generated<string>
  shortDescription: Generated<string>
  /** Storage key under the storage root (e.g. products/1715_ab12.webp) or an absolute URL. */
  image: Generated<string>
  /** Sale price in paise. */
  price: number
  /** Original (struck-through) price in paise. */
  originalPrice: number
  category: Generated<string>
  featured: Generated<number>
  inStock: Generated<number>
  buyNowLink: string | null
  /** JSON array of strings. */
  tags: Generated<string>
  validity: Generated<string>
  deliveryTime: Generated<string>
  /** JSON array of strings. */
  features: Generated<string>
  metaTitle: Generated<string>
  metaDescription: Generated<string>
  /** JSON array of strings. */
  keywords: Generated<string>
  rating: Generated<number>
  reviews: Generated<number>
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
