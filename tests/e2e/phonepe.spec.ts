import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import { gatewayLabel } from '~/lib/validation/gateway'
import { openAppDatabase } from '../factories'
import type { RunningApp } from '../helpers/app'
import { ownApp } from '../helpers/fixtures'
import { expect, test as cspTest } from '../helpers/csp'
import { addGatewayInTesting, paymentLinkFor } from '../helpers/payments'
import { gatewayOrderRow, paidEventMessages } from '../helpers/simulators'

/**
 * Buying through the built-in PhonePe simulator beside the built-in Paytm simulator (the
 * Gateways page holds a PhonePe record in testing without credentials), against the production
 * build: success, failure, and a pending payment that only the reconciliation job settles (the
 * simulator's test controls are on, so the test can settle it at PhonePe without a webhook).
 */
const PRODUCT = { slug: 'streamverse-premium-12-months', price: '₹1,499' }

const test = cspTest.extend<object, { app: RunningApp }>({
  app: ownApp({ PAYTM_SIMULATOR_CONTROL: '1' }),
})

test.beforeAll(async ({ app }) => {
  const db = openAppDatabase(app)
  await addGatewayInTesting(db, 'phonepe')
  await db.destroy()
})

async function fillDetails(page: Page) {
  await page.getByLabel('Full name').fill('Asha Verma')
  await page.getByLabel('Email').fill(`asha.${crypto.randomBytes(4).toString('hex')}@example.test`)
  await page.getByLabel('Phone number').fill('9876543210')
}

async function payWithPhonePe(
  page: Page,
  outcome: 'Simulate success' | 'Simulate failure' | 'Simulate pending',
) {
  await page.goto(`/checkout/${PRODUCT.slug}`)
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  // Every way to pay is a built-in simulator here, and the banner lists them (in checkout's order).
  const banner = page.getByRole('note').filter({ hasText: 'Test mode' })
  await expect(banner).toHaveText(
    /^Test mode: payments go to the built-in \w+, \w+ and \w+ simulators\. No real money is charged\.$/,
  )
  for (const name of ['Paytm', 'Razorpay', 'PhonePe']) await expect(banner).toContainText(name)
  const group = page.getByRole('group', { name: 'Pay with' })
  await expect(group.getByRole('radio')).toHaveCount(3)
  await group.getByRole('radio', { name: /PhonePe/ }).check()
  await fillDetails(page)
  await page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
  await expect(page.getByText('PhonePe simulator — test mode, no real money')).toBeVisible({
    timeout: 30_000,
  })
  await expect(page.getByText(PRODUCT.price)).toBeVisible()
  await page.getByRole('button', { name: outcome }).click()
  await page.waitForURL(/\/payment\/callback\?ORDERID=/, { timeout: 30_000 })
  return new URL(page.url()).searchParams.get('ORDERID')!
}

const result = (page: Page) => page.getByRole('heading', { level: 1 })

test('the buyer picks PhonePe and pays: Payment Successful, delivered once', async ({
  page,
  app,
}) => {
  const orderId = await payWithPhonePe(page, 'Simulate success')
  await expect(result(page)).toHaveText('Payment Successful!', { timeout: 30_000 })
  await expect(page.getByText(PRODUCT.price).first()).toBeVisible()
  await expect(
    page.getByRole('note').filter({ hasText: 'built-in PhonePe simulator' }),
  ).toBeVisible()
  const db = openAppDatabase(app)
  try {
    const order = await db
      .selectFrom('order')
      .select(['gateway', 'gatewayTxnId', 'paidAmount', 'amount', 'testMode'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(order).toMatchObject({ gateway: 'phonepe', testMode: 1 })
    expect(Number(order.paidAmount)).toBe(Number(order.amount))
    expect(order.gatewayTxnId).toMatch(/^OM/)
    // The return and the webhook both arrive; the order was paid once.
    await expect
      .poll(
        async () =>
          (
            await db
              .selectFrom('orderEvent')
              .select('type')
              .where('orderId', '=', orderId)
              .where('type', '=', 'paid')
              .execute()
          ).length,
        { timeout: 10_000 },
      )
      .toBe(1)
  } finally {
    await db.destroy()
  }
  await page.goto(`/checkout/${PRODUCT.slug}`)
  await expect(page.getByRole('radio', { name: /PhonePe/ })).toBeChecked()
})

test('Simulate failure at PhonePe ends on Payment Failed', async ({ page }) => {
  await payWithPhonePe(page, 'Simulate failure')
  await expect(result(page)).toHaveText('Payment Failed', { timeout: 30_000 })
  // The simulator declines as a wrong UPI PIN (ZM): the buyer reads why, with the codes.
  await expect(
    page.getByText('The UPI PIN entered was not correct (PAYMENT_DECLINED: ZM)'),
  ).toBeVisible()
})

test('a pending payment stays Processing until the reconciliation job confirms it', async ({
  page,
  app,
}) => {
  test.setTimeout(120_000)
  const orderId = await payWithPhonePe(page, 'Simulate pending')
  await expect(result(page)).toHaveText('Processing Payment...', { timeout: 30_000 })
  // PhonePe completes the payment and sends no webhook: only the status check can find it.
  const settled = await fetch(`${app.url}/__simulator/phonepe/__control/settle`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ merchantOrderId: orderId, state: 'COMPLETED', webhook: false }),
  })
  expect(settled.status).toBe(200)
  await expect(result(page)).toHaveText('Payment Successful!', { timeout: 60_000 })
  expect(await paidEventMessages(app, orderId)).toEqual([expect.stringContaining('reconciliation')])
})

test('a forged return or webhook changes nothing', async ({ page, request, app }) => {
  const orderId = await payWithPhonePe(page, 'Simulate pending')
  await expect(result(page)).toHaveText('Processing Payment...', { timeout: 30_000 })
  const hook = await request.post('/api/payments/phonepe/webhook', {
    headers: { Authorization: crypto.createHash('sha256').update('user:guess').digest('hex') },
    data: {
      event: 'checkout.order.completed',
      payload: { merchantOrderId: orderId, state: 'COMPLETED', amount: 149900 },
    },
  })
  expect(hook.status()).toBe(401)
  const back = await request.get(`/api/payments/phonepe/return?order=${orderId}&state=COMPLETED`, {
    maxRedirects: 0,
  })
  expect(back.status()).toBe(303)
  expect(back.headers().location).toBe(`/payment/callback?ORDERID=${orderId}`)
  expect(await gatewayOrderRow(app, orderId)).toMatchObject({ status: 'pending' })
})

test('PhonePe down when the buyer pays: the next way to pay is offered, the details kept', async ({
  page,
  request,
}) => {
  await page.goto(`/checkout/${PRODUCT.slug}`)
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  const group = page.getByRole('group', { name: 'Pay with' })
  await group.getByRole('radio', { name: /PhonePe/ }).check()
  await fillDetails(page)
  const email = await page.getByLabel('Email').inputValue()
  await request.post('/__simulator/phonepe/__control/outage', { data: { enabled: true } })
  try {
    await page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
    await expect(
      page.getByText(
        /^UPI, cards, netbanking — PhonePe could not start the payment\. Please try .+; your details are kept\.$/,
      ),
    ).toBeVisible({ timeout: 30_000 })
  } finally {
    await request.post('/__simulator/phonepe/__control/outage', { data: { enabled: false } })
  }
  const phonePe = group.getByRole('radio', { name: /PhonePe/ })
  await expect(phonePe).toBeDisabled()
  await expect(group).toContainText('(not available right now)')
  const next = group.getByRole('radio', { checked: true })
  await expect(next).toHaveCount(1)
  const nextId = (await next.getAttribute('value'))!
  expect(['paytm', 'razorpay']).toContain(nextId)
  const nextName = gatewayLabel(nextId)
  await expect(page.getByLabel('Email')).toHaveValue(email)
  // The next gateway takes the same details: its simulator page asks for the payment.
  await page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
  await expect(page.getByText(`${nextName} simulator — test mode, no real money`)).toBeVisible({
    timeout: 30_000,
  })
})

test('PhonePe down when a payment link is paid: the next way to pay takes the same link', async ({
  page,
  request,
  app,
}) => {
  const db = openAppDatabase(app)
  const link = await paymentLinkFor(db, PRODUCT.slug, app.url)
  await db.destroy()
  await page.goto(link.paymentUrl.slice(app.url.length))
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  await expect(page.getByRole('heading', { name: 'Complete your payment' })).toBeVisible()
  const group = page.getByRole('group', { name: 'Pay with' })
  await group.getByRole('radio', { name: /PhonePe/ }).check()
  await request.post('/__simulator/phonepe/__control/outage', { data: { enabled: true } })
  try {
    await page.getByRole('button', { name: 'Pay ₹999' }).click()
    await expect(
      page.getByText(
        /^UPI, cards, netbanking — PhonePe could not start the payment\. Please try .+\.$/,
      ),
    ).toBeVisible({ timeout: 30_000 })
  } finally {
    await request.post('/__simulator/phonepe/__control/outage', { data: { enabled: false } })
  }
  await expect(group.getByRole('radio', { name: /PhonePe/ })).toBeDisabled()
  const next = group.getByRole('radio', { checked: true })
  await expect(next).toHaveCount(1)
  const nextName = gatewayLabel((await next.getAttribute('value'))!)
  expect(['Paytm', 'Razorpay']).toContain(nextName)
  // The link's amount and customer go to the next gateway; the buyer enters nothing.
  await page.getByRole('button', { name: 'Pay ₹999' }).click()
  await expect(page.getByText(`${nextName} simulator — test mode, no real money`)).toBeVisible({
    timeout: 30_000,
  })
  await expect(page.getByText('₹999', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Simulate success' }).click()
  await expect(result(page)).toHaveText('Payment Successful!', { timeout: 30_000 })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the Continue link takes the buyer to PhonePe and back', async ({ page }) => {
    await page.goto(`/checkout/${PRODUCT.slug}`)
    await page.getByRole('radio', { name: /PhonePe/ }).check()
    await fillDetails(page)
    await page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
    await expect(page.getByText('Taking you to PhonePe to pay securely…')).toBeVisible({
      timeout: 30_000,
    })
    await page.getByRole('link', { name: 'Continue' }).click()
    await page.getByRole('button', { name: 'Simulate success' }).click()
    await expect(result(page)).toHaveText('Payment Successful!', {
      timeout: 30_000,
    })
  })
})

test('screenshots of the choice and the simulator', async ({ page }) => {
  const variants = [390, 1280].flatMap((width) =>
    (['light', 'dark'] as const).map((scheme) => ({ width, scheme })),
  )
  for (const { width, scheme } of variants) {
    await page.setViewportSize({ width, height: 900 })
    await page.emulateMedia({ colorScheme: scheme })
    await page.goto(`/checkout/${PRODUCT.slug}`)
    await page.screenshot({
      path: test.info().outputPath(`phonepe-choice-${width}-${scheme}.png`),
      fullPage: true,
    })
  }
  await page.goto(`/checkout/${PRODUCT.slug}`)
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  await page.getByRole('radio', { name: /PhonePe/ }).check()
  await fillDetails(page)
  await page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
  await expect(page.getByRole('button', { name: 'Simulate success' })).toBeVisible({
    timeout: 30_000,
  })
  for (const { width, scheme } of variants) {
    await page.setViewportSize({ width, height: 900 })
    await page.emulateMedia({ colorScheme: scheme })
    await page.screenshot({
      path: test.info().outputPath(`phonepe-simulator-${width}-${scheme}.png`),
      fullPage: true,
    })
  }
})
