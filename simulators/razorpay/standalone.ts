import process from 'node:process'
import { serveStandalone, standaloneAddress } from '../kit'
import { createRazorpaySimulator, RAZORPAY_SIMULATOR_DEFAULTS } from './simulator'

/**
 * The Razorpay simulator on its own port: `npm run simulator:razorpay`. Point the shop at it
 * with RAZORPAY_HOST=http://127.0.0.1:4200 and the same RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and
 * RAZORPAY_WEBHOOK_SECRET as SIM_RAZORPAY_KEY_ID, SIM_RAZORPAY_KEY_SECRET and
 * SIM_RAZORPAY_WEBHOOK_SECRET; SIM_WEBHOOK_URL is the shop's /api/payments/razorpay/webhook.
 */
const address = standaloneAddress('Razorpay', 4200)
const keyId = process.env.SIM_RAZORPAY_KEY_ID || RAZORPAY_SIMULATOR_DEFAULTS.keyId
serveStandalone(
  'Razorpay',
  createRazorpaySimulator({
    keyId,
    keySecret: process.env.SIM_RAZORPAY_KEY_SECRET || RAZORPAY_SIMULATOR_DEFAULTS.keySecret,
    webhookSecret:
      process.env.SIM_RAZORPAY_WEBHOOK_SECRET || RAZORPAY_SIMULATOR_DEFAULTS.webhookSecret,
    webhookUrl: process.env.SIM_WEBHOOK_URL || undefined,
    control: process.env.SIM_CONTROL === '1',
  }),
  address,
  (url) => `Razorpay simulator (test mode, no real money) at ${url} for key ${keyId}`,
)
