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
import { saveReview } from '~/services/reviews.server'
import AdminReviews, { action, loader } from './reviews'

/**
 * /admin/reviews as the server renders it: a moderation another admin made first comes back to
 * the list as it is now, with the reason, instead of an error answer that leaves the old card.
 * Signing in is not what is tested here: the permission check answers with this file's admin.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/permissions.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requirePermission: vi.fn(async () => signedIn.user),
}))

const APP_SECRET = 'x'.repeat(32)
const t = fileTestDb()
serveTestDb(t, { env: { PUBLIC_URL: 'https://shop.example.in', APP_SECRET, ADMIN_EMAILS: [] } })
beforeAll(async () => {
  const admin = await makeAdmin(t.db, { name: 'Moderator' })
  signedIn.user = { ...admin, permissions: { canCreateProducts: true } }
})

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
})
