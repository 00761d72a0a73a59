import { z } from 'zod'
import type { DB } from '~/lib/db.server'

/**
 * Site settings (spec section 3 "Site settings", persisted here instead of only logged).
 * Stored one row per key as JSON; anything missing or unreadable falls back to its default.
 */
export const siteSettingsSchema = z.object({
  siteName: z.string().trim().min(1).max(80).catch('KeyBazaar'),
  siteDescription: z
    .string()
    .max(300)
    .catch('Premium subscriptions and software licenses at up to 80% off, delivered instantly.'),
  contactEmail: z.string().max(200).catch(''),
  phoneNumber: z.string().max(30).catch(''),
  /** Digits with country code, as wa.me expects (e.g. 919876543210). */
  whatsappNumber: z.string().max(20).catch(''),
  whatsappCommunityUrl: z.string().max(300).catch(''),
  enableRegistration: z.boolean().catch(true),
  enableNotifications: z.boolean().catch(true),
  enableEmailVerification: z.boolean().catch(false),
  maintenanceMode: z.boolean().catch(false),
  currency: z.enum(['INR', 'USD', 'EUR']).catch('INR'),
  timezone: z.enum(['Asia/Kolkata', 'America/New_York', 'Europe/London']).catch('Asia/Kolkata'),
  language: z.enum(['en', 'hi', 'es']).catch('en'),
  theme: z.enum(['light', 'dark', 'auto']).catch('auto'),
})

export type SiteSettings = z.output<typeof siteSettingsSchema>
export type SiteSettingKey = keyof SiteSettings

export async function getSiteSettings(db: DB): Promise<SiteSettings> {
  const rows = await db.selectFrom('siteSetting').select(['key', 'value']).execute()
  const stored: Record<string, unknown> = {}
  for (const row of rows) {
    try {
      stored[row.key] = JSON.parse(row.value)
    } catch {
      // An unreadable value falls back to its default below.
    }
  }
  return siteSettingsSchema.parse(stored)
}

/** Writes the given settings (upsert per key); keys not given keep their value. */
export async function updateSiteSettings(db: DB, changes: Partial<SiteSettings>): Promise<SiteSettings> {
  const valid = siteSettingsSchema.partial().parse(changes)
  const updatedAt = new Date().toISOString()
  await db.transaction().execute(async (trx) => {
    for (const [key, value] of Object.entries(valid)) {
      if (value === undefined) continue
      await trx
        .insertInto('siteSetting')
        .values({ key, value: JSON.stringify(value), updatedAt })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updatedAt }))
        .execute()
    }
  })
  return getSiteSettings(db)
}

/** Internal markers (e.g. when the demo catalogue was seeded); not part of SiteSettings. */
export async function getMarker(db: DB, key: `marker.${string}`): Promise<string | null> {
  const row = await db.selectFrom('siteSetting').select('value').where('key', '=', key).executeTakeFirst()
  return row ? (JSON.parse(row.value) as string) : null
}

export async function setMarker(db: DB, key: `marker.${string}`, value: string): Promise<void> {
  const updatedAt = new Date().toISOString()
  await db
    .insertInto('siteSetting')
    .values({ key, value: JSON.stringify(value), updatedAt })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updatedAt }))
    .execute()
}
