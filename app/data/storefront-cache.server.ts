import type { DB } from '~/lib/db.server'
import { readCache } from '~/lib/read-cache.server'
import {
  listCategories,
  listProducts,
  stockLeftByProduct,
  type ItemsCounted,
  type Product,
} from './product.server'
import {
  ratingDistribution,
  readReviewPage,
  reviewSummaries,
  type ReviewScope,
  type ReviewSort,
  type ReviewSummary,
  type SharedReviewPage,
} from './review.server'

/**
 * The storefront's shop-wide reads (the catalogue, its categories, stock and rating summaries),
 * shared by every page for up to a second and dropped at once by a write in this process
 * (app/lib/read-cache.server.ts). Each page then asks the database only for what is its own (a
 * product page: its reviews). Prices and stock are decided again at checkout, inside its
 * transaction, so a copy a second old never sells what is gone.
 */
const products = readCache<'all', Product[]>(['product'])
const categories = readCache<'all', string[]>(['category'])
const stock = readCache<string, Map<string, number>>(['product', 'stockItem'])
// Keyed by the review scope too: a gateway change that makes the shop live reads them anew.
const ratings = readCache<string, Map<string, ReviewSummary>>(['review'])
const distributions = readCache<string, Array<{ stars: number; count: number }>>(['review'])
// Reviewers' names come from the user table.
const reviewPages = readCache<string, SharedReviewPage>(['review', 'user'])

/** Every product, newest first (listProducts without a filter). Do not change the objects. */
export function catalogue(db: DB): Promise<Product[]> {
  return products.get(db, 'all', () => listProducts(db))
}

export function catalogueCategories(db: DB): Promise<string[]> {
  return categories.get(db, 'all', () => listCategories(db))
}

/** The product page parameter may be a slug or an id; the slug wins (getProductBySlugOrId). */
export async function catalogueProduct(db: DB, slugOrId: string): Promise<Product | null> {
  const all = await catalogue(db)
  return (
    all.find((product) => product.slug === slugOrId) ??
    all.find((product) => product.id === slugOrId) ??
    null
  )
}

/** The entries of `all` for `ids` (all of them when omitted). */
function pick<T>(all: Map<string, T>, ids: readonly string[] | undefined): Map<string, T> {
  if (!ids) return all
  return new Map(ids.flatMap((id) => (all.has(id) ? [[id, all.get(id)!] as const] : [])))
}

/**
 * stockLeftByProduct with `upTo`, of the given products (every one when omitted); `testItems`
 * is testItemsOnSale (app/services/payment/offered-gateways.server.ts).
 */
export async function catalogueStockLeft(
  db: DB,
  ids: readonly string[] | undefined,
  options: { upTo: number; testItems: ItemsCounted },
): Promise<Map<string, number>> {
  const { upTo, testItems } = options
  const all = await stock.get(db, `${upTo}:${testItems}`, () =>
    stockLeftByProduct(db, undefined, { upTo, testItems }),
  )
  return pick(all, ids)
}

/**
 * reviewSummaries of the given products (every one when omitted); `scope` is
 * storefrontReviewScope (app/services/reviews.server.ts), as for the two below.
 */
export async function catalogueRatings(
  db: DB,
  ids: readonly string[] | undefined,
  scope: ReviewScope,
): Promise<Map<string, ReviewSummary>> {
  const all = await ratings.get(db, JSON.stringify(scope), () =>
    reviewSummaries(db, undefined, scope),
  )
  return pick(all, ids)
}

/** ratingDistribution of one product. */
export function catalogueRatingDistribution(
  db: DB,
  productId: string,
  scope: ReviewScope,
): Promise<Array<{ stars: number; count: number }>> {
  return distributions.get(db, JSON.stringify([productId, scope]), () =>
    ratingDistribution(db, productId, scope),
  )
}

/**
 * One page of a product's reviews as anybody sees it (readReviewPage); the viewer's own marks
 * come from viewerMarks (app/data/review.server.ts).
 */
export function catalogueReviewPage(
  db: DB,
  productId: string,
  options: { scope: ReviewScope; sort: ReviewSort; page: number; total: number },
): Promise<SharedReviewPage> {
  const key = JSON.stringify([productId, options.scope, options.sort, options.page, options.total])
  return reviewPages.get(db, key, () => readReviewPage(db, productId, options))
}
