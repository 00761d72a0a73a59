import {
  CLAIM_DELIVERY_MAX_MINUTES,
  CLAIM_FIGURE_MAX,
  CLAIM_LABEL_MAX,
  CLAIM_RATING_PATTERN,
} from '~/lib/claims'
import { GST_RATE_MAX, isGstStateCode, SAC_PATTERN } from '~/lib/gst'
import { parseRupeesToPaise } from '~/lib/money'
import { MAX_PRICE_PAISE, PRODUCT_MESSAGES } from '~/lib/validation/product'
import { z } from '~/lib/validation/zod'

/**
 * The admin Settings page's forms (app/routes/admin/settings.tsx), one schema per tab, shared by
 * the browser and the action. Each reads the form as the browser sends it (text, checkboxes as
 * "on" or absent) and gives the typed values app/data/settings.server.ts stores, which checks
 * them once more.
 */
export const SETTINGS_TABS = [
  'general',
  'storefront',
  'notifications',
  'security',
  'system',
  'appearance',
] as const
export type SettingsTab = (typeof SETTINGS_TABS)[number]

export const SETTINGS_TAB_LABELS: Record<SettingsTab, string> = {
  general: 'General',
  storefront: 'Storefront claims',
  notifications: 'Notifications',
  security: 'Security',
  system: 'System',
  appearance: 'Appearance',
}

export const SETTINGS_SAVED = 'Settings saved'
export const SETTINGS_SAVE_FAILED = 'Settings could not be saved. Check the fields below.'

export const CURRENCIES = ['INR', 'USD', 'EUR'] as const
export const TIMEZONES = ['Asia/Kolkata', 'America/New_York', 'Europe/London'] as const
export const LANGUAGES = ['en', 'hi', 'es'] as const
export const THEMES = ['light', 'dark', 'auto'] as const

export const LANGUAGE_LABELS: Record<(typeof LANGUAGES)[number], string> = {
  en: 'English',
  hi: 'हिन्दी (Hindi)',
  es: 'Español (Spanish)',
}
export const THEME_LABELS: Record<(typeof THEMES)[number], string> = {
  light: 'Light',
  dark: 'Dark',
  auto: 'Auto (follow the device)',
}

/** GSTIN: 2-digit state code, PAN (5 letters, 4 digits, a letter), entity number, Z, check. */
export const GSTIN_PATTERN = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/

const GST_RATE_MESSAGE = `Enter the GST rate in per cent, above 0 and at most ${GST_RATE_MAX} (e.g. 18)`

const text = (value: unknown) => (typeof value === 'string' ? value : '')
const trimmed = (max: number, label: string) =>
  z.preprocess(
    (v) => text(v).trim(),
    z.string().max(max, `${label} must be at most ${max} characters`),
  )
const checkbox = z.preprocess(
  (value) => value === 'on' || value === 'true' || value === true,
  z.boolean(),
)
const optional = (check: (value: string) => boolean, message: string, max: number) =>
  z.preprocess(
    (v) => text(v).trim(),
    z
      .string()
      .max(max, message)
      .refine((v) => v === '' || check(v), message),
  )
const choice = <const T extends readonly [string, ...string[]]>(options: T, message: string) =>
  z.preprocess((v) => text(v), z.enum(options, { error: message }))

/**
 * An e-mail address the shop's settings keep (the contact address, the alert recipients): Zod's
 * own check, within the 254 characters an address may have. The form here and the store
 * (app/data/settings.server.ts) both use it, so an address the form takes is never refused when
 * it is saved, and one the store would refuse gets a message on its field.
 */
export const settingsEmail = z.email().max(254)
const isSettingsEmail = (value: string) => settingsEmail.safeParse(value).success
/** Typed text quoted in a message, cut short so a long paste does not fill the page. */
const shortened = (value: string, max = 60) =>
  value.length > max ? `${value.slice(0, max - 1)}…` : value

export const generalSettingsSchema = z.object({
  tab: z.literal('general'),
  siteName: z.preprocess(
    (v) => text(v).trim(),
    z.string().min(1, 'Enter the site name').max(80, 'The site name must be at most 80 characters'),
  ),
  siteDescription: trimmed(300, 'The description'),
  contactEmail: optional(isSettingsEmail, 'Enter a valid e-mail address', 254),
  phoneNumber: optional(
    (v) => /^\+?[\d\s-]{6,20}$/.test(v),
    'Enter a phone number: digits, spaces, dashes and an optional +',
    30,
  ),
  whatsappNumber: z.preprocess(
    (v) => text(v).replace(/[\s+-]/g, ''),
    z
      .string()
      .refine(
        (v) => v === '' || /^\d{8,15}$/.test(v),
        'Enter the WhatsApp number with its country code, digits only (e.g. 919876543210)',
      ),
  ),
  whatsappCommunityUrl: optional(
    (v) => /^https:\/\/\S+$/.test(v) && URL.canParse(v),
    'Enter the community link starting with https://',
    300,
  ),
  sellerName: trimmed(120, 'The legal name'),
  sellerAddress: trimmed(500, 'The address'),
  sellerGstin: z.preprocess(
    (v) => text(v).trim().toUpperCase(),
    z
      .string()
      .refine(
        (v) => v === '' || (GSTIN_PATTERN.test(v) && isGstStateCode(v.slice(0, 2))),
        'Enter a valid 15-character GSTIN (e.g. 29ABCDE1234F1Z5)',
      ),
  ),
  gstRate: z.preprocess(
    (v) => {
      // Digits with at most two decimals ("18", "2.5", "18%"), kept to the hundredth.
      const typed = text(v).trim().replace(/\s*%$/, '')
      return /^\d{1,2}(?:\.\d{1,2})?$/.test(typed)
        ? Math.round(Number(typed) * 100) / 100
        : Number.NaN
    },
    z
      .number({ error: GST_RATE_MESSAGE })
      .gt(0, GST_RATE_MESSAGE)
      .max(GST_RATE_MAX, GST_RATE_MESSAGE),
  ),
  sacCode: z.preprocess(
    (v) => text(v).replace(/\s/g, ''),
    z
      .string()
      .refine(
        (v) => v === '' || SAC_PATTERN.test(v),
        'Enter a SAC or HSN code of 4, 6 or 8 digits (e.g. 998434), or leave it empty',
      ),
  ),
  invoicePrefix: z.preprocess(
    (v) => text(v).trim().toUpperCase(),
    z.string().regex(/^[A-Z0-9]{1,4}$/, 'The invoice prefix is 1 to 4 letters or digits'),
  ),
})

/** The figures and hero labels of the storefront's claims (app/lib/claims.ts). */
export const CLAIM_FIGURES = [
  'claimCustomers',
  'claimServices',
  'claimRating',
  'claimSupport',
] as const

export const CLAIM_MESSAGES = {
  figureTooLong: `A figure must be at most ${CLAIM_FIGURE_MAX} characters`,
  labelTooLong: `A label must be at most ${CLAIM_LABEL_MAX} characters`,
  labelMissing: 'Enter the label shown under the figure, or empty the figure to hide the claim',
  rating: 'Enter a rating from 1 to 5 with at most one decimal (e.g. 4.7), or leave it empty',
  delivery: `Enter whole minutes from 1 to ${CLAIM_DELIVERY_MAX_MINUTES} (e.g. 5), or leave it empty`,
  bundlePrice: 'Enter the bundle price in rupees, above 0 (e.g. 2999)',
  bundleOriginalPrice: 'Enter the original price in rupees, above 0 (e.g. 15999)',
  bundleTooHigh: PRODUCT_MESSAGES.amountTooHigh,
  bundleNotBelow: 'The bundle price must be below the original price',
} as const

const figure = z.preprocess(
  (v) => text(v).trim(),
  z.string().max(CLAIM_FIGURE_MAX, CLAIM_MESSAGES.figureTooLong),
)
const claimLabel = z.preprocess(
  (v) => text(v).trim(),
  z.string().max(CLAIM_LABEL_MAX, CLAIM_MESSAGES.labelTooLong),
)

/** Rupees as typed ("2999", "2,999.50") to paise, above 0 and at most MAX_PRICE_PAISE. */
const bundleAmount = (message: string) =>
  z
    .preprocess((v) => text(v), z.string())
    .transform((value, ctx) => {
      const paise = parseRupeesToPaise(value)
      if (paise !== null && paise > 0 && paise <= MAX_PRICE_PAISE) return paise
      ctx.addIssue({
        code: 'custom',
        message: paise !== null && paise > MAX_PRICE_PAISE ? CLAIM_MESSAGES.bundleTooHigh : message,
      })
      return z.NEVER
    })

/**
 * The Storefront claims tab: what the home page and the product pages claim about the shop. A
 * figure left empty hides its claim everywhere; a figure shown needs its hero label. The example
 * bundle's prices are checked whether it is shown or not (they stay in the form).
 */
export const storefrontSettingsSchema = z
  .object({
    tab: z.literal('storefront'),
    claimCustomers: figure,
    claimCustomersLabel: claimLabel,
    claimServices: figure,
    claimServicesLabel: claimLabel,
    claimRating: z.preprocess(
      (v) => text(v).trim(),
      z
        .string()
        // As long as "4.9", so the input takes no more; one message for either check.
        .max(3, CLAIM_MESSAGES.rating)
        .refine(
          (v) => v === '' || v.length > 3 || CLAIM_RATING_PATTERN.test(v),
          CLAIM_MESSAGES.rating,
        ),
    ),
    claimRatingLabel: claimLabel,
    claimSupport: figure,
    claimSupportLabel: claimLabel,
    claimDeliveryMinutes: z.preprocess(
      (v) => {
        const typed = text(v).trim()
        if (typed === '') return 0
        return /^\d{1,4}$/.test(typed) ? Number(typed) : Number.NaN
      },
      z
        .number({ error: CLAIM_MESSAGES.delivery })
        .int(CLAIM_MESSAGES.delivery)
        .min(0, CLAIM_MESSAGES.delivery)
        .max(CLAIM_DELIVERY_MAX_MINUTES, CLAIM_MESSAGES.delivery),
    ),
    exampleBundle: checkbox,
    exampleBundlePrice: bundleAmount(CLAIM_MESSAGES.bundlePrice),
    exampleBundleOriginalPrice: bundleAmount(CLAIM_MESSAGES.bundleOriginalPrice),
  })
  .superRefine(
    (value, ctx) => {
      for (const key of CLAIM_FIGURES) {
        if (typeof value[key] === 'string' && value[key] !== '' && value[`${key}Label`] === '')
          ctx.addIssue({
            code: 'custom',
            path: [`${key}Label`],
            message: CLAIM_MESSAGES.labelMissing,
          })
      }
    },
    // Reported with the other fields' messages; an over-long label has its own.
    { when: () => true },
  )
  .superRefine(
    (value, ctx) => {
      if (value.exampleBundlePrice >= value.exampleBundleOriginalPrice)
        ctx.addIssue({
          code: 'custom',
          path: ['exampleBundlePrice'],
          message: CLAIM_MESSAGES.bundleNotBelow,
        })
    },
    // Compared once both are amounts, together with the other fields' messages.
    {
      when: (payload) =>
        !payload.issues.some((issue) =>
          ['exampleBundlePrice', 'exampleBundleOriginalPrice'].includes(
            String(issue.path?.[0] ?? ''),
          ),
        ),
    },
  )

export const notificationSettingsSchema = z.object({
  tab: z.literal('notifications'),
  enableNotifications: checkbox,
  alertRecipients: z.preprocess(
    (v) =>
      text(v)
        .split(/[\s,;]+/)
        .map((part) => part.trim())
        .filter(Boolean),
    z
      .array(z.string())
      .max(10, 'At most 10 recipients')
      // One message on the field itself (not on the one address), so the page shows it under
      // the text area, naming the first address the store would refuse (docs/settings.md).
      .superRefine((recipients, ctx) => {
        const refused = recipients.find((address) => !isSettingsEmail(address))
        if (refused === undefined) return
        ctx.addIssue({
          code: 'custom',
          input: recipients,
          message: `Every recipient must be a valid e-mail address: "${shortened(refused)}" is not one`,
        })
      }),
  ),
  lowStockThreshold: z.preprocess(
    (v) => (text(v).trim() === '' ? Number.NaN : Number(text(v))),
    z
      .number({ error: 'Enter a whole number from 0 to 1000' })
      .int('Enter a whole number from 0 to 1000')
      .min(0, 'Enter a whole number from 0 to 1000')
      .max(1000, 'Enter a whole number from 0 to 1000'),
  ),
  deliveryMailIncludesSecret: checkbox,
  expiryReminders: checkbox,
})

export const securitySettingsSchema = z.object({
  tab: z.literal('security'),
  enableRegistration: checkbox,
})

const CURRENCY_RATE_MESSAGE = 'Enter the rupees one unit of the currency is worth, e.g. 83.50'
/** Rupees per unit of a display currency other than INR (docs/settings.md, "Display currency"). */
const currencyRate = z.preprocess(
  (v) => (text(v).trim() === '' ? Number.NaN : Number(text(v))),
  z
    .number({ error: CURRENCY_RATE_MESSAGE })
    .positive(CURRENCY_RATE_MESSAGE)
    .max(100000, CURRENCY_RATE_MESSAGE),
)

export const systemSettingsSchema = z
  .object({
    tab: z.literal('system'),
    maintenanceMode: checkbox,
    currency: choice(CURRENCIES, 'Choose INR, USD or EUR'),
    // Read as typed, checked below: the rate is ignored for INR (saved as 1), so whatever its
    // field holds then (empty, a word) must not block the save.
    currencyRate: z.preprocess((v) => text(v).trim(), z.string()),
    timezone: choice(TIMEZONES, 'Choose one of the listed time zones'),
    language: choice(LANGUAGES, 'Choose English, Hindi or Spanish'),
  })
  .superRefine(
    (value, ctx) => {
      if (value.currency === 'INR' || currencyRate.safeParse(value.currencyRate).success) return
      ctx.addIssue({ code: 'custom', path: ['currencyRate'], message: CURRENCY_RATE_MESSAGE })
    },
    // Reported together with the other fields' errors, not one save later; only a currency
    // that was read says whether the rate counts.
    { when: (payload) => !payload.issues.some((issue) => issue.path?.[0] === 'currency') },
  )
  .transform((value) => ({
    ...value,
    currencyRate: value.currency === 'INR' ? 1 : currencyRate.parse(value.currencyRate),
  }))

export const appearanceSettingsSchema = z.object({
  tab: z.literal('appearance'),
  theme: choice(THEMES, 'Choose light, dark or auto'),
})

export const SETTINGS_SCHEMAS = {
  general: generalSettingsSchema,
  storefront: storefrontSettingsSchema,
  notifications: notificationSettingsSchema,
  security: securitySettingsSchema,
  system: systemSettingsSchema,
  appearance: appearanceSettingsSchema,
} as const

/** The action's one schema: the tab field says which form was sent. */
export const settingsFormSchema = z.discriminatedUnion('tab', [
  generalSettingsSchema,
  storefrontSettingsSchema,
  notificationSettingsSchema,
  securitySettingsSchema,
  systemSettingsSchema,
  appearanceSettingsSchema,
])

export type SettingsFormValue = z.output<typeof settingsFormSchema>

/** The settings each tab's form writes: its schema's fields, without `tab`. */
export const SETTINGS_TAB_FIELDS: Record<SettingsTab, readonly string[]> = {
  general: fieldsOf(generalSettingsSchema),
  storefront: fieldsOf(storefrontSettingsSchema),
  notifications: fieldsOf(notificationSettingsSchema),
  security: fieldsOf(securitySettingsSchema),
  system: fieldsOf(systemSettingsSchema.in),
  appearance: fieldsOf(appearanceSettingsSchema),
}

function fieldsOf(schema: { shape: object }): string[] {
  return Object.keys(schema.shape).filter((key) => key !== 'tab')
}

/** The field that carries what the form showed of its tab (a save over a newer one is refused). */
export const SETTINGS_VERSION_FIELD = 'version'
export const SETTINGS_STALE =
  'These settings were changed by someone else since you opened this page, so nothing was saved. Reload the page to see the changes, then save again.'
/** A form posted without that version (a page from an older release). */
export const SETTINGS_FORM_EXPIRED =
  'This form is out of date, so nothing was saved. Reload the page, then save again.'

export function isSettingsTab(value: unknown): value is SettingsTab {
  return typeof value === 'string' && (SETTINGS_TABS as readonly string[]).includes(value)
}
