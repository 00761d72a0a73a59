import { exportTransactions, type TransactionRow } from '~/data/transactions.server'
import { paiseToDecimalText } from '~/lib/money'
import { TRANSACTION_STATUS_LABELS } from '~/lib/transaction-status'
import { requirePermission } from '~/services/permissions.server'
import { filtersSet, listExport, recordExport, type ExportColumn } from '../list-export.server'
import { toQueryFilter, transactionFilterFromUrl, type TransactionUrlFilter } from './filters'
import type { Route } from './+types/export'

/**
 * GET /admin/transactions/export?q=&status=&gateway=&from=&to=&real=: the attempts the list
 * shows (same filters, every page) as `transactions-{YYYY-MM-DD}.csv`
 * (app/routes/admin/list-export.server.ts; formula-like cells neutralised). Amounts are rupees
 * with two decimals; dates en-IN in the shop's time zone. The first ten columns are the spec's,
 * in its order (docs/original-spec.md, section 9); Test Mode comes after them, Yes for a
 * payment made through the simulator, as in the orders export, then Refunded, what processed
 * refunds gave back (a part refund leaves the attempt a success; docs/payments.md, "Refunds").
 * The file holds every buyer's name, e-mail and phone, so each export is recorded in the audit
 * log with its filters (`export.transactions`, docs/audit.md).
 */
const yesNo = (value: boolean) => (value ? 'Yes' : 'No')

const COLUMNS: ReadonlyArray<ExportColumn<TransactionRow>> = [
  ['Order ID', (row) => row.orderId],
  ['Customer Name', (row) => row.customerName],
  ['Email', (row) => row.customerEmail],
  ['Phone', (row) => row.customerPhone],
  ['Product', (row) => row.productName],
  ['Amount', (row) => paiseToDecimalText(row.amount)],
  ['Status', (row) => TRANSACTION_STATUS_LABELS[row.status]],
  ['Gateway', (row) => row.gateway],
  ['Transaction ID', (row) => row.gatewayTxnId ?? ''],
  ['Date', (row, date) => date.format(new Date(row.createdAt))],
  ['Test Mode', (row) => yesNo(row.testMode)],
  ['Refunded', (row) => paiseToDecimalText(row.refunded)],
]

/** The filters the export was asked with, those set only (the audit entry's fields). */
const filtersUsed = (filter: TransactionUrlFilter) =>
  filtersSet({
    search: filter.search,
    status: filter.status ? TRANSACTION_STATUS_LABELS[filter.status] : '',
    gateway: filter.gateway,
    from: filter.from,
    to: filter.to,
    realOnly: filter.realOnly,
  })

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requirePermission(request, 'canManageOrders')
  const filter = transactionFilterFromUrl(new URL(request.url))
  await recordExport(admin, context, 'transactions', filtersUsed(filter))
  return listExport({
    name: 'transactions',
    columns: COLUMNS,
    rows: (db, timezone) => exportTransactions(db, toQueryFilter(filter, timezone)),
  })
}
