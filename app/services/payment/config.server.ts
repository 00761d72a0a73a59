import { href } from 'react-router'
import {
  paytmGatewayEnvironment,
  paytmGatewaySettings,
  type GatewayRecord,
} from '~/data/gateway.server'
import { deriveKey } from '~/lib/crypto.server'
import type { DB } from '~/lib/db.server'
import type { Env } from '~/lib/env.server'
import { PAYTM_STAGING_DEFAULTS, type PaytmConfig } from '~/lib/payments/paytm.server'
import type { GatewaySetup } from './gateway-setup.server'

/**
 * Which Paytm the shop talks to, decided per request in this order:
 *  1. PAYTM_MID + PAYTM_MERCHANT_KEY (+ PAYTM_WEBSITE, PAYTM_HOST) from the environment;
 *  2. the Paytm record of the admin Gateways page, when it has a merchant id and key and is
 *     active or testing; an inactive record turns payments off (it never falls back to the
 *     simulator, which would hand out goods for nothing);
 *  3. otherwise the built-in simulator mounted at /__simulator/paytm ("Test mode").
 * Paytm's staging host takes no real money, so a merchant set up there is in test mode too.
 */
export const PAYTM_HOSTS = {
  staging: 'https://securegw-stage.paytm.in',
  production: 'https://securegw.paytm.in',
} as const

export const SIMULATOR_MOUNT_PATH = '/__simulator/paytm'
export const PAYTM_CALLBACK_PATH = href('/api/payments/paytm/callback')

export interface PaytmSetup extends GatewaySetup<PaytmConfig> {
  /** Where CALLBACK_URL points. */
  callbackUrl: string
}

type PaymentEnv = Pick<
  Env,
  'PUBLIC_URL' | 'APP_SECRET' | 'PAYTM_MID' | 'PAYTM_MERCHANT_KEY' | 'PAYTM_WEBSITE' | 'PAYTM_HOST'
>

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

/**
 * The built-in simulator's merchant: derived from APP_SECRET, so every app process sharing the
 * secret signs and verifies alike, and nobody without it can sign a callback.
 */
export function simulatorMerchant(appSecret: string): { mid: string; merchantKey: string } {
  const midBytes = deriveKey(appSecret, 'keybazaar:paytm-simulator:mid', 17)
  const mid = `SIM${[...midBytes].map((byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('')}`
  const merchantKey = deriveKey(appSecret, 'keybazaar:paytm-simulator:key', 12).toString('base64')
  return { mid, merchantKey }
}

/** The embedded simulator is mounted when no merchant is configured in the environment. */
export function simulatorMounted(env: Pick<Env, 'PAYTM_MID'>): boolean {
  return !env.PAYTM_MID
}

/**
 * Paytm's staging host confirms payments made with its published test wallet and cards: nothing
 * real is paid there, so its orders are test orders. Another host (PAYTM_HOST naming a proxy or
 * a standalone simulator) is what the operator chose, and is taken as live.
 */
export function isPaytmStaging(host: string): boolean {
  return host.replace(/\/+$/, '') === PAYTM_HOSTS.staging
}

export function defaultCallbackUrl(publicUrl: string): string {
  return `${publicUrl}${PAYTM_CALLBACK_PATH}`
}

function simulatorSetup(env: PaymentEnv): PaytmSetup {
  const { mid, merchantKey } = simulatorMerchant(env.APP_SECRET)
  return {
    config: {
      mid,
      merchantKey,
      host: `${env.PUBLIC_URL}${SIMULATOR_MOUNT_PATH}`,
      ...PAYTM_STAGING_DEFAULTS,
    },
    callbackUrl: defaultCallbackUrl(env.PUBLIC_URL),
    source: 'simulator',
    testMode: true,
  }
}

/**
 * The Paytm to use now, or null when payments are switched off (an inactive configured gateway).
 * `records`: every gateway record, when the caller has read them already (readGatewayRecords).
 */
export async function resolvePaytmSetup(
  db: DB,
  env: PaymentEnv,
  records?: readonly GatewayRecord[],
): Promise<PaytmSetup | null> {
  if (env.PAYTM_MID && env.PAYTM_MERCHANT_KEY) {
    return {
      config: {
        ...PAYTM_STAGING_DEFAULTS,
        mid: env.PAYTM_MID,
        merchantKey: env.PAYTM_MERCHANT_KEY,
        website: env.PAYTM_WEBSITE ?? PAYTM_STAGING_DEFAULTS.website,
        host: env.PAYTM_HOST ?? PAYTM_HOSTS.staging,
      },
      callbackUrl: defaultCallbackUrl(env.PUBLIC_URL),
      source: 'environment',
      testMode: isPaytmStaging(env.PAYTM_HOST ?? PAYTM_HOSTS.staging),
    }
  }
  const stored = await paytmGatewaySettings(db, env.APP_SECRET, records)
  // The admin switched Paytm off: no payments (and never the simulator instead).
  if (stored?.status === 'inactive') return null
  if (stored?.merchantId && stored.merchantKey) {
    return {
      config: {
        ...PAYTM_STAGING_DEFAULTS,
        mid: stored.merchantId,
        merchantKey: stored.merchantKey,
        website: stored.website,
        host: PAYTM_HOSTS[stored.environment],
      },
      callbackUrl: stored.callbackUrl || defaultCallbackUrl(env.PUBLIC_URL),
      source: 'gateway',
      testMode: stored.environment === 'staging',
    }
  }
  // A stored merchant id whose key cannot be read (APP_SECRET changed) must not silently become test mode.
  if (stored?.merchantId && !stored.merchantKey && stored.status !== 'testing') return null
  return simulatorMounted(env) ? simulatorSetup(env) : null
}

/**
 * The origin checkout's form posts to, in resolvePaytmSetup's order but without decrypting the
 * stored key: the pages' form-action must allow it (docs/security.md).
 */
export async function paytmFormOrigin(db: DB, env: PaymentEnv): Promise<string | null> {
  if (env.PAYTM_MID) return new URL(env.PAYTM_HOST ?? PAYTM_HOSTS.staging).origin
  const stored = await paytmGatewayEnvironment(db)
  if (stored && stored.status !== 'inactive') return new URL(PAYTM_HOSTS[stored.environment]).origin
  return simulatorMounted(env) ? new URL(env.PUBLIC_URL).origin : null
}
