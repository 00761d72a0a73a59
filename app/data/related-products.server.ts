import type { DB } from '~/lib/db.server'
import { productAvailability, type ItemsCounted, type Product } from './product.server'
import { catalogue, catalogueStockLeft } from './storefront-cache.server'

/**
 * The product page's "You may also like": other products of the same category, then products
 * sharing a tag (more shared tags first); buyable ones before out-of-stock ones, then
 * featured, then newest. Products with neither a category nor a tag in common are not
 * related and are never shown as filler.
 */
export const RELATED_LIMIT = 4

export interface RelatedProduct extends Product {
  /** Buyable now (the inStock switch and, for stock products, an item left). */
  available: boolean
}

const norm = (text: string) => text.trim().toLowerCase()

export async function relatedProducts(
  db: DB,
  product: Pick<Product, 'id' | 'category' | 'tags'>,
  options: { testItems: ItemsCounted; limit?: number },
): Promise<RelatedProduct[]> {
  const { testItems, limit = RELATED_LIMIT } = options
  const category = norm(product.category)
  const tags = new Set(product.tags.map(norm).filter(Boolean))
  const candidates = (await catalogue(db))
    .filter((other) => other.id !== product.id)
    .map((other) => {
      const sameCategory = category !== '' && norm(other.category) === category
      const shared = other.tags.filter((tag) => tags.has(norm(tag))).length
      return { other, sameCategory, shared }
    })
    .filter(({ sameCategory, shared }) => sameCategory || shared > 0)
  if (candidates.length === 0) return []
  const stockLeft = await catalogueStockLeft(
    db,
    candidates.map(({ other }) => other.id),
    { upTo: 1, testItems },
  )
  const ranked = candidates.map((candidate) => ({
    ...candidate,
    available: productAvailability(candidate.other, stockLeft).inStock,
  }))
  ranked.sort(
    (a, b) =>
      Number(b.available) - Number(a.available) ||
      Number(b.sameCategory) - Number(a.sameCategory) ||
      b.shared - a.shared ||
      Number(b.other.featured) - Number(a.other.featured) ||
      b.other.createdAt.localeCompare(a.other.createdAt) ||
      a.other.id.localeCompare(b.other.id),
  )
  return ranked.slice(0, limit).map(({ other, available }) => ({ ...other, available }))
}
