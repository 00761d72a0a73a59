import crypto from 'node:crypto'
import type { Browser, BrowserContext, Page } from '@playwright/test'
import { listAuditEntries } from '~/data/audit.server'
import type { DB } from '~/lib/db.server'
import { makeOrder } from '../factories'
import { submitLogIn } from '../helpers/account'
import { adminTest } from '../helpers/admin'
import { gotoHydrated } from '../helpers/fixtures'
import { signUpConfirmed, signUpInBrowser } from '../helpers/mailbox'
import { expectOrderStatus } from '../helpers/orders'
import { screenshotWidthsAndThemes } from '../helpers/screenshots'

/**
 * Reviews from verified buyers, with real accounts against the production build: a purchase
 * through the Paytm simulator, the review written on the order page (with JavaScript) and
 * changed without it, the product page's reviews and its JSON-LD rating, a helpful vote, the
 * refusals (no delivered order, someone else's order), and the back office hiding a review.
 */
const OWNER = { name: 'Shop Owner', email: 'owner.reviews@example.test', password: 'secret12' }
const { test, logIn } = adminTest(OWNER)
const { expect } = test

// A demo product the seed wrote no review for, sold from the demo's test stock.
const PRODUCT = {
  slug: 'codenest-ide-pro-1-year',
  title: 'CodeNest IDE Pro 1 Year',
  pay: 'Pay ₹2,499',
}
const PRODUCT_PATH = `/product/${PRODUCT.slug}`
const PASSWORD = 'secret12'
const uniqueEmail = (name: string) =>
  `${name}.${crypto.randomBytes(4).toString('hex')}@example.test`

// Sign-ups, a purchase, two browsers and screenshots take a while on a shared machine.
test.describe.configure({ mode: 'serial', timeout: 240_000 })

async function productJsonLd(page: Page): Promise<Record<string, unknown>> {
  const response = await page.request.get(PRODUCT_PATH)
  const html = await response.text()
  const json = html.match(/<script type="application\/ld\+json">(.*?)<\/script>/s)?.[1]
  return JSON.parse(json!) as Record<string, unknown>
}

async function withCookie(
  browser: Browser,
  baseURL: string,
  cookie: string,
  javaScriptEnabled: boolean,
) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled })
  const [name, ...value] = cookie.split('=')
  await context.addCookies([{ name: name!, value: value.join('='), url: baseURL }])
  return context
}

/** The id of the order's review. */
async function reviewIdOf(db: DB, orderId: string): Promise<string> {
  return (
    await db
      .selectFrom('review')
      .select('id')
      .where('orderId', '=', orderId)
      .executeTakeFirstOrThrow()
  ).id
}

async function userIdOf(db: DB, email: string): Promise<string> {
  return (
    await db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow()
  ).id
}

let buyerEmail = ''
let orderId = ''

/**
 * The buyer of the first test, signed in by the login form in a browser without JavaScript;
 * skips the calling test when the first one did not get as far as the review.
 */
async function buyerWithoutJavaScript(browser: Browser, baseURL: string) {
  test.skip(!orderId, 'needs the review of the first test')
  const buyer = await browser.newContext({ baseURL, javaScriptEnabled: false })
  const page = await buyer.newPage()
  await submitLogIn(page, buyerEmail, PASSWORD)
  return { buyer, page }
}

test('a buyer reviews a delivered order; the product page shows it with its JSON-LD rating', async ({
  page,
  app,
  db,
}) => {
  buyerEmail = uniqueEmail('meera')
  await signUpInBrowser(page, app, { name: 'Meera Iyer', email: buyerEmail, password: PASSWORD })

  // Before buying: no way to review, no reviews, no rating in the JSON-LD.
  await page.goto(PRODUCT_PATH)
  const reviews = page.getByRole('region', { name: 'Customer reviews' })
  await expect(reviews).toContainText('No reviews yet.')
  await expect(reviews.getByRole('link', { name: 'Write a review' })).toHaveCount(0)
  expect((await productJsonLd(page)).aggregateRating).toBeUndefined()

  await page.goto(`/checkout/${PRODUCT.slug}`)
  await page.getByLabel('Phone number').fill('9123456780')
  await page.getByRole('button', { name: PRODUCT.pay }).click()
  await page.getByRole('button', { name: 'Simulate success' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!')
  const userId = await userIdOf(db, buyerEmail)
  orderId = (
    await db.selectFrom('order').select('id').where('userId', '=', userId).executeTakeFirstOrThrow()
  ).id
  await expectOrderStatus(db, orderId, 'delivered')

  // The product page now offers the review, on the order page.
  await gotoHydrated(page, PRODUCT_PATH)
  await reviews.getByRole('link', { name: 'Write a review' }).click()
  await expect(page).toHaveURL(`/orders/${orderId}#review`)
  const section = page.getByRole('region', { name: 'Review this product' })
  await section.getByRole('button', { name: 'Publish review' }).click()
  await expect(section.getByText('Choose a rating from 1 to 5 stars.')).toBeVisible()
  // The choice itself is marked invalid and described by its error, for screen readers.
  const rating = section.getByRole('radiogroup', { name: 'Your rating' })
  await expect(rating).toHaveAttribute('aria-invalid', 'true')
  await expect(rating).toHaveAccessibleDescription('Choose a rating from 1 to 5 stars.')
  await expect(section.getByText('Write at least 10 characters about the product.')).toBeVisible()
  expect(
    await db.selectFrom('review').select('id').where('orderId', '=', orderId).execute(),
  ).toEqual([])
  await screenshotWidthsAndThemes(page, 'order-review-form')

  await section.getByRole('radio', { name: /^4 stars/ }).check()
  await section.getByLabel('Title (optional)').fill('Licence key worked at once')
  await section.getByLabel('Your review').fill('Activated on my laptop within a minute of paying.')
  await section.getByRole('button', { name: 'Publish review' }).click()
  const saved = page.getByRole('region', { name: 'Your review' })
  await expect(saved.getByText('Thank you! Your review is published.')).toBeVisible()
  await expect(saved).toContainText('Activated on my laptop within a minute of paying.')

  await page.goto(PRODUCT_PATH)
  await expect(page.getByRole('link', { name: /Rated 4\.0/ })).toContainText('(1 review)')
  const review = reviews.getByRole('article', { name: 'Review by Meera I.' })
  await expect(review).toContainText('Licence key worked at once')
  await expect(review).toContainText('Verified purchase')
  await expect(review).toContainText('Your review')
  await expect(reviews.getByRole('list', { name: 'Ratings by stars' })).toContainText('4 stars1')
  // Already reviewed: nothing left to write.
  await expect(reviews.getByRole('link', { name: 'Write a review' })).toHaveCount(0)
  expect((await productJsonLd(page)).aggregateRating).toEqual({
    '@type': 'AggregateRating',
    ratingValue: 4,
    reviewCount: 1,
  })
  // Visitors see the first name and last initial: never the buyer's e-mail or full name.
  const publicHtml = await (await fetch(`${app.url}${PRODUCT_PATH}`)).text()
  expect(publicHtml).toContain('Meera I.')
  expect(publicHtml).not.toContain(buyerEmail)
  expect(publicHtml).not.toContain('Meera Iyer')
  await reviews.scrollIntoViewIfNeeded()
  await screenshotWidthsAndThemes(page, 'product-reviews')
})

test('without JavaScript the buyer changes the review, and another buyer finds it helpful', async ({
  browser,
  app,
  db,
}) => {
  // The buyer, signed in again by the login form, in a browser without JavaScript.
  const { buyer, page } = await buyerWithoutJavaScript(browser, app.url)
  await page.goto(`/orders/${orderId}`)
  const section = page.getByRole('region', { name: 'Your review' })
  await expect(section.getByRole('radio', { name: /^4 stars/ })).toBeChecked()
  await section.getByRole('radio', { name: /^5 stars/ }).check()
  await section.getByLabel('Your review').fill('x')
  await section.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Write at least 10 characters about the product.')).toBeVisible()
  // The answer's text shows before its stylesheet has loaded; a click aimed at the unstyled
  // layout can land beside the button once the styles apply, and no post is sent.
  await page.waitForLoadState('load')
  await page
    .getByRole('region', { name: 'Your review' })
    .getByLabel('Your review')
    .fill('After a week: still works, and the updates install fine.')
  await page
    .getByRole('region', { name: 'Your review' })
    .getByRole('button', { name: 'Save changes' })
    .click()
  await expect(page.getByText('Your review was updated.')).toBeVisible()
  await buyer.close()

  // Another customer, also without JavaScript, votes once; the button then goes away.
  const voterCookie = await signUpConfirmed(app.url, app, {
    name: 'Kabir Das',
    email: uniqueEmail('kabir'),
    password: PASSWORD,
  })
  const voter = await withCookie(browser, app.url, voterCookie, false)
  const voterPage = await voter.newPage()
  await voterPage.goto(PRODUCT_PATH)
  const review = voterPage.getByRole('article', { name: 'Review by Meera I.' })
  await expect(review).toContainText('After a week: still works')
  await expect(review).toContainText('Edited')
  await expect(review).toContainText('No helpful votes yet')
  await review.getByRole('button', { name: /^Helpful/ }).click()
  await expect(voterPage).toHaveURL(/\/product\/codenest-ide-pro-1-year#review-/)
  await expect(review).toContainText('1 person found this helpful')
  await expect(review).toContainText('You found this helpful')
  await expect(review.getByRole('button', { name: /^Helpful/ })).toHaveCount(0)
  // A second post of the same vote counts nothing.
  const reviewId = await reviewIdOf(db, orderId)
  const again = await voterPage.request.post(`/reviews/${reviewId}/helpful`, {
    form: { redirectTo: PRODUCT_PATH },
    maxRedirects: 0,
  })
  expect(again.status()).toBe(303)
  const stored = await db
    .selectFrom('review')
    .select(['helpfulCount', 'rating'])
    .where('id', '=', reviewId)
    .executeTakeFirstOrThrow()
  expect(stored).toEqual({ helpfulCount: 1, rating: 5 })
  // A vote on a review that is gone is answered by a page with a title of its own.
  const gone = await voterPage.request.post('/reviews/no-such-review/helpful', {
    form: { redirectTo: PRODUCT_PATH },
    maxRedirects: 0,
  })
  expect(gone.status()).toBe(404)
  const goneHtml = await gone.text()
  expect(goneHtml).toMatch(/<title>Your vote was not counted \| [^<]+<\/title>/)
  expect(goneHtml).toContain('That review is no longer shown.')
  await voter.close()

  // Signed out, "Helpful" asks to sign in first.
  const anonymous = await browser.newContext({ baseURL: app.url, javaScriptEnabled: false })
  const anonymousPage = await anonymous.newPage()
  const answer = await anonymousPage.request.post(`/reviews/${reviewId}/helpful`, {
    form: { redirectTo: PRODUCT_PATH },
    maxRedirects: 0,
  })
  expect(answer.status()).toBe(303)
  expect(answer.headers().location).toContain('login=1')
  await anonymous.close()
})

test("nobody reviews without a delivered order of their own, or changes someone else's review", async ({
  browser,
  app,
  db,
}) => {
  test.skip(!orderId, 'needs the review of the first test')
  const email = uniqueEmail('intruder')
  const cookie = await signUpConfirmed(app.url, app, { name: 'Ira Sen', email, password: PASSWORD })
  const context: BrowserContext = await withCookie(browser, app.url, cookie, true)
  const form = { intent: 'review', rating: '1', title: 'Bad', body: 'Never worked for me at all.' }

  // Someone else's order: the same 404 as a missing order, and nothing changes.
  const foreign = await context.request.post(`/orders/${orderId}`, { form, maxRedirects: 0 })
  expect(foreign.status()).toBe(404)
  const review = await db
    .selectFrom('review')
    .select(['rating', 'body', 'userId'])
    .where('orderId', '=', orderId)
    .executeTakeFirstOrThrow()
  expect(review.rating).toBe(5)
  expect(review.userId).toBe(await userIdOf(db, buyerEmail))

  // Their own order, not paid yet: refused with a message, and the page offers no review.
  const product = await db
    .selectFrom('product')
    .select('id')
    .where('slug', '=', PRODUCT.slug)
    .executeTakeFirstOrThrow()
  const pending = await makeOrder(db, product.id, {
    userId: await userIdOf(db, email),
    testMode: true,
  })
  const refused = await context.request.post(`/orders/${pending.id}`, { form, maxRedirects: 0 })
  expect(refused.status()).toBe(409)
  expect(await refused.text()).toContain(
    'You can review the product once this order has been delivered.',
  )
  const page = await context.newPage()
  await page.goto(`/orders/${pending.id}`)
  await expect(page.getByRole('heading', { name: 'Review this product' })).toHaveCount(0)
  await page.goto(PRODUCT_PATH)
  await expect(page.getByRole('link', { name: 'Write a review' })).toHaveCount(0)
  expect(
    await db.selectFrom('review').select('id').where('orderId', '=', pending.id).execute(),
  ).toEqual([])
  await context.close()
})

test('a buyer who keeps rewriting a review is slowed down, and the last refused text is not saved', async ({
  browser,
  app,
  db,
}) => {
  const { buyer, page } = await buyerWithoutJavaScript(browser, app.url)
  await expect(page).not.toHaveURL(/\/login/)

  // Ten reviews or changes an hour per user (reviewUser in app/lib/rate-limit.server.ts); the
  // earlier tests used two of them.
  const statuses: number[] = []
  for (let n = 0; n < 12; n += 1) {
    const answer = await page.request.post(`/orders/${orderId}`, {
      form: { intent: 'review', rating: '5', title: '', body: `Rewritten once more, take ${n}.` },
      maxRedirects: 0,
    })
    statuses.push(answer.status())
    if (answer.status() === 429) {
      expect(answer.headers()['retry-after']).toMatch(/^\d+$/)
      expect(await answer.text()).toContain('Too many attempts. Please wait')
    }
  }
  expect(statuses.filter((status) => status === 303).length).toBe(8)
  expect(statuses.slice(8)).toEqual([429, 429, 429, 429])
  const stored = await db
    .selectFrom('review')
    .select('body')
    .where('orderId', '=', orderId)
    .executeTakeFirstOrThrow()
  expect(stored.body).toBe('Rewritten once more, take 7.')
  await buyer.close()
})

test('the back office hides a review with a reason, audit logged, and shows it again', async ({
  page,
  db,
}) => {
  test.skip(!orderId, 'needs the review of the first test')
  await logIn(page)
  await gotoHydrated(page, '/admin/reviews')
  await expect(page.getByRole('link', { name: 'Reviews', exact: true }).first()).toBeVisible()
  const row = page.getByRole('article', { name: `Review of ${PRODUCT.title} by Meera Iyer` })
  await expect(row).toContainText(buyerEmail)
  // The reason box opens behind Hide… (docs/reviews.md).
  await expect(row.getByLabel('Reason for hiding')).toBeHidden()
  await row.getByText('Hide…').click()
  await row.getByRole('button', { name: 'Hide review' }).click()
  await expect(row.getByText(/Give a reason of at least 3 characters/)).toBeVisible()
  await row.getByLabel('Reason for hiding').fill('Shares a licence key in the text')
  await row.getByRole('button', { name: 'Hide review' }).click()
  await expect(page.getByText('Review hidden.').first()).toBeVisible()
  await expect(row).toContainText('Hidden because: Shares a licence key in the text')
  await screenshotWidthsAndThemes(page, 'admin-reviews')

  // Off the product page, its rating and its JSON-LD.
  await page.goto(PRODUCT_PATH)
  await expect(page.getByRole('region', { name: 'Customer reviews' })).toContainText(
    'No reviews yet.',
  )
  expect((await productJsonLd(page)).aggregateRating).toBeUndefined()

  const reviewId = await reviewIdOf(db, orderId)
  const entries = (await listAuditEntries(db, { targetId: reviewId })).entries
  expect(entries.map((entry) => [entry.action, entry.actorEmail])).toEqual([
    ['review.hide', OWNER.email],
  ])
  expect(entries[0]!.changes).toMatchObject({
    hiddenReason: { before: null, after: 'Shares a licence key in the text' },
  })

  await page.goto('/admin/reviews?show=hidden')
  await page.getByRole('button', { name: 'Show again' }).click()
  await expect(page.getByText('Review shown again.').first()).toBeVisible()
  await page.goto(PRODUCT_PATH)
  await expect(page.getByRole('article', { name: 'Review by Meera I.' })).toBeVisible()
})
