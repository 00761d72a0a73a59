import AlertTriangle from 'lucide-react/icons/triangle-alert'
import BadgeCheck from 'lucide-react/icons/badge-check'
import IndianRupee from 'lucide-react/icons/indian-rupee'
import MessageSquareWarning from 'lucide-react/icons/message-square-warning'
import Package from 'lucide-react/icons/package'
import Receipt from 'lucide-react/icons/receipt'
import ShoppingBag from 'lucide-react/icons/shopping-bag'
import UserCheck from 'lucide-react/icons/user-check'
import { Link, useRouteLoaderData } from 'react-router'
import { getDashboard, MAIL_FAILED_DAYS } from '~/data/dashboard.server'
import { DASHBOARD_PERIODS, isDashboardPeriod, type DashboardPeriod } from '~/lib/dashboard-period'
import { listOpenReports } from '~/data/order-report.server'
import { getSiteSettings } from '~/data/settings.server'
import { adminCard } from '~/components/admin/detail-card'
import { StatCard } from '~/components/admin/stat-card'
import { RevenueChart } from '~/components/admin/revenue-chart'
import { displayName } from '~/components/auth/logout-button'
import { accountPageMeta } from '~/components/auth/messages'
import { PageHeader } from '~/components/admin/page-header'
import { services } from '~/lib/app-context.server'
import { shopDateTime } from '~/lib/date-format'
import { formatRupees } from '~/lib/money'
import { requireAdmin } from '~/services/permissions.server'
import { filterQuery, ORDERS_PATH } from './orders/filters'
import { AdminStatusBadge, OrderLink, TestModeBadge } from '~/components/admin/order-badges'
import type { loader as adminLayoutLoader } from './layout'
import type { Route } from './+types/dashboard'
import { adminProductEditPath, adminStockPath } from '~/lib/paths'
import { countedText, itemsText, noItemsText, type StockKinds } from '~/lib/stock-status'
import { stockKindsOnSale } from '~/services/payment/offered-gateways.server'

/**
 * The admin dashboard, every figure computed by the database (app/data/dashboard.server.ts)
 * in the shop's time zone: revenue (net of processed partial refunds), paid orders, average order
 * value, payment success rate, active users and products for today or the last 7 or 30 days
 * (?period=, plain links that work without JavaScript) against the period before (all but
 * active users, which has no figure for the period before); revenue and orders over the period as a
 * chart with a table alternative; top products; what needs attention (paid orders to deliver
 * by hand, orders awaiting stock, open reports, mails that could not be sent or wait for a
 * retry, stock alerts); and for admins who manage orders
 * the recent orders and the oldest open problem reports, each a link to its order. Products
 * are links (to their edit or stock page) only for admins who manage products, orders only for
 * admins who manage orders: the same rule as the sidebar's sections.
 */
const REPORTS_SHOWN = 5

const PERIOD_LABELS: Record<DashboardPeriod, { label: string; previous: string }> = {
  today: { label: 'Today', previous: 'yesterday' },
  '7d': { label: 'Last 7 days', previous: 'the 7 days before' },
  '30d': { label: 'Last 30 days', previous: 'the 30 days before' },
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireAdmin(request)
  const { db, env } = services()
  const requested = new URL(request.url).searchParams.get('period')
  const period: DashboardPeriod = isDashboardPeriod(requested) ? requested : '7d'
  const manageOrders = user.permissions.canManageOrders
  const manageProducts = user.permissions.canCreateProducts
  const [settings, stockKinds] = await Promise.all([
    getSiteSettings(db),
    // Stock alerts count the items buyers can buy now, as the Products list does.
    stockKindsOnSale(db, env),
  ])
  // How many reports are open comes from the admin layout's loader (the sidebar's badge).
  const [dashboard, reports] = await Promise.all([
    getDashboard(db, {
      period,
      timeZone: settings.timezone,
      lowStockThreshold: settings.lowStockThreshold,
      stockKinds,
    }),
    manageOrders ? listOpenReports(db, { limit: REPORTS_SHOWN }) : [],
  ])
  const date = shopDateTime(settings.timezone)
  const bucketLabel =
    dashboard.range.unit === 'hour'
      ? new Intl.DateTimeFormat('en-IN', {
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
          timeZone: settings.timezone,
        })
      : new Intl.DateTimeFormat('en-IN', {
          day: 'numeric',
          month: 'short',
          timeZone: settings.timezone,
        })
  return {
    name: displayName(user),
    period,
    current: dashboard.current,
    previous: dashboard.previous,
    activeUsers: dashboard.activeUsers,
    products: dashboard.products,
    chart: dashboard.series.map((point) => ({
      label: bucketLabel.format(new Date(point.start)),
      revenue: point.revenue,
      rupees: point.revenue / 100,
      orders: point.orders,
    })),
    topProducts: dashboard.topProducts,
    stockAlerts: dashboard.stockAlerts,
    stockKinds,
    lowStockThreshold: settings.lowStockThreshold,
    awaitingStock: dashboard.awaitingStock,
    toDeliver: dashboard.toDeliver,
    openReportCount: dashboard.openReports,
    mail: { ...dashboard.mail, failedDays: MAIL_FAILED_DAYS },
    manageOrders,
    manageProducts,
    recentOrders: manageOrders
      ? dashboard.recentOrders.map((order) => ({
          ...order,
          amount: formatRupees(order.amount),
          date: date.format(new Date(order.createdAt)),
        }))
      : null,
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
const oneDecimal = new Intl.NumberFormat('en-IN', {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
})

/** "+12.5% vs yesterday", "No change", "New": how a figure moved since the previous period. */
function changeText(current: number, previous: number, against: string): string {
  if (current === previous) return `No change vs ${against}`
  if (previous === 0) return `Up from 0 ${against}`
  const percent = ((current - previous) / previous) * 100
  return `${percent > 0 ? '+' : '−'}${oneDecimal.format(Math.abs(percent))}% vs ${against}`
}

function rateText(rate: number | null): string {
  return rate === null ? '–' : `${oneDecimal.format(rate)}%`
}

function rateChange(current: number | null, previous: number | null, against: string): string {
  if (current === null || previous === null) return `Nothing to compare with ${against}`
  const points = current - previous
  if (Math.abs(points) < 0.05) return `No change vs ${against}`
  return `${points > 0 ? '+' : '−'}${oneDecimal.format(Math.abs(points))} points vs ${against}`
}

type LoaderData = Route.ComponentProps['loaderData']

function stats({ current, previous, activeUsers, products }: LoaderData, against: string) {
  return [
    {
      label: 'Revenue',
      value: formatRupees(current.revenue),
      hint: changeText(current.revenue, previous.revenue, against),
      icon: IndianRupee,
    },
    {
      label: 'Paid orders',
      value: number.format(current.paidOrders),
      hint: changeText(current.paidOrders, previous.paidOrders, against),
      icon: ShoppingBag,
    },
    {
      label: 'Average order value',
      value: formatRupees(current.averageOrder),
      hint: changeText(current.averageOrder, previous.averageOrder, against),
      icon: Receipt,
    },
    {
      label: 'Payment success rate',
      value: rateText(current.successRate),
      hint: rateChange(current.successRate, previous.successRate, against),
      icon: BadgeCheck,
    },
    {
      label: 'Active users',
      value: number.format(activeUsers),
      // No comparison: only each account's latest activity is kept, so there is no true
      // count for the previous period (app/data/dashboard.server.ts, `activeUsers`).
      hint: 'Signed in and active in this period',
      icon: UserCheck,
    },
    {
      label: 'Products',
      value: number.format(products),
      hint: `${number.format(current.productsAdded)} added (${number.format(previous.productsAdded)} ${against})`,
      icon: Package,
    },
  ]
}

const heading = 'flex items-center gap-2 text-lg font-bold text-slate-950 dark:text-white'
const linkClass = 'font-semibold text-brand-700 hover:underline dark:text-brand-300'

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { name, period } = loaderData
  const openReports =
    useRouteLoaderData<typeof adminLayoutLoader>('routes/admin/layout')?.openReports ??
    loaderData.openReportCount
  const reports = loaderData.reports ? { ...loaderData.reports, total: openReports } : null
  const against = PERIOD_LABELS[period].previous
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader title="Dashboard" description={`Welcome back, ${name}.`}>
        <PeriodSwitch period={period} />
      </PageHeader>
      <ul
        aria-label={`Figures for ${PERIOD_LABELS[period].label.toLowerCase()}`}
        className="grid grid-cols-2 gap-3 lg:grid-cols-3"
      >
        {stats(loaderData, against).map((stat) => (
          <StatCard key={stat.label} {...stat} />
        ))}
      </ul>
      <section aria-labelledby="revenue-chart" className={adminCard}>
        <h2 id="revenue-chart" className={`${heading} flex-wrap`}>
          Revenue and paid orders
          <span className="text-sm font-medium text-slate-500 dark:text-slate-400">
            {PERIOD_LABELS[period].label}
          </span>
        </h2>
        <div className="mt-4">
          <RevenueChart
            points={loaderData.chart}
            caption={`Revenue and paid orders, ${PERIOD_LABELS[period].label.toLowerCase()}, ${period === 'today' ? 'by hour' : 'by day'}`}
          />
        </div>
      </section>
      <div className="grid gap-6 lg:grid-cols-2">
        <TopProducts
          products={loaderData.topProducts}
          period={period}
          manageProducts={loaderData.manageProducts}
        />
        <StockAlerts data={loaderData} openReports={openReports} />
      </div>
      {loaderData.recentOrders ? <RecentOrders orders={loaderData.recentOrders} /> : null}
      {reports ? <OpenReports reports={reports} /> : null}
    </div>
  )
}

function PeriodSwitch({ period }: { period: DashboardPeriod }) {
  return (
    <nav aria-label="Period">
      <ul className="flex gap-1 rounded-xl border border-slate-200 bg-white p-1 dark:border-slate-700 dark:bg-slate-900">
        {DASHBOARD_PERIODS.map((value) => (
          <li key={value}>
            <Link
              to={`?period=${value}`}
              aria-current={value === period ? 'page' : undefined}
              preventScrollReset
              className={`inline-flex h-9 items-center rounded-lg px-3 text-sm font-medium ${
                value === period
                  ? 'bg-brand-600 text-white'
                  : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800'
              }`}
            >
              {PERIOD_LABELS[value].label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}

function TopProducts({
  products,
  period,
  manageProducts,
}: {
  products: LoaderData['topProducts']
  period: DashboardPeriod
  /** Product names link to their edit page. */
  manageProducts: boolean
}) {
  return (
    <section aria-labelledby="top-products" className={adminCard}>
      <h2 id="top-products" className={heading}>
        Top products by revenue
      </h2>
      {products.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          No paid orders {period === 'today' ? 'today' : 'in this period'} yet.
        </p>
      ) : (
        <ol className="mt-3 divide-y divide-slate-100 dark:divide-slate-800">
          {products.map((product) => (
            <li
              key={product.productId ?? product.productName}
              className="flex items-baseline justify-between gap-3 py-2 text-sm"
            >
              <span className="min-w-0">
                {product.productId && manageProducts ? (
                  <Link to={adminProductEditPath(product.productId)} className={linkClass}>
                    {product.productName}
                  </Link>
                ) : (
                  <span className="font-semibold text-slate-900 dark:text-white">
                    {product.productName}
                  </span>
                )}
                <span className="block text-xs text-slate-500 dark:text-slate-400">
                  {number.format(product.orders)} paid {product.orders === 1 ? 'order' : 'orders'}
                </span>
              </span>
              <span className="shrink-0 font-semibold tabular-nums text-slate-950 dark:text-white">
                {formatRupees(product.revenue)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

/**
 * Mails that are not getting through, when there are any: given up on in the last 7 days, and
 * waiting for a retry (app/data/dashboard.server.ts, `mailTrouble`). No list to link to (an
 * account mail has no order), so each says what to do: fix SMTP_URL; a lost order mail is on its
 * order's timeline, with "Resend delivery e-mail" for a delivered order (docs/auth.md, "Mail").
 */
function MailTroubleItems({ mail }: { mail: LoaderData['mail'] }) {
  const mails = (count: number) => `${number.format(count)} ${count === 1 ? 'e-mail' : 'e-mails'}`
  return (
    <>
      {mail.failed > 0 ? (
        <li>
          <span className="font-semibold text-rose-700 dark:text-rose-300">
            {mails(mail.failed)} could not be sent
          </span>{' '}
          in the last {mail.failedDays} days: every try failed. Check the SMTP settings (SMTP_URL).
          A lost order e-mail is marked on its order&apos;s timeline; a delivered order&apos;s can
          be sent again from its page (Resend delivery e-mail).
        </li>
      ) : null}
      {mail.retrying > 0 ? (
        <li>
          <span className="font-semibold text-amber-800 dark:text-amber-200">
            {mails(mail.retrying)} waiting to be sent again
          </span>
          : every try so far failed. Check the SMTP settings (SMTP_URL); waiting e-mails go out at
          their next try once mail works.
        </li>
      ) : null}
    </>
  )
}

/** Why a product in "Needs attention" does not sell, or will not for long. */
function alertDetail(alert: LoaderData['stockAlerts'][number], kinds: StockKinds): string | null {
  if (alert.reason === 'marked-out') return 'In stock is switched off in its form'
  if (alert.reason === 'test-mode') return 'Shared secret: test payments never get it'
  const other = !alert.otherKind
    ? null
    : kinds === 'test'
      ? 'its real items are kept for live payments'
      : 'its test items sell only in test mode'
  if (alert.level === 'out') return other ? `${noItemsText(kinds)}: ${other}` : noItemsText(kinds)
  return other ? `${other.charAt(0).toUpperCase()}${other.slice(1)}` : null
}

function StockAlerts({ data, openReports }: { data: LoaderData; openReports: number }) {
  const {
    stockAlerts,
    stockKinds,
    awaitingStock,
    toDeliver,
    lowStockThreshold,
    manageOrders,
    manageProducts,
  } = data
  const toDeliverText = `${number.format(toDeliver)} paid ${toDeliver === 1 ? 'order' : 'orders'} to deliver by hand`
  return (
    <section aria-labelledby="stock-alerts" className={adminCard}>
      <h2 id="stock-alerts" className={heading}>
        <AlertTriangle aria-hidden="true" className="size-5 text-amber-600" />
        Needs attention
      </h2>
      <ul className="mt-3 space-y-2 text-sm text-slate-800 dark:text-slate-200">
        <li>
          {manageOrders ? (
            <Link
              to={`${ORDERS_PATH}${filterQuery({ status: 'paid', realOnly: true })}`}
              className={linkClass}
            >
              {toDeliverText}
            </Link>
          ) : (
            toDeliverText
          )}
        </li>
        <li>
          {manageOrders ? (
            <Link
              to={`${ORDERS_PATH}${filterQuery({ status: 'awaiting_stock' })}`}
              className={linkClass}
            >
              {number.format(awaitingStock)} {awaitingStock === 1 ? 'order' : 'orders'} awaiting
              stock
            </Link>
          ) : (
            `${number.format(awaitingStock)} ${awaitingStock === 1 ? 'order' : 'orders'} awaiting stock`
          )}
        </li>
        <li>
          {manageOrders ? (
            <Link to={`${ORDERS_PATH}${filterQuery({ openReports: true })}`} className={linkClass}>
              {number.format(openReports)} open problem {openReports === 1 ? 'report' : 'reports'}
            </Link>
          ) : (
            `${number.format(openReports)} open problem ${openReports === 1 ? 'report' : 'reports'}`
          )}
        </li>
        <MailTroubleItems mail={data.mail} />
      </ul>
      <p
        id="stock-alerts-counted"
        className="mt-4 border-t border-slate-100 pt-3 text-xs text-slate-600 dark:border-slate-800 dark:text-slate-400"
      >
        {countedText(stockKinds)}
      </p>
      {stockAlerts.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          Every product is for sale
          {lowStockThreshold > 0
            ? `, each sold from stock with more than ${itemsText(lowStockThreshold, stockKinds)} left`
            : ''}
          .
        </p>
      ) : (
        <ul
          aria-label="Products low or out of stock"
          aria-describedby="stock-alerts-counted"
          className="mt-1 divide-y divide-slate-100 dark:divide-slate-800"
        >
          {stockAlerts.map((alert) => {
            const detail = alertDetail(alert, stockKinds)
            // The fix is more stock, or the product's form (its switch, its delivery).
            const onStockPage =
              alert.fromStock && (alert.level === 'low' || alert.reason === 'no-items')
            return (
              <li
                key={alert.productId}
                className="flex items-baseline justify-between gap-3 py-2 text-sm"
              >
                <span className="min-w-0">
                  {manageProducts ? (
                    <Link
                      to={
                        onStockPage
                          ? adminStockPath(alert.productId)
                          : adminProductEditPath(alert.productId)
                      }
                      className={linkClass}
                    >
                      {alert.title}
                    </Link>
                  ) : (
                    <span className="font-semibold text-slate-900 dark:text-white">
                      {alert.title}
                    </span>
                  )}
                  {detail ? (
                    <span className="block text-xs text-slate-600 dark:text-slate-400">
                      {detail}
                    </span>
                  ) : null}
                </span>
                <span
                  className={`shrink-0 font-semibold ${alert.level === 'out' ? 'text-rose-700 dark:text-rose-300' : 'text-amber-800 dark:text-amber-200'}`}
                >
                  {alert.level === 'out'
                    ? 'Out of Stock'
                    : `${itemsText(alert.left ?? 0, stockKinds)} left`}
                </span>
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}

function RecentOrders({ orders }: { orders: NonNullable<LoaderData['recentOrders']> }) {
  return (
    <section aria-labelledby="recent-orders" className={adminCard}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="recent-orders" className={heading}>
          Recent orders
        </h2>
        <Link to={ORDERS_PATH} className={`text-sm ${linkClass}`}>
          All orders
        </Link>
      </div>
      {orders.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">No orders yet.</p>
      ) : (
        <ol className="mt-3 divide-y divide-slate-100 dark:divide-slate-800">
          {orders.map((order) => (
            <li key={order.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <div className="min-w-0">
                <OrderLink orderId={order.id} wrap />
                <p className="text-sm text-slate-600 dark:text-slate-300">
                  {order.customerName} · {order.productName} ·{' '}
                  <time dateTime={order.createdAt}>{order.date}</time>
                </p>
              </div>
              <span className="flex items-center gap-2">
                <span className="font-semibold tabular-nums text-slate-950 dark:text-white">
                  {order.amount}
                </span>
                <AdminStatusBadge status={order.status} />
                {order.testMode ? <TestModeBadge /> : null}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

function OpenReports({
  reports,
}: {
  reports: NonNullable<Route.ComponentProps['loaderData']['reports']> & { total: number }
}) {
  return (
    <section aria-labelledby="open-reports" className={adminCard}>
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
