import MessageSquareWarning from 'lucide-react/icons/message-square-warning'
import Package from 'lucide-react/icons/package'
import UserPlus from 'lucide-react/icons/user-plus'
import Users from 'lucide-react/icons/users'
import UserCheck from 'lucide-react/icons/user-check'
import { Link, useRouteLoaderData } from 'react-router'
import { listOpenReports } from '~/data/order-report.server'
import { countProducts } from '~/data/product.server'
import { getSiteSettings } from '~/data/settings.server'
import { countUsers } from '~/data/user.server'
import { StatCard } from '~/components/admin/stat-card'
import { displayName } from '~/components/auth/logout-button'
import { accountPageMeta } from '~/components/auth/messages'
import { PageHeader } from '~/components/admin/page-header'
import { services } from '~/lib/app-context.server'
import { shopDateTime } from '~/lib/date-format'
import { requireAdmin } from '~/lib/permissions.server'
import { filterQuery, ORDERS_PATH } from './orders/filters'
import { OrderLink } from './orders/order-status'
import type { loader as adminLayoutLoader } from './layout'
import type { Route } from './+types/dashboard'

/**
 * The admin dashboard: figures from the database (revenue and orders come with the orders
 * issue), and for admins who manage orders the oldest open problem reports, each a link to
 * its order.
 */
const REPORTS_SHOWN = 5

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireAdmin(request)
  const { db } = services()
  const manageOrders = user.permissions.canManageOrders
  // How many reports are open comes from the admin layout's loader (the sidebar's badge).
  const [products, users, reports, settings] = await Promise.all([
    countProducts(db),
    countUsers(db),
    manageOrders ? listOpenReports(db, { limit: REPORTS_SHOWN }) : [],
    getSiteSettings(db),
  ])
  const date = shopDateTime(settings.timezone)
  return {
    name: displayName(user),
    products,
    users,
    reports: manageOrders
      ? {
          oldest: reports.map((report) => ({
            id: report.id,
            orderId: report.orderId,
            productName: report.productName,
            customerName: report.customerName,
            reason: report.reason,
            createdAt: report.createdAt,
            date: date.format(new Date(report.createdAt)),
          })),
        }
      : null,
  }
}

const number = new Intl.NumberFormat('en-IN')

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { name, products, users } = loaderData
  const openReports = useRouteLoaderData<typeof adminLayoutLoader>('routes/admin/layout')?.openReports ?? 0
  const reports = loaderData.reports ? { ...loaderData.reports, total: openReports } : null
  const stats = [
    { label: 'Products', value: products, icon: Package },
    { label: 'Users', value: users.total, icon: Users },
    { label: 'Active users', value: users.active, icon: UserCheck },
    { label: 'New this month', value: users.newThisMonth, icon: UserPlus },
  ]
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader title="Dashboard" description={`Welcome back, ${name}.`} />
      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {stats.map(({ label, value, icon }) => (
          <StatCard key={label} label={label} value={number.format(value)} icon={icon} />
        ))}
      </ul>
      {reports ? <OpenReports reports={reports} /> : null}
    </div>
  )
}

function OpenReports({
  reports,
}: {
  reports: NonNullable<Route.ComponentProps['loaderData']['reports']> & { total: number }
}) {
  return (
    <section
      aria-labelledby="open-reports"
      className="rounded-2xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2
          id="open-reports"
          className="flex items-center gap-2 text-lg font-bold text-slate-950 dark:text-white"
        >
          <MessageSquareWarning aria-hidden="true" className="size-5 text-rose-600" />
          Open problem reports
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-sm font-semibold tabular-nums text-slate-700 dark:bg-slate-800 dark:text-slate-200">
            {number.format(reports.total)}
          </span>
        </h2>
        {reports.total > reports.oldest.length ? (
          <Link
            to={`${ORDERS_PATH}${filterQuery({ openReports: true })}`}
            className="text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300"
          >
            See all {number.format(reports.total)}
          </Link>
        ) : null}
      </div>
      {reports.oldest.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          No open reports: every buyer who reported a problem has an answer.
        </p>
      ) : (
        <ol
          aria-label="Oldest open reports first"
          className="mt-3 divide-y divide-slate-100 dark:divide-slate-800"
        >
          {reports.oldest.map((report) => (
            <li key={report.id} className="py-3">
              <OrderLink orderId={report.orderId} />
              <span className="text-sm text-slate-600 dark:text-slate-300">
                {' '}
                · {report.productName} · {report.customerName} ·{' '}
                <time dateTime={report.createdAt}>{report.date}</time>
              </span>
              <p className="mt-1 line-clamp-2 text-sm text-slate-800 dark:text-slate-200">
                {report.reason}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Admin dashboard')
}
