/**
 * What every gateway's configuration (config.server.ts for Paytm, razorpay-config.server.ts,
 * phonepe-config.server.ts) decides per request: its settings, where they came from, and
 * whether real money moves.
 */

/** The environment, the Gateways page's record, or the built-in simulator. */
export type GatewaySource = 'environment' | 'gateway' | 'simulator'

export interface GatewaySetup<Config> {
  config: Config
  source: GatewaySource
  /**
   * True when no real money can move: the built-in simulator, or the gateway's own test
   * environment (Paytm staging, Razorpay test keys, PhonePe sandbox), which confirms payments
   * made with published test cards. Its orders get test items only (docs/delivery.md).
   */
  testMode: boolean
}

/** The gateway's own test environment rather than the built-in simulator (see testMode). */
export function isSandbox(setup: Pick<GatewaySetup<unknown>, 'source' | 'testMode'>): boolean {
  return setup.testMode && setup.source !== 'simulator'
}
