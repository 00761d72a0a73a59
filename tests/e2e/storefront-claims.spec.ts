import { test as playwright, type Browser, type Page } from '@playwright/test'
import { listAuditEntries } from '~/data/audit.server'
import { readSiteSettings } from '~/data/settings.server'
import { adminTest } from '../helpers/admin'
import { expect, gotoHydrated, testClientAddress } from '../helpers/fixtures'
import { screenshotWidthsAndThemes } from '../helpers/screenshots'

/**
 * The storefront's marketing claims in the production build (docs/settings.md, "Storefront
 * claims"): a fresh shop shows the spec's figures; the owner changes one and hides another in
 * Settings, a bad bundle price is refused with nothing saved, and the home page and a product
 * page, served to visitors from the page cache, show the change.
 */
const OWNER = { name: 'Claims Owner', email: 'owner.claims@example.test', password: 'secret12' }
const PRODUCT = '/product/streamverse-premium-12-months'

const { test, logIn } = adminTest(OWNER)
test.describe.configure({ timeout: 240_000 })

/** A visitor without a session, whose pages the page cache may answer. */
async function visitor(browser: Browser, baseURL: string) {
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': testClientAddress() },
  })
  return { context, page: await context.newPage() }
}

const hero = (page: Page) =>
  page.getByRole('region', { name: 'Premium subscriptions at up to 80% off' })
const whyChooseUs = (page: Page) => page.getByRole('region', { name: /^Why Choose / })
const productWhy = (page: Page) => page.getByRole('region', { name: /^Why choose .*\?$/ })

/** The home page's hero alone, at a phone and a desktop width, light and dark. */
async function heroScreenshots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 900 })
      await page.emulateMedia({ colorScheme: scheme })
      await hero(page).screenshot({
        path: playwright.info().outputPath(`${name}-${width}-${scheme}.png`),
      })
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 900 })
}

/** The hero's figures as "value label" pairs, in order. */
async function heroFigures(page: Page) {
  return hero(page)
    .locator('dl > div')
    .evaluateAll((stats) =>
      stats.map((stat) =>
        [stat.querySelector('dd')?.textContent, stat.querySelector('dt')?.textContent].join(' '),
      ),
    )
}

test('an owner changes a claim and hides another; the cached home and product pages show it', async ({
  page,
  browser,
  baseURL,
  db,
}) => {
  // A fresh shop: the spec's claims, the home page kept in the page cache.
  const guest = await visitor(browser, baseURL!)
  await guest.page.goto('/')
  expect((await guest.page.request.get('/')).headers()['x-page-cache']).toBe('hit')
  expect(await heroFigures(guest.page)).toEqual([
    '10,000+ Happy customers',
    '50+ Premium services',
    '4.9 Customer rating',
    '24/7 Support',
  ])
  await expect(hero(guest.page).getByText('Instant delivery within 5 minutes')).toBeVisible()
  const bundle = hero(guest.page).getByRole('complementary', { name: 'Example bundle' })
  await expect(bundle.getByText('₹2,999', { exact: true })).toBeVisible()
  await expect(bundle.getByText('₹15,999')).toBeVisible()
  await expect(bundle.getByText('Save 81%')).toBeVisible()
  await expect(
    whyChooseUs(guest.page).getByText(
      'Trusted by 10,000+ customers across India, rated 4.9 out of 5.',
    ),
  ).toBeVisible()
  await expect(
    whyChooseUs(guest.page).getByRole('heading', { name: '10,000+ verified accounts' }),
  ).toBeVisible()
  await guest.page.goto(PRODUCT)
  await expect(productWhy(guest.page).getByRole('listitem')).toHaveText([
    '10,000+Verified accounts',
    'Under 5 minDelivery',
    '4.9Rating',
    '24/7WhatsApp support',
  ])

  // The owner opens the Storefront claims tab.
  await logIn(page)
  await gotoHydrated(page, '/admin/settings')
  await page
    .getByRole('navigation', { name: 'Settings sections' })
    .getByRole('link', { name: 'Storefront claims' })
    .click()
  await expect(page.getByRole('heading', { level: 2, name: 'Storefront claims' })).toBeVisible()
  const customers = page.getByRole('group', { name: 'Customers' })
  const rating = page.getByRole('group', { name: 'Rating' })
  await expect(customers.getByLabel('Figure')).toHaveValue('10,000+')
  await expect(customers.getByLabel('Figure')).toHaveAttribute('maxlength', '20')
  await expect(customers.getByLabel('Hero label')).toHaveAttribute('maxlength', '40')
  await expect(page.getByLabel('Bundle price (₹)')).toHaveValue('2999')

  // A bundle price above its original: the message on the field, nothing saved.
  await customers.getByLabel('Figure').fill('1,200+')
  await customers.getByLabel('Hero label').fill('Orders delivered')
  await rating.getByLabel('Figure').fill('')
  await page.getByLabel('Bundle price (₹)').fill('1999')
  await page.getByLabel('Original price (₹)').fill('999')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByText('The bundle price must be below the original price')).toBeVisible()
  await expect(page.getByLabel('Bundle price (₹)')).toHaveAttribute('aria-invalid', 'true')
  expect(await readSiteSettings(db)).toMatchObject({
    claimCustomers: '10,000+',
    claimRating: '4.9',
    exampleBundlePrice: 299_900,
  })

  await page.getByLabel('Original price (₹)').fill('4999')
  const posted = page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' &&
      new URL(response.url()).pathname.startsWith('/admin/settings'),
  )
  await page.getByRole('button', { name: 'Save settings' }).click()
  await posted
  await expect(page.getByText('Settings saved').last()).toBeVisible()
  await expect(customers.getByLabel('Figure')).toHaveValue('1,200+')
  await expect(rating.getByLabel('Figure')).toHaveValue('')
  expect(await readSiteSettings(db)).toMatchObject({
    claimCustomers: '1,200+',
    claimCustomersLabel: 'Orders delivered',
    claimRating: '',
    exampleBundlePrice: 199_900,
    exampleBundleOriginalPrice: 499_900,
  })
  const { entries } = await listAuditEntries(db, { targetType: 'settings' })
  expect(entries[0]).toMatchObject({ action: 'settings.update', targetId: 'storefront' })
  await screenshotWidthsAndThemes(page, 'settings-storefront-claims')

  // The visitor's cached pages give way to the new claims within a couple of seconds.
  await expect(async () => {
    await guest.page.goto('/')
    expect(await heroFigures(guest.page)).toEqual([
      '1,200+ Orders delivered',
      '50+ Premium services',
      '24/7 Support',
    ])
  }).toPass({ timeout: 10_000 })
  expect((await guest.page.request.get('/')).headers()['x-page-cache']).toBe('hit')
  for (const part of [hero(guest.page), whyChooseUs(guest.page)])
    await expect(part.getByText(/4\.9|out of 5|rating/i)).toHaveCount(0)
  await expect(
    whyChooseUs(guest.page).getByText('Trusted by 1,200+ customers across India.', {
      exact: true,
    }),
  ).toBeVisible()
  await expect(
    whyChooseUs(guest.page).getByRole('heading', { name: '1,200+ verified accounts' }),
  ).toBeVisible()
  const newBundle = hero(guest.page).getByRole('complementary', { name: 'Example bundle' })
  await expect(newBundle.getByText('₹1,999', { exact: true })).toBeVisible()
  await expect(newBundle.getByText('₹4,999')).toBeVisible()
  await expect(newBundle.getByText('Save 60%')).toBeVisible()
  await expect(newBundle.getByText('1,200+ verified accounts')).toBeVisible()
  await heroScreenshots(guest.page, 'home-hero-after-claims-change')

  await guest.page.goto(PRODUCT)
  await expect(productWhy(guest.page).getByRole('listitem')).toHaveText([
    '1,200+Verified accounts',
    'Under 5 minDelivery',
    '24/7WhatsApp support',
  ])
  await expect(productWhy(guest.page).getByText(/4\.9|Rating/)).toHaveCount(0)
  await guest.context.close()
})
