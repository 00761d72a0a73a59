import { sql, type ExpressionBuilder } from 'kysely'
import type { Database } from '../../db/schema'
import type { DB } from '~/lib/db.server'
import { engineOf, toFlag } from '~/lib/db.server'
import { newId } from '~/lib/id.server'
import { SEARCH_MAX } from '~/lib/list-search'
import { paginate, type Pagination } from '~/lib/paginate'
import { containsAny } from '~/lib/sql-contains'
import { PAID_STATUSES, processedRefunds } from './order.server'
import {
  effectiveAccess,
  endUserSessions,
  getUserProfile,
  profileColumns,
  toUserProfile,
  type Permissions,
  type Role,
  type UserProfile,
  type UserStatus,
} from './user.server'

/**
 * The back office's view of accounts (/admin/users): the figures at the top, the paged list
 * with each user's orders and spending, one user's page, and the changes an admin makes.
 * Order figures count the user's own orders by the rule of My Orders and the customer
 * dashboard (`ownedBy` in app/data/customer-orders.server.ts: placed while signed in, or as a
 * guest with the account's address once it is verified), real ones (no simulated payment) that
 * count as sales (PAID_STATUSES: paid, delivered, awaiting stock); "spent" sums what was paid
 * for them less what processed refunds gave back (`processedRefunds` in
 * app/data/order.server.ts, as the dashboard's revenue).
 */
export const USERS_PAGE_SIZE = 20

export interface UserStats {
  total: number
  active: number
  suspended: number
  admins: number
  newThisMonth: number
}

/**
 * The figures at the top of /admin/users; `monthStart` is the instant the shop's month began.
 * Admins are the active ones: a suspended or inactive admin has no back-office access and does
 * not count for the last-admin rules either (docs/admin.md, "Users and the audit log").
 */
export async function userStats(db: DB, monthStart: Date): Promise<UserStats> {
  const since = monthStart.toISOString()
  const row = await db
    .selectFrom('user')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('total'),
      eb.fn
        .sum<number | string | null>(sql`case when status = 'active' then 1 else 0 end`)
        .as('active'),
      eb.fn
        .sum<number | string | null>(sql`case when status = 'suspended' then 1 else 0 end`)
        .as('suspended'),
      eb.fn
        .sum<number | string | null>(
          sql`case when role = 'admin' and status = 'active' then 1 else 0 end`,
        )
        .as('admins'),
      // Compared as a timestamp on PostgreSQL (timestamptz) and as ISO text on SQLite.
      eb.fn
        .sum<number | string | null>(sql`case when created_at >= ${since} then 1 else 0 end`)
        .as('newThisMonth'),
    ])
    .executeTakeFirstOrThrow()
  return {
    total: Number(row.total),
    active: Number(row.active ?? 0),
    suspended: Number(row.suspended ?? 0),
    admins: Number(row.admins ?? 0),
    newThisMonth: Number(row.newThisMonth ?? 0),
  }
}

export interface UserFilter {
  search?: string
  status?: UserStatus
  role?: Role
}

export interface OrderTotals {
  /** The user's real paid orders (paid, delivered, awaiting stock). */
  orderCount: number
  /** Paise paid for those orders, less what processed refunds of them gave back. */
  totalSpent: number
}

export interface AdminUserRow extends UserProfile, OrderTotals {}

function filteredUsers(db: DB, filter: UserFilter) {
  let query = db.selectFrom('user')
  const search = filter.search?.trim().slice(0, SEARCH_MAX)
  if (search) query = query.where(containsAny([sql`lower(name)`, sql`email`], search))
  if (filter.status) query = query.where('status', '=', filter.status)
  if (filter.role) query = query.where('role', '=', filter.role)
  return query
}

/**
 * A real sale (no simulated payment, PAID_STATUSES). Also the rule of the customer's own
 * dashboard figures (Total spent, Total saved: app/data/customer-orders.server.ts and
 * app/data/customer-overview.server.ts).
 */
export const realSale = (eb: ExpressionBuilder<Database, 'order'>) =>
  eb.and([eb('order.testMode', '=', toFlag(false)), eb('order.status', 'in', PAID_STATUSES)])

/** Paise kept of an order: what was paid, less what processed refunds gave back. */
export function keptOf(db: DB, eb: ExpressionBuilder<Database, 'order'>) {
  const refunded = processedRefunds(db)
    .select((inner) => inner.fn.sum<number | string | null>('orderRefund.amount').as('sum'))
    .where('orderRefund.orderId', '=', eb.ref('order.id'))
  return sql<number>`${eb.fn.coalesce('order.paidAmount', 'order.amount')} - coalesce((${refunded}), 0)`
}

/**
 * Order count and spending of each user (see the top of this file), one query: the orders
 * placed while signed in (`order_user_id_idx`) and the guest orders placed with a verified
 * address of one of these users (`order_customer_email_idx`), the rule of `ownedBy` for many
 * users at once; each order's processed refunds through `order_refund_order_idx`.
 */
export async function orderTotalsOf(
  db: DB,
  userIds: readonly string[],
): Promise<Map<string, OrderTotals>> {
  const totals = new Map<string, OrderTotals>()
  if (userIds.length === 0) return totals
  const owners = [...userIds]
  const signedIn = db
    .selectFrom('order')
    .select((eb) => [sql<string>`${eb.ref('order.userId')}`.as('owner'), keptOf(db, eb).as('kept')])
    .where('order.userId', 'in', owners)
    .where(realSale)
  // CROSS JOIN, the join's condition in WHERE: the same inner join, which SQLite runs from these
  // users (by key) to their address's orders, not from every guest order to its address.
  const asGuest = db
    .selectFrom('user')
    .crossJoin('order')
    .whereRef('order.customerEmail', '=', 'user.email')
    .select((eb) => [sql<string>`${eb.ref('user.id')}`.as('owner'), keptOf(db, eb).as('kept')])
    .where('order.userId', 'is', null)
    .where('user.id', 'in', owners)
    .where('user.emailVerified', '=', toFlag(true))
    .where(realSale)
  const rows = await db
    .selectFrom(signedIn.unionAll(asGuest).as('owned'))
    .select((eb) => [
      'owned.owner',
      eb.fn.countAll<number | string>().as('orderCount'),
      eb.fn.sum<number | string | null>('owned.kept').as('totalSpent'),
    ])
    .groupBy('owned.owner')
    .execute()
  for (const row of rows) {
    totals.set(row.owner, {
      orderCount: Number(row.orderCount),
      totalSpent: Number(row.totalSpent ?? 0),
    })
  }
  return totals
}

/** One page of users, newest first, with their orders and spending. */
export async function listAdminUsers(
  db: DB,
  filter: UserFilter & { page?: number; pageSize?: number } = {},
): Promise<{ users: AdminUserRow[]; total: number } & Pagination> {
  const counted = await filteredUsers(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow()
  const total = Number(counted.total)
  const pagination = paginate(total, filter, { defaultSize: USERS_PAGE_SIZE, maxSize: 100 })
  const rows = await filteredUsers(db, filter)
    .select(profileColumns)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(pagination.pageSize)
    .offset(pagination.offset)
    .execute()
  const totals = await orderTotalsOf(
    db,
    rows.map((row) => row.id),
  )
  return {
    users: rows.map((row) => ({
      ...toUserProfile(row),
      ...(totals.get(row.id) ?? { orderCount: 0, totalSpent: 0 }),
    })),
    total,
    ...pagination,
  }
}

/** One user with their figures and sign-in facts, or null. */
export async function getAdminUser(
  db: DB,
  userId: string,
): Promise<
  (AdminUserRow & { sessions: number; hasPassword: boolean; providers: string[] }) | null
> {
  const profile = await getUserProfile(db, userId)
  if (!profile) return null
  const [totals, sessions, accounts] = await Promise.all([
    orderTotalsOf(db, [userId]),
    db
      .selectFrom('session')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('userId', '=', userId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('account')
      .select(['providerId', 'password'])
      .where('userId', '=', userId)
      .execute(),
  ])
  return {
    ...profile,
    ...(totals.get(userId) ?? { orderCount: 0, totalSpent: 0 }),
    sessions: Number(sessions.count),
    hasPassword: accounts.some(
      (account) => account.providerId === 'credential' && Boolean(account.password),
    ),
    providers: accounts.map((account) => account.providerId),
  }
}

/** The advisory lock key for changes to accounts (any number unique in this app). */
const ACCOUNT_CHANGES_LOCK = 4_310_001

/**
 * On PostgreSQL, one change to accounts at a time (call inside the change's transaction): "the
 * last active admin" is counted, then written, and two admins suspending each other at once
 * under READ COMMITTED would each count the other as still active. SQLite runs one writing
 * transaction at a time already.
 */
export async function lockAccountChanges(trx: DB): Promise<void> {
  if (engineOf(trx) === 'postgres')
    await sql`select pg_advisory_xact_lock(${ACCOUNT_CHANGES_LOCK})`.execute(trx)
}

/**
 * What the active admins other than `exceptId` may do (stored role, or a verified ADMIN_EMAILS
 * address; their effective permissions). Admins are few, so the rows are read and judged by
 * `effectiveAccess`.
 */
export async function otherActiveAdmins(
  db: DB,
  exceptId: string,
  adminEmails: readonly string[],
): Promise<Permissions[]> {
  const rows = await db
    .selectFrom('user')
    .select(profileColumns)
    .where('status', '=', 'active')
    .where('id', '<>', exceptId)
    .where((eb) =>
      adminEmails.length
        ? eb.or([eb('role', '=', 'admin'), eb('email', 'in', [...adminEmails])])
        : eb('role', '=', 'admin'),
    )
    .execute()
  return rows
    .map((row) => effectiveAccess(toUserProfile(row), adminEmails))
    .filter((access) => access.isAdmin)
    .map((access) => access.permissions)
}

export interface UserChanges {
  name: string
  role: Role
  status: UserStatus
  permissions: Permissions
}

/** Writes an admin's change to a user; suspending ends their sessions (same transaction). */
export async function updateUserAccount(
  db: DB,
  userId: string,
  changes: UserChanges,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable('user')
    .set({
      name: changes.name,
      role: changes.role,
      status: changes.status,
      canCreateProducts: toFlag(changes.permissions.canCreateProducts),
      canManageOrders: toFlag(changes.permissions.canManageOrders),
      canManageUsers: toFlag(changes.permissions.canManageUsers),
      updatedAt: now.toISOString(),
    })
    .where('id', '=', userId)
    .execute()
  if (changes.status === 'suspended') await endUserSessions(db, userId)
}

/**
 * Stores a password hash (made by better-auth's hasher, so sign-in verifies it) as the user's
 * e-mail + password login, adding that login when they had only Google.
 */
export async function setPasswordHash(
  db: DB,
  userId: string,
  hash: string,
  now = new Date(),
): Promise<void> {
  const at = now.toISOString()
  const result = await db
    .updateTable('account')
    .set({ password: hash, updatedAt: at })
    .where('userId', '=', userId)
    .where('providerId', '=', 'credential')
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) > 0) return
  await db
    .insertInto('account')
    .values({
      id: newId(),
      accountId: userId,
      providerId: 'credential',
      userId,
      accessToken: null,
      refreshToken: null,
      idToken: null,
      accessTokenExpiresAt: null,
      refreshTokenExpiresAt: null,
      scope: null,
      password: hash,
      createdAt: at,
      updatedAt: at,
    })
    .execute()
}
