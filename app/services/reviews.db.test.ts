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
import { saveGateway } from '~/data/gateway.server'
import { listProductsPage, productStats } from '~/data/product.server'
import { markOrderRefundedByGateway } from '~/data/refund.server'
import {
  addHelpfulVote,
  listProductReviews,
  listReviewsForAdmin,
  ratingDistribution,
  readReviewPage,
  reviewerName,
  reviewSummaries,
  shopReviewStats,
  WITH_TEST_ORDERS,
  type ReviewScope,
} from '~/data/review.server'
import { readProductViewer } from '~/data/product-viewer.server'
import { deleteUserAccount, markEmailVerified } from '~/data/user.server'
import type { Env } from '~/lib/env.server'
import { importStock } from './fulfilment.server'
import { liveGatewayActive } from './payment/offered-gateways.server'
import { moderateReview, REVIEW_ERRORS, saveReview, storefrontReviewScope } from './reviews.server'
import { gatewayForm } from '../../tests/helpers/forms'

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
  scope: ReviewScope = WITH_TEST_ORDERS,
): Promise<string[]> {
  const none = { productId, productIds: [], reviewIds: [] }
  return (await readProductViewer(db, user, none, scope)).unreviewedOrders
}

const text = { title: 'Works well', body: 'Activated on the first try, no trouble at all.' }

/** A fresh install: every way to pay is a built-in simulator. */
const SIMULATORS = { PUBLIC_URL: 'https://shop.example.in', APP_SECRET: SECRET } as Env
/** Paytm's merchant in the environment: on its staging host (a sandbox), or its live one. */
const PAYTM = { PAYTM_MID: 'ENVMID', PAYTM_MERCHANT_KEY: 'abcdefghijklmnop' }
const PAYTM_SANDBOX = { ...SIMULATORS, ...PAYTM } as Env
const PAYTM_LIVE = { ...PAYTM_SANDBOX, PAYTM_HOST: 'https://securegw.paytm.in' } as Env

/** What the storefront shows of a product under `scope`: rating, stars and the listed ids. */
async function storefront(productId: string, scope: ReviewScope) {
  const page = await readReviewPage(t.db, productId, { scope })
  return {
    summary: (await reviewSummaries(t.db, [productId], scope)).get(productId) ?? null,
    stars: (await ratingDistribution(t.db, productId, scope)).map((row) => row.count),
    listed: page.reviews.items.map((review) => review.id),
    total: page.reviews.total,
  }
}

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
    expect(await ratingDistribution(t.db, product.id, WITH_TEST_ORDERS)).toEqual([
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
    expect((await ratingDistribution(t.db, product.id, WITH_TEST_ORDERS))[3]).toEqual({
      stars: 2,
      count: 0,
    })
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

  it('shows reviews of test-mode orders only while no live gateway is active, then takes none', async () => {
    // A product with a real item and test items: one real sale, two through a simulator.
    const product = await makeStockedProduct(t.db, SECRET, [`real-${crypto.randomUUID()}`])
    await importStock(t.db, {
      productId: product.id,
      content: [1, 2].map((n) => `test-${n}-${crypto.randomUUID()}`).join('\n'),
      format: 'lines',
      appSecret: SECRET,
      testItems: true,
    })
    const buyer = await makeCustomer(t.db, { name: 'Real Buyer' })
    const real = await makePaidOrder(t.db, product.id, { userId: buyer.id })
    const tester = await makeCustomer(t.db, { name: 'Test Buyer' })
    const tried = await makePaidOrder(t.db, product.id, { userId: tester.id, testMode: true })
    const again = await makePaidOrder(t.db, product.id, { userId: tester.id, testMode: true })
    expect([real.status, tried.status, again.status]).toEqual([
      'delivered',
      'delivered',
      'delivered',
    ])
    expect([real.testMode, tried.testMode]).toEqual([false, true])

    // A fresh install (and Paytm's sandbox alone) takes no real money: test reviews count, as
    // the demo's do, and the test order may be reviewed.
    expect(await liveGatewayActive(t.db, SIMULATORS)).toBe(false)
    expect(await liveGatewayActive(t.db, PAYTM_SANDBOX)).toBe(false)
    const demo = await storefrontReviewScope(t.db, SIMULATORS)
    expect(demo).toEqual({ testOrders: true })
    const written = new Date()
    const inTestMode = () => liveGatewayActive(t.db, SIMULATORS)
    const kept = await saveReview(t.db, reviewer(buyer), real.id, { rating: 5, ...text }, written)
    const tested = await saveReview(
      t.db,
      reviewer(tester),
      tried.id,
      { rating: 1, ...text },
      written,
      inTestMode,
    )
    if (!kept.ok || !tested.ok) throw new Error('not saved')
    const shown = await storefront(product.id, demo)
    expect(shown).toMatchObject({ summary: { count: 2, average: 3 }, stars: [1, 0, 0, 0, 1] })
    expect(shown.listed.sort()).toEqual([tested.review.id, kept.review.id].sort())
    expect(await unreviewedDeliveredOrders(t.db, reviewer(tester), product.id, demo)).toEqual([
      again.id,
    ])

    // Live Paytm: the test review leaves the rating, the stars and the list, the test order is
    // no longer offered for review, and writing or changing one is refused.
    expect(await liveGatewayActive(t.db, PAYTM_LIVE)).toBe(true)
    const live = await storefrontReviewScope(t.db, PAYTM_LIVE)
    expect(live).toEqual({ testOrders: false })
    expect(await storefront(product.id, live)).toEqual({
      summary: { count: 1, average: 5 },
      stars: [1, 0, 0, 0, 0],
      listed: [kept.review.id],
      total: 1,
    })
    expect(await unreviewedDeliveredOrders(t.db, reviewer(tester), product.id, live)).toEqual([])
    const whileLive = () => liveGatewayActive(t.db, PAYTM_LIVE)
    for (const orderId of [again.id, tried.id]) {
      expect(
        await saveReview(
          t.db,
          reviewer(tester),
          orderId,
          { rating: 5, ...text },
          new Date(written.getTime() + DAY),
          whileLive,
        ),
      ).toEqual({ ok: false, status: 409, error: REVIEW_ERRORS.testOrder })
    }
    expect((await listProductReviews(t.db, product.id, { scope: live })).total).toBe(1)
    // Nor does a helpful vote reach the test review while live; in test mode it does.
    const voter = await makeCustomer(t.db)
    expect((await addHelpfulVote(t.db, tested.review.id, voter.id, live)).result).toBe('not-found')
    expect((await addHelpfulVote(t.db, tested.review.id, voter.id, demo)).result).toBe('voted')
    // The admin products list counts what buyers see.
    const adminRow = async (scope: typeof live) =>
      (await listProductsPage(t.db, { search: product.title }, scope)).items[0]
    expect(await adminRow(demo)).toMatchObject({ rating: 3, reviews: 2 })
    expect(await adminRow(live)).toMatchObject({ rating: 5, reviews: 1 })
    expect((await productStats(t.db, demo)).totalReviews).toBe(
      (await productStats(t.db, live)).totalReviews + 1,
    )

    // A simulator switched on beside the live gateway changes nothing.
    const saved = await saveGateway(t.db, SECRET, {
      mode: 'add',
      ...gatewayForm({ name: 'Razorpay', type: 'razorpay', status: 'testing' }),
    })
    expect(saved).toMatchObject({ ok: true })
    expect(await storefrontReviewScope(t.db, PAYTM_LIVE)).toEqual({ testOrders: false })

    // The back office still lists the test review, marked as such.
    const listed = (await listReviewsForAdmin(t.db)).items
    expect(listed.find((review) => review.id === tested.review.id)).toMatchObject({
      testOrder: true,
      orderRefunded: false,
    })
    expect(listed.find((review) => review.id === kept.review.id)).toMatchObject({
      testOrder: false,
    })
  })

  it('drops the review of a refunded order from the storefront and marks it for the admin', async () => {
    const refundedSale = await deliveredPurchase()
    const { product } = refundedSale
    const buyer = await makeCustomer(t.db)
    const order = await makePaidOrder(t.db, product.id, { userId: buyer.id })
    const first = await saveReview(t.db, reviewer(refundedSale.buyer), refundedSale.order.id, {
      rating: 1,
      ...text,
    })
    const second = await saveReview(t.db, reviewer(buyer), order.id, { rating: 5, ...text })
    if (!first.ok || !second.ok) throw new Error('not saved')
    expect((await storefront(product.id, WITH_TEST_ORDERS)).summary).toEqual({
      count: 2,
      average: 3,
    })
    const statsBefore = await shopReviewStats(t.db)

    // The whole payment goes back, as the refund flow records it.
    await t.db
      .transaction()
      .execute((trx) =>
        markOrderRefundedByGateway(
          trx,
          refundedSale.order.id,
          { message: 'Refunded in full', data: null, actor: 'user:owner' },
          new Date().toISOString(),
        ),
      )
    for (const scope of [WITH_TEST_ORDERS, { testOrders: false }]) {
      expect(await storefront(product.id, scope)).toEqual({
        summary: { count: 1, average: 5 },
        stars: [1, 0, 0, 0, 0],
        listed: [second.review.id],
        total: 1,
      })
    }
    expect((await shopReviewStats(t.db)).count).toBe(statsBefore.count - 1)
    const listed = await listProductsPage(t.db, { search: product.title })
    expect(listed.items[0]).toMatchObject({ rating: 5, reviews: 1 })
    expect(
      (await listReviewsForAdmin(t.db)).items.find((review) => review.id === first.review.id),
    ).toMatchObject({ orderRefunded: true, hidden: false })
    // Not shown, so it takes no helpful vote; the shown one does.
    const voter = await makeCustomer(t.db)
    expect((await addHelpfulVote(t.db, first.review.id, voter.id)).result).toBe('not-found')
    expect((await addHelpfulVote(t.db, second.review.id, voter.id)).result).toBe('voted')
  })

  it('starts the helpful count again when the rating or text changes; a new title keeps it', async () => {
    const { product, buyer, order } = await deliveredPurchase()
    const written = new Date()
    const later = (days: number) => new Date(written.getTime() + days * DAY)
    const save = (fields: { rating: number; title: string; body: string }, at: Date) =>
      saveReview(t.db, reviewer(buyer), order.id, fields, at)
    const saved = await save({ rating: 5, ...text }, written)
    if (!saved.ok) throw new Error(saved.error)
    const reviewId = saved.review.id
    const voters = [await makeCustomer(t.db), await makeCustomer(t.db)]
    const voteAll = async () => {
      for (const voter of voters) await addHelpfulVote(t.db, reviewId, voter.id)
    }
    const helpful = async () => ({
      count: (await listProductReviews(t.db, product.id)).items[0]!.helpfulCount,
      votes: (
        await t.db
          .selectFrom('reviewVote')
          .select('userId')
          .where('reviewId', '=', reviewId)
          .execute()
      ).length,
    })
    await voteAll()
    expect(await helpful()).toEqual({ count: 2, votes: 2 })

    // A new title alone: the votes were given to the same words.
    expect((await save({ rating: 5, title: 'Still works', body: text.body }, later(1))).ok).toBe(
      true,
    )
    expect(await helpful()).toEqual({ count: 2, votes: 2 })

    // A new text: the votes go, and the voters may vote for the new one.
    const rewritten = { rating: 5, title: 'Still works', body: 'It stopped working after a month.' }
    expect((await save(rewritten, later(2))).ok).toBe(true)
    expect(await helpful()).toEqual({ count: 0, votes: 0 })
    await voteAll()
    expect(await helpful()).toEqual({ count: 2, votes: 2 })

    // A new rating: the same.
    expect((await save({ ...rewritten, rating: 2 }, later(3))).ok).toBe(true)
    expect(await helpful()).toEqual({ count: 0, votes: 0 })
  })
})
