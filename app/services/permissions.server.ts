import { data, href, redirect } from 'react-router'
import type { Permission } from '~/data/user.server'
import { currentPath, getUser, type AuthUser } from './auth.server'
import { ACCESS_DENIED_TITLE, NOT_ADMIN_MESSAGE } from '~/lib/validation/auth'
import { mayConfigureShop } from '~/lib/shop-configuration'

/**
 * Guards for the admin area (enforced on the server). Every admin loader
 * and every admin action calls one, even under the guarded layout:
 *   requireAdmin(request)                          any admin
 *   requirePermission(request, 'canManageOrders')  an admin with that flag
 *   requireShopConfiguration(request)              the shop's settings and gateways
 *                                                  (docs/decisions/0019)
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

/** Why an admin without Can Manage Users may not open the shop's settings or gateways. */
const SHOP_CONFIGURATION_DENIED =
  "You don't have permission to change the shop's settings and payment gateways."

/**
 * The shop's own configuration (Settings, Gateways): for admins with Can Manage Users, the flag
 * that can already grant every other one (docs/decisions/0019). A gateway's keys decide where the
 * shop's money goes, so an admin trusted only with products or orders cannot change them.
 */
export async function requireShopConfiguration(request: Request): Promise<AuthUser> {
  const user = await requireAdmin(request)
  if (!mayConfigureShop(user.permissions)) denied(SHOP_CONFIGURATION_DENIED)
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
