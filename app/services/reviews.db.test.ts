import { describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import {
  makeAdmin,
  makeCustomer,
  makeOrder,
  makePaidOrder,
  makeProduct,
  makeStockedProduct,
} from '../../tests/factories'
import { listAuditEntries } from '~/data/audit.server'
import { listProductsPage, productStats } from '~/data/product.server'
import {
  addHelpfulVote,
  listProductReviews,
  listReviewsForAdmin,
  ratingDistribution,
  reviewerName,
  reviewSummaries,
} from '~/data/review.server'
import { readProductViewer } from '~/data/product-viewer.server'
import { deleteUserAccount, markEmailVerified } from '~/data/user.server'
import { moderateReview, REVIEW_ERRORS, saveReview } from './reviews.server'

const SECRET = 'reviews-test-secret-0123456789abcdef'
const DAY = 24 * 60 * 60 * 1000

const t = fileTestDb()

const reviewer = (user: { id: string; email: string }, verified = false) => ({
  id: user.id,
  email: user.email,
  emailVerified: verified,
})

/** A product sold from stock and a delivered order of it placed by a new signed-in customer. */
async function deliveredPurchase(items = 3) {
  const product = await makeStockedProduct(
    t.db,
    SECRET,
    Array.from({ length: items }, (_, i) => `key-${crypto.randomUUID()}-${i}`),
  )
  const buyer = await makeCustomer(t.db)
  const order = await makePaidOrder(t.db, product.id, { userId: buyer.id })
  expect(order.status).toBe('delivered')
  return { product, buyer, order }
}

/** The user's delivered orders of the product that they may still review, as its page reads them. */
async function unreviewedDeliveredOrders(
  db: typeof t.db,
  user: ReturnType<typeof reviewer>,
  productId: string,
): Promise<string[]> {
  const none = { productId, productIds: [], reviewIds: [] }
  return (await readProductViewer(db, user, none)).unreviewedOrders
}

const text = { title: 'Works well', body: 'Activated on the first try, no trouble at all.' }

describe(`reviews (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('lets the owner of a delivered order review it once, and change it for 30 days', async () => {
    const { product, buyer, order } = await deliveredPurchase()
    const written = new Date('2026-03-01T10:00:00Z')
    const first = await saveReview(t.db, reviewer(buyer), order.id, { rating: 4, ...text }, written)
    expect(first).toMatchObject({ ok: true, created: true })

    // The same order again changes the one review; it never adds a second.
    const changed = await saveReview(
      t.db,
      reviewer(buyer),
      order.id,
      { rating: 5, title: '', body: 'Even better after a month of use.' },
      new Date(written.getTime() + 29 * DAY),
    )
    expect(changed).toMatchObject({ ok: true, created: false })
    const page = await listProductReviews(t.db, product.id)
    expect(page.total).toBe(1)
    expect(page.items[0]).toMatchObject({ rating: 5, title: '', edited: true })

    // After 30 days nothing changes.
    const late = await saveReview(
      t.db,
      reviewer(buyer),
      order.id,
      { rating: 1, ...text },
      new Date(written.getTime() + 31 * DAY),
    )
    expect(late).toEqual({ ok: false, status: 409, error: REVIEW_ERRORS.editClosed })
    expect((await listProductReviews(t.db, product.id)).items[0]!.rating).toBe(5)
  })

  it('refuses orders that are not delivered, and everyone but the owner', async () => {
    const { product, order } = await deliveredPurchase()
    const stranger = await makeCustomer(t.db)
    const admin = await makeAdmin(t.db)
    for (const user of [stranger, admin]) {
      expect(
        await saveReview(t.db, reviewer(user, true), order.id, { rating: 1, ...text }),
      ).toEqual({
        ok: false,
        status: 404,
        error: REVIEW_ERRORS.notFound,
      })
    }
    expect(
      await saveReview(t.db, reviewer(stranger), 'ORD_0_0', { rating: 1, ...text }),
    ).toMatchObject({
      status: 404,
    })
    // A pending (unpaid) order of the stranger's own.
    const pending = await makeOrder(t.db, product.id, { userId: stranger.id })
    expect(await saveReview(t.db, reviewer(stranger), pending.id, { rating: 5, ...text })).toEqual({
      ok: false,
      status: 409,
      error: REVIEW_ERRORS.notDelivered,
    })
    // A manual product's paid order waits for the shop: not delivered yet.
    const manual = await makeProduct(t.db)
    const paid = await makePaidOrder(t.db, manual.id, { userId: stranger.id })
    expect(paid.status).toBe('paid')
    expect((await saveReview(t.db, reviewer(stranger), paid.id, { rating: 5, ...text })).ok).toBe(
      false,
    )
    expect((await listProductReviews(t.db, product.id)).total).toBe(0)
    expect((await listProductReviews(t.db, manual.id)).total).toBe(0)
  })

  it('counts a guest order placed with the address of a verified account as its own', async () => {
    const product = await makeStockedProduct(t.db, SECRET, ['guest-key-1'])
    const buyer = await makeCustomer(t.db)
    const order = await makePaidOrder(t.db, product.id, {
      customer: { name: 'Guest', email: buyer.email, phone: '9876543210' },
    })
    // Not verified yet: the address alone proves nothing.
    expect(await unreviewedDeliveredOrders(t.db, reviewer(buyer), product.id)).toEqual([])
    expect((await saveReview(t.db, reviewer(buyer), order.id, { rating: 5, ...text })).ok).toBe(
      false,
    )
    await markEmailVerified(t.db, buyer.id)
    expect(await unreviewedDeliveredOrders(t.db, reviewer(buyer, true), product.id)).toEqual([
      order.id,
    ])
    expect(
      (await saveReview(t.db, reviewer(buyer, true), order.id, { rating: 5, ...text })).ok,
    ).toBe(true)
    expect(await unreviewedDeliveredOrders(t.db, reviewer(buyer, true), product.id)).toEqual([])
  })

  it('aggregates visible reviews into the rating, the distribution and the admin figures', async () => {
    const product = await makeStockedProduct(t.db, SECRET, ['a1', 'a2', 'a3', 'a4'])
    const other = await makeProduct(t.db)
    const before = await productStats(t.db)
    const ratings = [5, 4, 4, 2]
    const reviewIds: string[] = []
    for (const [index, rating] of ratings.entries()) {
      const buyer = await makeCustomer(t.db, { name: `Buyer Number${index}` })
      const order = await makePaidOrder(t.db, product.id, { userId: buyer.id })
      const saved = await saveReview(
        t.db,
        reviewer(buyer),
        order.id,
        { rating, ...text },
        new Date(Date.UTC(2026, 0, 1 + index)),
      )
      if (!saved.ok) throw new Error(saved.error)
      reviewIds.push(saved.review.id)
    }
    expect((await reviewSummaries(t.db, [product.id, other.id])).get(product.id)).toEqual({
      count: 4,
      average: 3.8,
    })
    expect((await reviewSummaries(t.db, [other.id])).has(other.id)).toBe(false)
    expect(await ratingDistribution(t.db, product.id)).toEqual([
      { stars: 5, count: 1 },
      { stars: 4, count: 2 },
      { stars: 3, count: 0 },
      { stars: 2, count: 1 },
      { stars: 1, count: 0 },
    ])
    const stats = await productStats(t.db)
    expect(stats.totalReviews).toBe(before.totalReviews + 4)

    // Hidden: out of the rating, the distribution and the list; audit logged with the reason.
    const admin = await makeAdmin(t.db)
    const actor = { id: admin.id, name: admin.name, email: admin.email }
    const hidden = await moderateReview(t.db, {
      actor,
      ip: '203.0.113.9',
      reviewId: reviewIds[3]!,
      reason: 'Mentions a competitor',
    })
    expect(hidden.ok).toBe(true)
    expect((await reviewSummaries(t.db, [product.id])).get(product.id)).toEqual({
      count: 3,
      average: 4.3,
    })
    expect((await ratingDistribution(t.db, product.id))[3]).toEqual({ stars: 2, count: 0 })
    expect((await listProductReviews(t.db, product.id)).items.map((r) => r.id)).not.toContain(
      reviewIds[3],
    )
    expect((await listReviewsForAdmin(t.db, { visibility: 'hidden' })).items).toEqual([
      expect.objectContaining({
        id: reviewIds[3],
        hidden: true,
        hiddenReason: 'Mentions a competitor',
      }),
    ])
    const listed = await listProductsPage(t.db, { search: product.title })
    expect(listed.items[0]).toMatchObject({ rating: 4.3, reviews: 3 })
    // Hiding twice changes nothing.
    expect(
      await moderateReview(t.db, { actor, ip: null, reviewId: reviewIds[3]!, reason: 'Again' }),
    ).toEqual({ ok: false, error: 'That review is already hidden.' })
    expect(
      (await moderateReview(t.db, { actor, ip: null, reviewId: reviewIds[3]!, reason: null })).ok,
    ).toBe(true)
    expect((await reviewSummaries(t.db, [product.id])).get(product.id)?.count).toBe(4)

    const entries = (await listAuditEntries(t.db, { targetId: reviewIds[3]! })).entries
    expect(entries.map((entry) => [entry.action, entry.actorEmail, entry.changes])).toEqual([
      [
        'review.unhide',
        admin.email,
        {
          hidden: { before: true, after: false },
          hiddenReason: { before: 'Mentions a competitor', after: null },
        },
      ],
      [
        'review.hide',
        admin.email,
        {
          hidden: { before: false, after: true },
          hiddenReason: { before: null, after: 'Mentions a competitor' },
        },
      ],
    ])
    expect(entries[1]!.ip).toBe('203.0.113.9')
  })

  it('takes one helpful vote per user and review, never on their own, and sorts by it', async () => {
    const product = await makeStockedProduct(t.db, SECRET, ['h1', 'h2'])
    const ids: string[] = []
    const authors = []
    for (const [index, day] of [1, 2].entries()) {
      const buyer = await makeCustomer(t.db, { name: `Helpful Author${index}` })
      authors.push(buyer)
      const order = await makePaidOrder(t.db, product.id, { userId: buyer.id })
      const saved = await saveReview(
        t.db,
        reviewer(buyer),
        order.id,
        { rating: 4, ...text },
        new Date(Date.UTC(2026, 1, day)),
      )
      if (!saved.ok) throw new Error(saved.error)
      ids.push(saved.review.id)
    }
    const [older, newer] = ids as [string, string]
    const voter = await makeCustomer(t.db)
    expect((await addHelpfulVote(t.db, older, voter.id)).result).toBe('voted')
    expect((await addHelpfulVote(t.db, older, voter.id)).result).toBe('already')
    expect((await addHelpfulVote(t.db, older, authors[0]!.id)).result).toBe('own')
    expect((await addHelpfulVote(t.db, 'no-such-review', voter.id)).result).toBe('not-found')
    expect((await addHelpfulVote(t.db, older, authors[1]!.id)).result).toBe('voted')

    const newest = await listProductReviews(t.db, product.id, { viewerId: voter.id })
    expect(newest.items.map((r) => r.id)).toEqual([newer, older])
    const helpful = await listProductReviews(t.db, product.id, {
      sort: 'helpful',
      viewerId: voter.id,
    })
    expect(helpful.items.map((r) => [r.id, r.helpfulCount, r.voted, r.own])).toEqual([
      [older, 2, true, false],
      [newer, 0, false, false],
    ])
    const asAuthor = await listProductReviews(t.db, product.id, { viewerId: authors[0]!.id })
    expect(asAuthor.items.find((r) => r.id === older)).toMatchObject({ own: true })

    // A voter who deletes their account takes their vote off the count too.
    expect((await addHelpfulVote(t.db, newer, voter.id)).result).toBe('voted')
    expect((await deleteUserAccount(t.db, voter.id)).deleted).toBe(true)
    const after = await listProductReviews(t.db, product.id, { sort: 'helpful' })
    expect(after.items.map((r) => [r.id, r.helpfulCount])).toEqual([
      [older, 1],
      [newer, 0],
    ])
  })

  it('pages a product reviews five at a time, the page kept in range', async () => {
    const items = Array.from({ length: 7 }, (_, i) => `p-${i}`)
    const product = await makeStockedProduct(t.db, SECRET, items)
    for (let i = 0; i < 7; i++) {
      const buyer = await makeCustomer(t.db)
      const order = await makePaidOrder(t.db, product.id, { userId: buyer.id })
      await saveReview(
        t.db,
        reviewer(buyer),
        order.id,
        { rating: 3, ...text },
        new Date(Date.UTC(2026, 2, i + 1)),
      )
    }
    const first = await listProductReviews(t.db, product.id)
    expect([first.total, first.page, first.pageCount, first.items.length]).toEqual([7, 1, 2, 5])
    const last = await listProductReviews(t.db, product.id, { page: 9 })
    expect([last.page, last.items.length]).toEqual([2, 2])
    // What the storefront gets of a review: no e-mail, no order or user id.
    expect(Object.keys(first.items[0]!).sort()).toEqual(
      [
        'body',
        'createdAt',
        'edited',
        'helpfulCount',
        'id',
        'own',
        'rating',
        'reviewer',
        'title',
        'voted',
      ].sort(),
    )
  })

  it('shows a first name and a last initial', () => {
    expect(reviewerName('Priya Sharma')).toBe('Priya S.')
    expect(reviewerName('  Asha  ')).toBe('Asha')
    expect(reviewerName('Ravi Kumar verma')).toBe('Ravi V.')
    expect(reviewerName('')).toBe('A verified buyer')
    expect(reviewerName('Deleted customer')).toBe('A verified buyer')
  })
})
