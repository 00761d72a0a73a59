import type { DB } from '~/lib/db.server'
import { toFlag } from '~/lib/db.server'
import { isUndeliverable } from '~/lib/mail-address'
import { DEFAULT_PREFERENCES, isLanguage, type Preferences } from '~/lib/preferences'
import { readCache } from '~/lib/read-cache.server'
import { isTheme } from '~/lib/theme'

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
 */
export async function savePreferences(
  db: DB,
  userId: string,
  changes: Partial<Preferences>,
  { now = new Date(), inUse = DEFAULT_PREFERENCES }: { now?: Date; inUse?: Preferences } = {},
): Promise<Preferences> {
  const first = { ...inUse, ...changes }
  const updatedAt = now.toISOString()
  const row = await db
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
  return storedPreferences(row)
}

/**
 * Whether the account with this e-mail wants reminder and marketing-type mails. An address
 * without an account (a guest's) gets them: its owner asked for the order they are about.
 */
export async function wantsNotifications(db: DB, email: string): Promise<boolean> {
  // A deleted account's orders keep an address nobody reads (app/data/user.server.ts).
  if (isUndeliverable(email)) return false
  const row = await db
    .selectFrom('user')
    .leftJoin('userPreference', 'userPreference.userId', 'user.id')
    .select('userPreference.notifications')
    .where('user.email', '=', email.trim().toLowerCase())
    .executeTakeFirst()
  if (!row || row.notifications === null || row.notifications === undefined) return true
  return Number(row.notifications) === 1
}
