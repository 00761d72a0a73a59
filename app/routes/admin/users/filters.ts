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

/** A user's page; `ordersPage` (the page of their orders list) is kept when above 1. */
export const userPath = (id: string, ordersPage = 1) =>
  `${USERS_PATH}/${encodeURIComponent(id)}${ordersPage > 1 ? `?page=${ordersPage}` : ''}`

/** The orders page a user's page was opened at (`?page=`), 1 when absent or not a number. */
export function ordersPageOf(url: URL): number {
  const page = Number.parseInt(url.searchParams.get('page') ?? '1', 10)
  return page > 1 ? page : 1
}

/**
 * The query that shows one of a user's forms in their page rather than in its dialog, so Edit
 * User and Reset Password work without JavaScript (docs/decisions/0001): their buttons send it.
 */
export const USER_FORM_QUERY = { update: 'edit', 'reset-password': 'reset' } as const
export type UserFormIntent = keyof typeof USER_FORM_QUERY

export const userFormPath = (id: string, intent: UserFormIntent, ordersPage = 1) =>
  `${userPath(id)}?${USER_FORM_QUERY[intent]}=1${ordersPage > 1 ? `&page=${ordersPage}` : ''}`

/** The form a user's page shows in the page, if its URL asks for one. */
export function userFormFromUrl(url: URL): UserFormIntent | null {
  const intents = Object.keys(USER_FORM_QUERY) as UserFormIntent[]
  return intents.find((intent) => url.searchParams.get(USER_FORM_QUERY[intent]) === '1') ?? null
}

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
