import { RAZORPAY_BANNER, RAZORPAY_SIMULATOR_DEFAULTS } from '../../simulators/razorpay/simulator'
import { expect } from '../helpers/fixtures'
import {
  gatewayOrderRow,
  standaloneCheckoutTests,
  standaloneControl,
  standaloneGatewayTest,
} from '../helpers/simulators'

/**
 * A purchase with Razorpay configured by the environment (RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET,
 * RAZORPAY_WEBHOOK_SECRET, RAZORPAY_HOST) and the Razorpay simulator running on its own, as
 * `npm run simulator:razorpay` starts it: what the real Razorpay looks like to the shop. It sends
 * no webhooks here and its test controls are on, so a pending payment captured at "Razorpay"
 * can only be found by the shop's status checks.
 */
const SIM = RAZORPAY_SIMULATOR_DEFAULTS
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
})
test.describe.configure({ mode: 'serial' })

test('the embedded Razorpay simulator is not mounted when RAZORPAY_KEY_ID is set', async ({
  request,
}) => {
  const response = await request.get('/__simulator/razorpay/v1/checkout.js')
  expect(response.status()).toBe(404)
})

standaloneCheckoutTests(test, {
  gateway: 'razorpay',
  name: 'Razorpay',
  banner: RAZORPAY_BANNER,
  settledAs: 'captured',
  // Razorpay captures the authorised payment; no webhook is configured, so only reconciliation
  // can find it.
  settle: async (simulator, app, orderId) => {
    const { gatewayOrderId } = await gatewayOrderRow(app, orderId)
    const payments = (await (
      await fetch(`${simulator.url}/__control/payments?order_id=${gatewayOrderId}`)
    ).json()) as { id: string; status: string }[]
    expect(payments.map((p) => p.status)).toEqual(['authorized'])
    return standaloneControl(simulator, 'settle', {
      payment_id: payments[0]!.id,
      status: 'captured',
    })
  },
})
