import { sql } from 'kysely'
import type { DB } from '~/lib/db.server'
import { unreviewedOrdersQuery, type ReviewingUser, type ReviewScope } from './review.server'

/**
 * What a signed-in visitor's product page shows as theirs. Such a page is rendered for every
 * request (never kept whole, docs/page-cache.md), so these three answers come from one query.
 */
export interface ProductViewer {
  /** Which of the shown products (the product and its related ones) are on their wishlist. */
  wishlist: string[]
  /** Which of the shown reviews they found helpful. */
  voted: Set<string>
  /** Their delivered orders of the product with no review yet, newest first (at most five). */
  unreviewedOrders: string[]
}

type Kind = 'wishlist' | 'vote' | 'order'

/**
 * The wishlist hearts, helpful votes and reviewable orders of `user` on one product page, in
 * one statement (UNION ALL of the three reads, each on its own index). The same reads one by
 * one are wishlistProductIds, viewerMarks and unreviewedOrdersQuery; `scope` is the page's
 * review scope (whether test-mode orders may still be reviewed).
 */
export async function readProductViewer(
  db: DB,
  user: ReviewingUser,
  shown: { productId: string; productIds: readonly string[]; reviewIds: readonly string[] },
  scope: ReviewScope,
): Promise<ProductViewer> {
  const kind = (name: Kind) => sql<Kind>`${sql.lit(name)}`.as('kind')
  const noTime = sql<string>`''`.as('at')
  let query = db
    .selectFrom(unreviewedOrdersQuery(db, user, shown.productId, scope).as('reviewable'))
    .select([kind('order'), 'reviewable.id as id', 'reviewable.createdAt as at'])
  // The user's wishlist rows among the shown products and their votes among the shown reviews.
  const theirs = [
    ['wishlist', 'wishlistItem', 'productId', shown.productIds],
    ['vote', 'reviewVote', 'reviewId', shown.reviewIds],
  ] as const
  for (const [which, table, column, ids] of theirs)
    if (ids.length > 0)
      query = query.unionAll(
        db
          .selectFrom(table)
          .select([kind(which), sql<string>`${sql.ref(column)}`.as('id'), noTime])
          .where(sql.ref('userId'), '=', user.id)
          .where(sql.ref(column), 'in', ids),
      )
  const rows = await query.execute()
  const ids = (which: Kind) => rows.filter((row) => row.kind === which)
  return {
    wishlist: ids('wishlist').map((row) => row.id),
    voted: new Set(ids('vote').map((row) => row.id)),
    // A union keeps no order: newest first again, as unreviewedOrdersQuery sorts them.
    unreviewedOrders: ids('order')
      .sort((a, b) => b.at.localeCompare(a.at))
      .map((row) => row.id),
  }
}
