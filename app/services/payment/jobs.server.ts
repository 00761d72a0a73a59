import type { DB } from '~/lib/db.server'
import { getEnv } from '~/lib/env.server'
import type { JobHandlers } from '~/lib/jobs.server'
import { resolvePaytmSetup } from './config.server'
import { gatewayJobHandlers } from './gateway-flow.server'
import { paymentJobHandlers } from './paytm-flow.server'
import { reconcilingGatewayFor, refundGatewayFor } from './gateways.server'
import { refundJobHandlers } from './refunds.server'

/** The payment jobs (reconciliation, refunds) as the app's job runner registers them. */
export function paymentJobs(db: DB): JobHandlers {
  return {
    ...paymentJobHandlers(db, { resolveSetup: () => resolvePaytmSetup(db, getEnv()) }),
    ...gatewayJobHandlers(db, {
      resolveGateway: (gateway) => reconcilingGatewayFor(db, getEnv(), gateway),
    }),
    ...refundJobHandlers(db, {
      resolveGateway: (gateway) => refundGatewayFor(db, getEnv(), gateway),
    }),
  }
}
