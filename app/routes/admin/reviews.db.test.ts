import { beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../tests/helpers/db'
import {
  pageText,
  postForRedirect,
  redirectCookie,
  renderPage,
  serveTestDb,
} from '../../../tests/helpers/route-render'
import {
  makeAdmin,
  makeCustomer,
  makePaidOrder,
  makeStockedProduct,
} from '../../../tests/factories'
import { markOrderRefundedByGateway } from '~/data/refund.server'
import { importStock } from '~/services/fulfilment.server'
import { saveReview } from '~/services/reviews.server'
import AdminReviews, { action, loader } from './reviews'

/**
 * /admin/reviews as the server renders it: a moderation another admin made first comes back to
 * the list as it is now, with the reason, instead of an error answer that leaves the old card.
 * Signing in is not what is tested here: the permission check answers with this file's admin.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown, admin: null as unknown }))
vi.mock('~/services/permissions.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requirePermission: vi.fn(async () => signedIn.user),
}))

const APP_SECRET = 'x'.repeat(32)
const t = fileTestDb()
serveTestDb(t, { env: { PUBLIC_URL: 'https://shop.example.in', APP_SECRET, ADMIN_EMAILS: [] } })
beforeAll(async () => {
  const admin = await makeAdmin(t.db, { name: 'Moderator' })
  signedIn.admin = admin
  signedIn.user = { ...admin, permissions: { canCreateProducts: true } }
})

/** The page as an admin holding Can Create Products and `more` sees it. */
async function pageAs(more: { canManageOrders?: boolean; canManageUsers?: boolean }) {
  signedIn.user = {
    ...(signedIn.admin as object),
    permissions: {
      canCreateProducts: true,
      canManageOrders: false,
      canManageUsers: false,
      ...more,
    },
  }
  try {
    const { html } = await renderPage(route, new Request('http://shop.test/admin/reviews'))
    return html
  } finally {
    signedIn.user = { ...(signedIn.admin as object), permissions: { canCreateProducts: true } }
  }
}

const route = {
  id: 'routes/admin/reviews',
  path: '/admin/reviews',
  Component: AdminReviews,
  loader,
  action,
}

const post = (form: Record<string, string>) =>
  postForRedirect(action, 'http://shop.test/admin/reviews', form)

describe(`moderating reviews (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('a review hidden by another admin first: back to the list as it is now, saying so', async () => {
    const product = await makeStockedProduct(t.db, APP_SECRET, [`KEY-${crypto.randomUUID()}`])
    const buyer = await makeCustomer(t.db, { name: 'Neha Rao' })
    const order = await makePaidOrder(t.db, product.id, { userId: buyer.id })
    const saved = await saveReview(
      t.db,
      { id: buyer.id, email: buyer.email, emailVerified: true },
      order.id,
      { rating: 2, title: 'Stopped working', body: 'The account stopped working after a week.' },
    )
    if (!saved.ok) throw new Error(saved.error)
    const hide = {
      intent: 'hide',
      reviewId: saved.review.id,
      reason: 'Abusive language',
      back: '/admin/reviews?show=all',
    }
    const first = await post(hide)
    expect(first.status).toBe(303)
    // The second admin's form, from the page as it was before.
    const second = await post(hide)
    expect(second.status).toBe(303)
    expect(second.headers.get('Location')).toBe('/admin/reviews?show=all')
    const cookie = redirectCookie(second)
    const { html } = await renderPage(
      route,
      new Request('http://shop.test/admin/reviews?show=all', { headers: { Cookie: cookie } }),
      { clientIp: '203.0.113.9' },
    )
    const text = pageText(html)
    expect(text).toContain('That review is already hidden.')
    expect(text).toContain('Abusive language')
  })

  it("shows the reviewer's e-mail and account, and the order, only to admins who manage them", async () => {
    const product = await makeStockedProduct(t.db, APP_SECRET, [`KEY-${crypto.randomUUID()}`])
    const buyer = await makeCustomer(t.db, { name: 'Kavya Iyer' })
    const order = await makePaidOrder(t.db, product.id, { userId: buyer.id })
    const saved = await saveReview(
      t.db,
      { id: buyer.id, email: buyer.email, emailVerified: true },
      order.id,
      { rating: 4, title: 'Good value', body: 'Worked as described, delivered at once.' },
    )
    if (!saved.ok) throw new Error(saved.error)
    const userLink = `href="/admin/users/${buyer.id}"`
    const orderLink = `/admin/orders/${encodeURIComponent(order.id)}`

    const productsOnly = await pageAs({})
    expect(pageText(productsOnly)).toContain('Kavya Iyer')
    for (const secret of [buyer.email, order.id, userLink, orderLink])
      expect(productsOnly).not.toContain(secret)

    const orders = await pageAs({ canManageOrders: true })
    expect(orders).toContain(orderLink)
    expect(pageText(orders)).toContain(order.id)
    for (const secret of [buyer.email, userLink]) expect(orders).not.toContain(secret)

    const users = await pageAs({ canManageUsers: true })
    expect(users).toContain(userLink)
    expect(pageText(users)).toContain(buyer.email)
    for (const secret of [order.id, orderLink]) expect(users).not.toContain(secret)
  })

  it('marks a review of a test order and one of a refunded order, neither shown in the shop', async () => {
    const product = await makeStockedProduct(t.db, APP_SECRET, [`KEY-${crypto.randomUUID()}`])
    await importStock(t.db, {
      productId: product.id,
      content: `TEST-${crypto.randomUUID()}`,
      format: 'lines',
      appSecret: APP_SECRET,
      testItems: true,
    })
    const review = async (name: string, testMode: boolean) => {
      const buyer = await makeCustomer(t.db, { name })
      const order = await makePaidOrder(t.db, product.id, { userId: buyer.id, testMode })
      const saved = await saveReview(
        t.db,
        { id: buyer.id, email: buyer.email, emailVerified: true },
        order.id,
        { rating: 3, title: `By ${name}`, body: 'Worked as described, delivered at once.' },
        new Date(),
        async () => false,
      )
      if (!saved.ok) throw new Error(saved.error)
      return order
    }
    await review('Tara Test', true)
    const refunded = await review('Rohan Refund', false)
    await t.db
      .transaction()
      .execute((trx) =>
        markOrderRefundedByGateway(
          trx,
          refunded.id,
          { message: 'Refunded in full', data: null, actor: 'user:owner' },
          new Date().toISOString(),
        ),
      )
    const html = await pageAs({})
    const card = (name: string) =>
      pageText(html.split('<article').find((part) => part.includes(`by ${name}`)) ?? '')
    // The shop has no live gateway here: the test order's review is still shown.
    expect(card('Tara Test')).toContain('Test order')
    expect(card('Tara Test')).toContain('Shown')
    expect(card('Tara Test')).not.toContain('Order refunded')
    expect(card('Rohan Refund')).toContain('Order refunded')
    expect(card('Rohan Refund')).toContain('Not shown')
    expect(card('Rohan Refund')).not.toContain('Test order')
  })

  it('keeps the reason behind a Hide… button, and opens it again with the message when refused', async () => {
    const product = await makeStockedProduct(t.db, APP_SECRET, [`KEY-${crypto.randomUUID()}`])
    const buyer = await makeCustomer(t.db, { name: 'Isha Menon' })
    const order = await makePaidOrder(t.db, product.id, { userId: buyer.id })
    const saved = await saveReview(
      t.db,
      { id: buyer.id, email: buyer.email, emailVerified: true },
      order.id,
      { rating: 1, title: 'Meh', body: 'It did not work for me at all, sadly.' },
    )
    if (!saved.ok) throw new Error(saved.error)
    /** The markup of Isha's review card in the page `html`. */
    const card = (html: string) =>
      html.split('<article').find((part) => part.includes('by Isha Menon')) ?? ''

    const { html } = await renderPage(route, new Request('http://shop.test/admin/reviews'))
    // A closed disclosure: its button first, the reason box and the button that hides inside.
    const closed = card(html)
    expect(closed).toMatch(/<details class="[^"]*"><summary[^>]*>.*Hide…<\/summary>/)
    expect(closed.indexOf('Reason for hiding')).toBeGreaterThan(closed.indexOf('<details'))
    expect(closed.indexOf('Reason for hiding')).toBeLessThan(closed.indexOf('</details>'))

    // Sent without a reason (a browser without JavaScript): the answer shows it open, with why.
    const refused = await renderPage(
      route,
      new Request('http://shop.test/admin/reviews', {
        method: 'POST',
        body: new URLSearchParams({
          intent: 'hide',
          reviewId: saved.review.id,
          reason: ' ',
          back: '/admin/reviews',
        }),
      }),
      { clientIp: '203.0.113.9' },
    )
    expect(refused.status).toBe(400)
    const open = card(refused.html)
    expect(open).toMatch(/<details class="[^"]*" open="">/)
    expect(pageText(open)).toContain(
      'Give a reason of at least 3 characters; the audit log keeps it.',
    )
    expect(
      await t.db
        .selectFrom('review')
        .select('hidden')
        .where('id', '=', saved.review.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ hidden: 0 })
  })
})
