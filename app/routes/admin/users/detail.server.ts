import type { SubmissionResult } from '@conform-to/react'
import { data, redirect } from 'react-router'
import { listCustomerOrders } from '~/data/customer-orders.server'
import { getSiteSettings } from '~/data/settings.server'
import { getAdminUser } from '~/data/user-admin.server'
import { effectiveAccess, isVerifiedListedAdmin } from '~/data/user.server'
import { services } from '~/lib/app-context.server'
import { shopDateTime } from '~/lib/date-format'
import type { DB } from '~/lib/db.server'
import type { Env } from '~/lib/env.server'
import { flashHeaders } from '~/lib/flash.server'
import { readFormData } from '~/lib/form-data.server'
import { formatRupees } from '~/lib/money'
import { clientIp } from '~/lib/rate-limit.server'
import { parseSubmission } from '~/lib/validation/submission'
import { userActionSchema, type UserActionIntent } from '~/lib/validation/user-admin'
import { requirePermission } from '~/services/permissions.server'
import {
  changeUser,
  editVersion,
  resetUserPassword,
  type UserAdminResult,
} from '~/services/user-admin.server'
import { ordersPageOf, USER_NOT_FOUND_TITLE, userPath } from './filters'
import type { Route } from './+types/detail'

/**
 * One user's page: their account, sign-in facts and orders (dates in the shop's time zone),
 * and its one action for every change (`userActionSchema`: edit, reset password, Make Admin,
 * Suspend, Reactivate). Make Admin, Suspend and Reactivate are confirmed first (the dialog, or a
 * second step on the page without JavaScript). A done change redirects back with a one-time
 * message; a refused edit or reset answers 400 with "Failed to ...: {reason}" in its form (its
 * dialog, or the page at `?edit=1` or `?reset=1` it was posted from without JavaScript).
 */
export type UserActionData =
  | { intent: UserActionIntent; step: 'confirm' }
  | { intent: UserActionIntent; step: 'error'; result: SubmissionResult<string[]> }

export async function userPageData(
  db: DB,
  env: Env,
  userId: string,
  viewerId: string,
  page: number,
) {
  const user = await getAdminUser(db, userId)
  if (!user) return null
  const [settings, orders] = await Promise.all([
    getSiteSettings(db),
    listCustomerOrders(db, userId, { page }),
  ])
  const date = shopDateTime(settings.timezone)
  const when = (iso: string | null) => (iso ? date.format(new Date(iso)) : null)
  const access = effectiveAccess(user, env.ADMIN_EMAILS)
  return {
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      role: user.role,
      isAdmin: access.isAdmin,
      locked: isVerifiedListedAdmin(user, env.ADMIN_EMAILS),
      status: user.status,
      permissions: user.permissions,
      joined: when(user.createdAt)!,
      lastActive: when(user.lastActiveAt),
      orders: new Intl.NumberFormat('en-IN').format(user.orderCount),
      spent: formatRupees(user.totalSpent),
      sessions: user.sessions,
      signIn: [
        ...(user.hasPassword ? ['E-mail and password'] : []),
        ...user.providers
          .filter((provider) => provider !== 'credential')
          .map((p) => (p === 'google' ? 'Google' : p)),
      ],
      version: editVersion(user),
      self: user.id === viewerId,
    },
    orders: {
      page: orders.page,
      pageCount: orders.pageCount,
      total: orders.total,
      rows: orders.orders.map((order) => ({
        id: order.id,
        productName: order.productName,
        amount: formatRupees(order.amount),
        status: order.status,
        createdAt: order.createdAt,
        date: when(order.createdAt)!,
      })),
    },
  }
}

const UNEXPECTED_FAILURE = 'Something went wrong; nothing was changed. Please try again.'

/**
 * What an edit or a password reset that failed says in its form (other changes have none:
 * they go back to the page with a message). A refusal gives its reason ("Failed to update
 * user: You cannot suspend your own account"); an unexpected error, which has none, the spec's
 * words: 'Failed to update user: Please try again.', 'Failed to reset password. Please try
 * again.'.
 */
export function failedMessage(intent: UserActionIntent, reason: string | null): string | null {
  switch (intent) {
    case 'update':
      return `Failed to update user: ${reason ?? 'Please try again.'}`
    case 'reset-password':
      return reason === null
        ? 'Failed to reset password. Please try again.'
        : `Failed to reset password: ${reason}`
    default:
      return null
  }
}

/** Never sent back to the page. */
const PASSWORD_FIELDS = ['password', 'confirmPassword']

export async function userAction({ request, params, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, 'canManageUsers')
  const { db, env } = services()
  const userId = params.userId
  const form = await readFormData(request)
  const submission = parseSubmission(form, userActionSchema)
  const intent = form.get('intent')
  if (submission.status !== 'success') {
    const known = ['update', 'reset-password', 'make-admin', 'suspend', 'reactivate'].includes(
      String(intent),
    )
    if (!known) throw data('Unknown action', { status: 400 })
    return data<UserActionData>(
      {
        intent: intent as UserActionIntent,
        step: 'error',
        result: submission.reply({ hideFields: PASSWORD_FIELDS }),
      },
      { status: 400 },
    )
  }
  if (!(await getAdminUser(db, userId)))
    throw data({ title: USER_NOT_FOUND_TITLE }, { status: 404 })
  const input = submission.value
  const ctx = {
    actor: { id: admin.id, name: admin.name, email: admin.email },
    ip: clientIp(context),
    adminEmails: env.ADMIN_EMAILS,
  }

  let result: UserAdminResult
  // An unexpected error (not a refusal with a reason of its own).
  let unexpected = false
  try {
    switch (input.intent) {
      case 'update':
        result = await changeUser(db, ctx, userId, 'update', {
          version: input.version,
          name: input.name,
          role: input.role,
          status: input.status,
          permissions: {
            canCreateProducts: input.canCreateProducts,
            canManageOrders: input.canManageOrders,
            canManageUsers: input.canManageUsers,
          },
        })
        break
      case 'reset-password':
        result = await resetUserPassword(db, ctx, userId, input.password)
        break
      default:
        if (input.confirmed !== 'yes')
          return data<UserActionData>({ intent: input.intent, step: 'confirm' })
        result = await changeUser(db, ctx, userId, input.intent)
    }
  } catch (error) {
    console.error(`[admin] user action ${input.intent} on ${userId} failed:`, error)
    unexpected = true
    result = { ok: false, message: UNEXPECTED_FAILURE }
  }

  const failed = result.ok ? null : failedMessage(input.intent, unexpected ? null : result.message)
  if (failed) {
    return data<UserActionData>(
      {
        intent: input.intent,
        step: 'error',
        result: submission.reply({
          formErrors: [failed],
          hideFields: PASSWORD_FIELDS,
        }),
      },
      { status: 400 },
    )
  }
  throw redirect(userPath(userId, ordersPageOf(new URL(request.url))), {
    status: 303,
    headers: await flashHeaders(result.ok ? 'success' : 'error', result.message),
  })
}
