import ShoppingBag from 'lucide-react/icons/shopping-bag'
import Shield from 'lucide-react/icons/shield'
import { Link } from 'react-router'
import { displayName } from '~/components/auth/logout-button'
import { accountPageMeta } from '~/components/auth/messages'
import { CustomerOrderList, customerOrderItem } from '~/components/orders/customer-order-list'
import { customerOrderStats, listCustomerOrders } from '~/data/customer-orders.server'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { requireUser } from '~/lib/auth.server'
import { shopDateTime } from '~/lib/date-format'
import { formatRupees } from '~/lib/money'
import type { Route } from './+types/dashboard'

const RECENT_ORDERS = 5

/** The customer's dashboard: figures and recent orders from their own orders (no samples). */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const { db } = services()
  const [stats, recent, settings] = await Promise.all([
    customerOrderStats(db, user.id),
    listCustomerOrders(db, user.id, { pageSize: RECENT_ORDERS }),
    getSiteSettings(db),
  ])
  const when = shopDateTime(settings.timezone)
  return {
    user: { name: user.name, email: user.email, isAdmin: user.isAdmin, createdAt: user.createdAt },
    stats: {
      purchases: stats.purchases,
      spent: formatRupees(stats.spent),
      inProgress: stats.inProgress,
    },
    recentOrders: recent.orders.map((order) => customerOrderItem(order, when)),
    moreOrders: recent.total > RECENT_ORDERS,
  }
}

function Stat({ label, value, hint }: { label: string; value: string; hint: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900">
      <dt className="text-sm font-medium text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tracking-tight text-slate-950 dark:text-white">
        {value}
      </dd>
      <dd className="mt-1 text-xs text-slate-600 dark:text-slate-400">{hint}</dd>
    </div>
  )
}

const memberSince = (iso: string) =>
  new Intl.DateTimeFormat('en-IN', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Asia/Kolkata',
  }).format(new Date(iso))

export default function CustomerDashboard({ loaderData }: Route.ComponentProps) {
  const { user, stats, recentOrders, moreOrders } = loaderData
  return (
    <div className="mx-auto max-w-4xl space-y-8">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-950 sm:text-3xl dark:text-white">
          Welcome back, {displayName(user)}!
        </h1>
        <p className="mt-1 text-slate-600 dark:text-slate-300">Your account at a glance.</p>
      </div>

      <section aria-labelledby="figures">
        <h2 id="figures" className="sr-only">
          Your purchases
        </h2>
        <dl className="grid gap-4 sm:grid-cols-3">
          <Stat
            label="Purchases"
            value={String(stats.purchases)}
            hint="Orders with a confirmed payment"
          />
          <Stat label="Total spent" value={stats.spent} hint="Refunds excluded" />
          <Stat
            label="Waiting for delivery"
            value={String(stats.inProgress)}
            hint="Paid orders still being prepared"
          />
        </dl>
      </section>

      <section aria-labelledby="recent-orders" className="space-y-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="recent-orders" className="text-lg font-semibold text-slate-900 dark:text-white">
            Recent orders
          </h2>
          {recentOrders.length > 0 ? (
            <Link
              to="/dashboard/orders"
              className="text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300"
            >
              {moreOrders ? 'View all orders' : 'Go to My Orders'}
            </Link>
          ) : null}
        </div>
        {recentOrders.length > 0 ? (
          <CustomerOrderList orders={recentOrders} />
        ) : (
          <p className="rounded-2xl border border-dashed border-slate-300 bg-white px-5 py-6 text-sm text-slate-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-300">
            You have not ordered anything yet while signed in. Your orders will appear here.
          </p>
        )}
      </section>

      <section aria-labelledby="quick-actions" className="space-y-3">
        <h2 id="quick-actions" className="text-lg font-semibold text-slate-900 dark:text-white">
          Quick actions
        </h2>
        <div className="flex flex-wrap gap-3">
          <Link
            to="/"
            className="inline-flex h-11 items-center gap-2 rounded-xl bg-brand-600 px-4 font-semibold text-white shadow-sm hover:bg-brand-700"
          >
            <ShoppingBag aria-hidden="true" className="size-4" />
            Browse Products
          </Link>
          {user.isAdmin ? (
            <Link
              to="/admin/dashboard"
              className="inline-flex h-11 items-center gap-2 rounded-xl border border-slate-300 px-4 font-semibold text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
            >
              <Shield aria-hidden="true" className="size-4" />
              Admin dashboard
            </Link>
          ) : null}
        </div>
      </section>

      <section
        aria-labelledby="account"
        className="rounded-2xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
      >
        <h2 id="account" className="text-lg font-semibold text-slate-900 dark:text-white">
          Your account
        </h2>
        <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Name</dt>
            <dd className="font-medium">{user.name}</dd>
          </div>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Email</dt>
            <dd className="font-medium break-all">{user.email}</dd>
          </div>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Member since</dt>
            <dd className="font-medium">{memberSince(user.createdAt)}</dd>
          </div>
        </dl>
        <p className="mt-4 text-sm">
          <Link
            to="/dashboard/settings"
            className="font-semibold text-brand-700 hover:underline dark:text-brand-300"
          >
            Change your password
          </Link>
        </p>
      </section>
    </div>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Dashboard')
}
