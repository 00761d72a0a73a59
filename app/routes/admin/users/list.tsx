import Lock from 'lucide-react/icons/lock'
import ShieldCheck from 'lucide-react/icons/shield-check'
import UserCheck from 'lucide-react/icons/user-check'
import UserPlus from 'lucide-react/icons/user-plus'
import UserX from 'lucide-react/icons/user-x'
import Users from 'lucide-react/icons/users'
import { isRouteErrorResponse, Link, useLocation } from 'react-router'
import { Badge, type BadgeTone } from '~/components/admin/badge'
import { AdminList, ListCard } from '~/components/admin/admin-list'
import { AdminErrorPage } from '~/components/admin/error-page'
import { optionsOf, SearchField, SelectField } from '~/components/admin/list-filters'
import { PageHeader } from '~/components/admin/page-header'
import { StatCard } from '~/components/admin/stat-card'
import { accountPageMeta } from '~/components/auth/messages'
import { getSiteSettings } from '~/data/settings.server'
import { listAdminUsers, userStats } from '~/data/user-admin.server'
import { effectiveAccess, isVerifiedListedAdmin } from '~/data/user.server'
import { services } from '~/lib/app-context.server'
import { shopDate, shopDateTime } from '~/lib/date-format'
import { formatRupees } from '~/lib/money'
import { pageParam, pageView } from '~/lib/paginate'
import { startOfMonthIn } from '~/lib/shop-month'
import { requirePermission } from '~/services/permissions.server'
import {
  ROLE_LABELS,
  STATUS_LABELS,
  USER_ROLES,
  USER_STATUS_VALUES,
  userFilterFromUrl,
  userFilterQuery,
  userPath,
  USERS_PATH,
  type UserStatus,
} from './filters'
import type { Route } from './+types/list'

/**
 * /admin/users (Can Manage Users): the figures (total, active, suspended, active admins, new
 * this month in the shop's time zone), search by name or e-mail, status and role filters, and a
 * page of users newest first with when they were last active, their orders and what they
 * spent. Each user opens on their own page, where an admin changes them. If the users cannot
 * be loaded, the page says so in the spec's words, inside the admin shell.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, 'canManageUsers')
  const { db, env } = services()
  const url = new URL(request.url)
  const filter = userFilterFromUrl(url)
  const settings = await getSiteSettings(db)
  const [stats, result] = await Promise.all([
    userStats(db, startOfMonthIn(new Date(), settings.timezone)),
    listAdminUsers(db, {
      search: filter.search,
      status: filter.status ?? undefined,
      role: filter.role ?? undefined,
      page: pageParam(url),
    }),
  ])
  const date = shopDateTime(settings.timezone)
  const count = new Intl.NumberFormat('en-IN')
  return {
    filter,
    stats: {
      total: count.format(stats.total),
      active: count.format(stats.active),
      suspended: count.format(stats.suspended),
      admins: count.format(stats.admins),
      newThisMonth: count.format(stats.newThisMonth),
    },
    page: pageView(result, result.total),
    users: result.users.map((user) => ({
      id: user.id,
      name: user.name,
      email: user.email,
      isAdmin: effectiveAccess(user, env.ADMIN_EMAILS).isAdmin,
      locked: isVerifiedListedAdmin(user, env.ADMIN_EMAILS),
      status: user.status,
      createdAt: user.createdAt,
      // The day is enough in the list (the user's page has the time): the table fits 1280 px.
      joined: shopDate(settings.timezone).format(new Date(user.createdAt)),
      lastActiveAt: user.lastActiveAt,
      lastActive: user.lastActiveAt ? date.format(new Date(user.lastActiveAt)) : null,
      orders: count.format(user.orderCount),
      ordersWord: user.orderCount === 1 ? 'order' : 'orders',
      spent: formatRupees(user.totalSpent),
    })),
  }
}

type ListUser = Route.ComponentProps['loaderData']['users'][number]

const STATUS_TONES: Record<UserStatus, BadgeTone> = {
  active: 'success',
  suspended: 'danger',
  inactive: 'muted',
}

function RoleBadge({ user }: { user: ListUser }) {
  if (user.locked) {
    return (
      <Badge tone="violet" icon={Lock} title="Listed in ADMIN_EMAILS: always an admin">
        Admin (locked)
      </Badge>
    )
  }
  return user.isAdmin ? <Badge tone="info">Admin</Badge> : <Badge tone="neutral">User</Badge>
}

function StatusBadge({ status }: { status: UserStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>
}

function UserLink({ user }: { user: ListUser }) {
  return (
    <Link
      to={userPath(user.id)}
      className="block max-w-64 truncate font-semibold text-brand-700 hover:underline dark:text-brand-300"
    >
      {user.name || user.email}
    </Link>
  )
}

function LastActive({ user }: { user: ListUser }) {
  return user.lastActiveAt ? (
    <time dateTime={user.lastActiveAt}>{user.lastActive}</time>
  ) : (
    <span className="text-slate-500 dark:text-slate-400">Never</span>
  )
}

export default function AdminUsers({ loaderData }: Route.ComponentProps) {
  const { filter, stats, page, users } = loaderData
  const filtered = Boolean(filter.search || filter.status || filter.role)
  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Users"
        description="Everyone with an account: find a customer, see what they bought, change their access."
      />

      <ul
        aria-label="Users at a glance"
        className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5"
      >
        <StatCard label="Total users" value={stats.total} icon={Users} />
        <StatCard label="Active" value={stats.active} icon={UserCheck} />
        <StatCard label="Suspended" value={stats.suspended} icon={UserX} />
        <StatCard label="Admins" value={stats.admins} icon={ShieldCheck} />
        <StatCard label="New this month" value={stats.newThisMonth} icon={UserPlus} />
      </ul>

      <AdminList
        label="Users"
        path={USERS_PATH}
        page={page}
        noun={{ one: 'user', many: 'users' }}
        pageHref={(n) => `${USERS_PATH}${userFilterQuery(filter, n)}`}
        filtered={filtered}
        fields={
          <>
            <SearchField
              id="user-search"
              label="Search by name or email"
              value={filter.search}
              placeholder="Name or e-mail"
            />
            <SelectField
              id="user-status"
              label="Status"
              name="status"
              value={filter.status ?? ''}
              allLabel="All statuses"
              options={optionsOf(USER_STATUS_VALUES, STATUS_LABELS)}
            />
            <SelectField
              id="user-role"
              label="Role"
              name="role"
              value={filter.role ?? ''}
              allLabel="All roles"
              options={optionsOf(USER_ROLES, ROLE_LABELS)}
            />
          </>
        }
        empty={{
          icon: Users,
          title: 'No Users Found',
          filtered: 'No user matches these filters. Try other words or all statuses and roles.',
          unfiltered: 'Users appear here as soon as someone signs up.',
        }}
        rows={users}
        rowKey={(user) => user.id}
        columns={[
          {
            label: 'User',
            cell: (user) => (
              <>
                <UserLink user={user} />
                <span className="block max-w-64 truncate text-xs text-slate-500 dark:text-slate-400">
                  {user.email}
                </span>
              </>
            ),
          },
          { label: 'Role', cell: (user) => <RoleBadge user={user} /> },
          { label: 'Status', cell: (user) => <StatusBadge status={user.status} /> },
          { label: 'Orders', align: 'right', look: 'count', cell: (user) => user.orders },
          { label: 'Total spent', align: 'right', look: 'amount', cell: (user) => user.spent },
          {
            label: 'Joined',
            look: 'line',
            cell: (user) => <time dateTime={user.createdAt}>{user.joined}</time>,
          },
          { label: 'Last active', look: 'line', cell: (user) => <LastActive user={user} /> },
        ]}
        card={(user) => (
          <ListCard
            title={<UserLink user={user} />}
            detail={
              <p className="truncate text-sm text-slate-600 dark:text-slate-300">{user.email}</p>
            }
            amount={user.spent}
          >
            <div className="mt-2 flex flex-wrap items-center gap-1">
              <RoleBadge user={user} />
              <StatusBadge status={user.status} />
            </div>
            <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
              {user.orders} {user.ordersWord} · Joined{' '}
              <time dateTime={user.createdAt}>{user.joined}</time> · Last active{' '}
              <LastActive user={user} />
            </p>
          </ListCard>
        )}
      />
    </div>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Users')
}

/** The spec's error catalogue, "Fetch users". */
const FETCH_FAILED = 'Failed to fetch users. Please try again.'

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { search } = useLocation()
  // A 403 belongs to the admin layout's Access Denied page.
  if (isRouteErrorResponse(error) && error.status === 403) throw error
  return (
    <AdminErrorPage
      icon={Users}
      title="Something went wrong"
      // The same list (filters and page kept): loading it again is the retry.
      backTo={`${USERS_PATH}${search}`}
      backLabel="Try again"
    >
      {FETCH_FAILED}
    </AdminErrorPage>
  )
}
