import { z } from './zod'
import { safeRedirect } from '../safe-redirect'

export { safeRedirect }

/**
 * The account forms' rules, shared by the browser (checked before
 * submitting) and the server (checked again in every action). Messages are the spec's
 * where it gives them.
 */
export const PASSWORD_MIN_LENGTH = 6
export const PASSWORD_MAX_LENGTH = 128

export const AUTH_MESSAGES = {
  nameRequired: 'Name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 6 characters long',
  passwordTooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters long`,
  passwordsDoNotMatch: 'Passwords do not match',
  currentPasswordRequired: 'Current password is required',
  loginFailed: 'Failed to log in',
  signupFailed: 'Failed to create account',
  googleLoginFailed: 'Failed to log in with Google',
  googleSignupFailed: 'Failed to sign up with Google',
  accountSuspended: 'Your account has been suspended. Please contact support.',
  googleEmailUnverified:
    'Google has not verified this e-mail address, so it cannot be used to sign in here. Verify it with Google, or sign up with your e-mail and a password.',
  registrationClosed: 'New registrations are currently closed.',
} as const

/** The admin guard's answers; shared by the guards and the error page. */
export const ACCESS_DENIED_TITLE = 'Access Denied'
export const NOT_ADMIN_MESSAGE = "You don't have admin permissions."

const text = (value: unknown) => (typeof value === 'string' ? value : '')

/** E-mail addresses are case-insensitive: always trimmed and lower-cased. */
export const emailField = z.preprocess(
  text,
  z
    .string()
    .trim()
    .min(1, AUTH_MESSAGES.emailRequired)
    .max(254, AUTH_MESSAGES.emailInvalid)
    .pipe(z.email(AUTH_MESSAGES.emailInvalid))
    .transform((email) => email.toLowerCase()),
)

/** A new password (sign-up, reset, change): the spec's minimum of 6 characters. */
export const newPasswordField = z.preprocess(
  text,
  z
    .string()
    .min(1, AUTH_MESSAGES.passwordRequired)
    .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordTooShort)
    .max(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordTooLong),
)

const redirectField = z.preprocess((value) => safeRedirect(value, ''), z.string())

export const loginSchema = z.object({
  email: emailField,
  password: z.preprocess(
    text,
    z
      .string()
      .min(1, AUTH_MESSAGES.passwordRequired)
      .max(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordTooLong),
  ),
  redirectTo: redirectField,
})

/**
 * A display name as typed, made fit to show: NFKC-normalised (full-width and other look-alike
 * forms become the plain letters) and without format and control characters (zero-width spaces,
 * direction overrides such as U+202E that would reverse the text around it in the admin pages
 * and mails). Trimmed after, by the rule, so a name made only of such characters is empty.
 */
export const displayNameText = (value: unknown) =>
  text(value)
    .normalize('NFKC')
    // Zero-width joiners and non-joiners shape some Indic spellings: kept between letters.
    .replace(/(?![\u200C\u200D])[\p{Cf}\p{Cc}]/gu, '')
    .replace(/(?<![\p{L}\p{M}])[\u200C\u200D]|[\u200C\u200D](?!\p{L})/gu, '')

export const signupSchema = z
  .object({
    name: z.preprocess(
      displayNameText,
      z
        .string()
        .trim()
        .min(1, AUTH_MESSAGES.nameRequired)
        .max(100, 'Name must be at most 100 characters long'),
    ),
    email: emailField,
    password: newPasswordField,
    confirmPassword: z.preprocess(text, z.string()),
    redirectTo: redirectField,
  })
  .refine((value) => value.password === value.confirmPassword, {
    path: ['confirmPassword'],
    message: AUTH_MESSAGES.passwordsDoNotMatch,
  })

export const forgotPasswordSchema = z.object({ email: emailField })

export const resetPasswordSchema = z
  .object({
    token: z.preprocess(text, z.string().min(1, 'This link is not valid. Request a new one.')),
    password: newPasswordField,
    confirmPassword: z.preprocess(text, z.string()),
  })
  .refine((value) => value.password === value.confirmPassword, {
    path: ['confirmPassword'],
    message: AUTH_MESSAGES.passwordsDoNotMatch,
  })

/**
 * The confirmation link's form (app/routes/auth/verify-email.tsx): the link's token and the
 * password chosen at sign-up (none for an account without one, made through Google).
 */
export const confirmEmailSchema = z.object({
  token: z.preprocess(text, z.string().min(1, 'This link is not valid. Request a new one.')),
  password: z.preprocess(text, z.string().max(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordTooLong)),
  redirectTo: redirectField,
})

export const changePasswordSchema = z
  .object({
    currentPassword: z.preprocess(text, z.string().min(1, AUTH_MESSAGES.currentPasswordRequired)),
    password: newPasswordField,
    confirmPassword: z.preprocess(text, z.string()),
  })
  .refine((value) => value.password === value.confirmPassword, {
    path: ['confirmPassword'],
    message: AUTH_MESSAGES.passwordsDoNotMatch,
  })

/** A first password for an account that signed up with Google. */
export const setPasswordSchema = z
  .object({ password: newPasswordField, confirmPassword: z.preprocess(text, z.string()) })
  .refine((value) => value.password === value.confirmPassword, {
    path: ['confirmPassword'],
    message: AUTH_MESSAGES.passwordsDoNotMatch,
  })
