import { href } from 'react-router'
import {
  razorpayGatewaySettings,
  razorpayGatewayStatus,
  type GatewayRecord,
} from '~/data/gateway.server'
import { deriveKey } from '~/lib/crypto.server'
import type { DB } from '~/lib/db.server'
import type { Env } from '~/lib/env.server'
import {
  RAZORPAY_API_HOST,
  RAZORPAY_CHECKOUT_SCRIPT,
  type RazorpayConfig,
} from '~/lib/payments/razorpay.server'
import type { GatewaySetup } from './gateway-setup.server'
import { realGatewayConfigured } from './real-gateway.server'

/**
 * Which Razorpay the shop talks to (docs/payments.md, "Razorpay"), decided per request:
 *  1. RAZORPAY_KEY_ID + RAZORPAY_KEY_SECRET (+ RAZORPAY_WEBHOOK_SECRET, RAZORPAY_HOST) from the
 *     environment; they win, and the Gateways page shows them read-only;
 *  2. the Razorpay record of the Gateways page: active or testing with a key id and secret is
 *     the real Razorpay; testing without keys is the built-in simulator ("Test mode"); inactive,
 *     or a secret that cannot be decrypted, is no Razorpay;
 *  3. no record: on a fresh install (no gateway configured with real credentials:
 *     real-gateway.server.ts) the built-in simulator, so a newcomer can try every
 *     way of paying; once a real gateway is configured, Razorpay without a record is not offered.
 */
export const RAZORPAY_SIMULATOR_PATH = '/__simulator/razorpay'
export const RAZORPAY_CALLBACK_PATH = href('/api/payments/razorpay/callback')
export const RAZORPAY_WEBHOOK_PATH = href('/api/payments/razorpay/webhook')

export interface RazorpaySetup extends GatewaySetup<RazorpayConfig> {
  callbackUrl: string
}

type RazorpayEnv = Pick<
  Env,
  | 'PUBLIC_URL'
  | 'APP_SECRET'
  | 'RAZORPAY_KEY_ID'
  | 'RAZORPAY_KEY_SECRET'
  | 'RAZORPAY_WEBHOOK_SECRET'
  | 'RAZORPAY_HOST'
  | 'PAYTM_MID'
>

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/**
 * The built-in simulator's keys, derived from APP_SECRET: every process sharing the secret
 * signs alike, and nobody without it can sign a payment or a webhook.
 */
export function razorpaySimulatorKeys(appSecret: string): {
  keyId: string
  keySecret: string
  webhookSecret: string
} {
  const idBytes = deriveKey(appSecret, 'keybazaar:razorpay-simulator:key-id', 14)
  return {
    keyId: `rzp_test_${[...idBytes].map((b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('')}`,
    keySecret: deriveKey(appSecret, 'keybazaar:razorpay-simulator:key-secret', 18).toString(
      'base64url',
    ),
    webhookSecret: deriveKey(appSecret, 'keybazaar:razorpay-simulator:webhook', 18).toString(
      'base64url',
    ),
  }
}

/**
 * Razorpay's test keys (rzp_test_…) take payments made with its published test cards, and no
 * real money: their orders are test orders. At another host (RAZORPAY_HOST naming a proxy or a
 * standalone simulator) the operator's keys are taken as live.
 */
export function isRazorpayTestKey(host: string, keyId: string): boolean {
  return host.replace(/\/+$/, '') === RAZORPAY_API_HOST && keyId.startsWith('rzp_test_')
}

/** The built-in simulator is mounted unless Razorpay keys come from the environment. */
export function razorpaySimulatorMounted(env: Pick<Env, 'RAZORPAY_KEY_ID'>): boolean {
  return !env.RAZORPAY_KEY_ID
}

/** Checkout's script: Razorpay's own for its API host, the same path on any other host. */
export function checkoutScriptFor(host: string): string {
  const base = host.replace(/\/+$/, '')
  return base === RAZORPAY_API_HOST ? RAZORPAY_CHECKOUT_SCRIPT : `${base}/v1/checkout.js`
}

function configFor(host: string, keys: Omit<RazorpayConfig, 'host' | 'checkoutScript'>) {
  return { ...keys, host, checkoutScript: checkoutScriptFor(host) }
}

/** `records`: every gateway record, when the caller has read them already (readGatewayRecords). */
export async function resolveRazorpaySetup(
  db: DB,
  env: RazorpayEnv,
  records?: readonly GatewayRecord[],
): Promise<RazorpaySetup | null> {
  const callbackUrl = `${env.PUBLIC_URL}${RAZORPAY_CALLBACK_PATH}`
  const host = env.RAZORPAY_HOST ?? RAZORPAY_API_HOST
  // The real Razorpay, with keys from `source`.
  const real = (
    source: 'environment' | 'gateway',
    keyId: string,
    keySecret: string,
    webhookSecret: string | null | undefined,
  ): RazorpaySetup => ({
    config: configFor(host, { keyId, keySecret, webhookSecret: webhookSecret ?? '' }),
    callbackUrl,
    source,
    testMode: isRazorpayTestKey(host, keyId),
  })
  if (env.RAZORPAY_KEY_ID && env.RAZORPAY_KEY_SECRET)
    return real(
      'environment',
      env.RAZORPAY_KEY_ID,
      env.RAZORPAY_KEY_SECRET,
      env.RAZORPAY_WEBHOOK_SECRET,
    )
  const stored = await razorpayGatewaySettings(db, env.APP_SECRET, records)
  if (!stored)
    return (await realGatewayConfigured(db, env, records)) ? null : simulatorSetup(env, callbackUrl)
  if (stored.status === 'inactive') return null
  if (stored.keyId && stored.keySecret)
    return real('gateway', stored.keyId, stored.keySecret, stored.webhookSecret)
  // A key id whose secret cannot be read (APP_SECRET changed) must not silently become test mode.
  if (stored.keyId || stored.status !== 'testing') return null
  return simulatorSetup(env, callbackUrl)
}

function simulatorSetup(env: RazorpayEnv, callbackUrl: string): RazorpaySetup {
  return {
    config: configFor(
      `${env.PUBLIC_URL}${RAZORPAY_SIMULATOR_PATH}`,
      razorpaySimulatorKeys(env.APP_SECRET),
    ),
    callbackUrl,
    source: 'simulator',
    testMode: true,
  }
}

/** Whether the shop already takes real payments through Paytm (environment or a merchant id). */

/**
 * The origins the pages must allow for Razorpay's Checkout (script, frame, connect), from the
 * configuration without decrypting secrets (server/security.ts); empty when it is not in use.
 */
export async function razorpayCheckoutOrigins(
  db: DB,
  env: Pick<Env, 'PUBLIC_URL' | 'RAZORPAY_KEY_ID' | 'RAZORPAY_HOST'>,
): Promise<string[]> {
  const host = env.RAZORPAY_HOST ?? RAZORPAY_API_HOST
  let inUse = Boolean(env.RAZORPAY_KEY_ID)
  if (!inUse) {
    const stored = await razorpayGatewayStatus(db)
    if (!stored || stored.status === 'inactive') return []
    // The simulator answers on this origin, which the policy allows already.
    if (!stored.hasKey) return []
    inUse = true
  }
  const script = checkoutScriptFor(host)
  return [...new Set([new URL(host).origin, new URL(script).origin])]
}
