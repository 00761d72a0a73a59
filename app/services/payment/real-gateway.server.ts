import { storedRealGateway, type GatewayRecord } from '~/data/gateway.server'
import type { DB } from '~/lib/db.server'
import type { Env } from '~/lib/env.server'

/**
 * Whether the shop has a gateway of its own (environment or Gateways page; live keys or the
 * gateway's test environment). Until it does, every gateway without a record of its own is its built-in simulator, so a fresh
 * install offers each way of paying in test mode (docs/payments.md).
 */
export async function realGatewayConfigured(
  db: DB,
  env: Partial<Pick<Env, 'PAYTM_MID' | 'RAZORPAY_KEY_ID' | 'PHONEPE_CLIENT_ID'>>,
  records?: readonly GatewayRecord[],
): Promise<boolean> {
  if (env.PAYTM_MID || env.RAZORPAY_KEY_ID || env.PHONEPE_CLIENT_ID) return true
  return storedRealGateway(db, records)
}
