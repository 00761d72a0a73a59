import type { DB } from '~/lib/db.server'
import { getEnv } from '~/lib/env.server'
import type { JobHandlers } from '~/lib/jobs.server'
import { resolvePaytmSetup } from './config.server'
import { gatewayJobHandlers } from './gateway-flow.server'
import { paymentJobHandlers } from './paytm-flow.server'
import { resolveRazorpaySetup } from './razorpay-config.server'
import { razorpayReconciler } from './razorpay-flow.server'
import { resolvePhonePeSetup } from './phonepe-config.server'
import { phonePeReconciler } from './phonepe-flow.server'
import { refundGatewayFor } from './gateways.server'
import { refundJobHandlers } from './refunds.server'

/** The payment jobs (reconciliation, refunds) as the app's job runner registers them. */
export function paymentJobs(db: DB): JobHandlers {
  return {
    ...paymentJobHandlers(db, { resolveSetup: () => resolvePaytmSetup(db, getEnv()) }),
    ...gatewayJobHandlers(db, {
      async resolveGateway(gateway) {
        const env = getEnv()
        if (gateway === 'razorpay') {
          const setup = await resolveRazorpaySetup(db, env)
          return setup ? razorpayReconciler(setup) : null
        }
        if (gateway === 'phonepe') {
          const setup = await resolvePhonePeSetup(db, env)
          return setup ? phonePeReconciler(db, setup, env.APP_SECRET) : null
        }
        return null
      },
    }),
    ...refundJobHandlers(db, {
      resolveGateway: (gateway) => refundGatewayFor(db, getEnv(), gateway),
    }),
  }
}
