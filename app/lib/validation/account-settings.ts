import { z } from './zod'
import { gstinCheckCharacter, isGstStateCode } from '../gst'
import { printsOnInvoice } from '../invoice-text'
import { GSTIN_PATTERN } from './settings'
import { LANGUAGES } from '../preferences'
import { THEMES } from '../theme'
import { displayNameText, PASSWORD_MAX_LENGTH } from './auth'
import { IMAGE_MAX_BYTES, IMAGE_MESSAGES, looksLikeAllowedImage } from './product'

/**
 * The settings page's forms (/dashboard/settings), shared by the browser and the action. Each
 * form sends an `intent`; the action parses them all as one discriminated union. The password
 * form keeps its own schemas (app/lib/validation/auth.ts).
 */
export const SETTINGS_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be at most 100 characters long',
  photoRequired: 'Choose a photo to upload',
  confirmDelete: 'Tick the box to confirm that your account should be deleted',
  passwordRequired: 'Enter your password to confirm',
  emailMismatch: 'Type your e-mail address exactly as shown to confirm',
  businessNameRequired: "Enter the business's legal name, as on its GST registration",
  businessNameTooLong: 'The legal name must be at most 120 characters long',
  gstinInvalid: 'Enter a valid 15-character GSTIN (e.g. 27AAPFU0939F1ZV)',
  gstinCheck: "This GSTIN's last character does not match the others: check it for a typo",
  shopGstin: "This is the shop's own GSTIN: enter your business's GSTIN",
  businessAddressRequired: "Enter the business's address, as on its GST registration",
  businessAddressTooLong: 'The address must be at most 300 characters long',
  businessNotLatin: "Use Latin letters for the invoice's legal name and address",
} as const

/** The limits of a business's details on its GST invoices. */
export const BUSINESS_NAME_MAX = 120
export const BUSINESS_ADDRESS_MAX = 300

const text = (value: unknown) => (typeof value === 'string' ? value : '')

export const profileSchema = z.object({
  intent: z.literal('profile'),
  // Sign-up's rule: invisible and direction-control characters do not count.
  name: z.preprocess(
    displayNameText,
    z
      .string()
      .trim()
      .min(1, SETTINGS_MESSAGES.nameRequired)
      .max(100, SETTINGS_MESSAGES.nameTooLong),
  ),
})

/** The chosen file; the server judges it again by its bytes (app/lib/uploads.server.ts). */
export const photoSchema = z.object({
  intent: z.literal('photo'),
  photo: z
    .custom<File>(
      (value) => typeof File !== 'undefined' && value instanceof File && value.size > 0,
      SETTINGS_MESSAGES.photoRequired,
    )
    .refine((file) => looksLikeAllowedImage(file), IMAGE_MESSAGES.invalidType)
    .refine((file) => file.size <= IMAGE_MAX_BYTES, IMAGE_MESSAGES.tooLarge),
})

export const removePhotoSchema = z.object({ intent: z.literal('removePhoto') })

export const preferencesSchema = z.object({
  intent: z.literal('preferences'),
  theme: z.enum(THEMES, 'Choose system default, light or dark'),
  language: z.enum(LANGUAGES, 'Choose English, Hindi or Spanish'),
  // A checkbox: present ("on") when ticked, missing when not.
  notifications: z.preprocess((value) => value === 'on' || value === 'yes', z.boolean()),
  /**
   * Whether the page showed the box ticked: the switch is saved only when the reader changed it,
   * so a page opened before an unsubscribe link was used does not undo it when its theme or
   * language is saved. Missing (a script): the posted value is saved.
   */
  notificationsShown: z.enum(['on', 'off']).optional(),
  /**
   * The theme and language the page showed: each is saved only when the reader changed it, so a
   * page left open does not put back one changed since (the header's theme switch in another
   * tab). Missing (a script): the posted value is saved.
   */
  themeShown: z.enum(THEMES).optional(),
  languageShown: z.enum(LANGUAGES).optional(),
})

export const deleteAccountSchema = z.object({
  intent: z.literal('deleteAccount'),
  /** The account's password; an account without one (Google) types its e-mail instead. */
  password: z.preprocess(text, z.string().max(PASSWORD_MAX_LENGTH)),
  email: z.preprocess(text, z.string().trim().toLowerCase().max(254)),
  confirmed: z.preprocess(
    (value) => value === 'yes',
    z.literal(true, SETTINGS_MESSAGES.confirmDelete),
  ),
})

/** Codes no live GSTIN carries: 28 (Andhra Pradesh before 2014, now 37), 25 (merged into 26). */
const RETIRED_STATE_CODES = new Set(['25', '28'])
const wellFormedGstin = (v: string) =>
  GSTIN_PATTERN.test(v) && isGstStateCode(v.slice(0, 2)) && !RETIRED_STATE_CODES.has(v.slice(0, 2))

/** A GSTIN as typed: spaces dropped, capitals. */
const gstinText = (value: unknown) => text(value).replace(/\s+/g, '').toUpperCase()

/**
 * The business a customer registered for GST buys for (docs/delivery.md, "Business invoices"):
 * its legal name, GSTIN (format, state code and check character) and address, all required.
 * The customer's own (Settings) and the one an admin makes a payment link out to.
 */
export const businessFields = z.object({
  businessName: z.preprocess(
    text,
    z
      .string()
      .trim()
      .min(1, SETTINGS_MESSAGES.businessNameRequired)
      .max(BUSINESS_NAME_MAX, SETTINGS_MESSAGES.businessNameTooLong)
      // The invoice's font has no other scripts: they would print as "?".
      .refine(printsOnInvoice, SETTINGS_MESSAGES.businessNotLatin),
  ),
  gstin: z.preprocess(
    gstinText,
    z
      .string()
      .refine(wellFormedGstin, SETTINGS_MESSAGES.gstinInvalid)
      // Only a well-formed one is told about its check character.
      .refine(
        (v) => !wellFormedGstin(v) || gstinCheckCharacter(v.slice(0, 14)) === v[14],
        SETTINGS_MESSAGES.gstinCheck,
      ),
  ),
  businessAddress: z.preprocess(
    text,
    z
      .string()
      .trim()
      .min(1, SETTINGS_MESSAGES.businessAddressRequired)
      .max(BUSINESS_ADDRESS_MAX, SETTINGS_MESSAGES.businessAddressTooLong)
      // The invoice's font has no other scripts: they would print as "?".
      .refine(printsOnInvoice, SETTINGS_MESSAGES.businessNotLatin),
  ),
})

export const businessSchema = businessFields.extend({ intent: z.literal('business') })

/**
 * The same details, optional as a whole: all three blank (a consumer) or all three valid. Each
 * blank one is then told what it lacks.
 */
export const optionalBusinessFields = {
  businessName: z.preprocess(text, z.string().trim()),
  gstin: z.preprocess(gstinText, z.string()),
  businessAddress: z.preprocess(text, z.string().trim()),
}

export function refineOptionalBusiness(
  value: { businessName: string; gstin: string; businessAddress: string },
  ctx: z.RefinementCtx,
) {
  if (!value.businessName && !value.gstin && !value.businessAddress) return
  const parsed = businessFields.safeParse(value)
  if (!parsed.success)
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path })
}

export const removeBusinessSchema = z.object({ intent: z.literal('removeBusiness') })

export const settingsSchema = z.discriminatedUnion('intent', [
  profileSchema,
  photoSchema,
  removePhotoSchema,
  preferencesSchema,
  businessSchema,
  removeBusinessSchema,
  deleteAccountSchema,
])
export type SettingsSubmission = z.output<typeof settingsSchema>
