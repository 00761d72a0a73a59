import Download from 'lucide-react/icons/download'
import Search from 'lucide-react/icons/search'
import ShoppingCart from 'lucide-react/icons/shopping-cart'
import { Form, Link, useNavigation, useSubmit } from 'react-router'
import { Pagination } from '~/components/admin/pagination'
import { accountPageMeta } from '~/components/auth/messages'
import { listAdminOrders, orderCounts } from '~/data/order-admin.server'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { formatRupees } from '~/lib/money'
import { requirePermission } from '~/lib/permissions.server'
import {
  filterQuery,
  ORDERS_EXPORT_PATH,
  ORDERS_PATH,
  orderFilterFromUrl,
  SEARCH_MAX,
  type OrderFilter,
} from './filters'
import {
  ADMIN_ORDER_STATUSES,
  ADMIN_STATUS_LABELS,
  AdminStatusBadge,
  OpenReportBadge,
  TestModeBadge,
} from './order-status'
import type { Route } from './+types/list'

/**
 * /admin/orders (spec section 2, with real data): counts per status, search over the order id,
 * the customer and the product, a status filter and an "open reports" filter in the URL, a
 * server-side page of 20 newest first, and a CSV export of everything the filters match.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, 'canManageOrders')
  const { db } = services()
  const url = new URL(request.url)
  const filter = orderFilterFromUrl(url)
  const page = Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1
  const [counts, result, settings] = await Promise.all([
    orderCounts(db),
    listAdminOrders(db, { ...filter, page }),
    getSiteSettings(db),
  ])
  const date = new Intl.DateTimeFormat('en-IN', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: settings.timezone,
  })
  return {
    counts,
    filter,
    page: {
      number: result.page,
      count: result.pageCount,
      size: result.pageSize,
      total: result.total,
    },
    orders: result.items.map((order) => ({
      id: order.id,
      createdAt: order.createdAt,
      date: date.format(new Date(order.createdAt)),
      customerName: order.customerName,
      customerEmail: order.customerEmail,
      productName: order.productName,
      amount: formatRupees(order.amount),
      status: order.status,
      testMode: order.testMode,
      hasOpenReport: order.hasOpenReport,
    })),
  }
}

const number = new Intl.NumberFormat('en-IN')

type ListOrder = Route.ComponentProps['loaderData']['orders'][number]

const orderHref = (id: string) => `${ORDERS_PATH}/${encodeURIComponent(id)}`

function Markers({ order }: { order: ListOrder }) {
  return (
    <span className="flex flex-wrap items-center gap-1">
      <AdminStatusBadge status={order.status} />
      {order.testMode ? <TestModeBadge /> : null}
      {order.hasOpenReport ? <OpenReportBadge /> : null}
    </span>
  )
}

/** The counts at the top; each one filters the list (plain links: no JavaScript needed). */
function StatusCounts({
  counts,
  filter,
}: {
  counts: Route.ComponentProps['loaderData']['counts']
  filter: OrderFilter
}) {
  const chips: Array<{ label: string; count: number; to: Partial<OrderFilter>; active: boolean }> = [
    {
      label: 'All orders',
      count: counts.total,
      to: { search: filter.search },
      active: !filter.status && !filter.openReports,
    },
    ...ADMIN_ORDER_STATUSES.map((status) => ({
      label: ADMIN_STATUS_LABELS[status],
      count: counts.byStatus[status],
      to: { search: filter.search, status },
      active: filter.status === status && !filter.openReports,
    })),
    {
      label: 'Open reports',
      count: counts.openReports,
      to: { search: filter.search, openReports: true },
      active: filter.openReports && !filter.status,
    },
  ]
  return (
    <nav aria-label="Orders by status">
      <ul className="flex flex-wrap gap-2">
        {chips.map((chip) => (
          <li key={chip.label}>
            <Link
              to={`${ORDERS_PATH}${filterQuery(chip.to)}`}
              aria-current={chip.active ? 'page' : undefined}
              className={`inline-flex h-10 items-center gap-2 rounded-xl border px-3 text-sm font-medium ${
                chip.active
                  ? 'border-brand-600 bg-brand-600 text-white'
                  : chip.label === 'Open reports' && chip.count > 0
                    ? 'border-rose-300 bg-white text-rose-800 hover:bg-rose-50 dark:border-rose-900 dark:bg-slate-900 dark:text-rose-300 dark:hover:bg-rose-950/40'
                    : 'border-slate-200 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800'
              }`}
            >
              {chip.label}
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-bold tabular-nums ${
                  chip.active
                    ? 'bg-white/20 text-white'
                    : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200'
                }`}
              >
                {number.format(chip.count)}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { counts, filter, page, orders } = loaderData
  const submit = useSubmit()
  const navigation = useNavigation()
  const filtered = Boolean(filter.search || filter.status || filter.openReports)
  const searching = navigation.state === 'loading' && navigation.location.pathname === ORDERS_PATH
  const first = page.total === 0 ? 0 : (page.number - 1) * page.size + 1
  const last = Math.min(page.number * page.size, page.total)

  /** Only the filters that are set go in the URL (a new filter starts at page 1). */
  function submitFilters(form: HTMLFormElement) {
    const params = new URLSearchParams()
    for (const [name, value] of new FormData(form)) {
      if (typeof value === 'string' && value.trim()) params.set(name, value.trim())
    }
    void submit(params, { method: 'get', action: ORDERS_PATH })
  }

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-950 dark:text-white">
            Orders
          </h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            Every order in the shop. Open one to see its timeline, deliver it or resolve a report.
          </p>
        </div>
        <a
          href={`${ORDERS_EXPORT_PATH}${filterQuery(filter)}`}
          download
          className="inline-flex h-11 items-center gap-2 rounded-xl border border-slate-300 bg-white px-4 font-semibold text-slate-800 shadow-sm hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
        >
          <Download aria-hidden="true" className="size-5" />
          Export CSV
          {filtered ? <span className="sr-only"> of the filtered orders</span> : null}
        </a>
      </div>

      <StatusCounts counts={counts} filter={filter} />

      <section
        aria-label="Orders"
        className="rounded-2xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
      >
        <Form
          method="get"
          action={ORDERS_PATH}
          role="search"
          className="flex flex-col gap-3 border-b border-slate-200 p-4 lg:flex-row lg:items-end dark:border-slate-800"
          onSubmit={(event) => {
            event.preventDefault()
            submitFilters(event.currentTarget)
          }}
          onChange={(event) => {
            // The status and the report filter apply at once; the search box on Enter.
            const target = event.target as HTMLElement
            if (target.tagName === 'SELECT' || (target as HTMLInputElement).type === 'checkbox')
              submitFilters(event.currentTarget)
          }}
        >
          <div className="flex-1">
            <label
              htmlFor="order-search"
              className="mb-1.5 block text-sm font-medium text-slate-800 dark:text-slate-200"
            >
              Search by customer, order ID or product
            </label>
            <div className="relative">
              <Search
                aria-hidden="true"
                className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400"
              />
              <input
                id="order-search"
                type="search"
                name="q"
                defaultValue={filter.search}
                key={filter.search}
                maxLength={SEARCH_MAX}
                placeholder="Name, e-mail, phone, ORD_..., product"
                className="block h-11 w-full rounded-xl border border-slate-300 bg-white pl-9 pr-3 text-base text-slate-900 placeholder:text-slate-400 dark:border-slate-600 dark:bg-slate-950 dark:text-white"
              />
            </div>
          </div>
          <div className="lg:w-52">
            <label
              htmlFor="order-status"
              className="mb-1.5 block text-sm font-medium text-slate-800 dark:text-slate-200"
            >
              Status
            </label>
            <select
              id="order-status"
              name="status"
              defaultValue={filter.status ?? ''}
              key={filter.status ?? ''}
              className="block h-11 w-full rounded-xl border border-slate-300 bg-white px-3 text-base text-slate-900 dark:border-slate-600 dark:bg-slate-950 dark:text-white"
            >
              <option value="">All statuses</option>
              {ADMIN_ORDER_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {ADMIN_STATUS_LABELS[status]}
                </option>
              ))}
            </select>
          </div>
          <label className="flex h-11 items-center gap-2 text-sm font-medium text-slate-800 dark:text-slate-200">
            <input
              type="checkbox"
              name="reports"
              value="open"
              defaultChecked={filter.openReports}
              key={String(filter.openReports)}
              className="size-5 rounded border-slate-300 accent-brand-600"
            />
            Only open reports
          </label>
          <div className="flex gap-2">
            <button
              type="submit"
              className="inline-flex h-11 flex-1 items-center justify-center rounded-xl bg-slate-900 px-4 font-semibold text-white hover:bg-slate-800 lg:flex-none dark:bg-slate-100 dark:text-slate-900 dark:hover:bg-white"
            >
              Search
            </button>
            {filtered ? (
              <Link
                to={ORDERS_PATH}
                className="inline-flex h-11 flex-1 items-center justify-center rounded-xl border border-slate-300 px-4 font-medium text-slate-800 hover:bg-slate-50 lg:flex-none dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
              >
                Clear
              </Link>
            ) : null}
          </div>
        </Form>

        <p aria-live="polite" className="px-4 pt-3 text-sm text-slate-600 dark:text-slate-300">
          {searching
            ? 'Loading orders...'
            : page.total === 0
              ? ''
              : `Showing ${number.format(first)}–${number.format(last)} of ${number.format(page.total)} ${page.total === 1 ? 'order' : 'orders'}`}
        </p>

        {orders.length === 0 ? (
          <div className="flex flex-col items-center gap-3 px-4 py-14 text-center">
            <ShoppingCart aria-hidden="true" className="size-12 text-slate-400" />
            <h2 className="text-lg font-semibold text-slate-950 dark:text-white">No Orders Found</h2>
            <p className="max-w-sm text-sm text-slate-600 dark:text-slate-300">
              {filtered
                ? 'No order matches these filters. Try other words or all statuses.'
                : 'Orders appear here as soon as a customer checks out.'}
            </p>
          </div>
        ) : (
          <>
            <div className="hidden overflow-x-auto xl:block">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Orders, newest first</caption>
                <thead className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
                  <tr className="border-b border-slate-200 dark:border-slate-800">
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Order ID
                    </th>
                    <th scope="col" className="px-2 py-3 font-semibold">
                      Date
                    </th>
                    <th scope="col" className="px-2 py-3 font-semibold">
                      Customer
                    </th>
                    <th scope="col" className="px-2 py-3 font-semibold">
                      Product
                    </th>
                    <th scope="col" className="px-2 py-3 text-right font-semibold">
                      Amount
                    </th>
                    <th scope="col" className="py-3 pl-2 pr-4 font-semibold">
                      Status
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {orders.map((order) => (
                    <tr key={order.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/50">
                      <th scope="row" className="py-3 pl-4 pr-2 font-normal">
                        <Link
                          to={orderHref(order.id)}
                          className="font-mono text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300"
                        >
                          {order.id}
                        </Link>
                      </th>
                      <td className="whitespace-nowrap px-2 py-3 text-slate-700 dark:text-slate-300">
                        <time dateTime={order.createdAt}>{order.date}</time>
                      </td>
                      <td className="px-2 py-3">
                        <span className="block max-w-56 truncate font-medium text-slate-950 dark:text-white">
                          {order.customerName}
                        </span>
                        <span className="block max-w-56 truncate text-xs text-slate-500 dark:text-slate-400">
                          {order.customerEmail}
                        </span>
                      </td>
                      <td className="px-2 py-3 text-slate-700 dark:text-slate-300">
                        <span className="line-clamp-2 max-w-64">{order.productName}</span>
                      </td>
                      <td className="whitespace-nowrap px-2 py-3 text-right font-semibold tabular-nums text-slate-950 dark:text-white">
                        {order.amount}
                      </td>
                      <td className="py-3 pl-2 pr-4">
                        <Markers order={order} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>

            <ul
              aria-label="Orders, newest first"
              className="divide-y divide-slate-100 xl:hidden dark:divide-slate-800"
            >
              {orders.map((order) => (
                <li key={order.id} className="p-4">
                  <div className="flex items-start justify-between gap-3">
                    <div className="min-w-0">
                      <Link
                        to={orderHref(order.id)}
                        className="break-all font-mono text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300"
                      >
                        {order.id}
                      </Link>
                      <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
                        <time dateTime={order.createdAt}>{order.date}</time>
                      </p>
                    </div>
                    <span className="shrink-0 font-semibold tabular-nums text-slate-950 dark:text-white">
                      {order.amount}
                    </span>
                  </div>
                  <p className="mt-2 line-clamp-2 text-sm font-medium text-slate-900 dark:text-slate-100">
                    {order.productName}
                  </p>
                  <p className="truncate text-sm text-slate-600 dark:text-slate-300">
                    {order.customerName} · {order.customerEmail}
                  </p>
                  <div className="mt-2">
                    <Markers order={order} />
                  </div>
                </li>
              ))}
            </ul>
          </>
        )}

        {page.count > 1 ? (
          <div className="border-t border-slate-200 p-4 dark:border-slate-800">
            <Pagination
              page={page.number}
              pageCount={page.count}
              href={(n) => `${ORDERS_PATH}${filterQuery(filter, n)}`}
            />
          </div>
        ) : null}
      </section>
    </div>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Orders')
}
