import type { DB } from '../db.server'
import { getEnv } from '../env.server'
import type { JobHandlers } from '../jobs.server'
import { resolvePaytmSetup } from './config.server'
import { paymentJobHandlers } from './paytm-flow.server'

/** The payment jobs (reconciliation) as the app's job runner registers them. */
export function paymentJobs(db: DB): JobHandlers {
  return paymentJobHandlers(db, { resolveSetup: () => resolvePaytmSetup(db, getEnv()) })
}
