import type { Page } from '@playwright/test'
import { listAuditEntries } from '~/data/audit.server'
import { readSiteSettings } from '~/data/settings.server'
import { adminTest } from '../helpers/admin'
import { expect, gotoHydrated, testClientAddress } from '../helpers/fixtures'

/**
 * The display currency (admin Settings, System tab) in the production build: after the owner
 * picks USD at a rate, a visitor sees dollar prices on the product cards, the product page and
 * the checkout summary, and the checkout says the charge is in rupees; the Pay button and the
 * payment stay in rupees. A rate that is not a positive number is refused with a message.
 * Also the Notifications tab's expiry reminder switch (what it does: docs/notifications.md).
 */
const OWNER = { name: 'Shop Owner', email: 'owner.currency@example.test', password: 'secret12' }
// A demo product at ₹1,499: at ₹83.50 per dollar, $17.95.
const PRODUCT = {
  slug: 'streamverse-premium-12-months',
  title: 'StreamVerse Premium 12 Months',
  rupees: '₹1,499',
  dollars: '$17.95',
}

const { test, logIn } = adminTest(OWNER)
test.describe.configure({ timeout: 240_000 })

async function openSystemTab(page: Page) {
  await gotoHydrated(page, '/admin/settings?tab=system')
  await expect(page.getByRole('heading', { level: 2, name: 'System' })).toBeVisible()
}

test('prices show in dollars at the stored rate while the checkout charges rupees and says so', async ({
  page,
  browser,
  baseURL,
}) => {
  await logIn(page)
  await openSystemTab(page)
  await page.getByLabel('Display currency').selectOption('USD')
  await page.getByLabel('Conversion rate (rupees per unit)').fill('-3')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(
    page.getByText('Enter the rupees one unit of the currency is worth, e.g. 83.50'),
  ).toBeVisible()
  await expect(page.getByText('Settings saved')).toHaveCount(0)
  await page.getByLabel('Conversion rate (rupees per unit)').fill('83.50')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()

  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': testClientAddress() },
  })
  try {
    const visitor = await context.newPage()
    await visitor.goto('/')
    const card = visitor.getByRole('article', { name: PRODUCT.title }).first()
    await expect(card.getByText(`Price ${PRODUCT.dollars}`)).toBeVisible()
    await expect(card.getByText(PRODUCT.rupees)).toHaveCount(0)

    await visitor.goto(`/product/${PRODUCT.slug}`)
    await expect(visitor.getByText(`Price ${PRODUCT.dollars}`).first()).toBeVisible()
    await expect(visitor.getByRole('note').filter({ hasText: 'You are charged' })).toContainText(
      `Prices are shown in USD at ₹83.50 = $1, for reference. You are charged ${PRODUCT.rupees} in Indian rupees (INR)`,
    )

    await visitor.goto(`/checkout/${PRODUCT.slug}`)
    const summary = visitor.getByRole('region', { name: 'Order summary' })
    await expect(summary.getByText(`Price ${PRODUCT.dollars}`)).toBeVisible()
    await expect(summary.getByRole('note')).toContainText(
      `You are charged ${PRODUCT.rupees} in Indian rupees (INR)`,
    )
    // What is charged stays in rupees.
    await expect(visitor.getByRole('button', { name: `Pay ${PRODUCT.rupees}` })).toBeVisible()
  } finally {
    await context.close()
  }

  // Back to rupees: no conversion and no note.
  await openSystemTab(page)
  await page.getByLabel('Display currency').selectOption('INR')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  await page.goto(`/checkout/${PRODUCT.slug}`)
  const summary = page.getByRole('region', { name: 'Order summary' })
  await expect(summary.getByText(`Price ${PRODUCT.rupees}`)).toBeVisible()
  await expect(summary.getByRole('note')).toHaveCount(0)
})

test('the expiry reminder switch on the Notifications tab is saved and recorded', async ({
  page,
  db,
}) => {
  await logIn(page)
  await gotoHydrated(page, '/admin/settings?tab=notifications')
  const toggle = page.getByLabel('Send expiry reminders')
  await expect(toggle).toBeChecked()
  await toggle.uncheck()
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  await expect(page.getByLabel('Send expiry reminders')).not.toBeChecked()
  expect((await readSiteSettings(db)).expiryReminders).toBe(false)
  const { entries } = await listAuditEntries(db, { targetType: 'settings' })
  expect(entries[0]).toMatchObject({
    action: 'settings.update',
    changes: expect.objectContaining({ expiryReminders: { before: true, after: false } }),
  })

  // The first toast goes first, so that the one below is this save's own.
  await expect(page.getByText('Settings saved')).toHaveCount(0, { timeout: 15_000 })
  await page.getByLabel('Send expiry reminders').check()
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  expect((await readSiteSettings(db)).expiryReminders).toBe(true)
})
