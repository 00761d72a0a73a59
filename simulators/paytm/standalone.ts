import process from 'node:process'
import { serveStandalone, standaloneAddress, standaloneFailure } from '../kit'
import {
  PAYTM_SIMULATOR_DEFAULT_KEY,
  PAYTM_SIMULATOR_DEFAULT_MID,
  createPaytmSimulator,
} from './simulator'

/**
 * The Paytm simulator on its own port: `npm run simulator:paytm`.
 * Point the app at it with PAYTM_HOST=http://127.0.0.1:4100 and the same PAYTM_MID and
 * PAYTM_MERCHANT_KEY as SIM_PAYTM_MID and SIM_PAYTM_KEY.
 */
const fail = standaloneFailure('Paytm')
const address = standaloneAddress('Paytm', 4100)
const mid = process.env.SIM_PAYTM_MID || PAYTM_SIMULATOR_DEFAULT_MID
const key = process.env.SIM_PAYTM_KEY || PAYTM_SIMULATOR_DEFAULT_KEY
if (Buffer.byteLength(key, 'utf8') !== 16)
  fail('SIM_PAYTM_KEY must be 16 bytes, like a Paytm merchant key')
const settle = process.env.SIM_SETTLE_PENDING_MS
const settlePendingAfterMs = settle ? Number(settle) : undefined
if (settlePendingAfterMs !== undefined && !(settlePendingAfterMs >= 0)) {
  fail('SIM_SETTLE_PENDING_MS must be a number of milliseconds')
}

serveStandalone(
  'Paytm',
  createPaytmSimulator({
    resolveMerchantKey: (candidate) => (candidate === mid ? key : undefined),
    settlePendingAfterMs,
  }),
  address,
  (url) => `Paytm simulator (test mode, no real money) at ${url} for MID ${mid}`,
)
