import { href } from 'react-router'
import { phonePeGatewaySettings, type GatewayRecord } from '~/data/gateway.server'
import { deriveKey } from '~/lib/crypto.server'
import type { DB } from '~/lib/db.server'
import type { Env } from '~/lib/env.server'
import {
  PHONEPE_HOSTS,
  phonePeHosts,
  type PhonePeConfig,
  type PhonePeEnvironment,
} from '~/lib/payments/phonepe.server'
import type { GatewaySetup } from './gateway-setup.server'
import { realGatewayConfigured } from './real-gateway.server'

/**
 * Which PhonePe the shop talks to (docs/payments.md, "PhonePe"), decided per request, under the
 * same rules as Razorpay:
 *  1. PHONEPE_CLIENT_ID + PHONEPE_CLIENT_SECRET (+ PHONEPE_CLIENT_VERSION, PHONEPE_ENV,
 *     PHONEPE_WEBHOOK_USERNAME, PHONEPE_WEBHOOK_PASSWORD, PHONEPE_HOST) from the environment;
 *     they win, and the Gateways page shows them read-only;
 *  2. the PhonePe record of the Gateways page: active or testing with a client id and secret is
 *     the real PhonePe; testing without credentials is the built-in simulator ("Test mode");
 *     inactive, or a secret that cannot be decrypted, is no PhonePe;
 *  3. no record: PhonePe is not offered.
 */
export const PHONEPE_SIMULATOR_PATH = '/__simulator/phonepe'
export const PHONEPE_RETURN_PATH = href('/api/payments/phonepe/return')
export const PHONEPE_WEBHOOK_PATH = href('/api/payments/phonepe/webhook')

export interface PhonePeSetup extends GatewaySetup<PhonePeConfig> {
  /** Where PhonePe sends the buyer back for one of our orders. */
  returnUrl: (orderId: string) => string
}

type PhonePeEnv = Pick<
  Env,
  | 'PUBLIC_URL'
  | 'APP_SECRET'
  | 'PHONEPE_CLIENT_ID'
  | 'PHONEPE_CLIENT_SECRET'
  | 'PHONEPE_CLIENT_VERSION'
  | 'PHONEPE_ENV'
  | 'PHONEPE_WEBHOOK_USERNAME'
  | 'PHONEPE_WEBHOOK_PASSWORD'
  | 'PHONEPE_HOST'
>

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const text = (bytes: Buffer) =>
  [...bytes].map((b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('')

/**
 * The built-in simulator's credentials, derived from APP_SECRET: every process sharing the
 * secret agrees, and nobody without it can get a token or authorise a webhook.
 */
export function phonePeSimulatorCredentials(appSecret: string): {
  clientId: string
  clientSecret: string
  clientVersion: string
  webhookUsername: string
  webhookPassword: string
} {
  return {
    clientId: `SIMTEST_${text(deriveKey(appSecret, 'keybazaar:phonepe-simulator:client-id', 12))}`,
    clientSecret: deriveKey(appSecret, 'keybazaar:phonepe-simulator:client-secret', 24).toString(
      'base64url',
    ),
    clientVersion: '1',
    webhookUsername: `sim_${text(deriveKey(appSecret, 'keybazaar:phonepe-simulator:wh-user', 8))}`,
    webhookPassword: deriveKey(appSecret, 'keybazaar:phonepe-simulator:wh-pass', 18).toString(
      'base64url',
    ),
  }
}

/** The built-in simulator is mounted unless PhonePe credentials come from the environment. */
export function phonePeSimulatorMounted(env: Pick<Env, 'PHONEPE_CLIENT_ID'>): boolean {
  return !env.PHONEPE_CLIENT_ID
}

function returnUrlFor(publicUrl: string) {
  return (orderId: string) =>
    `${publicUrl}${PHONEPE_RETURN_PATH}?order=${encodeURIComponent(orderId)}`
}

/**
 * PhonePe's sandbox confirms payments made with its test instruments, and no real money: its
 * orders are test orders, also when PHONEPE_HOST names the sandbox itself. Another
 * PHONEPE_HOST (a proxy or a standalone simulator) is the operator's choice and is taken as live.
 */
export function isPhonePeSandbox(environment: PhonePeEnvironment, host?: string | null): boolean {
  if (!host) return environment === 'sandbox'
  return host.replace(/\/+$/, '') === PHONEPE_HOSTS.sandbox.pg
}

/** `records`: every gateway record, when the caller has read them already (readGatewayRecords). */
export async function resolvePhonePeSetup(
  db: DB,
  env: PhonePeEnv,
  records?: readonly GatewayRecord[],
): Promise<PhonePeSetup | null> {
  const returnUrl = returnUrlFor(env.PUBLIC_URL)
  if (env.PHONEPE_CLIENT_ID && env.PHONEPE_CLIENT_SECRET) {
    return {
      config: {
        clientId: env.PHONEPE_CLIENT_ID,
        clientSecret: env.PHONEPE_CLIENT_SECRET,
        clientVersion: env.PHONEPE_CLIENT_VERSION ?? '1',
        webhookUsername: env.PHONEPE_WEBHOOK_USERNAME ?? '',
        webhookPassword: env.PHONEPE_WEBHOOK_PASSWORD ?? '',
        ...phonePeHosts(env.PHONEPE_ENV ?? 'sandbox', env.PHONEPE_HOST),
      },
      returnUrl,
      source: 'environment',
      testMode: isPhonePeSandbox(env.PHONEPE_ENV ?? 'sandbox', env.PHONEPE_HOST),
    }
  }
  const stored = await phonePeGatewaySettings(db, env.APP_SECRET, records)
  if (!stored)
    return (await realGatewayConfigured(db, env, records)) ? null : simulatorSetup(env, returnUrl)
  if (stored.status === 'inactive') return null
  if (stored.clientId && stored.clientSecret) {
    return {
      config: {
        clientId: stored.clientId,
        clientSecret: stored.clientSecret,
        clientVersion: stored.clientVersion,
        webhookUsername: stored.webhookUsername,
        webhookPassword: stored.webhookPassword ?? '',
        ...phonePeHosts(stored.environment, env.PHONEPE_HOST),
      },
      returnUrl,
      source: 'gateway',
      testMode: isPhonePeSandbox(stored.environment, env.PHONEPE_HOST),
    }
  }
  // A client id whose secret cannot be read (APP_SECRET changed) must not silently become test mode.
  if (stored.clientId || stored.status !== 'testing') return null
  return simulatorSetup(env, returnUrl)
}

function simulatorSetup(env: PhonePeEnv, returnUrl: (orderId: string) => string): PhonePeSetup {
  const base = `${env.PUBLIC_URL}${PHONEPE_SIMULATOR_PATH}`
  return {
    config: {
      ...phonePeSimulatorCredentials(env.APP_SECRET),
      pgHost: base,
      oauthHost: base,
    },
    returnUrl,
    source: 'simulator',
    testMode: true,
  }
}
