import type { Page } from '@playwright/test'
import { formatRupees } from '~/lib/money'
import { saveGateway } from '~/data/gateway.server'
import { makeStockedProduct, openAppDatabase } from '../factories'
import { gatewayForm } from '../helpers/forms'
import { expect } from '../helpers/fixtures'
import { signUpInBrowser } from '../helpers/mailbox'
import { STANDALONE_PRODUCT, standaloneGatewayTest } from '../helpers/simulators'

/**
 * The same purchase with Paytm configured by the environment (PAYTM_HOST, PAYTM_MID,
 * PAYTM_MERCHANT_KEY) and the simulator running on its own, as `npm run simulator:paytm`
 * starts it: what a real gateway looks like to the shop.
 */
const SIM = { mid: 'SIMMID12345678901234', key: 'aB3#kL9@xY2&mN5!' }
const OWNER = 'owner@example.test'
const APP_SECRET = 'standalone-e2e-secret-0123456789abcdef0123456789'

const test = standaloneGatewayTest({
  gateway: 'paytm',
  simulatorEnv: () => ({ SIM_SETTLE_PENDING_MS: '3000' }),
  appEnv: (simulatorUrl) => ({
    PAYTM_HOST: simulatorUrl,
    PAYTM_MID: SIM.mid,
    PAYTM_MERCHANT_KEY: SIM.key,
    PAYTM_WEBSITE: 'WEBSTAGING',
    ADMIN_EMAILS: OWNER,
  }),
  appSecret: APP_SECRET,
})

async function payAtGateway(
  page: Page,
  simulatorUrl: string,
  button: 'Simulate success' | 'Simulate failure' | 'Leave pending',
) {
  await page.goto(`/checkout/${STANDALONE_PRODUCT.slug}`)
  // A configured merchant is not test mode.
  await expect(page.getByRole('heading', { name: 'Checkout' })).toBeVisible()
  await expect(page.getByRole('note').filter({ hasText: 'Test mode' })).toHaveCount(0)
  await page.getByLabel('Full name').fill('Kabir Singh')
  await page.getByLabel('Email').fill('kabir@example.test')
  await page.getByLabel('Phone number').fill('9812345670')
  await page.getByRole('button', { name: `Pay ${STANDALONE_PRODUCT.price}` }).click()
  await expect(page).toHaveURL(`${simulatorUrl}/theia/processTransaction`)
  await expect(page.getByText(`${SIM.mid} (WEBSTAGING)`)).toBeVisible()
  await page.getByRole('button', { name: button }).click()
}

test.describe.serial('Paytm from the environment, simulator standalone', () => {
  test('the embedded simulator is not mounted when PAYTM_MID is set', async ({ request }) => {
    const response = await request.post('/__simulator/paytm/theia/processTransaction', {
      form: { MID: SIM.mid },
    })
    expect(response.status()).toBe(404)
  })

  test("the demo's test items are not stock for a live shop", async ({ page }) => {
    // CineNova holds only the seed's test items, StreamVerse real keys as well: with a real
    // Paytm only, the first cannot be sold and must not be offered (docs/delivery.md).
    const demo = 'CineNova Ultra 6 Months'
    await page.goto('/product/cinenova-ultra-6-months')
    const main = page.getByRole('main')
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(demo)
    await expect(main.getByText('Out of Stock', { exact: true }).first()).toBeVisible()
    await expect(main.getByRole('link', { name: 'Buy Now' })).toHaveCount(0)
    const jsonLd = await page.locator('script[type="application/ld+json"]').first().textContent()
    expect(jsonLd).toContain('https://schema.org/OutOfStock')
    await page.goto('/checkout/cinenova-ultra-6-months')
    await expect(page.getByText('This product is out of stock.')).toBeVisible()
    await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0)

    await page.goto(`/product/${STANDALONE_PRODUCT.slug}`)
    await expect(main.getByText('In Stock', { exact: true })).toBeVisible()
    await expect(main.getByRole('link', { name: 'Buy Now' })).toBeVisible()

    await page.goto('/')
    const card = (title: string) => page.getByRole('article').filter({ hasText: title }).first()
    await expect(card(demo)).toContainText('Out of Stock')
    await expect(card('StreamVerse Premium 12 Months')).not.toContainText('Out of Stock')
  })

  test("'Simulate success' ends on 'Payment Successful!'", async ({ page, simulator }) => {
    await payAtGateway(page, simulator.url, 'Simulate success')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!')
    await expect(
      page.getByRole('main').locator('dl').getByText(STANDALONE_PRODUCT.price),
    ).toBeVisible()
    await expect(page.getByRole('note').filter({ hasText: 'Test mode' })).toHaveCount(0)
  })

  test("'Simulate failure' ends on 'Payment Failed'", async ({ page, simulator }) => {
    await payAtGateway(page, simulator.url, 'Simulate failure')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Failed')
  })

  test("'Leave pending' is reconciled to paid", async ({ page, simulator }) => {
    test.setTimeout(90_000)
    await payAtGateway(page, simulator.url, 'Leave pending')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Processing Payment...')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!', {
      timeout: 45_000,
    })
  })

  test('the Gateways page shows the PAYTM_* values read-only, with real figures', async ({
    page,
    app,
  }) => {
    await signUpInBrowser(page, app, { name: 'Shop Owner', email: OWNER, password: 'secret12' })

    await page.goto('/admin/gateways')
    await expect(page.getByRole('heading', { name: 'Payment Gateways' })).toBeVisible()
    await expect(page.getByText('Paytm is configured by environment variables')).toBeVisible()
    const card = page
      .getByRole('list', { name: 'Gateways' })
      .getByRole('listitem')
      .filter({ hasText: 'Paytm' })
    await expect(card.getByText(SIM.mid)).toBeVisible()
    await expect(card.getByText('set (hidden)')).toBeVisible()
    // Two real payments so far (success, then the reconciled pending one), ₹2,998; the demo
    // seed's fictional purchases are test mode and are shown apart.
    const db = openAppDatabase(app)
    const demo = await db
      .selectFrom('order')
      .select(['amount', 'testMode'])
      .where('customerEmail', 'like', '%.demo-buyer@example.test')
      .execute()
    await db.destroy()
    expect(demo.every((order) => order.testMode === 1)).toBe(true)
    const demoPaise = demo.reduce((sum, order) => sum + Number(order.amount), 0)
    await expect(card.locator('dl').first().getByRole('definition')).toHaveText([
      formatRupees(299_800),
      '2 transactions',
      formatRupees(demoPaise),
      `${demo.length} transactions, no real money`,
    ])
    expect(await page.content()).not.toContain(SIM.key)

    await card.getByRole('link', { name: /Edit/ }).click()
    await expect(
      page.getByText('The Paytm settings come from the PAYTM_* environment variables'),
    ).toBeVisible()
    await expect(page.getByLabel('Merchant ID')).toHaveCount(0)
  })

  test('a simulator kept in testing beside the real gateway sells only test items, the real one only real items', async ({
    page,
    app,
  }) => {
    const db = openAppDatabase(app)
    try {
      const saved = await saveGateway(db, APP_SECRET, {
        mode: 'add',
        ...gatewayForm({ name: 'Razorpay', type: 'razorpay', status: 'testing' }),
      })
      expect(saved).toMatchObject({ ok: true })
      const payWith = page.getByRole('group', { name: 'Pay with' })
      // The demo product holds only test items: the simulator is its one way to pay, named in
      // the form, and the page says it is test mode.
      await expect(async () => {
        await page.goto('/checkout/cinenova-ultra-6-months')
        await expect(page.getByRole('button', { name: /^Pay / })).toBeVisible({ timeout: 1000 })
      }).toPass({ timeout: 10_000 })
      await expect(payWith).toHaveCount(0)
      await expect(page.locator('input[type="hidden"][name="gateway"]')).toHaveValue('razorpay')
      await expect(page.getByRole('note').filter({ hasText: 'Test mode' })).toBeVisible()
      // A product with real and test items: either way to pay.
      await page.goto(`/checkout/${STANDALONE_PRODUCT.slug}`)
      await expect(payWith.getByRole('radio')).toHaveCount(2)
      // A product with real items only: the real Paytm alone.
      const realOnly = await makeStockedProduct(db, APP_SECRET, ['REAL-KEY-0001'])
      await page.goto(`/checkout/${realOnly.slug}`)
      await expect(payWith).toHaveCount(0)
      await expect(page.locator('input[type="hidden"][name="gateway"]')).toHaveValue('paytm')
      await expect(page.getByRole('note').filter({ hasText: 'Test mode' })).toHaveCount(0)
      // A form naming the simulator for it (a page loaded before the last test item sold) is
      // refused, not silently sent to the real gateway, and the real one is named instead.
      await page.getByLabel('Full name').fill('Kabir Singh')
      await page.getByLabel('Email').fill('kabir.mixed@example.test')
      await page.getByLabel('Phone number').fill('9812345670')
      await page
        .locator('input[type="hidden"][name="gateway"]')
        .evaluate((input: HTMLInputElement) => (input.value = 'razorpay'))
      await page.getByRole('button', { name: /^Pay / }).click()
      await expect(
        page.getByText(
          'UPI, cards, netbanking — Razorpay can no longer sell this product. Please pay with UPI, cards, wallet — Paytm; your details are kept.',
        ),
      ).toBeVisible()
      await expect(page.locator('input[type="hidden"][name="gateway"]')).toHaveValue('paytm')
      await expect(page.getByLabel('Full name')).toHaveValue('Kabir Singh')
      const orders = await db
        .selectFrom('order')
        .select('id')
        .where('customerEmail', '=', 'kabir.mixed@example.test')
        .execute()
      expect(orders).toEqual([])
    } finally {
      await db.deleteFrom('paymentGateway').where('type', '=', 'razorpay').execute()
      await db.destroy()
    }
  })
})
