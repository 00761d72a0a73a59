import { pruneWebhookEvents } from '~/data/payment-webhook.server'
import { getSiteSettings } from '~/data/settings.server'
import { accountMailJobHandlers } from '~/services/notifications/account-mail.server'
import { fillAllAwaitingOrders } from '~/services/fulfilment.server'
import type { DB } from '~/lib/db.server'
import { pruneJobs, startJobRunner, type JobHandlers, type JobRunner } from '~/lib/jobs.server'
import { services } from '~/lib/app-context.server'
import { getEnv } from '~/lib/env.server'
import { mailJobHandlers } from '~/lib/mail.server'
import { MAIL_JOB_TYPES } from '~/lib/mail-jobs'
import { orderMailJobHandlers } from './notifications/order-mail.server'
import { paymentLinkMailJobHandlers } from './notifications/payment-link-mail.server'
import { paymentJobs } from './payment/jobs.server'
import { pruneRateLimits } from '~/lib/rate-limit.server'
import { sendBackInStockMails } from './notifications/wishlist-mail.server'
import { sendExpiryReminders } from './notifications/expiry-reminder.server'
import {
  productImageSweepJobHandlers,
  scheduleProductImageSweep,
} from './product-image-sweep.server'
import { imageCacheDir } from '~/lib/uploads.server'

/**
 * Background work of this process: the job runner with every job type the app handles.
 * A feature with background work adds its handlers here (e.g. payment reconciliation).
 */
export function jobHandlers(db: DB): JobHandlers {
  return {
    ...mailJobHandlers({ getSender: () => getSiteSettings(db) }),
    ...paymentJobs(db),
    ...accountMailJobHandlers(db, () => {
      const env = getEnv()
      return { publicUrl: env.PUBLIC_URL, appSecret: env.APP_SECRET }
    }),
    ...orderMailJobHandlers(db, () => {
      const env = getEnv()
      return { publicUrl: env.PUBLIC_URL, appSecret: env.APP_SECRET }
    }),
    ...paymentLinkMailJobHandlers(db, () => ({ publicUrl: getEnv().PUBLIC_URL })),
    ...productImageSweepJobHandlers(db, () => ({
      storage: services().storage,
      cacheDir: imageCacheDir(),
    })),
  }
}

/**
 * Job types run in lanes of their own: mails wait out the SMTP timeout while the server is down,
 * and apart they hold back no payment job (docs/auth.md, "Jobs").
 */
export const JOB_LANES: ReadonlyArray<readonly string[]> = [MAIL_JOB_TYPES]

/** Started by the server after it listens; `stop()` on shutdown, before the database closes. */
export function startBackgroundWork(db: DB): JobRunner {
  return startJobRunner(db, jobHandlers(db), {
    leaseMs: getEnv().JOB_LEASE_SECONDS * 1000,
    lanes: JOB_LANES,
    housekeeping: [
      (db) => pruneJobs(db),
      (db) => pruneRateLimits(db),
      (db) => pruneWebhookEvents(db),
      // Expiry reminders are days ahead: a check at start-up and every ten minutes is on time.
      // It reads only the orders ending about now (docs/notifications.md, "Cost of a check").
      (db) => sendExpiryReminders(db),
      // The hour's sweep of abandoned product image uploads, one job for the whole cluster
      // however many processes ask (docs/admin.md, "Images").
      (db) => scheduleProductImageSweep(db),
    ],
    // Orders waiting for stock although items are available (an allocation that lost a race
    // and rolled back): delivered within a minute.
    frequent: [
      (db) => fillAllAwaitingOrders(db),
      // Wished-for products back in stock, however they came back (see wishlist-mail.server.ts).
      (db) => sendBackInStockMails(db),
    ],
  })
}
