import type { DB } from '~/lib/db.server'
import { toFlag } from '~/lib/db.server'
import { isUndeliverable } from '~/lib/mail-address'
import {
  DEFAULT_PREFERENCES,
  isLanguage,
  preferencesInUse,
  type Preferences,
} from '~/lib/preferences'
import { readCache } from '~/lib/read-cache.server'
import { isTheme } from '~/lib/theme'
import { normaliseMailAddress, type MailKind } from '~/lib/unsubscribe-link.server'
import { getSiteSettings } from './settings.server'

/** The kind every current opt-out is of (MAIL_KINDS in app/lib/unsubscribe-link.server.ts). */
const OFFERS: MailKind = 'offers'

/**
 * A customer's stored preferences (db/migrations/0090_user_preferences.ts). A user who never
 * saved any has the defaults.
 */
export async function getPreferences(db: DB, userId: string): Promise<Preferences> {
  return (await findStoredPreferences(db, userId)) ?? { ...DEFAULT_PREFERENCES }
}

function storedPreferences(row: {
  theme: string
  language: string
  notifications: number | boolean | string
}): Preferences {
  return {
    theme: isTheme(row.theme) ? row.theme : DEFAULT_PREFERENCES.theme,
    language: isLanguage(row.language) ? row.language : DEFAULT_PREFERENCES.language,
    notifications: Number(row.notifications) === 1,
  }
}

/** The user's stored preferences, or null when they never saved any (the root then uses cookies). */
export async function findStoredPreferences(db: DB, userId: string): Promise<Preferences | null> {
  const row = await db
    .selectFrom('userPreference')
    .select(['theme', 'language', 'notifications'])
    .where('userId', '=', userId)
    .executeTakeFirst()
  return row ? storedPreferences(row) : null
}

/**
 * findStoredPreferences as every page's root loader asks it: read once per user and second or
 * so, like the session (app/services/auth.server.ts), and dropped at once when this process
 * saves preferences (app/lib/read-cache.server.ts).
 */
const recentPreferences = readCache<string, Preferences | null>(['userPreference'])

export function recentStoredPreferences(db: DB, userId: string): Promise<Preferences | null> {
  return recentPreferences.get(db, userId, () => findStoredPreferences(db, userId))
}

/**
 * Stores some or all preferences; the rest keep their stored values, or for a first save the
 * ones the pages were shown with (`inUse`: e.g. the language cookie, when the header's theme
 * switch makes the first save), else the defaults. One upsert that sets only the fields given,
 * so two saves at once (the header's theme switch beside the settings form) never put back a
 * value the other changed.
 *
 * Turning notifications on also drops the account address's opt-out from an unsubscribe link
 * (`mail_opt_out`, docs/notifications.md), in the same transaction: the switch says on, so the
 * mails come again.
 */
export async function savePreferences(
  db: DB,
  userId: string,
  changes: Partial<Preferences>,
  { now = new Date(), inUse = DEFAULT_PREFERENCES }: { now?: Date; inUse?: Preferences } = {},
): Promise<Preferences> {
  const first = { ...inUse, ...changes }
  const updatedAt = now.toISOString()
  const save = async (trx: DB) => {
    const row = await trx
      .insertInto('userPreference')
      .values({
        userId,
        theme: first.theme,
        language: first.language,
        notifications: toFlag(first.notifications),
        updatedAt,
      })
      .onConflict((oc) =>
        oc.column('userId').doUpdateSet({
          ...(changes.theme !== undefined ? { theme: changes.theme } : {}),
          ...(changes.language !== undefined ? { language: changes.language } : {}),
          ...(changes.notifications !== undefined
            ? { notifications: toFlag(changes.notifications) }
            : {}),
          updatedAt,
        }),
      )
      .returning(['theme', 'language', 'notifications'])
      .executeTakeFirstOrThrow()
    if (changes.notifications === true) {
      await trx
        .deleteFrom('mailOptOut')
        .where('email', 'in', trx.selectFrom('user').select('email').where('id', '=', userId))
        .execute()
    }
    return storedPreferences(row)
  }
  // Only turning notifications on writes twice; the theme switch's save stays one statement.
  if (changes.notifications !== true || db.isTransaction) return save(db)
  return db.transaction().execute(save)
}

/**
 * Whether the account with this e-mail wants reminder and marketing-type mails. An address
 * without an account (a guest's) gets them: its owner asked for the order they are about. An
 * address that unsubscribed by the link in such a mail gets none, with or without an account.
 */
export async function wantsNotifications(db: DB, email: string): Promise<boolean> {
  // A deleted account's orders keep an address nobody reads (app/data/user.server.ts).
  if (isUndeliverable(email)) return false
  const address = normaliseMailAddress(email)
  if (await isMailOptedOut(db, address)) return false
  const row = await db
    .selectFrom('user')
    .leftJoin('userPreference', 'userPreference.userId', 'user.id')
    .select('userPreference.notifications')
    .where('user.email', '=', address)
    .executeTakeFirst()
  if (!row || row.notifications === null || row.notifications === undefined) return true
  return Number(row.notifications) === 1
}

/**
 * Whether this account gets reminder and marketing-type mails: its "E-mail me reminders and
 * offers" switch is on and its address did not unsubscribe by a mail's link (say, as a guest
 * before the account was made). What the settings page shows as the switch, and what the
 * senders ask for an account's mail. A missing user has the defaults.
 */
export async function accountWantsNotifications(db: DB, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('user')
    .leftJoin('userPreference', 'userPreference.userId', 'user.id')
    .leftJoin('mailOptOut', (join) =>
      join.onRef('mailOptOut.email', '=', 'user.email').on('mailOptOut.kind', '=', OFFERS),
    )
    .select(['userPreference.notifications', 'mailOptOut.email as optedOut'])
    .where('user.id', '=', userId)
    .executeTakeFirst()
  if (!row) return DEFAULT_PREFERENCES.notifications
  if (row.optedOut !== null) return false
  return row.notifications === null || Number(row.notifications) === 1
}

/** Whether this address unsubscribed from the kind of mail by a mail's link. */
export async function isMailOptedOut(
  db: DB,
  email: string,
  kind: MailKind = OFFERS,
): Promise<boolean> {
  const row = await db
    .selectFrom('mailOptOut')
    .select('email')
    .where('email', '=', normaliseMailAddress(email))
    .where('kind', '=', kind)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * The unsubscribe link's work (app/routes/shop/unsubscribe.tsx): the address gets no more mail
 * of the kind, as a guest or an account. The opt-out is kept by address (`mail_opt_out`); an
 * account with the address also gets its switch turned off, so its settings page says so, and
 * turning the switch on again is how it undoes this (savePreferences). A second use changes
 * nothing. One transaction.
 */
export async function unsubscribeAddress(
  db: DB,
  email: string,
  kind: MailKind,
  now = new Date(),
): Promise<void> {
  const address = normaliseMailAddress(email)
  const unsubscribe = async (trx: DB) => {
    await trx
      .insertInto('mailOptOut')
      .values({ email: address, kind, createdAt: now.toISOString() })
      .onConflict((oc) => oc.columns(['email', 'kind']).doNothing())
      .execute()
    const account = await trx
      .selectFrom('user')
      .select('id')
      .where('email', '=', address)
      .executeTakeFirst()
    if (!account) return
    // A first save stores the theme and language the account is shown without cookies (the
    // shop's defaults): the mail app's request carries none.
    const inUse = preferencesInUse(null, null, await getSiteSettings(trx))
    await savePreferences(trx, account.id, { notifications: false }, { now, inUse })
  }
  await (db.isTransaction ? unsubscribe(db) : db.transaction().execute(unsubscribe))
}
