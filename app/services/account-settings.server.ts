import {
  changePassword,
  getAuth,
  hasPassword,
  signOut,
  type AuthResult,
  type AuthUser,
} from '~/services/auth.server'
import { lockAccountChanges } from '~/data/user-admin.server'
import { deleteUserAccount, getUserProfile, setUserPhoto } from '~/data/user.server'
import type { DB } from '~/lib/db.server'
import { hitPolicy, tooManyAttemptsMessage } from '~/lib/rate-limit.server'
import type { Storage } from '~/lib/storage.server'
import { SETTINGS_MESSAGES } from '~/lib/validation/account-settings'
import { profilePhotoKey, storeProfilePhoto } from '~/lib/uploads.server'
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

/** Stores a new profile photo (UploadError for a file that is not an image) and drops the old one. */
export async function replaceProfilePhoto(
  deps: { db: DB; storage: Storage },
  userId: string,
  bytes: Buffer,
): Promise<string> {
  const stored = await storeProfilePhoto({ bytes }, { storage: deps.storage })
  const previous = await setUserPhoto(deps.db, userId, stored.url)
  await removeStoredPhoto(deps.storage, previous)
  return stored.url
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
} as const

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
    if (loss) return { refused: loss } as const
    return { refused: null, ...(await deleteUserAccount(trx, user.id)) }
  })
  if (outcome.refused)
    return {
      ok: false,
      status: 409,
      field: null,
      message:
        outcome.refused === 'admin'
          ? DELETE_ACCOUNT_MESSAGES.lastAdmin
          : DELETE_ACCOUNT_MESSAGES.lastUserManager,
    }
  // Signed out once the account is gone: a refusal above leaves the user signed in.
  const headers = await signOut(request)
  await removeStoredPhoto(deps.storage, outcome.photo)
  return { ok: true, headers }
}

/**
 * Changes the signed-in user's password. Each check of the current password counts against
 * `passwordCheckUser`, as for deleting the account: a session left open must not be a way to
 * guess it. A refusal for that is a 429 with `retryAfterSeconds`.
 */
export async function changeOwnPassword(
  request: Request,
  db: DB,
  userId: string,
  input: { currentPassword: string; newPassword: string },
): Promise<AuthResult | { ok: false; status: 429; message: string; retryAfterSeconds: number }> {
  const hit = await hitPolicy(db, 'passwordCheckUser', userId)
  if (!hit.allowed) {
    return {
      ok: false,
      status: 429,
      message: tooManyAttemptsMessage(hit.retryAfterSeconds),
      retryAfterSeconds: hit.retryAfterSeconds,
    }
  }
  return changePassword(request, input)
}
