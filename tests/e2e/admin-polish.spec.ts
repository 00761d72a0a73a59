import type { Locator, Page } from '@playwright/test'
import { listAuditEntries } from '~/data/audit.server'
import type { DB } from '~/lib/db.server'
import { makePaidOrder, makeRefund } from '../factories'
import { adminTest } from '../helpers/admin'
import { expect, gotoHydrated } from '../helpers/fixtures'
import { screenshotWidthsAndThemes } from '../helpers/screenshots'

/**
 * How back-office pages lay out and behave on a phone and a desktop, in the production build of
 * a fresh demo shop in test mode: an order's page tells what happened before offering what can
 * be done; a review is hidden through a compact Hide… step (without JavaScript too); Settings'
 * checkboxes are not required; a toast's close button sits inside it; an empty revenue chart
 * says so; the Gateways page shows one test-mode banner and figures for every gateway.
 */
const OWNER = { name: 'Shop Owner', email: 'owner@example.test', password: 'secret12' }
const admin = adminTest(OWNER)
const { logIn, logInWithoutJavaScript } = admin
const test = admin.test

let db: DB
test.beforeAll(({ db: opened }) => {
  db = opened
})

/** The top of `locator` in the page (not the viewport), in CSS pixels. */
async function pageTop(locator: Locator): Promise<number> {
  return locator.evaluate((element) => element.getBoundingClientRect().top + window.scrollY)
}

/** A demo product sold from stock with test items left, so a test-mode order is delivered. */
async function stockedDemoProduct(): Promise<string> {
  const row = await db
    .selectFrom('product')
    .innerJoin('stockItem', 'stockItem.productId', 'product.id')
    .select('product.id')
    .where('product.deliveryMode', '=', 'stock')
    .where('product.inStock', '=', 1)
    .where('stockItem.status', '=', 'available')
    .where('stockItem.testItem', '=', 1)
    .executeTakeFirstOrThrow()
  return row.id
}

test("an order's page shows what happened before the actions, on a phone and a desktop", async ({
  page,
}) => {
  const order = await makePaidOrder(db, await stockedDemoProduct(), { testMode: true })
  await makeRefund(db, order.id, {
    amount: 50_000,
    status: 'pending',
    at: new Date().toISOString(),
  })
  await logIn(page)
  await page.setViewportSize({ width: 390, height: 844 })
  await gotoHydrated(page, `/admin/orders/${encodeURIComponent(order.id)}`)
  const main = page.getByRole('main')
  const actions = main.getByRole('region', { name: 'Actions' })
  const delivered = main.getByRole('region', { name: 'Delivered item' })
  const refunds = main.getByRole('region', { name: 'Refunds' })
  const timeline = main.getByRole('region', { name: 'Timeline' })
  await expect(refunds).toContainText('Waiting for the gateway')

  // A phone: one column, the order's state first, then the actions.
  const actionsTop = await pageTop(actions)
  for (const region of [delivered, refunds, timeline])
    expect(await pageTop(region)).toBeLessThan(actionsTop)
  // The same order when read or tabbed through: nothing is moved by CSS `order`.
  const sequence = await main.evaluate((element) =>
    [...element.querySelectorAll('section[aria-labelledby], section[aria-label]')].map(
      (section) =>
        section.getAttribute('aria-label') ??
        document.getElementById(section.getAttribute('aria-labelledby')!)?.textContent,
    ),
  )
  expect(sequence.indexOf('Timeline')).toBeLessThan(sequence.indexOf('Actions'))
  expect(sequence.indexOf('Refunds')).toBeLessThan(sequence.indexOf('Actions'))
  expect(
    await main.evaluate((element) =>
      [...element.querySelectorAll('*')].filter((node) => getComputedStyle(node).order !== '0'),
    ),
  ).toHaveLength(0)
  // Tabbing from Reveal goes down the page to the actions, never back up.
  await delivered.getByRole('button', { name: /Reveal/ }).focus()
  const tops: number[] = []
  for (let step = 0; step < 40; step += 1) {
    await page.keyboard.press('Tab')
    const focused = page.locator(':focus')
    tops.push(await pageTop(focused))
    if (await focused.evaluate((element) => element.closest('#order-actions') !== null)) break
  }
  expect(await page.locator(':focus').evaluate((e) => e.closest('#order-actions'))).not.toBeNull()
  expect(tops).toEqual([...tops].sort((a, b) => a - b))
  // A way straight to the actions under the heading.
  await main.getByRole('link', { name: 'Go to actions' }).click()
  await expect(page).toHaveURL(/#order-actions$/)
  await expect(actions).toBeInViewport()

  // A desktop: the actions in their own column beside the order, from the top.
  await page.setViewportSize({ width: 1280, height: 800 })
  const summary = main.getByRole('region', { name: 'Summary' })
  const [actionsBox, timelineBox, summaryBox] = await Promise.all(
    [actions, timeline, summary].map((region) => region.boundingBox()),
  )
  expect(actionsBox!.x).toBeGreaterThan(timelineBox!.x + timelineBox!.width - 1)
  expect(Math.abs(actionsBox!.y - summaryBox!.y)).toBeLessThan(2)
  await expect(main.getByRole('link', { name: 'Go to actions' })).toBeHidden()
  await page.goto(`/admin/orders/${encodeURIComponent(order.id)}`)
  await screenshotWidthsAndThemes(page, 'order')
})

/** The card of the demo review by `reviewer`. */
const reviewCard = (page: Page, reviewer: RegExp) => page.getByRole('article', { name: reviewer })

test('a review is hidden through Hide…, which opens the reason box', async ({ page }) => {
  await logIn(page)
  await gotoHydrated(page, '/admin/reviews?show=visible')
  const articles = page.getByRole('article')
  await expect(articles.first()).toBeVisible()
  // No open reason box under every review: a Hide… button each.
  await expect(page.getByLabel('Reason for hiding').first()).toBeHidden()
  const count = await articles.count()
  await expect(page.getByText('Hide…')).toHaveCount(count)
  await expect(page.getByRole('button', { name: 'Hide review' }).first()).toBeHidden()

  const name = (await articles.first().getAttribute('aria-label'))!
  const card = reviewCard(page, new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`))
  await card.getByText('Hide…').click()
  const reason = card.getByLabel('Reason for hiding')
  await expect(reason).toBeVisible()
  // The others stay closed.
  await expect(page.getByLabel('Reason for hiding').filter({ visible: true })).toHaveCount(1)
  await screenshotWidthsAndThemes(page, 'reviews-hide-open')
  await card.getByRole('button', { name: 'Hide review' }).click()
  await expect(card.getByText(/Give a reason of at least 3 characters/)).toBeVisible()
  await reason.fill('Names another shop')
  await card.getByRole('button', { name: 'Hide review' }).click()
  await expect(page.getByText('Review hidden.').first()).toBeVisible()
  await page.goto('/admin/reviews?show=hidden')
  const hidden = reviewCard(page, new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
  await expect(hidden).toContainText('Hidden because: Names another shop')
  await hidden.getByRole('button', { name: 'Show again' }).click()
  await expect(page.getByText('Review shown again.').first()).toBeVisible()
})

test('a review is hidden through Hide… without JavaScript, the reason required', async ({
  browser,
  baseURL,
}) => {
  const { context, page } = await logInWithoutJavaScript(browser, baseURL)
  await page.goto('/admin/reviews?show=visible')
  const card = page.getByRole('article').first()
  const name = (await card.getAttribute('aria-label'))!
  await expect(card.getByLabel('Reason for hiding')).toBeHidden()
  await card.getByText('Hide…').click()
  await expect(card.getByLabel('Reason for hiding')).toBeVisible()
  // The browser's own check first: the reason is required.
  await expect(card.getByLabel('Reason for hiding')).toHaveAttribute('required', '')
  await card.getByLabel('Reason for hiding').fill('  x ')
  await card.getByRole('button', { name: 'Hide review' }).click()
  // Refused by the server: the page comes back with this review's box open and why.
  const again = page.getByRole('article', { name })
  await expect(again.getByLabel('Reason for hiding')).toBeVisible()
  await expect(again.getByText(/Give a reason of at least 3 characters/)).toBeVisible()
  await again.getByLabel('Reason for hiding').fill('Copied from another site')
  await again.getByRole('button', { name: 'Hide review' }).click()
  await expect(page.getByText('Review hidden.')).toBeVisible()
  const review = await db
    .selectFrom('review')
    .select(['id', 'hidden', 'hiddenReason'])
    .where('hiddenReason', '=', 'Copied from another site')
    .executeTakeFirstOrThrow()
  expect(review.hidden).toBe(1)
  const { entries } = await listAuditEntries(db, { targetId: review.id })
  expect(entries.map((entry) => [entry.action, entry.actorEmail])).toContainEqual([
    'review.hide',
    OWNER.email,
  ])
  // Shown again, as it was.
  await page.goto('/admin/reviews?show=hidden')
  await page.getByRole('article', { name }).getByRole('button', { name: 'Show again' }).click()
  await expect(page.getByText('Review shown again.')).toBeVisible()
  await context.close()
})

test("no Settings checkbox is required, and the saved toast's close button is inside it", async ({
  page,
}) => {
  await logIn(page)
  for (const tab of ['general', 'notifications', 'security', 'system', 'appearance']) {
    await gotoHydrated(page, `/admin/settings?tab=${tab}`)
    await expect(page.locator('input[type="checkbox"][required]')).toHaveCount(0)
  }
  await gotoHydrated(page, '/admin/settings?tab=system')
  const maintenance = page.getByRole('checkbox', { name: 'Maintenance mode' })
  await expect(maintenance).toHaveJSProperty('required', false)
  await expect(maintenance).not.toBeChecked()

  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 })
    await page.getByRole('button', { name: /^Save/ }).click()
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Settings saved' })
    await expect(toast).toBeVisible()
    const close = toast.getByRole('button', { name: /close/i })
    const title = toast.locator('[data-title]')
    await expect(close).toBeVisible()
    // Wait for the toast's entrance to settle before measuring.
    await expect
      .poll(async () => (await toast.boundingBox())!.y, { intervals: [100, 100, 200] })
      .toBeGreaterThanOrEqual(0)
    await page.waitForTimeout(500)
    const [toastBox, closeBox, titleBox] = await Promise.all([
      toast.boundingBox(),
      close.boundingBox(),
      title.boundingBox(),
    ])
    // Wholly inside the toast, at its end, clear of the text.
    expect(closeBox!.x).toBeGreaterThanOrEqual(toastBox!.x)
    expect(closeBox!.y).toBeGreaterThanOrEqual(toastBox!.y)
    expect(closeBox!.x + closeBox!.width).toBeLessThanOrEqual(toastBox!.x + toastBox!.width)
    expect(closeBox!.y + closeBox!.height).toBeLessThanOrEqual(toastBox!.y + toastBox!.height)
    expect(closeBox!.x).toBeGreaterThanOrEqual(titleBox!.x + titleBox!.width)
    expect(closeBox!.width).toBeGreaterThanOrEqual(24)
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.screenshot({ path: test.info().outputPath(`toast-${width}-${scheme}.png`) })
    }
    await page.emulateMedia({ colorScheme: 'light' })
    await close.click()
    await expect(toast).toHaveCount(0)
  }
})

test('the revenue chart of a period with no revenue says so instead of drawing a scale', async ({
  page,
}) => {
  await logIn(page)
  // The demo's orders are all test-mode payments, which the dashboard's money leaves out.
  await gotoHydrated(page, '/admin/dashboard?period=30d')
  const chart = page.getByRole('region', { name: /Revenue and paid orders/ })
  await expect(chart.getByText('No revenue in this period')).toBeVisible()
  await expect(chart.locator('.recharts-wrapper, svg.recharts-surface')).toHaveCount(0)
  await expect(chart.getByRole('table')).toHaveCount(0)
  await screenshotWidthsAndThemes(page, 'dashboard-empty')
})

test('the Gateways page: one test-mode banner, and figures for every gateway that takes payments', async ({
  page,
}) => {
  await logIn(page)
  await gotoHydrated(page, '/admin/gateways')
  const testModeNotes = page.getByRole('note').filter({ hasText: /test mode/i })
  await expect(testModeNotes).toHaveCount(1)
  await expect(page.getByText('Figures are successful payments from real orders')).toHaveCount(0)
  const cards = page.getByRole('list', { name: 'Gateways' }).getByRole('listitem')
  await expect(cards.getByRole('heading', { level: 2 })).toHaveText([
    'Paytm',
    'Razorpay',
    'PhonePe',
  ])
  for (const name of ['Paytm', 'Razorpay', 'PhonePe']) {
    const card = cards.filter({ has: page.getByRole('heading', { name }) })
    await expect(card.getByText('Real payments', { exact: true })).toBeVisible()
    await expect(card.getByText('Test payments', { exact: true })).toBeVisible()
    await expect(card.getByText(/, no real money$/)).toBeVisible()
  }
  await screenshotWidthsAndThemes(page, 'gateways')

  // The Stock page counts its own test-mode items in its banner; the shell adds none.
  await gotoHydrated(page, `/admin/products/${await stockedDemoProduct()}/stock`)
  await expect(page.getByRole('note').filter({ hasText: /test mode/i })).toHaveCount(1)
  await gotoHydrated(page, '/admin/dashboard')
  await expect(page.getByRole('note', { name: 'Test mode', exact: true })).toHaveCount(1)
})
