import { z } from 'zod'
import type { DB } from '~/lib/db.server'

/**
 * Site settings (spec section 3 "Site settings", persisted here instead of only logged).
 * Stored one row per key as JSON. Writes are validated strictly; on read, anything
 * missing or unreadable falls back to its default so a bad row never breaks a page.
 */
export const siteSettingsFields = {
  siteName: z.string().trim().min(1).max(80),
  siteDescription: z.string().trim().max(300),
  contactEmail: z.union([z.literal(''), z.email()]),
  phoneNumber: z.string().trim().max(30),
  /** Digits with country code, as wa.me expects (e.g. 919876543210). */
  whatsappNumber: z.union([z.literal(''), z.string().regex(/^\d{8,15}$/)]),
  whatsappCommunityUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]),
  enableRegistration: z.boolean(),
  enableNotifications: z.boolean(),
  enableEmailVerification: z.boolean(),
  maintenanceMode: z.boolean(),
  currency: z.enum(['INR', 'USD', 'EUR']),
  timezone: z.enum(['Asia/Kolkata', 'America/New_York', 'Europe/London']),
  language: z.enum(['en', 'hi', 'es']),
  theme: z.enum(['light', 'dark', 'auto']),
  /** The seller on invoices (issue 7); empty name means the site name. */
  sellerName: z.string().trim().max(120),
  sellerAddress: z.string().trim().max(500),
  /** Optional GSTIN: 2-digit state code, PAN, entity number, Z, check character. */
  sellerGstin: z.union([z.literal(''), z.string().trim().toUpperCase().regex(/^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/)]),
  /**
   * Put the delivered account details or key into the delivery e-mail itself (issue 7). Off by
   * default: the e-mail links to the order page, where each reveal is logged.
   */
  deliveryMailIncludesSecret: z.boolean(),
  /** E-mail the shop when a sale leaves a stock product with this many items (0: never). */
  lowStockThreshold: z.number().int().min(0).max(1000),
}

export const SITE_SETTING_DEFAULTS: { [K in keyof typeof siteSettingsFields]: z.output<(typeof siteSettingsFields)[K]> } = {
  siteName: 'KeyBazaar',
  siteDescription: 'Premium subscriptions and software licenses at up to 80% off, delivered instantly.',
  contactEmail: '',
  phoneNumber: '',
  whatsappNumber: '',
  whatsappCommunityUrl: '',
  enableRegistration: true,
  enableNotifications: true,
  enableEmailVerification: false,
  maintenanceMode: false,
  currency: 'INR',
  timezone: 'Asia/Kolkata',
  language: 'en',
  theme: 'auto',
  sellerName: '',
  sellerAddress: '',
  sellerGstin: '',
  deliveryMailIncludesSecret: false,
  lowStockThreshold: 3,
}

/** Strict: what a settings form may write. */
export const siteSettingsUpdateSchema = z.object(siteSettingsFields).partial().strict()

const siteSettingsReadSchema = z.object(
  Object.fromEntries(
    Object.entries(siteSettingsFields).map(([key, field]) => [
      key,
      (field as z.ZodType).catch(SITE_SETTING_DEFAULTS[key as keyof typeof SITE_SETTING_DEFAULTS]),
    ]),
  ) as { [K in keyof typeof siteSettingsFields]: z.ZodCatch<(typeof siteSettingsFields)[K]> },
)

export type SiteSettings = typeof SITE_SETTING_DEFAULTS
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
  return siteSettingsReadSchema.parse(stored) as SiteSettings
}

/** Writes the given settings (upsert per key); keys not given keep their value. */
export async function updateSiteSettings(db: DB, changes: Partial<SiteSettings>): Promise<SiteSettings> {
  const valid = siteSettingsUpdateSchema.parse(changes)
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
