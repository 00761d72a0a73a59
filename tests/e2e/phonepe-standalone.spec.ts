import type { Page } from '@playwright/test'
import { PHONEPE_BANNER, PHONEPE_SIMULATOR_DEFAULTS } from '../../simulators/phonepe/simulator'
import { openAppDatabase } from '../factories'
import { freePort, startApp, type RunningApp } from '../helpers/app'
import { expect, test as base } from '../helpers/fixtures'
import {
  gatewayOrderRow,
  payAtStandaloneSimulator,
  startStandaloneSimulator,
  stockRealKeys,
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

const test = base.extend<
  object,
  { appPort: number; simulator: StandaloneSimulator; app: RunningApp }
>({
  // The shop's port is chosen first: the simulator sends its webhooks there.
  appPort: [
    // eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring form
    async ({}, use) => use(await freePort()),
    { scope: 'worker' },
  ],
  simulator: [
    async ({ appPort }, use) => {
      const simulator = await startStandaloneSimulator('phonepe', {
        SIM_CONTROL: '1',
        SIM_WEBHOOK_URL: `http://127.0.0.1:${appPort}/api/payments/phonepe/webhook`,
      })
      await use(simulator)
      await simulator.stop()
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  app: [
    async ({ appPort, simulator }, use) => {
      const app = await startApp({
        port: appPort,
        env: {
          PHONEPE_HOST: simulator.url,
          PHONEPE_CLIENT_ID: SIM.clientId,
          PHONEPE_CLIENT_SECRET: SIM.clientSecret,
          PHONEPE_CLIENT_VERSION: SIM.clientVersion,
          PHONEPE_WEBHOOK_USERNAME: SIM.webhookUsername,
          PHONEPE_WEBHOOK_PASSWORD: SIM.webhookPassword,
          APP_SECRET,
        },
      })
      await stockRealKeys(app, PRODUCT.slug, APP_SECRET)
      await use(app)
      await app.dispose()
    },
    { scope: 'worker', timeout: 90_000 },
  ],
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
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!', {
    timeout: 30_000,
  })
  await expect(page.getByRole('main').locator('dl').getByText(PRODUCT.price)).toBeVisible()
  expect(await gatewayOrderRow(app, orderId)).toMatchObject({ gateway: 'phonepe', testMode: 0 })
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
  const settled = await fetch(`${simulator.url}/__control/settle`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ merchantOrderId: orderId, state: 'COMPLETED', webhook: false }),
  })
  expect(settled.status).toBe(200)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!', {
    timeout: 100_000,
  })
  expect(await gatewayOrderRow(app, orderId)).toMatchObject({ gateway: 'phonepe', testMode: 0 })
  const db = openAppDatabase(app)
  try {
    const paid = await db
      .selectFrom('orderEvent')
      .select('message')
      .where('orderId', '=', orderId)
      .where('type', '=', 'paid')
      .execute()
    expect(paid).toHaveLength(1)
    expect(paid[0]!.message).toContain('reconciliation')
  } finally {
    await db.destroy()
  }
})
