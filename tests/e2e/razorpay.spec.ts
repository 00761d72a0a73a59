import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import type { RunningApp } from '../helpers/app'
import { expect, test as cspTest } from '../helpers/csp'
import { ownApp } from '../helpers/fixtures'
import { addRazorpayInTesting } from '../helpers/payments'

/**
 * Buying through the built-in Razorpay simulator beside the built-in Paytm simulator (the
 * Gateways page holds a Razorpay record in testing without keys): the choice of gateway, the
 * remembered choice, success and failure, against the production build.
 */
const PRODUCT = { slug: 'streamverse-premium-12-months', price: '₹1,499' }

// A server of its own: the Razorpay record would otherwise stay in the worker's shared shop and
// change which gateway a later spec file's checkout uses.
const test = cspTest.extend<object, { app: RunningApp }>({ app: ownApp() })

test.beforeAll(async ({ app }) => {
  await addRazorpayInTesting(app)
})

async function fillDetails(page: Page) {
  await page.getByLabel('Full name').fill('Asha Verma')
  await page.getByLabel('Email').fill(`asha.${crypto.randomBytes(4).toString('hex')}@example.test`)
  await page.getByLabel('Phone number').fill('9876543210')
}

async function payWithRazorpay(page: Page, outcome: 'Simulate success' | 'Simulate failure') {
  await page.goto(`/checkout/${PRODUCT.slug}`)
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  const group = page.getByRole('group', { name: 'Pay with' })
  await expect(group.getByRole('radio')).toHaveCount(3)
  await group.getByRole('radio', { name: /Razorpay/ }).check()
  await fillDetails(page)
  await page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
  await expect(page.getByText('Razorpay simulator — test mode, no real money')).toBeVisible()
  await expect(page.getByText(PRODUCT.price)).toBeVisible()
  await page.getByRole('button', { name: outcome }).click()
}

test('the buyer picks Razorpay and pays: Payment Successful, and the choice is remembered', async ({
  page,
}) => {
  await payWithRazorpay(page, 'Simulate success')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!')
  await expect(page.getByText(PRODUCT.price).first()).toBeVisible()
  await page.goto(`/checkout/${PRODUCT.slug}`)
  await expect(page.getByRole('radio', { name: /Razorpay/ })).toBeChecked()
  await expect(page.getByRole('radio', { name: /Paytm/ })).not.toBeChecked()
})

test('Simulate failure at Razorpay ends on Payment Failed', async ({ page }) => {
  await payWithRazorpay(page, 'Simulate failure')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Failed')
})

test('with two gateways the buyer can still pay with Paytm', async ({ page }) => {
  await page.goto(`/checkout/${PRODUCT.slug}`)
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  await page.getByRole('radio', { name: /Paytm/ }).check()
  await fillDetails(page)
  await page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
  await expect(page.getByText('Paytm simulator — test mode, no real money')).toBeVisible()
  await page
    .getByRole('button', { name: /success/i })
    .first()
    .click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!')
})

test('screenshots of the choice screen', async ({ page }) => {
  for (const width of [390, 1280]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 900 })
      await page.emulateMedia({ colorScheme: scheme })
      await page.goto(`/checkout/${PRODUCT.slug}`)
      await page.screenshot({
        path: test.info().outputPath(`checkout-choice-${width}-${scheme}.png`),
        fullPage: true,
      })
    }
  }
})
