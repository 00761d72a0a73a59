import ArrowLeftRight from 'lucide-react/icons/arrow-left-right'
import Download from 'lucide-react/icons/download'
import { EmptyState } from '~/components/admin/empty-state'
import {
  FilterChips,
  FilterForm,
  ListRange,
  SearchField,
  SelectField,
} from '~/components/admin/list-filters'
import { ListTable } from '~/components/admin/list-table'
import { OrderLink, TestModeBadge } from '~/components/admin/order-badges'
import { PageHeader } from '~/components/admin/page-header'
import { ListPagination } from '~/components/admin/pagination'
import { accountPageMeta } from '~/components/auth/messages'
import { Badge, type BadgeTone } from '~/components/ui/badge'
import { buttonVariants } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { getSiteSettings } from '~/data/settings.server'
import {
  listTransactions,
  transactionGateways,
  transactionStatusCounts,
} from '~/data/transactions.server'
import { services } from '~/lib/app-context.server'
import { shopDateTime } from '~/lib/date-format'
import { formatRupees } from '~/lib/money'
import {
  TRANSACTION_STATUS_LABELS,
  TRANSACTION_STATUSES,
  type TransactionStatus,
} from '~/lib/transaction-status'
import { requirePermission } from '~/services/permissions.server'
import {
  filterQuery,
  SEARCH_MAX,
  toQueryFilter,
  TRANSACTIONS_EXPORT_PATH,
  TRANSACTIONS_PATH,
  transactionFilterFromUrl,
} from './filters'
import type { Route } from './+types/list'

/**
 * /admin/transactions: every order as one payment attempt at its gateway, newest first, with
 * status, gateway, date-range filters and search in the URL, a page of 20, the success rate
 * of the filtered set, and a CSV export of everything the filters match. Payment records are
 * the orders' (buyers' names, e-mails and phones), so the page needs the same right as the
 * orders: canManageOrders.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, 'canManageOrders')
  const { db } = services()
  const url = new URL(request.url)
  const filter = transactionFilterFromUrl(url)
  const page = Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1
  const settings = await getSiteSettings(db)
  const query = toQueryFilter(filter, settings.timezone)
  const [result, gateways, counts] = await Promise.all([
    listTransactions(db, { ...query, page }),
    transactionGateways(db),
    transactionStatusCounts(db, query),
  ])
  const date = shopDateTime(settings.timezone)
  return {
    filter,
    gateways,
    counts,
    summary: result.summary,
    page: {
      number: result.page,
      count: result.pageCount,
      size: result.pageSize,
      total: result.summary.total,
    },
    transactions: result.items.map((row) => ({
      orderId: row.orderId,
      createdAt: row.createdAt,
      date: date.format(new Date(row.createdAt)),
      customerName: row.customerName,
      customerEmail: row.customerEmail,
      amount: formatRupees(row.amount),
      status: row.status,
      gateway: row.gateway,
      gatewayTxnId: row.gatewayTxnId,
      bankTxnId: row.bankTxnId,
      testMode: row.testMode,
    })),
  }
}

const TONES: Record<TransactionStatus, BadgeTone> = {
  success: 'success',
  pending: 'neutral',
  failed: 'danger',
  refunded: 'violet',
}

function StatusBadge({ status }: { status: TransactionStatus }) {
  return <Badge tone={TONES[status]}>{TRANSACTION_STATUS_LABELS[status]}</Badge>
}

const number = new Intl.NumberFormat('en-IN')
const rate = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 1, maximumFractionDigits: 1 })

const labelClass = 'mb-1.5 block text-sm font-medium text-slate-800 dark:text-slate-200'

export default function AdminTransactions({ loaderData }: Route.ComponentProps) {
  const { filter, gateways, counts, summary, page, transactions } = loaderData
  const filtered = Boolean(
    filter.search || filter.status || filter.gateway || filter.from || filter.to,
  )
  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Transactions"
        description="Every payment attempt: one per order, at its gateway."
      >
        <a
          href={`${TRANSACTIONS_EXPORT_PATH}${filterQuery(filter)}`}
          download
          className={buttonVariants({ variant: 'secondary' })}
        >
          <Download aria-hidden="true" className="size-5" />
          Export
          {filtered ? <span className="sr-only"> the filtered transactions</span> : null}
        </a>
      </PageHeader>

      <ul aria-label="Filtered transactions" className="grid grid-cols-3 gap-3">
        <li className="rounded-2xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
          <p className="text-sm font-medium text-slate-600 dark:text-slate-300">Attempts</p>
          <p className="mt-1 text-2xl font-bold tabular-nums text-slate-950 dark:text-white">
            {number.format(summary.total)}
          </p>
        </li>
        <li className="rounded-2xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
          <p className="text-sm font-medium text-slate-600 dark:text-slate-300">Successful</p>
          <p className="mt-1 text-2xl font-bold tabular-nums text-slate-950 dark:text-white">
            {number.format(summary.successful)}
          </p>
        </li>
        <li className="rounded-2xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
          <p className="text-sm font-medium text-slate-600 dark:text-slate-300">Success rate</p>
          <p
            data-testid="success-rate"
            className="mt-1 text-2xl font-bold tabular-nums text-slate-950 dark:text-white"
          >
            {summary.successRate === null ? '–' : `${rate.format(summary.successRate)}%`}
          </p>
        </li>
      </ul>

      <FilterChips
        label="Transactions by status"
        chips={[
          {
            label: 'All statuses',
            count: Object.values(counts).reduce((sum, n) => sum + n, 0),
            href: `${TRANSACTIONS_PATH}${filterQuery({ ...filter, status: null })}`,
            active: !filter.status,
          },
          ...TRANSACTION_STATUSES.map((status) => ({
            label: TRANSACTION_STATUS_LABELS[status],
            count: counts[status],
            href: `${TRANSACTIONS_PATH}${filterQuery({ ...filter, status })}`,
            active: filter.status === status,
            alert: status === 'failed',
          })),
        ]}
      />

      <section
        aria-label="Transactions"
        className="rounded-2xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
      >
        <FilterForm action={TRANSACTIONS_PATH} breakpoint="lg" filtered={filtered}>
          <SearchField
            id="transaction-search"
            label="Search"
            value={filter.search}
            maxLength={SEARCH_MAX}
            placeholder="Order ID, e-mail, name, transaction ID"
          />
          {filter.status ? <input type="hidden" name="status" value={filter.status} /> : null}
          <SelectField
            id="transaction-gateway"
            label="Gateway"
            name="gateway"
            value={filter.gateway}
            allLabel="All gateways"
            options={gateways.map((gateway) => ({ value: gateway, label: gateway }))}
          />
          <div className="lg:w-40">
            <label htmlFor="transaction-from" className={labelClass}>
              From
            </label>
            <Input
              id="transaction-from"
              type="date"
              name="from"
              surface="admin"
              defaultValue={filter.from}
              key={`from-${filter.from}`}
            />
          </div>
          <div className="lg:w-40">
            <label htmlFor="transaction-to" className={labelClass}>
              To
            </label>
            <Input
              id="transaction-to"
              type="date"
              name="to"
              surface="admin"
              defaultValue={filter.to}
              key={`to-${filter.to}`}
            />
          </div>
        </FilterForm>

        <ListRange
          path={TRANSACTIONS_PATH}
          page={page}
          noun={{ one: 'transaction', many: 'transactions' }}
        />

        {transactions.length === 0 ? (
          <EmptyState icon={ArrowLeftRight} title="No Transactions Found">
            {filtered
              ? 'No payment attempt matches these filters. Try other words, dates or all statuses.'
              : 'Payment attempts appear here as soon as a customer checks out.'}
          </EmptyState>
        ) : (
          <>
            <ListTable
              caption="Transactions, newest first"
              shownFrom="xl"
              columns={[
                { label: 'Order ID' },
                { label: 'Date' },
                { label: 'Customer' },
                { label: 'Gateway' },
                { label: 'Transaction ID / bank ref.' },
                { label: 'Amount', align: 'right' },
                { label: 'Status' },
              ]}
            >
              {transactions.map((row) => (
                <tr key={row.orderId} className="hover:bg-slate-50 dark:hover:bg-slate-800/50">
                  <th scope="row" className="py-3 pl-4 pr-2 font-normal">
                    <OrderLink orderId={row.orderId} />
                  </th>
                  <td className="whitespace-nowrap px-2 py-3 text-slate-700 dark:text-slate-300">
                    <time dateTime={row.createdAt}>{row.date}</time>
                  </td>
                  <td className="px-2 py-3">
                    <span className="block max-w-48 truncate font-medium text-slate-950 dark:text-white">
                      {row.customerName}
                    </span>
                    <span className="block max-w-48 truncate text-xs text-slate-500 dark:text-slate-400">
                      {row.customerEmail}
                    </span>
                  </td>
                  <td className="px-2 py-3 text-slate-700 dark:text-slate-300">{row.gateway}</td>
                  <td className="px-2 py-3 font-mono text-xs text-slate-700 dark:text-slate-300">
                    <span className="block max-w-56 break-all">{row.gatewayTxnId ?? '—'}</span>
                    <span className="block max-w-56 break-all text-slate-500 dark:text-slate-400">
                      {row.bankTxnId ?? '—'}
                    </span>
                  </td>
                  <td className="whitespace-nowrap px-2 py-3 text-right font-semibold tabular-nums text-slate-950 dark:text-white">
                    {row.amount}
                  </td>
                  <td className="py-3 pl-2 pr-4">
                    <span className="flex flex-wrap items-center gap-1">
                      <StatusBadge status={row.status} />
                      {row.testMode ? <TestModeBadge /> : null}
                    </span>
                  </td>
                </tr>
              ))}
            </ListTable>

            <ul
              aria-label="Transactions, newest first"
              className="divide-y divide-slate-100 xl:hidden dark:divide-slate-800"
            >
              {transactions.map((row) => (
                <li key={row.orderId} className="p-4">
                  <div className="flex items-start justify-between gap-3">
                    <div className="min-w-0">
                      <OrderLink orderId={row.orderId} wrap />
                      <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
                        <time dateTime={row.createdAt}>{row.date}</time> · {row.gateway}
                      </p>
                    </div>
                    <span className="shrink-0 font-semibold tabular-nums text-slate-950 dark:text-white">
                      {row.amount}
                    </span>
                  </div>
                  <p className="mt-2 truncate text-sm text-slate-700 dark:text-slate-300">
                    {row.customerName} · {row.customerEmail}
                  </p>
                  <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-xs text-slate-600 dark:text-slate-400">
                    <dt>Transaction ID</dt>
                    <dd className="break-all font-mono">{row.gatewayTxnId ?? '—'}</dd>
                    <dt>Bank ref.</dt>
                    <dd className="break-all font-mono">{row.bankTxnId ?? '—'}</dd>
                  </dl>
                  <div className="mt-2 flex flex-wrap items-center gap-1">
                    <StatusBadge status={row.status} />
                    {row.testMode ? <TestModeBadge /> : null}
                  </div>
                </li>
              ))}
            </ul>
          </>
        )}

        <ListPagination
          page={page.number}
          pageCount={page.count}
          href={(n) => `${TRANSACTIONS_PATH}${filterQuery(filter, n)}`}
        />
      </section>
    </div>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Transactions')
}
