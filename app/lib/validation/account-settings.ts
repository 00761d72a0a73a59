import { z } from './zod'
import { LANGUAGES } from '../preferences'
import { THEMES } from '../theme'
import { PASSWORD_MAX_LENGTH } from './auth'
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
} as const

const text = (value: unknown) => (typeof value === 'string' ? value : '')

export const profileSchema = z.object({
  intent: z.literal('profile'),
  name: z.preprocess(
    text,
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

export const settingsSchema = z.discriminatedUnion('intent', [
  profileSchema,
  photoSchema,
  removePhotoSchema,
  preferencesSchema,
  deleteAccountSchema,
])
export type SettingsSubmission = z.output<typeof settingsSchema>
