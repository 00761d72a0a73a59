import { PHONEPE_BANNER, PHONEPE_SIMULATOR_DEFAULTS } from '../../simulators/phonepe/simulator'
import { expect } from '../helpers/fixtures'
import {
  standaloneCheckoutTests,
  standaloneControl,
  standaloneGatewayTest,
} from '../helpers/simulators'

/**
 * A purchase with PhonePe configured by the environment (PHONEPE_CLIENT_ID, PHONEPE_CLIENT_SECRET,
 * PHONEPE_WEBHOOK_*, PHONEPE_HOST) and the PhonePe simulator running on its own, as
 * `npm run simulator:phonepe` starts it: what the real PhonePe looks like to the shop. Its test
 * controls are on so that a pending payment can be completed at "PhonePe" without a webhook,
 * leaving the shop's status checks to find it.
 */
const SIM = PHONEPE_SIMULATOR_DEFAULTS
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
})
test.describe.configure({ mode: 'serial' })

test('the embedded PhonePe simulator is not mounted when PHONEPE_CLIENT_ID is set', async ({
  request,
}) => {
  const response = await request.post('/__simulator/phonepe/v1/oauth/token', {
    form: { client_id: SIM.clientId },
  })
  expect(response.status()).toBe(404)
})

standaloneCheckoutTests(test, {
  gateway: 'phonepe',
  name: 'PhonePe',
  banner: PHONEPE_BANNER,
  settledAs: 'paid',
  // PhonePe completes the payment and sends no webhook: only reconciliation can find it.
  settle: (simulator, _app, orderId) =>
    standaloneControl(simulator, 'settle', {
      merchantOrderId: orderId,
      state: 'COMPLETED',
      webhook: false,
    }),
})
