import type { DB } from '~/lib/db.server'
import { subscriptionTerms, type SubscriptionTerm } from './customer-overview.server'
import { accountWantsNotifications, isMailOptedOut, wantsNotifications } from './preferences.server'

/**
 * Expiry reminders: a buyer is mailed 7 days and 1 day before a delivered item's validity runs
 * out (the term is the dashboard's, `subscriptionTerms`). Each is sent once per order: the row
 * in `expiry_reminder` (db/migrations/0105_expiry_reminders.ts) is inserted with "on conflict do
 * nothing", and only the caller whose insert added it queues the mail, in the same transaction.
 * A restart or a second process running the same check finds the row and sends nothing.
 */
export const REMINDER_KINDS = ['7d', '1d'] as const
export type ReminderKind = (typeof REMINDER_KINDS)[number]

const DAY_MS = 24 * 60 * 60 * 1000
/** How long before the end each reminder is due. */
export const REMINDER_LEAD_DAYS: Record<ReminderKind, number> = { '7d': 7, '1d': 1 }

/**
 * The reminder due for a term at `now`, or null. The 7-day one is due from 7 days before the end
 * until the 1-day one is; the 1-day one until the end. A reminder is never due for a term that
 * was delivered already inside its window (a 5-day item gets no "7 days left" mail), and a
 * check that runs late sends only the one still current.
 */
export function dueReminderKind(
  term: Pick<SubscriptionTerm, 'deliveredAt' | 'expiresAt'>,
  now: Date,
): ReminderKind | null {
  const end = Date.parse(term.expiresAt)
  const delivered = Date.parse(term.deliveredAt)
  const at = now.getTime()
  if (at >= end) return null
  for (const kind of ['1d', '7d'] as const) {
    const from = end - REMINDER_LEAD_DAYS[kind] * DAY_MS
    if (at >= from) return delivered < from ? kind : null
  }
  return null
}

export interface DueReminder extends SubscriptionTerm {
  kind: ReminderKind
}

/**
 * Finds the reminders due at `now`, and for each whose buyer wants it claims the reminder row
 * and calls `notify` (pass a transaction and queue the mail in it). The buyer's choice: an
 * order placed signed in follows that account's notification preference; a guest's order the
 * preference of an account with the same e-mail address, if there is one, else it is sent.
 * Either way nothing goes to an address that unsubscribed by a mail's link (`mail_opt_out`,
 * docs/notifications.md). A reminder not wanted is not recorded, so turning notifications back
 * on in time still sends it. `timeZone` is the shop's (Settings), whose calendar the terms are
 * counted on. Returns how many were claimed.
 */
export async function takeDueExpiryReminders(
  db: DB,
  notify: (reminder: DueReminder) => Promise<unknown>,
  options: { timeZone: string; now?: Date },
): Promise<number> {
  const now = options.now ?? new Date()
  // Once the 1-day reminder went out, nothing more is due for that order.
  // Nothing to renew for a test order: its item was a test item, and the demo's fictional buyers
  // would get reminders at addresses that bounce.
  const terms = await subscriptionTerms(db, {
    timeZone: options.timeZone,
    withoutReminder: '1d',
    realOnly: true,
  })
  const claimedKinds = await remindersOf(
    db,
    terms.map((term) => term.orderId),
  )
  let claimed = 0
  for (const term of terms) {
    const kind = dueReminderKind(term, now)
    if (!kind || claimedKinds.has(`${term.orderId}:${kind}`)) continue
    const wants = term.userId
      ? (await accountWantsNotifications(db, term.userId)) &&
        !(await isMailOptedOut(db, term.customerEmail))
      : await wantsNotifications(db, term.customerEmail)
    if (!wants) continue
    const inserted = await db
      .insertInto('expiryReminder')
      .values({
        orderId: term.orderId,
        kind,
        expiresAt: term.expiresAt,
        createdAt: now.toISOString(),
      })
      .onConflict((oc) => oc.columns(['orderId', 'kind']).doNothing())
      .executeTakeFirst()
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) continue
    await notify({ ...term, kind })
    claimed++
  }
  return claimed
}

/** "orderId:kind" of the reminders already recorded for these orders. */
async function remindersOf(db: DB, orderIds: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>()
  // Chunks keep each IN list well under the engines' parameter limits.
  for (let i = 0; i < orderIds.length; i += 500) {
    const rows = await db
      .selectFrom('expiryReminder')
      .select(['orderId', 'kind'])
      .where('orderId', 'in', orderIds.slice(i, i + 500))
      .execute()
    for (const row of rows) found.add(`${row.orderId}:${row.kind}`)
  }
  return found
}

/** The reminders recorded for an order, oldest first (the tests and the back office). */
export async function listExpiryReminders(
  db: DB,
  orderId: string,
): Promise<{ kind: string; expiresAt: string; createdAt: string }[]> {
  return db
    .selectFrom('expiryReminder')
    .select(['kind', 'expiresAt', 'createdAt'])
    .where('orderId', '=', orderId)
    .orderBy('createdAt')
    .orderBy('kind', 'desc')
    .execute()
}
