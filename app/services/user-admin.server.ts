import crypto from 'node:crypto'
import { hashPassword } from 'better-auth/crypto'
import {
  countOtherActiveAdmins,
  lockAccountChanges,
  setPasswordHash,
  updateUserAccount,
  type UserChanges,
} from '~/data/user-admin.server'
import {
  ALL_PERMISSIONS,
  effectiveAccess,
  endUserSessions,
  getUserProfile,
  isVerifiedListedAdmin,
  type UserProfile,
} from '~/data/user.server'
import type { DB } from '~/lib/db.server'
import { enqueueJob, wakeJobRunner } from '~/lib/jobs.server'
import { USER_ADMIN_MESSAGES } from '~/lib/validation/user-admin'
import { recordAdminChange, type AuditActor } from './audit.server'
import { PASSWORD_CHANGED_BY_ADMIN_JOB } from './notifications/account-mail.server'

/**
 * What an admin does to accounts on /admin/users/:userId, with the rules that keep the shop
 * run by someone: nobody suspends their own account or takes away their own admin access, the
 * last active admin cannot be demoted or suspended, and ADMIN_EMAILS accounts stay admins.
 * Each change and its audit entry (docs/audit.md) land in one transaction; suspending ends the
 * user's sessions in it, so they are signed out on their next request.
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
  const nowAdmin = effectiveAccess(target, context.adminEmails)
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
  const losesAdmin =
    nowAdmin.isAdmin &&
    target.status === 'active' &&
    (!after.isAdmin || changes.status !== 'active')
  if (losesAdmin && (await countOtherActiveAdmins(db, target.id, context.adminEmails)) === 0) {
    return USER_ADMIN_MESSAGES.lastAdmin
  }
  return null
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
 * session of the user and queues a mail telling them.
 */
export async function resetUserPassword(
  db: DB,
  context: UserAdminContext,
  userId: string,
  password: string,
): Promise<UserAdminResult> {
  const hash = await hashPassword(password)
  const result = await db.transaction().execute(async (trx): Promise<UserAdminResult> => {
    const target = await getUserProfile(trx, userId)
    if (!target) return { ok: false, message: USER_ADMIN_MESSAGES.notFound }
    if (target.id !== context.actor.id && isVerifiedListedAdmin(target, context.adminEmails))
      return { ok: false, message: USER_ADMIN_MESSAGES.listedAdminPassword }
    await setPasswordHash(trx, userId, hash)
    const ended = await endUserSessions(trx, userId)
    await enqueueJob(trx, PASSWORD_CHANGED_BY_ADMIN_JOB, { userId })
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
