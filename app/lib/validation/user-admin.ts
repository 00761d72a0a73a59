import { z } from './zod'
import { displayNameText, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './auth'

/**
 * The admin user page's forms (/admin/users/:userId), one schema told apart by `intent`:
 * the edit dialog, the reset password dialog, and the confirmed Make Admin, Suspend and
 * Reactivate buttons. Shared by the browser (checked before sending) and the action. Messages
 * are the spec's where it gives them. Browser safe.
 */
export const USER_NAME_MAX = 100

export const USER_ADMIN_MESSAGES = {
  nameRequired: 'Display name is required',
  nameTooLong: `Please keep the name under ${USER_NAME_MAX} characters.`,
  passwordTooShort: 'Password must be at least 6 characters!',
  passwordTooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters long`,
  passwordsDoNotMatch: "Passwords don't match!",
  emailReadOnly: 'Email cannot be changed',
  selfSuspend: 'You cannot suspend your own account',
  selfDemote: 'You cannot remove your own admin access or Can Manage Users',
  lastAdmin: 'The last active admin cannot be demoted or suspended',
  lastUserManager:
    'The last active admin who can manage users cannot be demoted, suspended or lose Can Manage Users',
  notAllowed: "You don't have permission to manage users.",
  listedAdmin: 'This address is in ADMIN_EMAILS: it is always an admin with every permission',
  listedAdminStatus: 'This address is in ADMIN_EMAILS: it cannot be suspended or deactivated',
  listedAdminPassword: 'This address is in ADMIN_EMAILS: only its owner can change its password',
  staleEdit:
    'Someone else changed this user after this page was loaded, so nothing was saved. Reload the page to see the change.',
  notFound: 'This user no longer exists',
} as const

const text = (value: unknown) => (typeof value === 'string' ? value : '')
const checkbox = z.preprocess((value) => value === 'on' || value === 'true', z.boolean())
const confirmed = z.preprocess(text, z.string())

export const editUserSchema = z.object({
  intent: z.literal('update'),
  /** What the page showed of the account (editVersion): an edit over a newer change is refused. */
  version: z.preprocess(
    text,
    z.string().min(1, 'This form has expired. Reload the page and try again.').max(40),
  ),
  name: z.preprocess(
    displayNameText,
    z
      .string()
      .trim()
      .min(1, USER_ADMIN_MESSAGES.nameRequired)
      .max(USER_NAME_MAX, USER_ADMIN_MESSAGES.nameTooLong),
  ),
  role: z.enum(['user', 'admin'], 'Choose a role'),
  status: z.enum(['active', 'suspended', 'inactive'], 'Choose a status'),
  canCreateProducts: checkbox,
  canManageOrders: checkbox,
  canManageUsers: checkbox,
})

const passwordText = z
  .string()
  .min(PASSWORD_MIN_LENGTH, USER_ADMIN_MESSAGES.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, USER_ADMIN_MESSAGES.passwordTooLong)

export const resetPasswordSchema = z
  .object({
    intent: z.literal('reset-password'),
    password: z.preprocess(text, passwordText),
    confirmPassword: z.preprocess(text, z.string()),
  })
  .refine((value) => value.password === value.confirmPassword, {
    message: USER_ADMIN_MESSAGES.passwordsDoNotMatch,
    path: ['confirmPassword'],
  })

export const makeAdminSchema = z.object({ intent: z.literal('make-admin'), confirmed })
export const suspendSchema = z.object({ intent: z.literal('suspend'), confirmed })
export const reactivateSchema = z.object({ intent: z.literal('reactivate'), confirmed })

/** Every change the user page posts. */
export const userActionSchema = z.discriminatedUnion('intent', [
  editUserSchema,
  resetPasswordSchema,
  makeAdminSchema,
  suspendSchema,
  reactivateSchema,
])

export type UserActionInput = z.output<typeof userActionSchema>
export type UserActionIntent = UserActionInput['intent']
