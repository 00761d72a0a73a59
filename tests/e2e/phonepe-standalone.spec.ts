import type { Page } from '@playwright/test'
import { PHONEPE_BANNER, PHONEPE_SIMULATOR_DEFAULTS } from '../../simulators/phonepe/simulator'
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
 * A purchase with PhonePe configured by the environment (PHONEPE_CLIENT_ID, PHONEPE_CLIENT_SECRET,
 * PHONEPE_WEBHOOK_*, PHONEPE_HOST) and the PhonePe simulator running on its own, as
 * `npm run simulator:phonepe` starts it: what the real PhonePe looks like to the shop. Its test
 * controls are on so that a pending payment can be completed at "PhonePe" without a webhook,
 * leaving the shop's status checks to find it.
 */
const SIM = PHONEPE_SIMULATOR_DEFAULTS
const PRODUCT = { slug: 'streamverse-premium-12-months', price: '₹1,499' }
const APP_SECRET = 'phonepe-standalone-e2e-secret-0123456789abcdef01'

const test = standaloneGatewayTest({
  gateway: 'phonepe',
  simulatorEnv: (appUrl) => ({
    SIM_CONTROL: '1',
    SIM_WEBHOOK_URL: `${appUrl}/api/payments/phonepe/webhook`,
  }),
  appEnv: (simulatorUrl) => ({
    PHONEPE_HOST: simulatorUrl,
    PHONEPE_CLIENT_ID: SIM.clientId,
    PHONEPE_CLIENT_SECRET: SIM.clientSecret,
    PHONEPE_CLIENT_VERSION: SIM.clientVersion,
    PHONEPE_WEBHOOK_USERNAME: SIM.webhookUsername,
    PHONEPE_WEBHOOK_PASSWORD: SIM.webhookPassword,
  }),
  appSecret: APP_SECRET,
  productSlug: PRODUCT.slug,
})
test.describe.configure({ mode: 'serial' })

/** Checkout with PhonePe, one button on the standalone simulator's page; returns the order id. */
const payAtPhonePe = (
  page: Page,
  simulator: StandaloneSimulator,
  button: 'Simulate success' | 'Simulate pending',
) =>
  payAtStandaloneSimulator(page, simulator, {
    gateway: /PhonePe/,
    banner: PHONEPE_BANNER,
    button,
    product: PRODUCT,
  })

test('the embedded PhonePe simulator is not mounted when PHONEPE_CLIENT_ID is set', async ({
  request,
}) => {
  const response = await request.post('/__simulator/phonepe/v1/oauth/token', {
    form: { client_id: SIM.clientId },
  })
  expect(response.status()).toBe(404)
})

test("'Simulate success' at the standalone PhonePe ends on 'Payment Successful!'", async ({
  page,
  app,
  simulator,
}) => {
  test.setTimeout(90_000)
  const orderId = await payAtPhonePe(page, simulator, 'Simulate success')
  await expectRealPaymentSucceeded(page, app, orderId, {
    gateway: 'phonepe',
    price: PRODUCT.price,
    timeout: 30_000,
  })
})

test("'Simulate pending' stays Processing until the status check finds it paid", async ({
  page,
  app,
  simulator,
}) => {
  test.setTimeout(150_000)
  const orderId = await payAtPhonePe(page, simulator, 'Simulate pending')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Processing Payment...', {
    timeout: 30_000,
  })
  // PhonePe completes the payment and sends no webhook: only reconciliation can find it.
  const settled = await standaloneControl(simulator, 'settle', {
    merchantOrderId: orderId,
    state: 'COMPLETED',
    webhook: false,
  })
  expect(settled.status).toBe(200)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!', {
    timeout: 100_000,
  })
  expect(await gatewayOrderRow(app, orderId)).toMatchObject({ gateway: 'phonepe', testMode: 0 })
  expect(await paidEventMessages(app, orderId)).toEqual([expect.stringContaining('reconciliation')])
})
