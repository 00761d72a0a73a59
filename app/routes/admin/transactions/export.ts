import { exportTransactions } from '~/data/transactions.server'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { csvDownload } from '~/lib/csv.server'
import { shopDateTime } from '~/lib/date-format'
import { paiseToDecimalText } from '~/lib/money'
import { isoDate, localDateOf } from '~/lib/shop-time'
import { TRANSACTION_STATUS_LABELS } from '~/lib/transaction-status'
import { requirePermission } from '~/services/permissions.server'
import { toQueryFilter, transactionFilterFromUrl } from './filters'
import type { Route } from './+types/export'

/**
 * GET /admin/transactions/export?q=&status=&gateway=&from=&to=: the attempts the list shows
 * (same filters, every page) as `transactions-{YYYY-MM-DD}.csv`, streamed from the database by
 * app/lib/csv.server.ts (RFC 4180, formula-like cells neutralised). Amounts are rupees with two
 * decimals; dates en-IN in the shop's time zone.
 */
export const TRANSACTION_EXPORT_COLUMNS = [
  'Order ID',
  'Customer Name',
  'Email',
  'Phone',
  'Product',
  'Amount',
  'Status',
  'Gateway',
  'Transaction ID',
  'Date',
] as const

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, 'canManageOrders')
  const { db } = services()
  const { timezone } = await getSiteSettings(db)
  const filter = toQueryFilter(transactionFilterFromUrl(new URL(request.url)), timezone)
  const date = shopDateTime(timezone)
  return csvDownload({
    filename: `transactions-${isoDate(localDateOf(new Date(), timezone))}.csv`,
    header: TRANSACTION_EXPORT_COLUMNS,
    rows: exportTransactions(db, filter),
    toCells: (row) => [
      row.orderId,
      row.customerName,
      row.customerEmail,
      row.customerPhone,
      row.productName,
      paiseToDecimalText(row.amount),
      TRANSACTION_STATUS_LABELS[row.status],
      row.gateway,
      row.gatewayTxnId ?? '',
      date.format(new Date(row.createdAt)),
    ],
  })
}
