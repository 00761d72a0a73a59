import crypto from 'node:crypto'
import { sql } from 'kysely'
import type { DB } from '~/lib/db.server'
import { engineOf, toFlag } from '~/lib/db.server'
import { newId } from '~/lib/id.server'
import { LATE_PAYMENT_MS, SETTLED_STATUSES } from './order.server'
import { anonymisePaymentLinks } from './payment-link.server'
import type { AuthFlag, AuthTime } from '../../db/schema'

/**
 * User profiles: better-auth's user table plus our fields.
 * On PostgreSQL better-auth stores native booleans and timestamps, on SQLite 0/1 and text;
 * everything leaving this file is normalised (booleans, ISO-8601 strings).
 */
export const ROLES = ['user', 'admin'] as const
export type Role = (typeof ROLES)[number]
export const USER_STATUSES = ['active', 'suspended', 'inactive'] as const
export type UserStatus = (typeof USER_STATUSES)[number]

export const PERMISSIONS = ['canCreateProducts', 'canManageOrders', 'canManageUsers'] as const
export type Permission = (typeof PERMISSIONS)[number]
export type Permissions = Record<Permission, boolean>

export const ALL_PERMISSIONS: Permissions = {
  canCreateProducts: true,
  canManageOrders: true,
  canManageUsers: true,
}
export const NO_PERMISSIONS: Permissions = {
  canCreateProducts: false,
  canManageOrders: false,
  canManageUsers: false,
}

export interface UserProfile {
  id: string
  name: string
  email: string
  /** The address is proven (the sign-up link, or Google's verified address). */
  emailVerified: boolean
  photo: string | null
  role: Role
  status: UserStatus
  permissions: Permissions
  createdAt: string
  updatedAt: string
  lastActiveAt: string | null
}

export const toIso = (value: AuthTime): string =>
  (value instanceof Date ? value : new Date(value)).toISOString()
const toIsoOrNull = (value: AuthTime | null): string | null =>
  value === null ? null : toIso(value)
const toBool = (value: AuthFlag): boolean => Boolean(value)

/** The user columns a profile is made of (toUserProfile); the admin's user queries select them too. */
export const profileColumns = [
  'id',
  'name',
  'email',
  'emailVerified',
  'photo',
  'role',
  'status',
  'canCreateProducts',
  'canManageOrders',
  'canManageUsers',
  'createdAt',
  'updatedAt',
  'lastActiveAt',
] as const

type ProfileRow = {
  id: string
  name: string
  email: string
  emailVerified: AuthFlag
  photo: string | null
  role: string
  status: string | null
  canCreateProducts: AuthFlag
  canManageOrders: AuthFlag
  canManageUsers: AuthFlag
  createdAt: AuthTime
  updatedAt: AuthTime
  lastActiveAt: AuthTime | null
}

/** Also used for the user better-auth hands back with a session (same fields). */
export function toUserProfile(row: ProfileRow): UserProfile {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    emailVerified: toBool(row.emailVerified),
    photo: row.photo,
    role: row.role === 'admin' ? 'admin' : 'user',
    // Missing counts as active.
    status: (USER_STATUSES as readonly string[]).includes(row.status ?? '')
      ? (row.status as UserStatus)
      : 'active',
    permissions: {
      canCreateProducts: toBool(row.canCreateProducts),
      canManageOrders: toBool(row.canManageOrders),
      canManageUsers: toBool(row.canManageUsers),
    },
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
    lastActiveAt: toIsoOrNull(row.lastActiveAt),
  }
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase()

/** Whether an e-mail is in ADMIN_EMAILS (the original's built-in admin list). */
export function isListedAdmin(email: string, adminEmails: readonly string[]): boolean {
  return adminEmails.includes(normalizeEmail(email))
}

/**
 * Whether ADMIN_EMAILS makes this account an admin: the address is listed and its owner has
 * proved they receive its mail (the mailed link, or Google's verified e-mail). Otherwise
 * whoever registered a listed address first would be an admin.
 */
export function isVerifiedListedAdmin(
  profile: Pick<UserProfile, 'email' | 'emailVerified'>,
  adminEmails: readonly string[],
): boolean {
  return profile.emailVerified && isListedAdmin(profile.email, adminEmails)
}

/**
 * What a user may do: verified ADMIN_EMAILS are admins with every
 * permission; otherwise the stored role stands and an admin has the stored flags.
 */
export function effectiveAccess(
  profile: Pick<UserProfile, 'email' | 'emailVerified' | 'role' | 'permissions'>,
  adminEmails: readonly string[],
): { isAdmin: boolean; permissions: Permissions } {
  if (isVerifiedListedAdmin(profile, adminEmails))
    return { isAdmin: true, permissions: { ...ALL_PERMISSIONS } }
  if (profile.role === 'admin') return { isAdmin: true, permissions: { ...profile.permissions } }
  return { isAdmin: false, permissions: { ...NO_PERMISSIONS } }
}

export async function getUserProfile(db: DB, id: string): Promise<UserProfile | null> {
  const row = await db
    .selectFrom('user')
    .select(profileColumns)
    .where('id', '=', id)
    .executeTakeFirst()
  return row ? toUserProfile(row) : null
}

export async function findUserByEmail(db: DB, email: string): Promise<UserProfile | null> {
  const row = await db
    .selectFrom('user')
    .select(profileColumns)
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst()
  return row ? toUserProfile(row) : null
}

export interface AdminOverview {
  /** Accounts that are admins now (stored role, or a verified ADMIN_EMAILS address). */
  admins: Array<{ email: string; via: 'role' | 'ADMIN_EMAILS' }>
  /** ADMIN_EMAILS addresses with an account whose e-mail is not verified yet. */
  awaitingVerification: string[]
  /** ADMIN_EMAILS addresses nobody has signed up with. */
  notSignedUp: string[]
}

/** Who is an admin, and which ADMIN_EMAILS addresses are not (yet). */
export async function adminOverview(
  db: DB,
  adminEmails: readonly string[],
): Promise<AdminOverview> {
  const rows = await db
    .selectFrom('user')
    .select(['email', 'emailVerified', 'role'])
    .where((eb) =>
      adminEmails.length
        ? eb.or([eb('role', '=', 'admin'), eb('email', 'in', [...adminEmails])])
        : eb('role', '=', 'admin'),
    )
    .orderBy('email')
    .execute()
  const overview: AdminOverview = { admins: [], awaitingVerification: [], notSignedUp: [] }
  for (const row of rows) {
    const profile = { email: row.email, emailVerified: toBool(row.emailVerified) }
    if (isVerifiedListedAdmin(profile, adminEmails))
      overview.admins.push({ email: row.email, via: 'ADMIN_EMAILS' })
    else if (row.role === 'admin') overview.admins.push({ email: row.email, via: 'role' })
    if (isListedAdmin(row.email, adminEmails) && !profile.emailVerified)
      overview.awaitingVerification.push(row.email)
  }
  const known = new Set(rows.map((row) => row.email))
  overview.notSignedUp = adminEmails.filter((email) => !known.has(email))
  return overview
}

/** Is there any admin (stored role, or a verified ADMIN_EMAILS account)? */
export async function hasAdmin(db: DB, adminEmails: readonly string[]): Promise<boolean> {
  return (await adminOverview(db, adminEmails)).admins.length > 0
}

/** Marks the address as proved (a mailed link was used); ADMIN_EMAILS then apply. */
/**
 * The account an address signs in to, as a confirmation link needs it: its status, whether the
 * address is confirmed, and its password's hash (null for an account without one).
 */
export async function findSignInAccount(
  db: DB,
  email: string,
): Promise<{
  id: string
  email: string
  emailVerified: boolean
  status: string
  passwordHash: string | null
} | null> {
  const row = await db
    .selectFrom('user')
    .leftJoin('account', (join) =>
      join.onRef('account.userId', '=', 'user.id').on('account.providerId', '=', 'credential'),
    )
    .select(['user.id', 'user.email', 'user.emailVerified', 'user.status', 'account.password'])
    .where('user.email', '=', email.toLowerCase())
    .executeTakeFirst()
  if (!row) return null
  return {
    id: row.id,
    email: row.email,
    emailVerified: toBool(row.emailVerified),
    status: row.status,
    passwordHash: row.password ?? null,
  }
}

/**
 * Locks the user's row until the transaction ends, on PostgreSQL (SQLite runs one writer at a
 * time): a checkout of the account, whose order refers to the row, waits meanwhile.
 */
export async function lockUserRow(trx: DB, userId: string): Promise<void> {
  if (engineOf(trx) === 'postgres')
    await trx.selectFrom('user').select('id').where('id', '=', userId).forUpdate().execute()
}

/** Removes every other way than its password of signing in to the account (Google links). */
export async function dropProviderLinks(db: DB, userId: string): Promise<void> {
  await db
    .deleteFrom('account')
    .where('userId', '=', userId)
    .where('providerId', '!=', 'credential')
    .execute()
}

export async function markEmailVerified(db: DB, userId: string, now = new Date()): Promise<void> {
  await db
    .updateTable('user')
    .set({ emailVerified: toFlag(true), updatedAt: now.toISOString() })
    .where('id', '=', userId)
    .execute()
}

/** Ends every session of a user (they are signed out on their next request). */
export async function endUserSessions(db: DB, userId: string): Promise<number> {
  const result = await db.deleteFrom('session').where('userId', '=', userId).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** Sets active / suspended / inactive; suspending ends the user's sessions in the same transaction. */
export async function setUserStatus(
  db: DB,
  userId: string,
  status: UserStatus,
  now = new Date(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('user')
      .set({ status, updatedAt: now.toISOString() })
      .where('id', '=', userId)
      .execute()
    if (status === 'suspended') await endUserSessions(trx, userId)
  })
}

/** Sets the role; "Make Admin" also grants every permission. */
export async function setUserRole(
  db: DB,
  userId: string,
  role: Role,
  now = new Date(),
): Promise<void> {
  const grant = role === 'admin' ? ALL_PERMISSIONS : NO_PERMISSIONS
  await db
    .updateTable('user')
    .set({
      role,
      canCreateProducts: toFlag(grant.canCreateProducts),
      canManageOrders: toFlag(grant.canManageOrders),
      canManageUsers: toFlag(grant.canManageUsers),
      updatedAt: now.toISOString(),
    })
    .where('id', '=', userId)
    .execute()
}

export async function setUserPermissions(
  db: DB,
  userId: string,
  permissions: Permissions,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable('user')
    .set({
      canCreateProducts: toFlag(permissions.canCreateProducts),
      canManageOrders: toFlag(permissions.canManageOrders),
      canManageUsers: toFlag(permissions.canManageUsers),
      updatedAt: now.toISOString(),
    })
    .where('id', '=', userId)
    .execute()
}

/** Records activity at most every few minutes (one cheap conditional UPDATE). */
/** How often a signed-in user's last activity is written at most. */
export const LAST_ACTIVE_EVERY_MS = 5 * 60_000

export async function touchLastActive(
  db: DB,
  userId: string,
  now = new Date(),
  everyMs = LAST_ACTIVE_EVERY_MS,
): Promise<void> {
  const stale = new Date(now.getTime() - everyMs).toISOString()
  await db
    .updateTable('user')
    .set({ lastActiveAt: now.toISOString() })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('lastActiveAt', 'is', null), eb('lastActiveAt', '<', stale)]))
    .execute()
}

/**
 * An account without a password (admin:create); its owner sets one through a reset link.
 * Role admin with every permission when `admin` is true.
 */
export async function createUser(
  db: DB,
  input: { email: string; name: string; admin?: boolean },
  now = new Date(),
): Promise<UserProfile> {
  const grant = input.admin ? ALL_PERMISSIONS : NO_PERMISSIONS
  const id = newId()
  await db
    .insertInto('user')
    .values({
      id,
      name: input.name,
      email: normalizeEmail(input.email),
      emailVerified: toFlag(false),
      photo: null,
      role: input.admin ? 'admin' : 'user',
      status: 'active',
      canCreateProducts: toFlag(grant.canCreateProducts),
      canManageOrders: toFlag(grant.canManageOrders),
      canManageUsers: toFlag(grant.canManageUsers),
      lastActiveAt: null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    .execute()
  const profile = await getUserProfile(db, id)
  if (!profile) throw new Error('The new user was not stored')
  return profile
}

// ---------------------------------------------------------------------------------------
// Password reset tokens. They are rows of better-auth's verification table in its own
// format (identifier "reset-password:<token>", value = user id), so better-auth's
// resetPassword consumes them: single use, expiry checked, password rules applied.
// better-auth runs with `verification.storeIdentifier: 'hashed'` (auth.server.ts), so the
// table holds only SHA-256 of the identifier: a copy of the database opens no account.
// The token itself exists only in the mail, issued when the mail job runs (account-mail.server.ts).

export const RESET_TOKEN_TTL_SECONDS = 60 * 60
/** The link admin:create prints lasts longer: the owner may set up the shop later. */
export const SET_PASSWORD_TOKEN_TTL_SECONDS = 24 * 60 * 60

/** How better-auth stores a verification identifier when it is hashed (base64url SHA-256). */
export function storedVerificationIdentifier(identifier: string): string {
  return crypto.createHash('sha256').update(identifier, 'utf8').digest('base64url')
}

export async function createPasswordResetToken(
  db: DB,
  userId: string,
  ttlSeconds = RESET_TOKEN_TTL_SECONDS,
  now = new Date(),
): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url')
  await db
    .insertInto('verification')
    .values({
      id: newId(),
      identifier: storedVerificationIdentifier(`reset-password:${token}`),
      value: userId,
      expiresAt: new Date(now.getTime() + ttlSeconds * 1000).toISOString(),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    .execute()
  return token
}

/** The user a usable reset token belongs to, or null (missing, used or expired). */
export async function resetTokenUser(
  db: DB,
  token: string,
  now = new Date(),
): Promise<string | null> {
  const row = await db
    .selectFrom('verification')
    .select(['value', 'expiresAt'])
    .where('identifier', '=', storedVerificationIdentifier(`reset-password:${token}`))
    .executeTakeFirst()
  return row && new Date(row.expiresAt).getTime() > now.getTime() ? row.value : null
}

/** Whether a reset token exists and has not expired (the page says so before asking). */
export async function isResetTokenUsable(
  db: DB,
  token: string,
  now = new Date(),
): Promise<boolean> {
  return (await resetTokenUser(db, token, now)) !== null
}

/**
 * Ends every reset link of the user still waiting. Called once their password is set (through
 * a reset link, Change password, a first password, or by an admin), so an older link cannot
 * set it again (docs/auth.md). Identifiers are stored hashed, so reset rows are told by their
 * value: the bare user id. No other row better-auth keeps for this app looks like that: OAuth
 * states hold JSON, and e-mail confirmation links are signed tokens that are not stored. (The
 * better-auth features that also store a bare user id, mailed account deletion and magic-link
 * or e-mail OTP sign-in, are not turned on in createAuth; turning one on means revisiting this.)
 */
export async function forgetResetTokens(db: DB, userId: string): Promise<void> {
  await db.deleteFrom('verification').where('value', '=', userId).execute()
}

/**
 * The start-up lines about admins: who they are, which ADMIN_EMAILS addresses wait for their
 * owner to confirm the address, and how to get a first admin when there is none.
 */
export async function adminStartupLines(db: DB, adminEmails: readonly string[]): Promise<string[]> {
  const overview = await adminOverview(db, adminEmails)
  const lines: string[] = []
  if (overview.admins.length) {
    const names = overview.admins.map((admin) =>
      admin.via === 'role' ? admin.email : `${admin.email} (ADMIN_EMAILS)`,
    )
    lines.push(`[auth] Admins: ${names.join(', ')}`)
  }
  if (overview.awaitingVerification.length) {
    lines.push(
      `[auth] ADMIN_EMAILS waiting for e-mail verification (not admins until the address is confirmed through the link we mailed): ${overview.awaitingVerification.join(', ')}`,
    )
  }
  if (!overview.admins.length) {
    const listed = adminEmails.length
      ? ` or sign up with an address in ADMIN_EMAILS (${adminEmails.join(', ')}) and confirm it with the link we mail`
      : ' (or list admin addresses in ADMIN_EMAILS and sign up with one)'
    lines.push(
      `[auth] There is no admin account yet. Create one with: npm run admin:create -- --email you@example.com${listed}`,
    )
  }
  return lines
}

// ---------------------------------------------------------------------------------------
// The customer's own profile (/dashboard/settings)

export async function updateUserName(
  db: DB,
  userId: string,
  name: string,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable('user')
    .set({ name, updatedAt: now.toISOString() })
    .where('id', '=', userId)
    .execute()
}

/** Sets (or clears, with null) the profile photo; returns the one it replaced. */
export async function setUserPhoto(
  db: DB,
  userId: string,
  photo: string | null,
  now = new Date(),
): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    const read = trx.selectFrom('user').select('photo').where('id', '=', userId)
    // Locked on PostgreSQL: two uploads at once must not both be told the same previous photo
    // (one file would never be removed). SQLite runs one writing transaction at a time.
    const before = await (engineOf(trx) === 'postgres' ? read.forUpdate() : read).executeTakeFirst()
    await trx
      .updateTable('user')
      .set({ photo, updatedAt: now.toISOString() })
      .where('id', '=', userId)
      .execute()
    return before?.photo ?? null
  })
}

/** What an anonymised order says instead of the buyer's name, e-mail and phone. */
export const DELETED_CUSTOMER_NAME = 'Deleted customer'
export const deletedCustomerEmail = (userId: string) =>
  `deleted-${userId.toLowerCase()}@deleted.invalid`

/**
 * Deletes an account. Its orders stay for the shop's records (totals, invoices, stock) with
 * the buyer's name, e-mail and phone replaced: the orders placed while signed in, and the
 * guest orders paid with the same address when the address was verified (My Orders shows
 * those too: `ownedBy`, app/data/customer-orders.server.ts), and the payment links made out to
 * that verified address (an open one is cancelled). Guest orders with the address that failed
 * or expired over a day ago lose those details too (no payment can come any more); one whose
 * payment may still go through is left as it is, so its delivery reaches the address typed.
 * Sessions, logins and preferences go with the user row (foreign keys cascade).
 * Returns the deleted profile's photo, for the caller to remove from storage, or null when
 * there was no such user. Pass a transaction to make the deletion part of it (the check that
 * the shop keeps an admin, app/services/account-settings.server.ts).
 */
export async function deleteUserAccount(
  db: DB,
  userId: string,
  now = new Date(),
): Promise<{ deleted: boolean; photo: string | null; ordersAnonymised: number }> {
  const remove = async (trx: DB) => {
    const user = await trx
      .selectFrom('user')
      .select(['email', 'emailVerified', 'photo'])
      .where('id', '=', userId)
      .executeTakeFirst()
    if (!user) return { deleted: false, photo: null, ordersAnonymised: 0 }
    const verified = toBool(user.emailVerified)
    const result = await trx
      .updateTable('order')
      .set({
        customerName: DELETED_CUSTOMER_NAME,
        customerEmail: deletedCustomerEmail(userId),
        customerPhone: '',
        userId: null,
        updatedAt: now.toISOString(),
      })
      .where((eb) =>
        verified
          ? eb.or([
              eb('userId', '=', userId),
              eb.and([
                eb('userId', 'is', null),
                eb('customerEmail', '=', user.email),
                eb.or([
                  eb('status', 'in', SETTLED_STATUSES),
                  // Unpaid for good: no payment can come any more, so no delivery needs the
                  // address, whoever typed it.
                  eb.and([
                    eb('status', 'in', ['failed', 'expired']),
                    eb('updatedAt', '<', new Date(now.getTime() - LATE_PAYMENT_MS).toISOString()),
                  ]),
                ]),
              ]),
            ])
          : eb('userId', '=', userId),
      )
      .executeTakeFirst()
    if (verified) {
      // Payment links an admin made out to the address: the same details go, and a link still
      // open stops taking payments (its receipts would go to no one).
      await anonymisePaymentLinks(
        trx,
        user.email,
        { name: DELETED_CUSTOMER_NAME, email: deletedCustomerEmail(userId) },
        now,
      )
    }
    // The account's "helpful" votes go with it (foreign key cascade): the reviews they counted
    // for lose them from helpful_count, which mirrors the votes (db/migrations/0100).
    await trx
      .updateTable('review')
      .set({ helpfulCount: sql<number>`helpful_count - 1` })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('reviewVote')
          .select('reviewVote.reviewId')
          .where('reviewVote.userId', '=', userId),
      )
      .execute()
    await trx.deleteFrom('session').where('userId', '=', userId).execute()
    await trx.deleteFrom('user').where('id', '=', userId).execute()
    return { deleted: true, photo: user.photo, ordersAnonymised: Number(result.numUpdatedRows) }
  }
  return db.isTransaction ? remove(db) : db.transaction().execute(remove)
}
