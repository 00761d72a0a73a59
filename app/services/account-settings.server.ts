import {
  changePassword,
  getAuth,
  googleEnabled,
  hasPassword,
  setFirstPassword,
  signOut,
  type AuthResult,
  type AuthUser,
} from '~/services/auth.server'
import { lockAccountChanges } from '~/data/user-admin.server'
import { orderStillOpen } from '~/data/customer-orders.server'
import {
  deleteUserAccount,
  getUserProfile,
  lockUserRow,
  setUserPhoto,
  updateUserName,
} from '~/data/user.server'
import type { DB } from '~/lib/db.server'
import { hitPolicy, tooManyAttemptsMessage, type RateLimitHit } from '~/lib/rate-limit.server'
import type { Storage } from '~/lib/storage.server'
import { SETTINGS_MESSAGES } from '~/lib/validation/account-settings'
import { profilePhotoKey, storeProfilePhoto, UploadError } from '~/lib/uploads.server'
import { IMAGE_MESSAGES } from '~/lib/validation/product'
import { lastAdminLoss } from './user-admin.server'

/**
 * The customer's own account changes from /dashboard/settings that touch more than one row:
 * the profile photo (stored through the upload checks, the old file removed) and deleting the
 * account (password checked, the shop left with an admin, orders anonymised, sessions ended,
 * photo removed).
 */

/** Removes a profile photo file we stored; other URLs (Google's) are left alone. */
async function removeStoredPhoto(storage: Storage, url: string | null): Promise<void> {
  const key = profilePhotoKey(url, storage)
  if (!key) return
  try {
    await storage.delete(key)
  } catch (error) {
    // A file left behind wastes space but breaks nothing.
    console.error(`[settings] could not remove ${key}:`, error)
  }
}

export type ReplacePhotoResult =
  | { ok: true; url: string }
  | {
      ok: false
      status: number
      message: string
      /** Set on a 429: seconds until another upload is counted. */
      retryAfterSeconds?: number
    }

/**
 * Stores a new profile photo and drops the old one. Uploads are counted per user
 * (`profilePhotoUser`) before the picture is decoded, since decoding and resizing is the costly
 * part: over the limit, a 429 with `retryAfterSeconds`. A file that is not an image is refused
 * with the upload checks' message and status; when the file cannot be stored (a full disk, the
 * object store down), the error is logged and the answer is the spec's upload failure (500). A
 * refusal or failure leaves the profile's photo as it was.
 */
export async function replaceProfilePhoto(
  deps: { db: DB; storage: Storage },
  userId: string,
  bytes: Buffer,
): Promise<ReplacePhotoResult> {
  const hit = await hitPolicy(deps.db, 'profilePhotoUser', userId)
  if (!hit.allowed) {
    return tooManyTries(hit)
  }
  let stored: { key: string; url: string }
  try {
    stored = await storeProfilePhoto({ bytes }, { storage: deps.storage })
  } catch (error) {
    if (error instanceof UploadError)
      return { ok: false, status: error.status, message: error.message }
    console.error('[settings] storing a profile photo failed:', error)
    return { ok: false, status: 500, message: IMAGE_MESSAGES.uploadFailed }
  }
  const previous = await setUserPhoto(deps.db, userId, stored.url)
  await removeStoredPhoto(deps.storage, previous)
  return { ok: true, url: stored.url }
}

export type RenameResult =
  { ok: true } | { ok: false; status: 429; message: string; retryAfterSeconds: number }

/**
 * Saves the customer's display name. A change is counted per user (`profileNameUser`): a
 * reviewer's new name empties the storefront's page cache (docs/page-cache.md), so renames
 * without end would keep every page rendering. Saving the name the profile already has changes
 * nothing and is not counted.
 */
export async function renameSelf(db: DB, userId: string, name: string): Promise<RenameResult> {
  const profile = await getUserProfile(db, userId)
  if (profile?.name === name) return { ok: true }
  const hit = await hitPolicy(db, 'profileNameUser', userId)
  if (!hit.allowed) return tooManyTries(hit)
  await updateUserName(db, userId, name)
  return { ok: true }
}

export async function removeProfilePhoto(
  deps: { db: DB; storage: Storage },
  userId: string,
): Promise<void> {
  const previous = await setUserPhoto(deps.db, userId, null)
  await removeStoredPhoto(deps.storage, previous)
}

export const DELETE_ACCOUNT_MESSAGES = {
  wrongPassword: 'That password is not correct. Your account was not deleted.',
  wrongEmail: 'That is not your e-mail address. Your account was not deleted.',
  lastAdmin:
    "You are the shop's only active admin: make another account an admin first. Your account was not deleted.",
  lastUserManager:
    "You are the shop's only active admin who can manage users: give another admin Can Manage Users first. Your account was not deleted.",
  waitingForDelivery: (orderId: string) =>
    `Order ${orderId} is still waiting for delivery. Your account can be deleted once it is delivered or refunded.`,
  paymentMayGoThrough: (orderId: string) =>
    `The payment for order ${orderId} may still go through. Your account can be deleted once the order is delivered, or a day after its payment failed or expired.`,
} as const

/** A refusal for going over a per-user limit: 429, with when to try again. */
function tooManyTries(hit: RateLimitHit) {
  return {
    ok: false as const,
    status: 429 as const,
    message: tooManyAttemptsMessage(hit.retryAfterSeconds),
    retryAfterSeconds: hit.retryAfterSeconds,
  }
}

export type DeleteAccountResult =
  | { ok: true; headers: Headers }
  | {
      ok: false
      status: number
      field: 'password' | 'email' | null
      message: string
      /** Set on a 429: seconds until another attempt is counted. */
      retryAfterSeconds?: number
    }

/**
 * Deletes the signed-in user's account after checking their password (an account that signs
 * in with Google only confirms with its e-mail address instead). The shop's last active admin,
 * or last active admin who can manage users, is refused (409): nobody could make a new one
 * from the back office. That is checked under the lock the admin's changes to accounts take
 * (app/services/user-admin.server.ts), in the deleting transaction, so an admin deleting their
 * account while another admin demotes or suspends the only other one cannot both go through.
 * An account with an order still to be delivered or paid (`orderStillOpen`) is refused the same
 * way (409, the order named): its delivery would go to the anonymised address.
 * The session cookie is cleared in the answer; every other session ends with the user row.
 */
export async function deleteOwnAccount(
  request: Request,
  deps: { db: DB; storage: Storage; adminEmails: readonly string[] },
  user: Pick<AuthUser, 'id' | 'email'>,
  confirmation: { password: string; email: string },
): Promise<DeleteAccountResult> {
  const { db } = deps
  const withPassword = await hasPassword(db, user.id)
  // A form sent empty is a slip, not a guess: it is answered without counting an attempt.
  if (withPassword && !confirmation.password)
    return {
      ok: false,
      status: 400,
      field: 'password',
      message: SETTINGS_MESSAGES.passwordRequired,
    }
  if (!withPassword && !confirmation.email)
    return { ok: false, status: 400, field: 'email', message: SETTINGS_MESSAGES.emailMismatch }
  const hit = await hitPolicy(db, 'passwordCheckUser', user.id)
  if (!hit.allowed) {
    return {
      ok: false,
      status: 429,
      field: null,
      message: tooManyAttemptsMessage(hit.retryAfterSeconds),
      retryAfterSeconds: hit.retryAfterSeconds,
    }
  }
  if (withPassword) {
    const correct = await getAuth()
      .api.verifyPassword({ body: { password: confirmation.password }, headers: request.headers })
      .then(() => true)
      .catch(() => false)
    if (!correct)
      return {
        ok: false,
        status: 400,
        field: 'password',
        message: DELETE_ACCOUNT_MESSAGES.wrongPassword,
      }
  } else if (confirmation.email !== user.email.toLowerCase()) {
    return { ok: false, status: 400, field: 'email', message: DELETE_ACCOUNT_MESSAGES.wrongEmail }
  }
  const outcome = await db.transaction().execute(async (trx) => {
    await lockAccountChanges(trx)
    const profile = await getUserProfile(trx, user.id)
    const loss = profile
      ? await lastAdminLoss(
          trx,
          profile,
          { isAdmin: false, canManageUsers: false },
          deps.adminEmails,
        )
      : null
    if (loss)
      return {
        refused:
          loss === 'admin'
            ? DELETE_ACCOUNT_MESSAGES.lastAdmin
            : DELETE_ACCOUNT_MESSAGES.lastUserManager,
      } as const
    // On PostgreSQL the user row is locked first: a checkout of this account in another tab
    // (its order refers to the row) waits until the account is deleted or left, so no order
    // slips in between the check below and the anonymising. SQLite runs one writer at a time.
    await lockUserRow(trx, user.id)
    const open = await orderStillOpen(trx, user.id, new Date())
    if (open)
      return {
        refused: open.waitsForDelivery
          ? DELETE_ACCOUNT_MESSAGES.waitingForDelivery(open.id)
          : DELETE_ACCOUNT_MESSAGES.paymentMayGoThrough(open.id),
      } as const
    return { refused: null, ...(await deleteUserAccount(trx, user.id)) }
  })
  if (outcome.refused !== null)
    return { ok: false, status: 409, field: null, message: outcome.refused }
  // Signed out once the account is gone: a refusal above leaves the user signed in.
  const headers = await signOut(request)
  await removeStoredPhoto(deps.storage, outcome.photo)
  return { ok: true, headers }
}

/**
 * Changes the signed-in user's password. Each check of the current password counts against
 * `passwordCheckUser`, as for deleting the account: a session left open must not be a way to
 * guess it. A refusal for that is a 429 with `retryAfterSeconds`. The session the change opens
 * stores `ip`, the route's `context.clientIp`, never the visitor's X-Forwarded-For
 * (docs/security.md, "Trusted proxies").
 */
export async function changeOwnPassword(
  request: Request,
  ip: string,
  db: DB,
  userId: string,
  input: { currentPassword: string; newPassword: string },
): Promise<AuthResult | { ok: false; status: 429; message: string; retryAfterSeconds: number }> {
  const hit = await hitPolicy(db, 'passwordCheckUser', userId)
  if (!hit.allowed) {
    return tooManyTries(hit)
  }
  return changePassword(request, input, ip)
}

/**
 * How recently the session must have been opened (a sign-in) for an account without a password
 * to be given one from Settings.
 */
export const SET_PASSWORD_SIGN_IN_MS = 10 * 60 * 1000

export const SET_PASSWORD_MESSAGES = {
  signInAgain: 'For your security, log in again with Google, then set your password.',
  /** When Google sign-in is switched off: the reset link by mail sets a first password too. */
  mailedLink:
    'For your security, set your password with a link sent to your e-mail: use "E-mail me a link" below.',
} as const

export type SetOwnPasswordResult =
  AuthResult | { ok: false; status: 403; message: string; signInAgain: { google: boolean } }

/**
 * Gives a first password to an account that signs in with Google only. There is no password
 * to check, and an open session alone is not enough: whoever sits at a browser left signed in
 * could set one and keep the account. So the session must have been opened in the last
 * SET_PASSWORD_SIGN_IN_MS (a Google sign-in just made); an older one is refused (403) with
 * `signInAgain`, and the page offers to log in with Google again (or, when the shop has no
 * Google sign-in, the mailed link of "Forgot password").
 */
export async function setOwnFirstPassword(
  request: Request,
  userId: string,
  newPassword: string,
  now = new Date(),
): Promise<SetOwnPasswordResult> {
  // The session row as stored (no cookie cache, no refresh): its createdAt is the sign-in.
  const current = await getAuth()
    .api.getSession({
      headers: request.headers,
      query: { disableCookieCache: true, disableRefresh: true },
    })
    .catch(() => null)
  const signedInAt =
    current?.user.id === userId ? new Date(current.session.createdAt).getTime() : Number.NaN
  if (!(now.getTime() - signedInAt < SET_PASSWORD_SIGN_IN_MS)) {
    const google = googleEnabled()
    return {
      ok: false,
      status: 403,
      message: google ? SET_PASSWORD_MESSAGES.signInAgain : SET_PASSWORD_MESSAGES.mailedLink,
      signInAgain: { google },
    }
  }
  return setFirstPassword(request, newPassword)
}
