import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely'
import type { Database } from '../../db/schema'
import { engineOf, type DB } from '~/lib/db.server'
import { newId } from '~/lib/id.server'
import { paginate } from '~/lib/paginate'
import { DELETED_CUSTOMER_NAME } from './user.server'

/**
 * Reviews from verified buyers (db/migrations/0100_product_reviews.ts): one per delivered order,
 * written by the order's owner, 1 to 5 stars. Whether someone may write or change one is
 * decided by app/services/reviews.server.ts; these are the queries. Only shown reviews reach the
 * storefront and count towards a product's rating (shownUnder, docs/reviews.md): not hidden by
 * an admin, their order not refunded, and of a test-mode order only while the shop has no live
 * gateway.
 */

/** Which reviews the storefront shows besides those of real, unrefunded orders. */
export interface ReviewScope {
  /**
   * Reviews of test-mode orders count too: only while no live gateway is active
   * (storefrontReviewScope in app/services/reviews.server.ts).
   */
  testOrders: boolean
}

/**
 * Reviews of test-mode orders count, as on a shop in test mode: the default of the figures
 * below; the pages pass storefrontReviewScope's answer so they count what buyers see.
 */
export const WITH_TEST_ORDERS: ReviewScope = { testOrders: true }

/**
 * The reviews the storefront shows under `scope`: not hidden by an admin, their order not
 * refunded, and not of a test-mode order unless `scope.testOrders`.
 */
function shownUnder(scope: ReviewScope) {
  return (eb: ExpressionBuilder<Database, 'review'>) =>
    eb.and([
      eb('review.hidden', '=', 0),
      eb.exists(
        eb
          .selectFrom('order')
          .select('order.id')
          .whereRef('order.id', '=', 'review.orderId')
          .where('order.status', '!=', 'refunded')
          .$if(!scope.testOrders, (qb) => qb.where('order.testMode', '=', 0)),
      ),
    ])
}

export interface ReviewSummary {
  /** Mean of the visible reviews' ratings, one decimal; 0 without reviews. */
  average: number
  count: number
}

/** What the storefront shows of one review: no e-mail, no order, no user id. */
export interface PublicReview {
  id: string
  reviewer: string
  rating: number
  title: string
  body: string
  createdAt: string
  edited: boolean
  helpfulCount: number
  /** The signed-in viewer wrote it (no vote button), or has voted for it. */
  own: boolean
  voted: boolean
}

/** What a buyer writes: the review of one of their orders, its stars and its text. */
export interface NewReview {
  orderId: string
  productId: string
  userId: string
  rating: number
  title: string
  body: string
}

/** A buyer's own review, as their order page shows it. */
export interface OwnReview extends NewReview {
  id: string
  hidden: boolean
  hiddenReason: string | null
  createdAt: string
  updatedAt: string
}

export type ReviewSort = 'newest' | 'helpful'
export const REVIEWS_PAGE_SIZE = 5

/** "Priya S." from "Priya Sharma": the storefront never shows a buyer's full name. */
export function reviewerName(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  if (words.length === 0 || name.trim() === DELETED_CUSTOMER_NAME) return 'A verified buyer'
  const first = words[0]!
  const last = words.length > 1 ? words[words.length - 1]! : ''
  return last ? `${first} ${last[0]!.toUpperCase()}.` : first
}

const ownColumns = [
  'review.id',
  'review.orderId',
  'review.productId',
  'review.userId',
  'review.rating',
  'review.title',
  'review.body',
  'review.hidden',
  'review.hiddenReason',
  'review.createdAt',
  'review.updatedAt',
] as const

/** A stored review row (hidden is 0 or 1 there) as an OwnReview. */
function toOwnReview(row: Omit<OwnReview, 'hidden'> & { hidden: number }): OwnReview {
  return { ...row, rating: Number(row.rating), hidden: Boolean(row.hidden) }
}

/** The review written for an order, hidden or not; null when there is none. */
export async function getReviewByOrder(db: DB, orderId: string): Promise<OwnReview | null> {
  const row = await db
    .selectFrom('review')
    .select(ownColumns)
    .where('review.orderId', '=', orderId)
    .executeTakeFirst()
  return row ? toOwnReview(row) : null
}

/**
 * Adds the order's review; null when the order already has one (the unique order_id decides,
 * so two posts at once still leave one review).
 */
export async function insertReview(
  db: DB,
  input: NewReview,
  now: Date = new Date(),
): Promise<OwnReview | null> {
  const at = now.toISOString()
  const row = {
    id: newId(),
    orderId: input.orderId,
    productId: input.productId,
    userId: input.userId,
    rating: input.rating,
    title: input.title,
    body: input.body,
    createdAt: at,
    updatedAt: at,
  }
  const result = await db
    .insertInto('review')
    .values(row)
    .onConflict((oc) => oc.column('orderId').doNothing())
    .executeTakeFirst()
  if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return null
  return { ...row, hidden: false, hiddenReason: null }
}

/**
 * Changes the text and rating of a review of `userId` written after `editableSince`; false when
 * no such review (someone else's, or too old). A new rating or body is another review: the
 * helpful votes given to the old one are deleted and its count goes back to 0, in the same
 * transaction (a title alone keeps them).
 */
export async function updateOwnReview(
  db: DB,
  reviewId: string,
  userId: string,
  fields: { rating: number; title: string; body: string },
  editableSince: Date,
  now: Date = new Date(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // PostgreSQL holds the row until the end, so a vote given meanwhile waits and counts on
    // the text it was given to; SQLite's transactions take turns (app/lib/db.server.ts).
    const current = await trx
      .selectFrom('review')
      .select(['rating', 'body'])
      .where('id', '=', reviewId)
      .where('userId', '=', userId)
      .where('createdAt', '>=', editableSince.toISOString())
      .$if(engineOf(trx) === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst()
    if (!current) return false
    const rewritten = Number(current.rating) !== fields.rating || current.body !== fields.body
    await trx
      .updateTable('review')
      .set({ ...fields, updatedAt: now.toISOString(), ...(rewritten ? { helpfulCount: 0 } : {}) })
      .where('id', '=', reviewId)
      .execute()
    if (rewritten) await trx.deleteFrom('reviewVote').where('reviewId', '=', reviewId).execute()
    return true
  })
}

/**
 * The rating and review count of each of the given products (every product when omitted), from
 * their reviews shown under `scope`; a product without any is absent.
 */
export async function reviewSummaries(
  db: DB,
  productIds?: readonly string[],
  scope: ReviewScope = WITH_TEST_ORDERS,
): Promise<Map<string, ReviewSummary>> {
  if (productIds && productIds.length === 0) return new Map()
  let query = db.selectFrom('review')
  if (productIds) query = query.where('productId', 'in', productIds)
  const rows = await query
    .select((eb) => [
      'productId',
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string>('rating').as('total'),
    ])
    .where(shownUnder(scope))
    .groupBy('productId')
    .execute()
  return new Map(
    rows.map((row) => {
      const count = Number(row.count)
      return [row.productId, { count, average: roundRating(Number(row.total) / count) }]
    }),
  )
}

const roundRating = (value: number) => Math.round(value * 10) / 10

/** How many of the reviews shown under `scope` gave each number of stars, 5 down to 1. */
export async function ratingDistribution(
  db: DB,
  productId: string,
  scope: ReviewScope,
): Promise<Array<{ stars: number; count: number }>> {
  const rows = await db
    .selectFrom('review')
    .select((eb) => ['rating', eb.fn.countAll<number | string>().as('count')])
    .where('productId', '=', productId)
    .where(shownUnder(scope))
    .groupBy('rating')
    .execute()
  const counts = new Map(rows.map((row) => [Number(row.rating), Number(row.count)]))
  return [5, 4, 3, 2, 1].map((stars) => ({ stars, count: counts.get(stars) ?? 0 }))
}

export interface PublicReviewPage {
  items: PublicReview[]
  total: number
  page: number
  pageCount: number
}

/** Which of `reviewIds` the viewer found helpful (none for a visitor who is not signed in). */
async function votedReviews(
  db: DB,
  viewerId: string | null,
  reviewIds: readonly string[],
): Promise<Set<string>> {
  if (!viewerId || reviewIds.length === 0) return new Set()
  const rows = await db
    .selectFrom('reviewVote')
    .select('reviewId')
    .where('userId', '=', viewerId)
    .where('reviewId', 'in', reviewIds)
    .execute()
  return new Set(rows.map((row) => row.reviewId))
}

/** A page of reviews as anybody sees it, with who wrote each (kept on the server). */
export interface SharedReviewPage {
  reviews: PublicReviewPage
  authorIds: string[]
}

/**
 * A shared page (readReviewPage, which storefront-cache.server.ts keeps a copy of) marked for
 * `viewerId`: their own reviews and their votes (one query; none for a visitor who is not
 * signed in).
 */
export async function viewerMarks(
  db: DB,
  page: SharedReviewPage,
  viewerId: string | null,
): Promise<PublicReviewPage> {
  if (!viewerId) return page.reviews
  const voted = await votedReviews(
    db,
    viewerId,
    page.reviews.items.map((review) => review.id),
  )
  return markReviewPage(page, viewerId, voted)
}

/** A shared page marked for `viewerId`, whose votes among its reviews are `voted`. */
export function markReviewPage(
  { reviews, authorIds }: SharedReviewPage,
  viewerId: string | null,
  voted: ReadonlySet<string>,
): PublicReviewPage {
  if (!viewerId) return reviews
  return {
    ...reviews,
    items: reviews.items.map((review, index) => ({
      ...review,
      own: authorIds[index] === viewerId,
      voted: voted.has(review.id),
    })),
  }
}

/** One page of reviews, newest first; the id breaks ties, so pages do not overlap. */
function newestReviewsPage<O>(
  query: SelectQueryBuilder<Database, 'review', O>,
  page: { pageSize: number; offset: number },
) {
  return query
    .orderBy('review.createdAt', 'desc')
    .orderBy('review.id', 'desc')
    .limit(page.pageSize)
    .offset(page.offset)
}

/**
 * A page of a product's shown reviews, newest first or most helpful first (`scope`: those of
 * test-mode orders too when omitted).
 */
export async function listProductReviews(
  db: DB,
  productId: string,
  options: {
    sort?: ReviewSort
    page?: number
    viewerId?: string | null
    /** The number of shown reviews when the caller knows it (ratingDistribution's sum). */
    total?: number
    scope?: ReviewScope
  } = {},
): Promise<PublicReviewPage> {
  const shared = await readReviewPage(db, productId, {
    ...options,
    scope: options.scope ?? WITH_TEST_ORDERS,
  })
  return viewerMarks(db, shared, options.viewerId ?? null)
}

/** listProductReviews for no one in particular, with the authors (SharedReviewPage). */
export async function readReviewPage(
  db: DB,
  productId: string,
  options: { scope: ReviewScope; sort?: ReviewSort; page?: number; total?: number },
): Promise<SharedReviewPage> {
  const base = db
    .selectFrom('review')
    .where('review.productId', '=', productId)
    .where(shownUnder(options.scope))
  const total =
    options.total ??
    Number(
      (
        await base
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    )
  const { page, pageCount, offset, pageSize } = paginate(
    total,
    { page: options.page },
    { defaultSize: REVIEWS_PAGE_SIZE, maxSize: REVIEWS_PAGE_SIZE },
  )
  let query = base
    .innerJoin('user', 'user.id', 'review.userId')
    .select([
      'review.id',
      'review.userId',
      'review.rating',
      'review.title',
      'review.body',
      'review.createdAt',
      'review.updatedAt',
      'review.helpfulCount',
      'user.name',
    ])
  if (options.sort === 'helpful') query = query.orderBy('review.helpfulCount', 'desc')
  const rows = await newestReviewsPage(query, { pageSize, offset }).execute()
  return {
    reviews: {
      items: rows.map((row) => ({
        id: row.id,
        reviewer: reviewerName(row.name),
        rating: Number(row.rating),
        title: row.title,
        body: row.body,
        createdAt: row.createdAt,
        edited: row.updatedAt !== row.createdAt,
        helpfulCount: Number(row.helpfulCount),
        own: false,
        voted: false,
      })),
      total,
      page,
      pageCount,
    },
    authorIds: rows.map((row) => row.userId),
  }
}

export type HelpfulVoteResult = 'voted' | 'already' | 'own' | 'not-found'

/**
 * Counts `userId` as finding a review the storefront shows under `scope` helpful: once per user
 * and review, never on their own; a hidden review, or one of a refunded or (under a live
 * gateway) test order, is 'not-found'. The vote and the review's count change in one transaction.
 */
export async function addHelpfulVote(
  db: DB,
  reviewId: string,
  userId: string,
  scope: ReviewScope = WITH_TEST_ORDERS,
  now: Date = new Date(),
): Promise<{ result: HelpfulVoteResult; productId: string | null }> {
  return db.transaction().execute(async (trx) => {
    const review = await trx
      .selectFrom('review')
      .select(['userId', 'productId'])
      .where('id', '=', reviewId)
      .where(shownUnder(scope))
      .executeTakeFirst()
    if (!review) return { result: 'not-found' as const, productId: null }
    if (review.userId === userId) return { result: 'own' as const, productId: review.productId }
    const inserted = await trx
      .insertInto('reviewVote')
      .values({ reviewId, userId, createdAt: now.toISOString() })
      .onConflict((oc) => oc.columns(['reviewId', 'userId']).doNothing())
      .executeTakeFirst()
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0)
      return { result: 'already' as const, productId: review.productId }
    await trx
      .updateTable('review')
      .set({ helpfulCount: sql<number>`helpful_count + 1` })
      .where('id', '=', reviewId)
      .execute()
    return { result: 'voted' as const, productId: review.productId }
  })
}

/** The user a review is for: their delivered orders are the ones they may review. */
export interface ReviewingUser {
  id: string
  email: string
  emailVerified: boolean
}

/**
 * The delivered orders of a product that belong to the user and have no review yet (newest
 * first): orders placed while signed in, or as a guest with the account's verified address
 * (the rule of app/services/order-access.server.ts's isOwnOrder): ids and times, at most five.
 * Test-mode orders only while `scope.testOrders` (a live shop takes no review of them).
 */
export function unreviewedOrdersQuery(
  db: DB,
  user: ReviewingUser,
  productId: string,
  scope: ReviewScope,
) {
  return db
    .selectFrom('order')
    .leftJoin('review', 'review.orderId', 'order.id')
    .select(['order.id', 'order.createdAt'])
    .where('order.productId', '=', productId)
    .where('order.status', '=', 'delivered')
    .where('review.id', 'is', null)
    .$if(!scope.testOrders, (qb) => qb.where('order.testMode', '=', 0))
    .where((eb) =>
      user.emailVerified
        ? eb.or([
            eb('order.userId', '=', user.id),
            eb.and([
              eb('order.userId', 'is', null),
              eb('order.customerEmail', '=', user.email.toLowerCase()),
            ]),
          ])
        : eb('order.userId', '=', user.id),
    )
    .orderBy('order.createdAt', 'desc')
    .limit(5)
}

// ---------------------------------------------------------------------------------------
// The back office

export type ReviewVisibility = 'all' | 'visible' | 'hidden'

/**
 * A review as the back office lists it: with its product, its writer, its moderation and what
 * keeps it off the storefront besides (its order refunded, or a test-mode order on a live shop).
 */
export interface AdminReviewItem extends OwnReview {
  productTitle: string
  productSlug: string
  reviewerName: string
  reviewerEmail: string
  hiddenAt: string | null
  helpfulCount: number
  /** The order was paid in test mode (no real money moved). */
  testOrder: boolean
  orderRefunded: boolean
}

export const ADMIN_REVIEWS_PAGE_SIZE = 20

/** Every review, newest first, optionally only the visible or hidden ones. */
export async function listReviewsForAdmin(
  db: DB,
  options: { visibility?: ReviewVisibility; page?: number } = {},
): Promise<{
  items: AdminReviewItem[]
  total: number
  page: number
  pageCount: number
  pageSize: number
}> {
  let base = db.selectFrom('review')
  if (options.visibility === 'visible') base = base.where('review.hidden', '=', 0)
  if (options.visibility === 'hidden') base = base.where('review.hidden', '=', 1)
  const { count } = await base
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  const total = Number(count)
  const { page, pageCount, pageSize, offset } = paginate(
    total,
    { page: options.page },
    { defaultSize: ADMIN_REVIEWS_PAGE_SIZE, maxSize: ADMIN_REVIEWS_PAGE_SIZE },
  )
  const rows = await base
    .innerJoin('product', 'product.id', 'review.productId')
    .innerJoin('user', 'user.id', 'review.userId')
    .innerJoin('order', 'order.id', 'review.orderId')
    .select([
      'order.testMode',
      'order.status as orderStatus',
      'review.id',
      'review.orderId',
      'review.productId',
      'product.title as productTitle',
      'product.slug as productSlug',
      'review.userId',
      'user.name as reviewerName',
      'user.email as reviewerEmail',
      'review.rating',
      'review.title',
      'review.body',
      'review.hidden',
      'review.hiddenReason',
      'review.hiddenAt',
      'review.helpfulCount',
      'review.createdAt',
      'review.updatedAt',
    ])
    .$call((query) => newestReviewsPage(query, { pageSize, offset }))
    .execute()
  return {
    items: rows.map(({ testMode, orderStatus, ...row }) => ({
      ...row,
      rating: Number(row.rating),
      hidden: Boolean(row.hidden),
      helpfulCount: Number(row.helpfulCount),
      testOrder: Boolean(testMode),
      orderRefunded: orderStatus === 'refunded',
    })),
    total,
    page,
    pageCount,
    pageSize,
  }
}

/** One review for the back office's hide and unhide, with what the audit log names. */
export async function getReviewForAdmin(
  db: DB,
  reviewId: string,
): Promise<{
  id: string
  productTitle: string
  hidden: boolean
  hiddenReason: string | null
} | null> {
  const row = await db
    .selectFrom('review')
    .innerJoin('product', 'product.id', 'review.productId')
    .select(['review.id', 'product.title as productTitle', 'review.hidden', 'review.hiddenReason'])
    .where('review.id', '=', reviewId)
    .executeTakeFirst()
  return row ? { ...row, hidden: Boolean(row.hidden) } : null
}

/** Hides a review with the admin's reason, or shows it again; false when it is not there. */
export async function setReviewHidden(
  db: DB,
  reviewId: string,
  hidden: { reason: string } | null,
  now: Date = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable('review')
    .set(
      hidden
        ? { hidden: 1, hiddenReason: hidden.reason, hiddenAt: now.toISOString() }
        : { hidden: 0, hiddenReason: null, hiddenAt: null },
    )
    .where('id', '=', reviewId)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/**
 * The whole shop's figures for the admin products list: the reviews shown under `scope` and
 * their mean.
 */
export async function shopReviewStats(
  db: DB,
  scope: ReviewScope = WITH_TEST_ORDERS,
): Promise<ReviewSummary> {
  const row = await db
    .selectFrom('review')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string | null>('rating').as('total'),
    ])
    .where(shownUnder(scope))
    .executeTakeFirstOrThrow()
  const count = Number(row.count)
  return { count, average: count ? roundRating(Number(row.total ?? 0) / count) : 0 }
}
