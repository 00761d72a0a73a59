import { describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { makeCustomer, makePaidOrder, makeProduct, makeStockedProduct } from '../../tests/factories'
import { countQueries } from '~/lib/query-count.server'
import { readProductViewer } from './product-viewer.server'
import {
  addHelpfulVote,
  listProductReviews,
  unreviewedOrdersQuery,
  viewerMarks,
  readReviewPage,
  WITH_TEST_ORDERS,
} from './review.server'
import { addToWishlist, wishlistProductIds } from './wishlist.server'
import { saveReview } from '~/services/reviews.server'

const SECRET = 'viewer-test-secret-0123456789abcdef'
const text = { title: 'Works well', body: 'Activated on the first try, no trouble at all.' }

const t = fileTestDb()

const asReviewer = (user: { id: string; email: string }) => ({
  id: user.id,
  email: user.email,
  emailVerified: false,
})

describe(`a signed-in visitor's product page marks (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('reads hearts, votes and orders to review in one query, as the reads one by one do', async () => {
    const product = await makeStockedProduct(t.db, SECRET, ['v1', 'v2', 'v3', 'v4', 'v5'])
    const related = await makeProduct(t.db)
    const other = await makeProduct(t.db)
    const viewer = await makeCustomer(t.db)

    // Two reviews by other buyers; the viewer finds the first helpful.
    const reviewIds: string[] = []
    for (const name of ['Author One', 'Author Two']) {
      const author = await makeCustomer(t.db, { name })
      const order = await makePaidOrder(t.db, product.id, { userId: author.id })
      const saved = await saveReview(t.db, asReviewer(author), order.id, { rating: 4, ...text })
      if (!saved.ok) throw new Error(saved.error)
      reviewIds.push(saved.review.id)
    }
    expect((await addHelpfulVote(t.db, reviewIds[0]!, viewer.id)).result).toBe('voted')

    // The viewer's own delivered orders: the older two not reviewed, the newest reviewed.
    const orders = []
    for (let i = 0; i < 3; i++) {
      const order = await makePaidOrder(t.db, product.id, { userId: viewer.id })
      await t.db
        .updateTable('order')
        .set({ createdAt: new Date(Date.UTC(2026, 0, 10 + i)).toISOString() })
        .where('id', '=', order.id)
        .execute()
      orders.push(order.id)
    }
    const reviewed = await saveReview(t.db, asReviewer(viewer), orders[2]!, { rating: 5, ...text })
    if (!reviewed.ok) throw new Error(reviewed.error)
    await addToWishlist(t.db, viewer.id, related.id, { testItems: false })
    await addToWishlist(t.db, viewer.id, other.id, { testItems: false })

    const shown = {
      productId: product.id,
      productIds: [product.id, related.id],
      reviewIds,
    }
    const result = await countQueries(async (counter) => {
      const marks = await readProductViewer(t.db, asReviewer(viewer), shown, WITH_TEST_ORDERS)
      expect(counter.queries).toBe(1)
      return marks
    })
    // The hearts of the shown products only, the vote, the orders newest first.
    expect(result.wishlist).toEqual([related.id])
    expect([...result.voted]).toEqual([reviewIds[0]])
    expect(result.unreviewedOrders).toEqual([orders[1], orders[0]])

    // The same answers as the one-by-one reads.
    expect(result.wishlist).toEqual(
      await wishlistProductIds(t.db, viewer.id, [product.id, related.id]),
    )
    expect(result.unreviewedOrders).toEqual(
      (
        await unreviewedOrdersQuery(
          t.db,
          asReviewer(viewer),
          product.id,
          WITH_TEST_ORDERS,
        ).execute()
      ).map((row) => row.id),
    )
    const page = await viewerMarks(
      t.db,
      await readReviewPage(t.db, product.id, { scope: WITH_TEST_ORDERS }),
      viewer.id,
    )
    expect(page.items.filter((review) => review.voted).map((review) => review.id)).toEqual([
      ...result.voted,
    ])
    expect((await listProductReviews(t.db, product.id)).items).toHaveLength(3)
  })

  it('answers nothing for a visitor with no hearts, votes or orders, and for no reviews shown', async () => {
    const product = await makeProduct(t.db)
    const viewer = await makeCustomer(t.db)
    expect(
      await readProductViewer(
        t.db,
        asReviewer(viewer),
        {
          productId: product.id,
          productIds: [],
          reviewIds: [],
        },
        WITH_TEST_ORDERS,
      ),
    ).toEqual({ wishlist: [], voted: new Set(), unreviewedOrders: [] })
  })
})
