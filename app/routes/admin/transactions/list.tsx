import ArrowLeftRight from 'lucide-react/icons/arrow-left-right'
import Download from 'lucide-react/icons/download'
import { adminCard } from '~/components/admin/detail-card'
import { Button } from '~/components/ui/button'
import { Field } from '~/components/ui/field'
import { Select } from '~/components/ui/input'
import { registerMonths } from '~/data/gst-register.server'
import type { Gstr1Table } from '~/lib/gst-returns'
import { AdminList, ExportLink } from '~/components/admin/admin-list'
import {
  CheckboxFilter,
  DateField,
  FilterChips,
  SearchField,
  SelectField,
} from '~/components/admin/list-filters'
import { orderLeadColumns, OrderListCard } from '~/components/admin/order-columns'
import { RefundBadges, TestModeBadge } from '~/components/admin/order-badges'
import { PageHeader } from '~/components/admin/page-header'
import { StatCard } from '~/components/admin/stat-card'
import { accountPageMeta } from '~/components/auth/messages'
import { Badge, type BadgeTone } from '~/components/ui/badge'
import { getSiteSettings } from '~/data/settings.server'
import {
  listTransactions,
  transactionGateways,
  transactionStatusCounts,
} from '~/data/transactions.server'
import { services } from '~/lib/app-context.server'
import { shopDateTime } from '~/lib/date-format'
import { formatRupees } from '~/lib/money'
import { pageParam, pageView } from '~/lib/paginate'
import { gatewayLabel } from '~/lib/validation/gateway'
import {
  TRANSACTION_STATUS_LABELS,
  TRANSACTION_STATUSES,
  type TransactionStatus,
} from '~/lib/transaction-status'
import { requirePermission } from '~/services/permissions.server'
import {
  filterQuery,
  toQueryFilter,
  TRANSACTIONS_EXPORT_PATH,
  GST_REGISTER_PATH,
  TRANSACTIONS_PATH,
  transactionFilterFromUrl,
} from './filters'
import type { Route } from './+types/list'

/**
 * /admin/transactions: every order as one payment attempt at its gateway, newest first, with
 * status, gateway, date-range and "real payments only" filters and search in the URL, a page of
 * 20, the success rate of the filtered set, and a CSV export of everything the filters match. Payment records are
 * the orders' (buyers' names, e-mails and phones), so the page needs the same right as the
 * orders: canManageOrders. A status is marked with its refunds as on the Orders list
 * (docs/payments.md, "Refunds"): part refunded (how much; the attempt is still a success) and a
 * refund pending at the gateway.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, 'canManageOrders')
  const { db } = services()
  const url = new URL(request.url)
  const filter = transactionFilterFromUrl(url)
  const settings = await getSiteSettings(db)
  const query = toQueryFilter(filter, settings.timezone)
  const [result, gateways, counts] = await Promise.all([
    listTransactions(db, { ...query, page: pageParam(url) }),
    transactionGateways(db),
    transactionStatusCounts(db, query),
  ])
  const date = shopDateTime(settings.timezone)
  return {
    // The GST register's months: the last 13, last month first chosen (the one being filed).
    gstMonths: registerMonths(new Date(), 13),
    filter,
    gateways,
    counts,
    summary: result.summary,
    page: pageView(result, result.summary.total),
    transactions: result.items.map((row) => ({
      orderId: row.orderId,
      createdAt: row.createdAt,
      date: date.format(new Date(row.createdAt)),
      customerName: row.customerName,
      customerEmail: row.customerEmail,
      amount: formatRupees(row.amount),
      status: row.status,
      gateway: gatewayLabel(row.gateway),
      gatewayTxnId: row.gatewayTxnId,
      bankTxnId: row.bankTxnId,
      testMode: row.testMode,
      partRefunded: row.partRefunded ? formatRupees(row.refunded) : null,
      refundPending: row.refundPending,
      refundProblem: row.refundProblem,
    })),
  }
}

const TONES: Record<TransactionStatus, BadgeTone> = {
  success: 'success',
  pending: 'neutral',
  failed: 'danger',
  refunded: 'violet',
}

type ListTransaction = Route.ComponentProps['loaderData']['transactions'][number]

function Markers({ row }: { row: ListTransaction }) {
  return (
    <span className="flex flex-wrap items-center gap-1">
      <Badge tone={TONES[row.status]}>{TRANSACTION_STATUS_LABELS[row.status]}</Badge>
      {row.testMode ? <TestModeBadge /> : null}
      <RefundBadges
        partRefunded={row.partRefunded}
        refundPending={row.refundPending}
        refundProblem={row.refundProblem}
      />
    </span>
  )
}

const number = new Intl.NumberFormat('en-IN')
const rate = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 1, maximumFractionDigits: 1 })

export default function AdminTransactions({ loaderData }: Route.ComponentProps) {
  const { filter, gateways, counts, summary, page, transactions, gstMonths } = loaderData
  const filtered = Boolean(
    filter.search || filter.status || filter.gateway || filter.from || filter.to || filter.realOnly,
  )
  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Transactions"
        description="Every payment attempt: one per order, at its gateway."
      >
        <ExportLink
          href={`${TRANSACTIONS_EXPORT_PATH}${filterQuery(filter)}`}
          filtered={filtered ? 'the filtered transactions' : null}
        >
          Export
        </ExportLink>
      </PageHeader>

      {/* Two figures a row on phones, as on the dashboard: three squeeze 1,23,456 past the card's edge. */}
      <ul aria-label="Filtered transactions" className="grid grid-cols-2 gap-3 lg:grid-cols-3">
        <StatCard label="Attempts" value={number.format(summary.total)} />
        <StatCard label="Successful" value={number.format(summary.successful)} />
        <StatCard
          label="Success rate"
          value={summary.successRate === null ? '–' : `${rate.format(summary.successRate)}%`}
          valueTestId="success-rate"
        />
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

      <AdminList
        label="Transactions"
        path={TRANSACTIONS_PATH}
        page={page}
        noun={{ one: 'transaction', many: 'transactions' }}
        pageHref={(n) => `${TRANSACTIONS_PATH}${filterQuery(filter, n)}`}
        filtered={filtered}
        fields={
          <>
            <SearchField
              id="transaction-search"
              label="Search"
              value={filter.search}
              placeholder="ID, e-mail, name or UTR"
            />
            {filter.status ? <input type="hidden" name="status" value={filter.status} /> : null}
            <SelectField
              id="transaction-gateway"
              label="Gateway"
              name="gateway"
              value={filter.gateway}
              allLabel="All gateways"
              options={gateways.map((id) => ({ value: id, label: gatewayLabel(id) }))}
            />
            <DateField id="transaction-from" label="From" name="from" value={filter.from} />
            <DateField id="transaction-to" label="To" name="to" value={filter.to} />
            <CheckboxFilter
              label="Real payments only"
              name="real"
              value="1"
              checked={filter.realOnly}
            />
          </>
        }
        empty={{
          icon: ArrowLeftRight,
          title: 'No Transactions Found',
          filtered:
            'No payment attempt matches these filters. Try other words, dates or all statuses.',
          unfiltered: 'Payment attempts appear here as soon as a customer checks out.',
        }}
        rows={transactions}
        rowKey={(row) => row.orderId}
        columns={[
          ...orderLeadColumns((row: ListTransaction) => row.orderId, 'max-w-48'),
          { label: 'Gateway', look: 'text', cell: (row) => row.gateway },
          {
            label: 'Transaction ID / bank ref.',
            look: 'code',
            cell: (row) => (
              <>
                <span className="block max-w-56 break-all">{row.gatewayTxnId ?? '—'}</span>
                <span className="block max-w-56 break-all text-slate-500 dark:text-slate-400">
                  {row.bankTxnId ?? '—'}
                </span>
              </>
            ),
          },
          { label: 'Amount', align: 'right', look: 'amount', cell: (row) => row.amount },
          { label: 'Status', cell: (row) => <Markers row={row} /> },
        ]}
        card={(row) => (
          <OrderListCard
            orderId={row.orderId}
            order={row}
            whenExtra={` · ${row.gateway}`}
            markers={<Markers row={row} />}
          >
            <p className="mt-2 truncate text-sm text-slate-700 dark:text-slate-300">
              {row.customerName} · {row.customerEmail}
            </p>
            <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-xs text-slate-600 dark:text-slate-400">
              <dt>Transaction ID</dt>
              <dd className="break-all font-mono">{row.gatewayTxnId ?? '—'}</dd>
              <dt>Bank ref.</dt>
              <dd className="break-all font-mono">{row.bankTxnId ?? '—'}</dd>
            </dl>
          </OrderListCard>
        )}
      />

      <GstRegister months={gstMonths} />
    </div>
  )
}

/** What the GST register's form downloads: the register, or a GSTR-1 table it fills. */
const GST_REPORTS: ReadonlyArray<readonly ['register' | 'gstr3b' | Gstr1Table, string]> = [
  ['register', 'All invoices and credit notes'],
  ['b2b', 'GSTR-1 4A: B2B invoices'],
  ['b2cs', 'GSTR-1 7: B2C (others) by state and rate'],
  ['cdnr', 'GSTR-1 9B: credit notes to businesses'],
  ['hsn-b2b', 'GSTR-1 12: SAC summary, B2B'],
  ['hsn-b2c', 'GSTR-1 12: SAC summary, B2C'],
  ['docs', 'GSTR-1 13: documents issued'],
  ['gstr3b', 'GSTR-3B 3.1(a): tax on outward supplies'],
]

/** The month's invoices and credit notes as a CSV (app/routes/admin/transactions/gst-register.ts). */
function GstRegister({ months }: { months: ReadonlyArray<{ value: string; label: string }> }) {
  return (
    <section aria-labelledby="gst-register-heading" className={adminCard}>
      <h2 id="gst-register-heading" className="text-lg font-bold text-slate-950 dark:text-white">
        GST register
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-slate-600 dark:text-slate-300">
        Every invoice and credit note issued in a month (India time), with the buyer's GSTIN, the
        place of supply and the tax by kind: for the GST return or the shop's accountant. Real sales
        only; credit notes count negative, so each column adds up to the month's net. Or one of the
        GSTR-1 tables it fills, laid out for the GST offline tool's CSV import, or the tax GSTR-3B
        declares.
      </p>
      {/* A plain form: the answer is a file download, not a page. */}
      <form method="get" action={GST_REGISTER_PATH} className="mt-4 flex flex-wrap items-end gap-3">
        <Field label="Month" id="gst-register-month" className="w-56">
          {(control) => (
            <Select {...control} name="month" surface="admin" defaultValue={months[1]?.value}>
              {months.map((month) => (
                <option key={month.value} value={month.value}>
                  {month.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Report" id="gst-register-report" className="w-full sm:w-96">
          {(control) => (
            <Select {...control} name="report" surface="admin" defaultValue="register">
              {GST_REPORTS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Button type="submit" variant="secondary">
          <Download aria-hidden="true" className="size-5" />
          Download CSV
        </Button>
      </form>
    </section>
  )
}

export function meta({ matches }: Route.MetaArgs) {
  return accountPageMeta(matches, 'Transactions')
}
