import { serveStandalone, standaloneAddress, standaloneSettings } from '../kit'
import { createRazorpaySimulator, RAZORPAY_SIMULATOR_DEFAULTS } from './simulator'

/**
 * The Razorpay simulator on its own port: `npm run simulator:razorpay`. Point the shop at it
 * with RAZORPAY_HOST=http://127.0.0.1:4200 and the same RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and
 * RAZORPAY_WEBHOOK_SECRET as SIM_RAZORPAY_KEY_ID, SIM_RAZORPAY_KEY_SECRET and
 * SIM_RAZORPAY_WEBHOOK_SECRET; SIM_WEBHOOK_URL is the shop's /api/payments/razorpay/webhook.
 */
const address = standaloneAddress('Razorpay', 4200)
const settings = standaloneSettings('Razorpay', RAZORPAY_SIMULATOR_DEFAULTS)
serveStandalone(
  'Razorpay',
  createRazorpaySimulator(settings),
  address,
  (url) => `Razorpay simulator (test mode, no real money) at ${url} for key ${settings.keyId}`,
)
