import crypto from 'node:crypto'
import { hashPassword } from 'better-auth/crypto'
import {
  lockAccountChanges,
  otherActiveAdmins,
  setPasswordHash,
  updateUserAccount,
  type UserChanges,
} from '~/data/user-admin.server'
import {
  ALL_PERMISSIONS,
  effectiveAccess,
  endUserSessions,
  forgetResetTokens,
  getUserProfile,
  isVerifiedListedAdmin,
  type UserProfile,
} from '~/data/user.server'
import type { DB } from '~/lib/db.server'
import { wakeJobRunner } from '~/lib/jobs.server'
import { enqueueMailJob } from '~/lib/mail.server'
import { USER_ADMIN_MESSAGES } from '~/lib/validation/user-admin'
import { recordAdminChange, type AuditActor } from './audit.server'
import { PASSWORD_CHANGED_BY_ADMIN_JOB } from './notifications/account-mail.server'

/**
 * What an admin does to accounts on /admin/users/:userId, with the rules that keep the shop
 * run by someone: nobody suspends their own account or takes away their own admin access, the
 * last active admin cannot be demoted or suspended, nor the last active admin who can manage
 * users lose that (lastAdminLoss, also applied when an admin deletes their own account), and
 * ADMIN_EMAILS accounts stay admins. Each change and its audit entry (docs/audit.md) land in one
 * transaction; suspending ends the user's sessions in it, so they are signed out on their next
 * request.
 */
export type UserAdminResult = { ok: true; message: string } | { ok: false; message: string }

export interface UserAdminContext {
  actor: AuditActor
  ip: string | null
  adminEmails: readonly string[]
}

export type UserChangeKind = 'update' | 'make-admin' | 'suspend' | 'reactivate'

const ACTIONS: Record<UserChangeKind, string> = {
  update: 'user.update',
  'make-admin': 'user.make-admin',
  suspend: 'user.suspend',
  reactivate: 'user.reactivate',
}

export const displayName = (user: Pick<UserProfile, 'name' | 'email'>) => user.name || user.email

function auditView(user: Pick<UserProfile, 'name' | 'role' | 'status' | 'permissions'>) {
  return { name: user.name, role: user.role, status: user.status, ...user.permissions }
}

/** Whether an account stays, after a change, an active admin, and one who can manage users. */
interface AccessAfter {
  isAdmin: boolean
  canManageUsers: boolean
}

/**
 * Whether a change to `target` (demoting, suspending, taking away Can Manage Users, deleting the
 * account) would leave the shop without an active admin ('admin'), or without an active admin
 * who can manage users ('user-manager'): nobody could then give those rights back from the
 * back office. Null when the change leaves both. Call it after lockAccountChanges, in the
 * transaction that makes the change, so two changes at once cannot both count the other's
 * account as still there.
 */
export async function lastAdminLoss(
  db: DB,
  target: UserProfile,
  after: AccessAfter,
  adminEmails: readonly string[],
): Promise<'admin' | 'user-manager' | null> {
  if (target.status !== 'active') return null
  const now = effectiveAccess(target, adminEmails)
  const losesAdmin = now.isAdmin && !after.isAdmin
  const losesUserManager = now.isAdmin && now.permissions.canManageUsers && !after.canManageUsers
  if (!losesAdmin && !losesUserManager) return null
  const others = await otherActiveAdmins(db, target.id, adminEmails)
  if (losesAdmin && others.length === 0) return 'admin'
  if (losesUserManager && !others.some((permissions) => permissions.canManageUsers))
    return 'user-manager'
  return null
}

/** Why this change may not be made, or null when it may. */
async function refusal(
  db: DB,
  context: UserAdminContext,
  target: UserProfile,
  changes: UserChanges,
): Promise<string | null> {
  const self = target.id === context.actor.id
  if (self && changes.status !== 'active') return USER_ADMIN_MESSAGES.selfSuspend
  const listed = isVerifiedListedAdmin(target, context.adminEmails)
  // The shop's configured owners: nobody else locks them out.
  if (listed && target.status === 'active' && changes.status !== 'active')
    return USER_ADMIN_MESSAGES.listedAdminStatus
  const after = effectiveAccess(
    { ...target, role: changes.role, permissions: changes.permissions },
    context.adminEmails,
  )
  if (
    listed &&
    (changes.role !== 'admin' || Object.values(changes.permissions).some((flag) => !flag))
  ) {
    return USER_ADMIN_MESSAGES.listedAdmin
  }
  if (self && (!after.isAdmin || !after.permissions.canManageUsers))
    return USER_ADMIN_MESSAGES.selfDemote
  const active = changes.status === 'active'
  const loss = await lastAdminLoss(
    db,
    target,
    {
      isAdmin: active && after.isAdmin,
      canManageUsers: active && after.isAdmin && after.permissions.canManageUsers,
    },
    context.adminEmails,
  )
  if (loss === 'admin') return USER_ADMIN_MESSAGES.lastAdmin
  if (loss === 'user-manager') return USER_ADMIN_MESSAGES.lastUserManager
  return null
}

/**
 * Whether the acting admin may still manage users, read in the change's transaction: the
 * route checked it when the request came in, and another admin may have suspended them or
 * taken away Can Manage Users since.
 */
async function actorMayManageUsers(db: DB, context: UserAdminContext): Promise<boolean> {
  const actor = await getUserProfile(db, context.actor.id)
  return (
    actor !== null &&
    actor.status === 'active' &&
    effectiveAccess(actor, context.adminEmails).permissions.canManageUsers
  )
}

function summaryOf(kind: UserChangeKind, user: UserProfile): string {
  const who = `${displayName(user)} (${user.email})`
  switch (kind) {
    case 'make-admin':
      return `Made ${who} an admin with every permission`
    case 'suspend':
      return `Suspended ${who}`
    case 'reactivate':
      return `Reactivated ${who}`
    case 'update':
      return `Updated ${who}`
  }
}

/** An edit from the dialog, with the editVersion of the account its page showed. */
export interface UserEdit extends UserChanges {
  version: string
}

/**
 * What the Edit User dialog shows of an account (name, role, status, permissions), as a short
 * fingerprint: an edit made from a page showing other values is refused. Not `updated_at`, which
 * every sign-in of the user moves.
 */
export function editVersion(
  user: Pick<UserProfile, 'name' | 'role' | 'status' | 'permissions'>,
): string {
  const { canCreateProducts, canManageOrders, canManageUsers } = user.permissions
  return crypto
    .createHash('sha256')
    .update(
      JSON.stringify([
        user.name,
        user.role,
        user.status,
        canCreateProducts,
        canManageOrders,
        canManageUsers,
      ]),
    )
    .digest('base64url')
    .slice(0, 16)
}

/**
 * Applies an edit, Make Admin, Suspend or Reactivate, if the rules allow it. An edit made over
 * a change saved since its page was loaded is refused rather than undoing that change.
 */
export async function changeUser(
  db: DB,
  context: UserAdminContext,
  userId: string,
  kind: UserChangeKind,
  edit?: UserEdit,
): Promise<UserAdminResult> {
  return db.transaction().execute(async (trx) => {
    await lockAccountChanges(trx)
    const target = await getUserProfile(trx, userId)
    if (!target) return { ok: false, message: USER_ADMIN_MESSAGES.notFound }
    if (edit && edit.version !== editVersion(target))
      return { ok: false, message: USER_ADMIN_MESSAGES.staleEdit }
    const current: UserChanges = {
      name: target.name,
      role: target.role,
      status: target.status,
      permissions: target.permissions,
    }
    const changes: UserChanges =
      kind === 'make-admin'
        ? { ...current, role: 'admin', permissions: { ...ALL_PERMISSIONS } }
        : kind === 'suspend'
          ? { ...current, status: 'suspended' }
          : kind === 'reactivate'
            ? { ...current, status: 'active' }
            : edit
              ? {
                  name: edit.name,
                  role: edit.role,
                  status: edit.status,
                  permissions: edit.permissions,
                }
              : current
    const refused = await refusal(trx, context, target, changes)
    if (refused) return { ok: false, message: refused }
    if (!(await actorMayManageUsers(trx, context)))
      return { ok: false, message: USER_ADMIN_MESSAGES.notAllowed }
    // Permissions mean nothing without the admin role: a user keeps none.
    const stored =
      changes.role === 'admin'
        ? changes
        : {
            ...changes,
            permissions: {
              ...changes.permissions,
              canCreateProducts: false,
              canManageOrders: false,
              canManageUsers: false,
            },
          }
    await updateUserAccount(trx, userId, stored)
    const after = { ...target, ...stored }
    await recordAdminChange(trx, {
      actor: context.actor,
      ip: context.ip,
      action:
        stored.status === 'suspended' && target.status !== 'suspended'
          ? ACTIONS.suspend
          : ACTIONS[kind],
      target: { type: 'user', id: userId },
      summary: summaryOf(kind, after),
      before: auditView(target),
      after: auditView(after),
    })
    const name = displayName(after)
    switch (kind) {
      case 'make-admin':
        return { ok: true, message: `${name} is now an admin with every permission` }
      case 'suspend':
        return { ok: true, message: `${name} has been suspended and signed out` }
      case 'reactivate':
        return { ok: true, message: `${name} has been reactivated` }
      case 'update':
        return { ok: true, message: `User ${name} updated successfully` }
    }
  })
}

/**
 * Sets a new password (hashed by better-auth's own hasher, so sign-in verifies it), ends every
 * session of the user and queues a mail telling them. Like changeUser, refused when the acting
 * admin was suspended or lost Can Manage Users after the route checked them.
 */
export async function resetUserPassword(
  db: DB,
  context: UserAdminContext,
  userId: string,
  password: string,
): Promise<UserAdminResult> {
  const hash = await hashPassword(password)
  const result = await db.transaction().execute(async (trx): Promise<UserAdminResult> => {
    await lockAccountChanges(trx)
    const target = await getUserProfile(trx, userId)
    if (!target) return { ok: false, message: USER_ADMIN_MESSAGES.notFound }
    if (target.id !== context.actor.id && isVerifiedListedAdmin(target, context.adminEmails))
      return { ok: false, message: USER_ADMIN_MESSAGES.listedAdminPassword }
    if (!(await actorMayManageUsers(trx, context)))
      return { ok: false, message: USER_ADMIN_MESSAGES.notAllowed }
    await setPasswordHash(trx, userId, hash)
    // A reset link mailed before must not replace the password the admin set (docs/auth.md).
    await forgetResetTokens(trx, userId)
    const ended = await endUserSessions(trx, userId)
    await enqueueMailJob(trx, PASSWORD_CHANGED_BY_ADMIN_JOB, { userId })
    await recordAdminChange(trx, {
      actor: context.actor,
      ip: context.ip,
      action: 'user.reset-password',
      target: { type: 'user', id: userId },
      summary: `Set a new password for ${displayName(target)} (${target.email}) and ended ${ended} session${ended === 1 ? '' : 's'}`,
      before: { password: 'old' },
      after: { password: 'new' },
    })
    return {
      ok: true,
      message: `Password of ${displayName(target)} reset; they have been signed out everywhere`,
    }
  })
  if (result.ok) wakeJobRunner()
  return result
}
