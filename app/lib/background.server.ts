import { getSiteSettings } from '~/data/settings.server'
import type { DB } from './db.server'
import { pruneJobs, startJobRunner, type JobHandlers, type JobRunner } from './jobs.server'
import { mailJobHandlers } from './mail.server'
import { paymentJobs } from './payments/jobs.server'
import { pruneRateLimits } from './rate-limit.server'

/**
 * Background work of this process: the job runner with every job type the app handles.
 * A feature with background work adds its handlers here (e.g. payment reconciliation).
 */
export function jobHandlers(db: DB): JobHandlers {
  return {
    ...mailJobHandlers({ getSiteName: async () => (await getSiteSettings(db)).siteName }),
    ...paymentJobs(db),
  }
}

/** Started by the server after it listens; `stop()` on shutdown, before the database closes. */
export function startBackgroundWork(db: DB): JobRunner {
  return startJobRunner(db, jobHandlers(db), {
    housekeeping: [(db) => pruneJobs(db), (db) => pruneRateLimits(db)],
  })
}
