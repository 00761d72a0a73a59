import { buttonVariants } from '~/components/ui/button'
import Download from 'lucide-react/icons/download'
import ShoppingCart from 'lucide-react/icons/shopping-cart'
import { EmptyState } from '~/components/admin/empty-state'
import {
  CheckboxFilter,
  FilterChips,
  FilterForm,
  ListRange,
  SearchField,
  SelectField,
  type FilterChip,
} from '~/components/admin/list-filters'
import { ListTable } from '~/components/admin/list-table'
import { ListPagination } from '~/components/admin/pagination'
import { accountPageMeta } from '~/components/auth/messages'
import { PageHeader } from '~/components/admin/page-header'
import { listAdminOrders, orderCounts } from '~/data/order-admin.server'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { shopDateTime } from '~/lib/date-format'
import { formatRupees } from '~/lib/money'
import { ORDER_STATUSES } from '~/lib/order-status'
import { requirePermission } from '~/services/permissions.server'
import {
  filterQuery,
  ORDERS_EXPORT_PATH,
  ORDERS_PATH,
  orderFilterFromUrl,
  SEARCH_MAX,
  type OrderFilter,
} from './filters'
import {
  ADMIN_STATUS_LABELS,
  AdminStatusBadge,
  OpenReportBadge,
  OrderLink,
  TestModeBadge,
} from '~/components/admin/order-badges'
import type { Route } from './+types/list'

/**
 * /admin/orders (with real data): counts per status, search over the order id,
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
  const date = shopDateTime(settings.timezone)
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

type ListOrder = Route.ComponentProps['loaderData']['orders'][number]

function Markers({ order }: { order: ListOrder }) {
  return (
    <span className="flex flex-wrap items-center gap-1">
      <AdminStatusBadge status={order.status} />
      {order.testMode ? <TestModeBadge /> : null}
      {order.hasOpenReport ? <OpenReportBadge /> : null}
    </span>
  )
}

/** The counts at the top; each one filters the list. */
function statusChips(
  counts: Route.ComponentProps['loaderData']['counts'],
  filter: OrderFilter,
): FilterChip[] {
  const chip = (to: Partial<OrderFilter>) => `${ORDERS_PATH}${filterQuery(to)}`
  return [
    {
      label: 'All orders',
      count: counts.total,
      href: chip({ search: filter.search }),
      active: !filter.status && !filter.openReports,
    },
    ...ORDER_STATUSES.map((status) => ({
      label: ADMIN_STATUS_LABELS[status],
      count: counts.byStatus[status],
      href: chip({ search: filter.search, status }),
      active: filter.status === status && !filter.openReports,
    })),
    {
      label: 'Open reports',
      count: counts.openReports,
      href: chip({ search: filter.search, openReports: true }),
      active: filter.openReports && !filter.status,
      alert: true,
    },
  ]
}

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { counts, filter, page, orders } = loaderData
  const filtered = Boolean(filter.search || filter.status || filter.openReports)

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Orders"
        description="Every order in the shop. Open one to see its timeline, deliver it or resolve a report."
      >
        <a
          href={`${ORDERS_EXPORT_PATH}${filterQuery(filter)}`}
          download
          className={buttonVariants({ variant: 'secondary' })}
        >
          <Download aria-hidden="true" className="size-5" />
          Export CSV
          {filtered ? <span className="sr-only"> of the filtered orders</span> : null}
        </a>
      </PageHeader>

      <FilterChips label="Orders by status" chips={statusChips(counts, filter)} />

      <section
        aria-label="Orders"
        className="rounded-2xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
      >
        <FilterForm action={ORDERS_PATH} breakpoint="lg" filtered={filtered}>
          <SearchField
            id="order-search"
            label="Search by customer, order ID or product"
            value={filter.search}
            maxLength={SEARCH_MAX}
            placeholder="Name, e-mail, phone, ORD_..., product"
          />
          <SelectField
            id="order-status"
            label="Status"
            name="status"
            value={filter.status ?? ''}
            allLabel="All statuses"
            options={ORDER_STATUSES.map((status) => ({
              value: status,
              label: ADMIN_STATUS_LABELS[status],
            }))}
          />
          <CheckboxFilter
            label="Only open reports"
            name="reports"
            value="open"
            checked={filter.openReports}
          />
        </FilterForm>

        <ListRange path={ORDERS_PATH} page={page} noun={{ one: 'order', many: 'orders' }} />

        {orders.length === 0 ? (
          <EmptyState icon={ShoppingCart} title="No Orders Found">
            {filtered
              ? 'No order matches these filters. Try other words or all statuses.'
              : 'Orders appear here as soon as a customer checks out.'}
          </EmptyState>
        ) : (
          <>
            <ListTable
              caption="Orders, newest first"
              shownFrom="xl"
              columns={[
                { label: 'Order ID' },
                { label: 'Date' },
                { label: 'Customer' },
                { label: 'Product' },
                { label: 'Amount', align: 'right' },
                { label: 'Status' },
              ]}
            >
              {orders.map((order) => (
                <tr key={order.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/50">
                  <th scope="row" className="py-3 pl-4 pr-2 font-normal">
                    <OrderLink orderId={order.id} />
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
            </ListTable>

            <ul
              aria-label="Orders, newest first"
              className="divide-y divide-slate-100 xl:hidden dark:divide-slate-800"
            >
              {orders.map((order) => (
                <li key={order.id} className="p-4">
                  <div className="flex items-start justify-between gap-3">
                    <div className="min-w-0">
                      <OrderLink orderId={order.id} wrap />
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

        <ListPagination
          page={page.number}
          pageCount={page.count}
          href={(n) => `${ORDERS_PATH}${filterQuery(filter, n)}`}
        />
      </section>
    </div>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Orders')
}
