import ShoppingCart from 'lucide-react/icons/shopping-cart'
import { AdminList, ExportLink } from '~/components/admin/admin-list'
import {
  CheckboxFilter,
  FilterChips,
  SearchField,
  optionsOf,
  SelectField,
  type FilterChip,
} from '~/components/admin/list-filters'
import { orderLeadColumns, OrderListCard } from '~/components/admin/order-columns'
import { accountPageMeta } from '~/components/auth/messages'
import { PageHeader } from '~/components/admin/page-header'
import { listAdminOrders, orderCounts } from '~/data/order-admin.server'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { shopDateTime } from '~/lib/date-format'
import { formatRupees } from '~/lib/money'
import { ORDER_STATUSES } from '~/lib/order-status'
import { pageParam, pageView } from '~/lib/paginate'
import { requirePermission } from '~/services/permissions.server'
import {
  filterQuery,
  ORDERS_EXPORT_PATH,
  ORDERS_PATH,
  orderFilterFromUrl,
  type OrderFilter,
} from './filters'
import {
  ADMIN_STATUS_LABELS,
  AdminStatusBadge,
  OpenReportBadge,
  RefundBadges,
  TestModeBadge,
} from '~/components/admin/order-badges'
import type { Route } from './+types/list'

/**
 * /admin/orders (with real data): counts per status, search over the order id,
 * the customer and the product, a status filter, an "open reports" and a "refund problems"
 * filter in the URL, a server-side page of 20 newest first, and a CSV export of everything the
 * filters match. Each row's status is marked with its refunds (docs/payments.md, "Refunds"):
 * part refunded (how much), a refund pending at the gateway, a refund problem.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, 'canManageOrders')
  const { db } = services()
  const url = new URL(request.url)
  const filter = orderFilterFromUrl(url)
  const [counts, result, settings] = await Promise.all([
    orderCounts(db, { realOnly: filter.realOnly }),
    listAdminOrders(db, { ...filter, page: pageParam(url) }),
    getSiteSettings(db),
  ])
  const date = shopDateTime(settings.timezone)
  return {
    counts,
    filter,
    page: pageView(result, result.total),
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
      partRefunded: order.partRefunded ? formatRupees(order.refunded) : null,
      refundPending: order.refundPending,
      refundProblem: order.refundProblem,
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
      <RefundBadges
        partRefunded={order.partRefunded}
        refundPending={order.refundPending}
        refundProblem={order.refundProblem}
      />
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
      href: chip({ search: filter.search, realOnly: filter.realOnly }),
      active: !filter.status && !filter.openReports && !filter.refundProblems,
    },
    ...ORDER_STATUSES.map((status) => ({
      label: ADMIN_STATUS_LABELS[status],
      count: counts.byStatus[status],
      href: chip({ search: filter.search, realOnly: filter.realOnly, status }),
      active: filter.status === status && !filter.openReports && !filter.refundProblems,
    })),
    {
      label: 'Open reports',
      count: counts.openReports,
      href: chip({ search: filter.search, realOnly: filter.realOnly, openReports: true }),
      active: filter.openReports && !filter.status && !filter.refundProblems,
      alert: true,
    },
    {
      label: 'Refund problems',
      count: counts.refundProblems,
      href: chip({ search: filter.search, realOnly: filter.realOnly, refundProblems: true }),
      active: filter.refundProblems && !filter.status && !filter.openReports,
      alert: true,
    },
  ]
}

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { counts, filter, page, orders } = loaderData
  const filtered = Boolean(
    filter.search ||
    filter.status ||
    filter.openReports ||
    filter.refundProblems ||
    filter.realOnly,
  )

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Orders"
        description="Every order in the shop. Open one to see its timeline, deliver it or resolve a report."
      >
        <ExportLink
          href={`${ORDERS_EXPORT_PATH}${filterQuery(filter)}`}
          filtered={filtered ? 'of the filtered orders' : null}
        >
          Export CSV
        </ExportLink>
      </PageHeader>

      <FilterChips label="Orders by status" chips={statusChips(counts, filter)} />

      <AdminList
        label="Orders"
        path={ORDERS_PATH}
        page={page}
        noun={{ one: 'order', many: 'orders' }}
        pageHref={(n) => `${ORDERS_PATH}${filterQuery(filter, n)}`}
        filtered={filtered}
        fields={
          <>
            <SearchField
              id="order-search"
              label="Search by customer, order ID or product"
              value={filter.search}
              placeholder="Name, e-mail or ORD_…"
            />
            <SelectField
              id="order-status"
              label="Status"
              name="status"
              value={filter.status ?? ''}
              allLabel="All statuses"
              options={optionsOf(ORDER_STATUSES, ADMIN_STATUS_LABELS)}
            />
            <CheckboxFilter
              label="Only open reports"
              name="reports"
              value="open"
              checked={filter.openReports}
            />
            <CheckboxFilter
              label="Only refund problems"
              name="refunds"
              value="problem"
              checked={filter.refundProblems}
            />
            <CheckboxFilter
              label="Real orders only"
              name="real"
              value="1"
              checked={filter.realOnly}
            />
          </>
        }
        empty={{
          icon: ShoppingCart,
          title: 'No Orders Found',
          filtered: 'No order matches these filters. Try other words or all statuses.',
          unfiltered: 'Orders appear here as soon as a customer checks out.',
        }}
        rows={orders}
        rowKey={(order) => order.id}
        columns={[
          ...orderLeadColumns((order: ListOrder) => order.id, 'max-w-56'),
          {
            label: 'Product',
            look: 'text',
            cell: (order) => <span className="line-clamp-2 max-w-64">{order.productName}</span>,
          },
          { label: 'Amount', align: 'right', look: 'amount', cell: (order) => order.amount },
          { label: 'Status', cell: (order) => <Markers order={order} /> },
        ]}
        card={(order) => (
          <OrderListCard orderId={order.id} order={order} markers={<Markers order={order} />}>
            <p className="mt-2 line-clamp-2 text-sm font-medium text-slate-900 dark:text-slate-100">
              {order.productName}
            </p>
            <p className="truncate text-sm text-slate-600 dark:text-slate-300">
              {order.customerName} · {order.customerEmail}
            </p>
          </OrderListCard>
        )}
      />
    </div>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Orders')
}
