import process from 'node:process'
import { serveStandalone, standaloneAddress, standaloneSettings } from '../kit'
import { createPhonePeSimulator, PHONEPE_SIMULATOR_DEFAULTS } from './simulator'

/**
 * The PhonePe simulator on its own port: `npm run simulator:phonepe`. Point the shop at it with
 * PHONEPE_HOST=http://127.0.0.1:4300 and the same PHONEPE_CLIENT_ID, PHONEPE_CLIENT_SECRET,
 * PHONEPE_CLIENT_VERSION, PHONEPE_WEBHOOK_USERNAME and PHONEPE_WEBHOOK_PASSWORD as
 * SIM_PHONEPE_CLIENT_ID, SIM_PHONEPE_CLIENT_SECRET, SIM_PHONEPE_CLIENT_VERSION,
 * SIM_PHONEPE_WEBHOOK_USERNAME and SIM_PHONEPE_WEBHOOK_PASSWORD (defaults in simulator.ts);
 * SIM_WEBHOOK_URL is the shop's /api/payments/phonepe/webhook, SIM_PUBLIC_URL the address
 * browsers reach this simulator at (default http://SIM_HOST:SIM_PORT).
 */
const address = standaloneAddress('PhonePe', 4300)
const settings = standaloneSettings('PhonePe', PHONEPE_SIMULATOR_DEFAULTS)
serveStandalone(
  'PhonePe',
  createPhonePeSimulator({
    ...settings,
    publicUrl: process.env.SIM_PUBLIC_URL || `http://${address.host}:${address.port}`,
  }),
  address,
  (url) => `PhonePe simulator (test mode, no real money) at ${url} for client ${settings.clientId}`,
)
