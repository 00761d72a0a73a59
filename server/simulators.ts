import http from 'node:http'
import type { Express, RequestHandler } from 'express'
import type { Env } from '~/lib/env.server'
import {
  SIMULATOR_MOUNT_PATH,
  simulatorMerchant,
  simulatorMounted,
} from '~/services/payment/config.server'
import {
  PHONEPE_SIMULATOR_PATH,
  PHONEPE_WEBHOOK_PATH,
  phonePeSimulatorCredentials,
  phonePeSimulatorMounted,
} from '~/services/payment/phonepe-config.server'
import {
  RAZORPAY_SIMULATOR_PATH,
  RAZORPAY_WEBHOOK_PATH,
  razorpaySimulatorKeys,
  razorpaySimulatorMounted,
} from '~/services/payment/razorpay-config.server'
import { createPaytmSimulator } from '../simulators/paytm/simulator'
import { createPhonePeSimulator } from '../simulators/phonepe/simulator'
import { createRazorpaySimulator } from '../simulators/razorpay/simulator'

/** Every built-in simulator answers under this prefix. */
export const SIMULATORS_PREFIX = '/__simulator'

/** Whether this configuration mounts any built-in payment simulator. */
export function anySimulatorMounted(env: Env): boolean {
  return simulatorMounted(env) || razorpaySimulatorMounted(env) || phonePeSimulatorMounted(env)
}

/**
 * Mounts the built-in payment simulators this configuration asks for. They keep their orders,
 * payments and tokens in memory, so with several workers only the cluster primary mounts them
 * and the workers pass /__simulator/* on to it (simulatorProxy below; docs/decisions/0014-workers.md).
 */
export function mountSimulators(app: Express, env: Env): void {
  const control = env.NODE_ENV === 'test' || Boolean(env.PAYTM_SIMULATOR_CONTROL)
  // Without PAYTM_MID, the built-in Paytm simulator stands in for Paytm ("Test mode"). Its
  // merchant comes from APP_SECRET, so every process of the shop signs alike. Its test
  // controls can force any payment's outcome, so they exist only in tests or when asked for.
  if (simulatorMounted(env)) {
    const merchant = simulatorMerchant(env.APP_SECRET)
    app.use(
      SIMULATOR_MOUNT_PATH,
      createPaytmSimulator({
        resolveMerchantKey: (mid) => (mid === merchant.mid ? merchant.merchantKey : undefined),
        control,
      }),
    )
    console.log(
      `[payments] built-in Paytm simulator at ${SIMULATOR_MOUNT_PATH}: checkout is in test mode until a Paytm merchant is configured (PAYTM_MID or /admin/gateways)`,
    )
  }

  // Without RAZORPAY_KEY_ID, the built-in Razorpay simulator answers under its path; checkout
  // offers it while the Razorpay record is in testing without keys, or on a fresh install with
  // no record and no real Paytm (app/services/payment/razorpay-config.server.ts).
  if (razorpaySimulatorMounted(env)) {
    app.use(
      RAZORPAY_SIMULATOR_PATH,
      createRazorpaySimulator({
        ...razorpaySimulatorKeys(env.APP_SECRET),
        webhookUrl: `${env.PUBLIC_URL}${RAZORPAY_WEBHOOK_PATH}`,
        control,
      }),
    )
  }

  // Without PHONEPE_CLIENT_ID, the built-in PhonePe simulator answers under its path; checkout
  // offers it only while the Gateways page has a PhonePe record in testing without credentials.
  if (phonePeSimulatorMounted(env)) {
    app.use(
      PHONEPE_SIMULATOR_PATH,
      createPhonePeSimulator({
        ...phonePeSimulatorCredentials(env.APP_SECRET),
        publicUrl: `${env.PUBLIC_URL}${PHONEPE_SIMULATOR_PATH}`,
        webhookUrl: `${env.PUBLIC_URL}${PHONEPE_WEBHOOK_PATH}`,
        control,
      }),
    )
  }
}

/** Connection headers of one hop, never passed on by a proxy (RFC 9110, section 7.6.1). */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
]

function withoutHopByHop<T extends Record<string, unknown>>(headers: T): T {
  const copy = { ...headers }
  for (const name of HOP_BY_HOP) delete copy[name]
  return copy
}

/**
 * A worker's /__simulator/*: the request as it came (method, path, headers, body) to the
 * simulators in the cluster primary on a loopback port, and the answer back as it comes
 * (status, headers, body streamed both ways).
 */
export function simulatorProxy(origin: string): RequestHandler {
  const target = new URL(origin)
  const agent = new http.Agent({ keepAlive: true })
  return (req, res) => {
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.originalUrl,
        headers: withoutHopByHop(req.headers),
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers))
        answer.pipe(res)
        answer.once('error', () => res.destroy())
      },
    )
    upstream.once('error', () => {
      if (res.headersSent) return void res.destroy()
      res.status(502).type('text/plain').send('The payment simulator is not available.')
    })
    // The buyer went away: the simulator's answer is not wanted any more.
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy()
    })
    req.pipe(upstream)
  }
}
