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
  /** True only for the built-in simulator: no real money moves. */
  testMode: boolean
}
