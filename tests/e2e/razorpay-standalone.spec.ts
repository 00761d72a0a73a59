import type { Page } from '@playwright/test'
import { RAZORPAY_BANNER, RAZORPAY_SIMULATOR_DEFAULTS } from '../../simulators/razorpay/simulator'
import { expect } from '../helpers/fixtures'
import {
  gatewayOrderRow,
  paidEventMessages,
  expectRealPaymentSucceeded,
  payAtStandaloneSimulator,
  standaloneControl,
  standaloneGatewayTest,
  type StandaloneSimulator,
} from '../helpers/simulators'

/**
 * A purchase with Razorpay configured by the environment (RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET,
 * RAZORPAY_WEBHOOK_SECRET, RAZORPAY_HOST) and the Razorpay simulator running on its own, as
 * `npm run simulator:razorpay` starts it: what the real Razorpay looks like to the shop. It sends
 * no webhooks here and its test controls are on, so a pending payment captured at "Razorpay"
 * can only be found by the shop's status checks.
 */
const SIM = RAZORPAY_SIMULATOR_DEFAULTS
const PRODUCT = { slug: 'streamverse-premium-12-months', price: '₹1,499' }
const APP_SECRET = 'razorpay-standalone-e2e-secret-0123456789abcdef'

const test = standaloneGatewayTest({
  gateway: 'razorpay',
  simulatorEnv: () => ({ SIM_CONTROL: '1' }),
  appEnv: (simulatorUrl) => ({
    RAZORPAY_HOST: simulatorUrl,
    RAZORPAY_KEY_ID: SIM.keyId,
    RAZORPAY_KEY_SECRET: SIM.keySecret,
    RAZORPAY_WEBHOOK_SECRET: SIM.webhookSecret,
  }),
  appSecret: APP_SECRET,
  productSlug: PRODUCT.slug,
})
test.describe.configure({ mode: 'serial' })

/** Checkout with Razorpay, one button on the standalone simulator's page; returns the order id. */
const payAtRazorpay = (
  page: Page,
  simulator: StandaloneSimulator,
  button: 'Simulate success' | 'Simulate pending',
) =>
  payAtStandaloneSimulator(page, simulator, {
    gateway: /Razorpay/,
    banner: RAZORPAY_BANNER,
    button,
    product: PRODUCT,
  })

test('the embedded Razorpay simulator is not mounted when RAZORPAY_KEY_ID is set', async ({
  request,
}) => {
  const response = await request.get('/__simulator/razorpay/v1/checkout.js')
  expect(response.status()).toBe(404)
})

test("'Simulate success' at the standalone Razorpay ends on 'Payment Successful!'", async ({
  page,
  app,
  simulator,
}) => {
  test.setTimeout(90_000)
  const orderId = await payAtRazorpay(page, simulator, 'Simulate success')
  await expectRealPaymentSucceeded(page, app, orderId, {
    gateway: 'razorpay',
    price: PRODUCT.price,
    timeout: 30_000,
  })
})

test("'Simulate pending' stays Processing until the status check finds it captured", async ({
  page,
  app,
  simulator,
}) => {
  test.setTimeout(150_000)
  const orderId = await payAtRazorpay(page, simulator, 'Simulate pending')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Processing Payment...', {
    timeout: 30_000,
  })
  // Razorpay captures the authorised payment; no webhook is configured, so only reconciliation
  // can find it.
  const { gatewayOrderId } = await gatewayOrderRow(app, orderId)
  const payments = (await (
    await fetch(`${simulator.url}/__control/payments?order_id=${gatewayOrderId}`)
  ).json()) as { id: string; status: string }[]
  expect(payments.map((p) => p.status)).toEqual(['authorized'])
  const settled = await standaloneControl(simulator, 'settle', {
    payment_id: payments[0]!.id,
    status: 'captured',
  })
  expect(settled.status).toBe(200)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!', {
    timeout: 100_000,
  })
  expect(await paidEventMessages(app, orderId)).toEqual([expect.stringContaining('reconciliation')])
})
