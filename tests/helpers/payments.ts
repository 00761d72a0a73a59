import type { PaytmSetup } from '~/services/payment/config.server'
import { PAYTM_STAGING_DEFAULTS } from '~/lib/payments/paytm.server'
import type { RunningPaytmSimulator } from '../../simulators/paytm/testing'

/** The Paytm setup that talks to a simulator started by startPaytmSimulator. */
export function simulatorSetup(
  sim: RunningPaytmSimulator,
  overrides: Partial<PaytmSetup> = {},
): PaytmSetup {
  return {
    config: {
      ...PAYTM_STAGING_DEFAULTS,
      mid: sim.mid,
      merchantKey: sim.merchantKey,
      host: sim.url,
    },
    callbackUrl: 'http://127.0.0.1:9/api/payments/paytm/callback',
    source: 'environment',
    testMode: false,
    ...overrides,
  }
}

/** Calls one of the simulator's test controls. */
export async function simulatorControl(
  sim: RunningPaytmSimulator,
  path: string,
  body: unknown,
): Promise<unknown> {
  const response = await fetch(`${sim.url}/__control/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!response.ok)
    throw new Error(
      `simulator control ${path} answered ${response.status}: ${await response.text()}`,
    )
  return response.json()
}
