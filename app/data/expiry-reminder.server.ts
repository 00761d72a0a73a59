import { sql } from 'kysely'
import type { DB } from '~/lib/db.server'
import {
  firstDeliveredAt,
  subscriptionTerms,
  termOf,
  type SubscriptionTerm,
} from './customer-overview.server'
import { accountWantsNotifications, isMailOptedOut, wantsNotifications } from './preferences.server'

/**
 * Expiry reminders: a buyer is mailed 7 days and 1 day before a delivered item's validity runs
 * out (the term is the dashboard's, `subscriptionTerms`). Each is sent once per order: the row
 * in `expiry_reminder` (db/migrations/0105_expiry_reminders.ts) is inserted with "on conflict do
 * nothing", and only the caller whose insert added it queues the mail, in the same short
 * transaction. A restart or a second process running the same check finds the row and sends
 * nothing.
 *
 * The check runs every ten minutes in every process, so it reads only the orders that may be
 * due (docs/notifications.md, "Cost of a check"): each delivered order's end is counted once
 * and kept on the order (`order.validityEndsAt`, db/migrations/0190_order_validity_end.ts), and
 * a check asks for the orders ending within the reminders' window. Orders that ended, never end
 * or already had their last reminder are not read again.
 */
export const REMINDER_KINDS = ['7d', '1d'] as const
export type ReminderKind = (typeof REMINDER_KINDS)[number]

const DAY_MS = 24 * 60 * 60 * 1000
/** How long before the end each reminder is due. */
export const REMINDER_LEAD_DAYS: Record<ReminderKind, number> = { '7d': 7, '1d': 1 }

/**
 * The stored end of an order whose term never ends (open-ended validity, or nothing to count
 * from): later than any window, so such an order is counted once and never read again.
 */
export const NEVER_ENDS = '9999-12-31T23:59:59.999Z'

/**
 * How far the window reaches past the reminders' own on either side. A stored end was counted
 * in the shop's time zone of that day; if Settings change the zone later, the same delivery's
 * end moves by at most about three days (its local start date may move to the next or previous
 * day, and a month counted from 28 February lasts 28 days where one from 1 March lasts 31).
 * The terms read are counted again in the current zone, so the wider window only makes sure
 * none is missed.
 */
export const STORED_END_SLACK_DAYS = 4

/** Delivered orders counted per read and per write while filling in stored ends. */
const COUNT_BATCH = 500

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
 * Counts and keeps the end of every delivered order that has none stored yet (those delivered
 * since the last check; every delivered order on the first check after the column came), in
 * the shop's `timeZone`; NEVER_ENDS for one that never ends. Reads and writes COUNT_BATCH orders
 * at a time, each write one short statement, so no lock is held for long. Two checks at once
 * store the same ends; an end already stored is left as it is. Returns how many this check
 * stored.
 */
export async function storeValidityEnds(db: DB, timeZone: string): Promise<number> {
  let counted = 0
  for (;;) {
    const rows = await db
      .selectFrom('order')
      .leftJoin('product', 'product.id', 'order.productId')
      .select((eb) => [
        'order.id',
        'order.paidAt',
        'order.validity as orderValidity',
        'product.validity as productValidity',
        firstDeliveredAt(eb).as('deliveredAt'),
      ])
      .where('order.status', '=', 'delivered')
      .where('order.validityEndsAt', 'is', null)
      .limit(COUNT_BATCH)
      .execute()
    if (rows.length === 0) return counted
    const ends = rows.map((row) => ({
      id: row.id,
      end: termOf(row, timeZone)?.expiresAt ?? NEVER_ENDS,
    }))
    // One statement for the batch: each order gets its own end.
    const stored = await db
      .updateTable('order')
      .set({
        validityEndsAt: sql<string>`case ${sql.ref('order.id')} ${sql.join(
          ends.map(({ id, end }) => sql`when ${id} then cast(${end} as text)`),
          sql` `,
        )} end`,
      })
      .where(
        'order.id',
        'in',
        ends.map(({ id }) => id),
      )
      .where('order.validityEndsAt', 'is', null)
      .executeTakeFirst()
    counted += Number(stored.numUpdatedRows)
    if (rows.length < COUNT_BATCH) return counted
  }
}

/**
 * Finds the reminders due at `now`, and for each whose buyer wants it claims the reminder row
 * and calls `notify` with the claim's transaction (queue the mail in it). The buyer's choice:
 * an order placed signed in follows that account's notification preference; a guest's order
 * the preference of an account with the same e-mail address, if there is one, else it is sent.
 * Either way nothing goes to an address that unsubscribed by a mail's link (`mail_opt_out`,
 * docs/notifications.md). A reminder not wanted is not recorded, so turning notifications back
 * on in time still sends it. `timeZone` is the shop's (Settings), whose calendar the terms are
 * counted on. Reads happen outside any transaction; each claim is its own short transaction,
 * so the check never holds the write lock while it reads. Returns how many were claimed.
 */
export async function takeDueExpiryReminders(
  db: DB,
  notify: (trx: DB, reminder: DueReminder) => Promise<unknown>,
  options: { timeZone: string; now?: Date },
): Promise<number> {
  const now = options.now ?? new Date()
  await storeValidityEnds(db, options.timeZone)
  const slack = STORED_END_SLACK_DAYS * DAY_MS
  const furthest = Math.max(...Object.values(REMINDER_LEAD_DAYS)) * DAY_MS
  // Only orders ending in the window can have a reminder due. Once the 1-day reminder went
  // out, nothing more is due for that order. Nothing to renew for a test order: its item was a
  // test item, and the demo's fictional buyers would get reminders at addresses that bounce.
  const terms = await subscriptionTerms(db, {
    timeZone: options.timeZone,
    withoutReminder: '1d',
    realOnly: true,
    storedEndBetween: {
      after: new Date(now.getTime() - slack).toISOString(),
      until: new Date(now.getTime() + furthest + slack).toISOString(),
    },
  })
  const due = terms.flatMap((term) => {
    const kind = dueReminderKind(term, now)
    return kind ? [{ ...term, kind }] : []
  })
  const claimedKinds = await remindersOf(
    db,
    due.map((reminder) => reminder.orderId),
  )
  let claimed = 0
  for (const reminder of due) {
    if (claimedKinds.has(`${reminder.orderId}:${reminder.kind}`)) continue
    const wants = reminder.userId
      ? (await accountWantsNotifications(db, reminder.userId)) &&
        !(await isMailOptedOut(db, reminder.customerEmail))
      : await wantsNotifications(db, reminder.customerEmail)
    if (!wants) continue
    const sent = await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('expiryReminder')
        .values({
          orderId: reminder.orderId,
          kind: reminder.kind,
          expiresAt: reminder.expiresAt,
          createdAt: now.toISOString(),
        })
        .onConflict((oc) => oc.columns(['orderId', 'kind']).doNothing())
        .executeTakeFirst()
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false
      await notify(trx, reminder)
      return true
    })
    if (sent) claimed++
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
