import fs from 'node:fs'
import path from 'node:path'
import type { Locator, Page } from '@playwright/test'
import type { DB } from '~/lib/db.server'
import { adminTest } from '../helpers/admin'
import { expect, gotoHydrated } from '../helpers/fixtures'
import { screenshotWidthsAndThemes } from '../helpers/screenshots'
import { demoProductImage, makeStockedProduct } from '../factories'

/**
 * The admin's stock screens in the demo shop as `npm start` leaves it (test mode: payments go
 * through the simulator, so the demo's test items are what sells): the dashboard's "Needs
 * attention", the Products list and a product's Stock page count the same thing and say what
 * (app/lib/stock-status.ts); stock items can be told apart without showing them; and the admin
 * tables fit a 1280 px laptop beside the sidebar.
 */
const OWNER = { name: 'Status Owner', email: 'status.owner@example.test', password: 'secret12' }

const { test, logIn } = adminTest(OWNER)
let db: DB
test.beforeAll(({ db: opened }) => {
  db = opened
})

const COUNTED_TEST =
  'Counting test items: the shop is in test mode, where only test items are sold.'

const alerts = (page: Page) => page.getByRole('list', { name: 'Products low or out of stock' })
const alertOf = (page: Page, title: string) =>
  alerts(page).getByRole('listitem').filter({ hasText: title })
const productRow = (page: Page, title: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: title, exact: true }) })
const figure = (page: Page, label: string) =>
  page.getByRole('list', { name: 'Catalogue figures' }).getByRole('listitem').filter({
    hasText: label,
  })

async function listRow(page: Page, title: string): Promise<Locator> {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(`/admin/products?q=${encodeURIComponent(title)}`)
  return productRow(page, title)
}

test.describe.serial('what the stock screens count', () => {
  test.describe.configure({ timeout: 120_000 })

  test('the dashboard, the products list and the stock page agree, counting test items', async ({
    page,
    app,
  }) => {
    await logIn(page)
    await page.setViewportSize({ width: 1280, height: 800 })

    // Dashboard: the demo products sell (their test items), only the two switched off do not.
    await page.goto('/admin/dashboard')
    const attention = page.getByRole('region', { name: 'Needs attention' })
    await expect(attention).toContainText(COUNTED_TEST)
    await expect(alerts(page).getByRole('listitem')).toHaveCount(2)
    for (const title of ['ChatMind Plus 1 Month', 'Questline Royale Battle Pass']) {
      await expect(alertOf(page, title)).toContainText('Out of Stock')
      await expect(alertOf(page, title)).toContainText('In stock is switched off in its form')
    }
    for (const title of ['AnimeDen Plus 1 Year', 'CodeNest IDE Pro 1 Year', 'PixelForge Office'])
      await expect(alertOf(page, title)).toHaveCount(0)

    // Products list: the same two are Out of Stock, and why; the others Active, with their test
    // items said to be test items. Active + the dashboard's two = every product.
    await page.goto('/admin/products')
    const total = Number(
      (await figure(page, 'Total Products').getByText(/^\d+$/).textContent()) ?? '',
    )
    await expect(figure(page, 'Active')).toContainText(`Active${total - 2}`)
    await expect(figure(page, 'Active')).toContainText('For sale now, counting test items')
    const animeDen = await listRow(page, 'AnimeDen Plus 1 Year')
    await expect(animeDen).toContainText('Active')
    await expect(animeDen).toContainText('20 test items')
    const chatMind = await listRow(page, 'ChatMind Plus 1 Month')
    await expect(chatMind).toContainText('Out of Stock')
    await expect(chatMind).toContainText('Marked out of stock')
    await expect(chatMind).not.toContainText('Active')

    // A product holding only real keys does not sell in test mode: every screen says so.
    const appSecret = fs.readFileSync(path.join(app.dataDir, 'secret'), 'utf8').trim()
    const product = await makeStockedProduct(db, appSecret, ['REAL-KEY-7001', 'REAL-KEY-7002'], {
      title: 'Realm Office Key 1 Year',
      slug: 'realm-office-key-1-year',
      image: await demoProductImage(db),
    })
    await page.goto('/admin/dashboard')
    await expect(alertOf(page, product.title)).toContainText('Out of Stock')
    await expect(alertOf(page, product.title)).toContainText(
      'No test items left: its real items are kept for live payments',
    )
    await expect(alertOf(page, product.title).getByRole('link')).toHaveAttribute(
      'href',
      `/admin/products/${product.id}/stock`,
    )
    const row = await listRow(page, product.title)
    await expect(row).toContainText('Out of Stock')
    await expect(row).toContainText('No test items left (2 real, kept for live payments)')
    await gotoHydrated(page, `/admin/products/${product.id}/stock`)
    const inShop = page.getByRole('region', { name: 'In the shop now' })
    await expect(inShop).toContainText(
      'In the shop now: Out of Stock No test items left (2 real, kept for live payments)',
    )
    await expect(inShop).toContainText(COUNTED_TEST)

    // Two test keys make it sell, low: the three screens follow.
    await page.getByLabel('Paste items').fill('QA-KEY-0001\nQA-KEY-0002')
    await page.getByLabel('These are test items').check()
    await page.getByRole('button', { name: 'Import items' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Import finished' })).toContainText(
      '2 added',
    )
    await page.reload()
    await expect(inShop).toContainText(
      'In the shop now: Active 2 test items (2 real, kept for live payments)',
    )
    // The keys are told apart by their last characters, and never shown whole.
    const items = page.getByRole('table', { name: 'Stock items, newest first' })
    await expect(items.getByRole('rowheader', { name: '••••••001', exact: true })).toHaveCount(1)
    await expect(items.getByRole('rowheader', { name: '••••••002', exact: true })).toHaveCount(1)
    expect(await page.content()).not.toMatch(/QA-KEY|REAL-KEY/)
    await expect(page.getByRole('button', { name: 'Revoke item ••••••001' })).toBeVisible()

    await page.goto('/admin/dashboard')
    await expect(alertOf(page, product.title)).toContainText('2 test items left')
    const lowRow = await listRow(page, product.title)
    await expect(lowRow).toContainText('Active')
    await expect(lowRow).toContainText('2 test items (2 real, kept for live payments)')

    // The one the owner means is the one revoked.
    await gotoHydrated(page, `/admin/products/${product.id}/stock`)
    await page.getByRole('button', { name: 'Revoke item ••••••001' }).click()
    await page
      .getByRole('alertdialog', { name: 'Revoke item' })
      .getByRole('button', { name: 'Revoke' })
      .click()
    await expect(page.getByText('Item revoked. It will never be sold.').first()).toBeVisible()
    await expect(
      items.getByRole('row').filter({ hasText: '••••••001' }).getByText('Revoked', { exact: true }),
    ).toBeVisible()
    await expect(page.getByRole('button', { name: /^Revoke item / })).toHaveCount(3)
    await expect(page.getByRole('button', { name: 'Revoke item ••••••002' })).toBeVisible()
    await expect(inShop).toContainText('Active 1 test item')
  })

  test('screenshots of the stock screens', async ({ page }) => {
    await logIn(page)
    await gotoHydrated(page, '/admin/dashboard')
    await screenshotWidthsAndThemes(page, 'dashboard')
    const { id } = await db
      .selectFrom('product')
      .select('id')
      .where('slug', '=', 'realm-office-key-1-year')
      .executeTakeFirstOrThrow()
    await gotoHydrated(page, `/admin/products/${id}/stock`)
    await screenshotWidthsAndThemes(page, 'stock')
    for (const [name, url] of [
      ['products', '/admin/products'],
      ['transactions', '/admin/transactions'],
    ] as const) {
      await gotoHydrated(page, url)
      await screenshotWidthsAndThemes(page, name)
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width: 1024, height: 800 })
        await page.emulateMedia({ colorScheme: scheme })
        await page.screenshot({
          path: test.info().outputPath(`${name}-1024-${scheme}.png`),
          fullPage: true,
        })
      }
      await page.emulateMedia({ colorScheme: 'light' })
    }
  })
})

test('the admin tables fit a 1280 px laptop; no page scrolls sideways at 1024 px or on a phone', async ({
  page,
}) => {
  test.setTimeout(90_000)
  await logIn(page)
  const pages = ['/admin/products', '/admin/transactions', '/admin/orders', '/admin/users']
  await page.setViewportSize({ width: 1280, height: 800 })
  for (const url of pages) {
    await gotoHydrated(page, url)
    const table = page.getByRole('table').first()
    await expect(table).toBeVisible()
    const fit = await table.evaluate((element) => {
      const box = element.parentElement!
      const headings = [...element.querySelectorAll('thead th')]
      const last = headings.at(-1)!
      return {
        overflow: box.scrollWidth - box.clientWidth,
        // The last heading ends inside the box, whole ("ACTIONS", not "ACTI").
        lastHeading: last.getBoundingClientRect().right - box.getBoundingClientRect().right,
        page: document.documentElement.scrollWidth,
      }
    })
    expect(fit.overflow, `${url}: the table scrolls sideways`).toBeLessThanOrEqual(0)
    expect(fit.lastHeading, `${url}: the last column is cut`).toBeLessThanOrEqual(0)
    expect(fit.page, `${url}: the page scrolls sideways`).toBeLessThanOrEqual(1280)
  }

  // Product titles are whole, on at most two lines: the plan's length tells variants apart.
  await gotoHydrated(page, '/admin/products')
  const titles = await page
    .getByRole('table')
    .locator('tbody th p')
    .evaluateAll((elements) =>
      elements.map((element) => {
        const lineHeight = parseFloat(getComputedStyle(element).lineHeight)
        return {
          title: element.textContent,
          cut: element.scrollHeight > element.clientHeight,
          lines: Math.round(element.clientHeight / lineHeight),
        }
      }),
    )
  expect(titles.length).toBe(20)
  for (const title of titles) {
    expect(title.cut, `${title.title} is cut`).toBe(false)
    expect(title.lines, `${title.title} takes more than two lines`).toBeLessThanOrEqual(2)
  }

  // Narrower screens show the rows as cards: nothing makes the page wider than the screen.
  for (const width of [1024, 390]) {
    await page.setViewportSize({ width, height: 800 })
    for (const url of [...pages, '/admin/dashboard']) {
      await gotoHydrated(page, url)
      const wide = await page.evaluate(() => document.documentElement.scrollWidth)
      expect(wide, `${url} at ${width} px`).toBeLessThanOrEqual(width)
    }
  }
})
