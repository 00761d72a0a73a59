import { data, href, redirect } from 'react-router'
import type { Permission } from '~/data/user.server'
import { currentPath, getUser, type AuthUser } from './auth.server'
import { ACCESS_DENIED_TITLE, NOT_ADMIN_MESSAGE } from '~/lib/validation/auth'

/**
 * Guards for the admin area (enforced on the server). Every admin loader
 * and every admin action calls one, even under the guarded layout:
 *   requireAdmin(request)                          any admin
 *   requirePermission(request, 'canManageOrders')  an admin with that flag
 * ADMIN_EMAILS admins always have every permission (see effectiveAccess).
 */
export { ACCESS_DENIED_TITLE, NOT_ADMIN_MESSAGE }

const PERMISSION_MESSAGES: Record<Permission, string> = {
  canCreateProducts: "You don't have permission to manage products.",
  canManageOrders: "You don't have permission to manage orders and transactions.",
  canManageUsers: "You don't have permission to manage users.",
}

/** What the admin area's error boundary shows for a 403. */
export interface AccessDenied {
  title: typeof ACCESS_DENIED_TITLE
  message: string
}

function denied(message: string): never {
  throw data<AccessDenied>({ title: ACCESS_DENIED_TITLE, message }, { status: 403 })
}

/** Where anonymous visitors of the admin area go: home, with the login modal and a way back. */
export function adminLoginRedirect(request: Request): string {
  return `${href('/')}?login=1&redirectTo=${encodeURIComponent(currentPath(request))}`
}

export async function requireAdmin(request: Request): Promise<AuthUser> {
  const user = await getUser(request)
  if (!user) throw redirect(adminLoginRedirect(request))
  if (!user.isAdmin) denied(NOT_ADMIN_MESSAGE)
  return user
}

export async function requirePermission(
  request: Request,
  permission: Permission,
): Promise<AuthUser> {
  const user = await requireAdmin(request)
  if (!user.permissions[permission]) denied(PERMISSION_MESSAGES[permission])
  return user
}
