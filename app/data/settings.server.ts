import crypto from 'node:crypto'
import { z } from 'zod'
import type { DB } from '~/lib/db.server'
import {
  CLAIM_DELIVERY_MAX_MINUTES,
  CLAIM_FIGURE_MAX,
  CLAIM_LABEL_MAX,
  CLAIM_RATING_PATTERN,
  CLAIM_SETTING_DEFAULTS,
} from '~/lib/claims'
import { GST_RATE_MAX, SAC_PATTERN } from '~/lib/gst'
import { MAX_PRICE_PAISE } from '~/lib/validation/product'
import { settingsEmail } from '~/lib/validation/settings'

/**
 * Site settings (persisted here instead of only logged).
 * Stored one row per key as JSON. Writes are validated strictly; on read, anything
 * missing or unreadable falls back to its default so a bad row never breaks a page.
 */
export const siteSettingsFields = {
  siteName: z.string().trim().min(1).max(80),
  siteDescription: z.string().trim().max(300),
  /** Checked as the Settings form checks it (settingsEmail). */
  contactEmail: z.union([z.literal(''), settingsEmail]),
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
  /** The seller on invoices; empty name means the site name. */
  sellerName: z.string().trim().max(120),
  sellerAddress: z.string().trim().max(500),
  /** Optional GSTIN: 2-digit state code, PAN, entity number, Z, check character. */
  sellerGstin: z.union([
    z.literal(''),
    z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/),
  ]),
  /**
   * The GST rate in per cent (above 0, at most two decimals) that prices include: a tax invoice
   * splits each sale at it (app/lib/gst.ts). Used only while a GSTIN is set; a nil-rated or
   * exempt supply would need a bill of supply, which the shop does not issue.
   */
  gstRate: z
    .number()
    .gt(0)
    .max(GST_RATE_MAX)
    .refine((rate) => Math.abs(rate * 100 - Math.round(rate * 100)) < 1e-6),
  /** The SAC (services) or HSN code printed on tax invoices: 4, 6 or 8 digits, or none. */
  sacCode: z.union([z.literal(''), z.string().regex(SAC_PATTERN)]),
  /**
   * Put the delivered account details or key into the delivery e-mail itself. Off by
   * default: the e-mail links to the order page, where each reveal is logged.
   */
  deliveryMailIncludesSecret: z.boolean(),
  /** E-mail the shop when a sale leaves a stock product with this many items (0: never). */
  lowStockThreshold: z.number().int().min(0).max(1000),
  /**
   * Who gets the shop's alert mails (low stock, problem reports, orders waiting for stock),
   * besides the contact address and the admins when empty. Comma-separated addresses.
   */
  alertRecipients: z.array(settingsEmail).max(10),
  /**
   * Mail buyers 7 days and 1 day before a delivered item's validity ends, with a link to buy it
   * again (app/services/notifications/expiry-reminder.server.ts). Each buyer's own notification
   * preference still applies.
   */
  expiryReminders: z.boolean(),
  /**
   * The start of new invoice numbers ("INV" gives INV/26-27/00042). At most 4 letters or
   * digits, so a number stays within GST's 16 characters; issued numbers keep theirs.
   */
  invoicePrefix: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{1,4}$/),
  /**
   * Rupees per one unit of the display currency (USD, EUR): prices are shown converted, for
   * reading only; every charge is in rupees. Ignored for INR.
   */
  currencyRate: z.number().positive().max(100000),
  /**
   * The storefront's marketing claims (app/lib/claims.ts, docs/settings.md): a figure and the
   * label the home hero shows under it; an empty figure hides the claim everywhere.
   */
  claimCustomers: z.string().trim().max(CLAIM_FIGURE_MAX),
  claimCustomersLabel: z.string().trim().max(CLAIM_LABEL_MAX),
  claimServices: z.string().trim().max(CLAIM_FIGURE_MAX),
  claimServicesLabel: z.string().trim().max(CLAIM_LABEL_MAX),
  claimRating: z.union([z.literal(''), z.string().regex(CLAIM_RATING_PATTERN)]),
  claimRatingLabel: z.string().trim().max(CLAIM_LABEL_MAX),
  claimSupport: z.string().trim().max(CLAIM_FIGURE_MAX),
  claimSupportLabel: z.string().trim().max(CLAIM_LABEL_MAX),
  /** The delivery promise in minutes; 0 makes none. */
  claimDeliveryMinutes: z.number().int().min(0).max(CLAIM_DELIVERY_MAX_MINUTES),
  /** The hero's example bundle: shown or not, and its two prices in paise (price below the original). */
  exampleBundle: z.boolean(),
  exampleBundlePrice: z.number().int().positive().max(MAX_PRICE_PAISE),
  exampleBundleOriginalPrice: z.number().int().positive().max(MAX_PRICE_PAISE),
}

export const SITE_SETTING_DEFAULTS: {
  [K in keyof typeof siteSettingsFields]: z.output<(typeof siteSettingsFields)[K]>
} = {
  siteName: 'KeyBazaar',
  siteDescription:
    'Premium subscriptions and software licenses at up to 80% off, delivered instantly.',
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
  gstRate: 18,
  sacCode: '',
  deliveryMailIncludesSecret: false,
  lowStockThreshold: 3,
  alertRecipients: [],
  expiryReminders: true,
  invoicePrefix: 'INV',
  currencyRate: 1,
  ...CLAIM_SETTING_DEFAULTS,
}

/** Strict: what a settings form may write. The bundle's two prices are written together. */
export const siteSettingsUpdateSchema = z
  .object(siteSettingsFields)
  .partial()
  .strict()
  .refine(
    (value) =>
      (value.exampleBundlePrice === undefined) === (value.exampleBundleOriginalPrice === undefined),
    { message: 'The example bundle takes both prices at once', path: ['exampleBundlePrice'] },
  )
  .refine(
    (value) =>
      value.exampleBundlePrice === undefined ||
      value.exampleBundleOriginalPrice === undefined ||
      value.exampleBundlePrice < value.exampleBundleOriginalPrice,
    { message: 'The bundle price must be below its original price', path: ['exampleBundlePrice'] },
  )

export type SiteSettings = typeof SITE_SETTING_DEFAULTS
export type SiteSettingKey = keyof SiteSettings

/** The settings as stored now, read from the database (no cache). */
export async function readSiteSettings(db: DB): Promise<SiteSettings> {
  const rows = await db.selectFrom('siteSetting').select(['key', 'value']).execute()
  const stored: Record<string, unknown> = {}
  for (const row of rows) {
    try {
      stored[row.key] = JSON.parse(row.value)
    } catch {
      // An unreadable value falls back to its default below.
    }
  }
  return settingsFromStored(stored)
}

/**
 * Each setting from its stored value when that value is valid, otherwise its default. A key
 * that was never saved takes its default without being validated: most shops store only what
 * their admin changed, and building zod's error for each missing key was most of the cost of
 * a read (one inside every paying transaction, for the low-stock alert).
 */
function settingsFromStored(stored: Record<string, unknown>): SiteSettings {
  const settings: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(siteSettingsFields) as [SiteSettingKey, z.ZodType][]) {
    const parsed = Object.hasOwn(stored, key) ? field.safeParse(stored[key]) : null
    settings[key] = parsed?.success ? parsed.data : SITE_SETTING_DEFAULTS[key]
  }
  return settings as SiteSettings
}

/**
 * Whether a buyer's GSTIN is the shop's own, pasted by mistake: invoices made out to it would be
 * made out to the shop itself. Read fresh, not from this process's copy, so a GSTIN the shop
 * saved a moment ago counts.
 */
export async function isShopGstin(db: DB, gstin: string): Promise<boolean> {
  return gstin !== '' && gstin === (await readSiteSettings(db)).sellerGstin
}

/**
 * Settings are read on every page, so each process keeps them in memory (per database handle)
 * and asks the database at most once per `SETTINGS_RECHECK_MS` whether they changed: one
 * indexed read of the version row, which every save replaces with a new random value. A change
 * saved by any process is therefore seen by every process within about a second (the promise
 * docs/settings.md makes is 2 s). Inside a transaction the settings are read directly.
 */
export const SETTINGS_VERSION_KEY = 'marker.settingsVersion'
export const SETTINGS_RECHECK_MS = 1000

interface CachedSettings {
  settings: SiteSettings
  version: string | null
  checkedAt: number
  /** A read under way, shared by the requests that arrive meanwhile. */
  pending: Promise<SiteSettings> | null
}

const settingsCache = new WeakMap<DB, CachedSettings>()

async function readVersion(db: DB): Promise<string | null> {
  const row = await db
    .selectFrom('siteSetting')
    .select('value')
    .where('key', '=', SETTINGS_VERSION_KEY)
    .executeTakeFirst()
  return row?.value ?? null
}

export async function getSiteSettings(db: DB, now: () => number = Date.now): Promise<SiteSettings> {
  if (db.isTransaction) return readSiteSettings(db)
  const cached = settingsCache.get(db)
  if (cached && now() - cached.checkedAt < SETTINGS_RECHECK_MS) return cached.settings
  if (cached?.pending) return cached.pending
  const load = (async () => {
    const version = await readVersion(db)
    if (cached && version === cached.version) {
      cached.checkedAt = now()
      return cached.settings
    }
    const settings = await readSiteSettings(db)
    settingsCache.set(db, { settings, version, checkedAt: now(), pending: null })
    return settings
  })()
  if (cached) cached.pending = load
  try {
    return await load
  } finally {
    if (cached) cached.pending = null
  }
}

/**
 * This process's copy of the settings if it was checked within the last SETTINGS_RECHECK_MS,
 * without waiting for anything: for a caller that must not await before it starts a
 * transaction (markOrderPaid, app/services/fulfilment.server.ts) and reads the table itself
 * when there is no such copy.
 */
export function recentSiteSettings(db: DB, now: () => number = Date.now): SiteSettings | undefined {
  const cached = settingsCache.get(db)
  return cached && now() - cached.checkedAt < SETTINGS_RECHECK_MS ? cached.settings : undefined
}

/** Forgets this process's copy (tests that write rows directly). */
export function forgetCachedSettings(db: DB): void {
  settingsCache.delete(db)
}

/**
 * Writes the given settings (upsert per key); keys not given keep their value. The version row
 * changes in the same transaction, so other processes reload. Pass a transaction to make the
 * write part of a larger change (the audit entry).
 */
export async function updateSiteSettings(
  db: DB,
  changes: Partial<SiteSettings>,
): Promise<SiteSettings> {
  const valid = siteSettingsUpdateSchema.parse(changes)
  const updatedAt = new Date().toISOString()
  const write = async (trx: DB) => {
    const entries: [string, unknown][] = Object.entries(valid).filter(
      ([, value]) => value !== undefined,
    )
    entries.push([SETTINGS_VERSION_KEY, crypto.randomUUID()])
    for (const [key, value] of entries) {
      await trx
        .insertInto('siteSetting')
        .values({ key, value: JSON.stringify(value), updatedAt })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({ value: JSON.stringify(value), updatedAt }),
        )
        .execute()
    }
  }
  if (db.isTransaction) await write(db)
  else {
    await db.transaction().execute(write)
    forgetCachedSettings(db)
  }
  return readSiteSettings(db)
}

/**
 * Writes those of `values` that were never saved (no row yet, whatever the default), keeping
 * every setting an owner saved: the demo seed's contact details on a shop already set up.
 */
export async function fillUnsavedSiteSettings(
  db: DB,
  values: Partial<SiteSettings>,
): Promise<void> {
  const saved = await db
    .selectFrom('siteSetting')
    .select('key')
    .where('key', 'in', Object.keys(values))
    .execute()
  const keys = new Set(saved.map((row) => row.key))
  const unsaved = Object.fromEntries(Object.entries(values).filter(([key]) => !keys.has(key)))
  if (Object.keys(unsaved).length) await updateSiteSettings(db, unsaved)
}

/** Internal markers (e.g. when the demo catalogue was seeded); not part of SiteSettings. */
export async function getMarker(db: DB, key: `marker.${string}`): Promise<string | null> {
  const row = await db
    .selectFrom('siteSetting')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirst()
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
