import { href } from 'react-router'
import { searchParam } from '~/lib/list-search'
import { listQuery } from '../list-query'

/**
 * The user list's filters live in the URL (?q=&status=&role=&page=), so a filtered list can be
 * bookmarked and the back button works. Anything else in the URL is ignored.
 */
// The same values as app/data/user.server.ts (this file is shared with the browser).
export const USER_ROLES = ['user', 'admin'] as const
export type Role = (typeof USER_ROLES)[number]
export const USER_STATUS_VALUES = ['active', 'suspended', 'inactive'] as const
export type UserStatus = (typeof USER_STATUS_VALUES)[number]

export const USERS_PATH = href('/admin/users')
export const USER_NOT_FOUND_TITLE = 'User not found'

export const userPath = (id: string) => `${USERS_PATH}/${encodeURIComponent(id)}`

export interface UserListFilter {
  search: string
  status: UserStatus | null
  role: Role | null
}

export function userFilterFromUrl(url: URL): UserListFilter {
  const status = url.searchParams.get('status')
  const role = url.searchParams.get('role')
  return {
    search: searchParam(url),
    status: (USER_STATUS_VALUES as readonly string[]).includes(status ?? '')
      ? (status as UserStatus)
      : null,
    role: (USER_ROLES as readonly string[]).includes(role ?? '') ? (role as Role) : null,
  }
}

/** The query string for a filter (and page); empty values are left out. */
export function userFilterQuery(filter: Partial<UserListFilter>, page = 1): string {
  const { search: q, status, role } = filter
  return listQuery({ q, status, role }, page)
}

export const ROLE_LABELS: Record<Role, string> = { user: 'User', admin: 'Admin' }

export const STATUS_LABELS: Record<UserStatus, string> = {
  active: 'Active',
  suspended: 'Suspended',
  inactive: 'Inactive',
}
