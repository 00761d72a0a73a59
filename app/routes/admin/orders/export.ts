import { adminStatusLabel } from '~/components/admin/order-badges'
import { exportAdminOrders, type AdminOrderRow } from '~/data/order-admin.server'
import { paiseToDecimalText } from '~/lib/money'
import { requirePermission } from '~/services/permissions.server'
import { filtersSet, listExport, recordExport, type ExportColumn } from '../list-export.server'
import { orderFilterFromUrl } from './filters'
import type { Route } from './+types/export'

/**
 * GET /admin/orders/export?q=&status=&reports=&refunds=&real=: the orders the list shows (same
 * filters, every page) as `orders-{YYYY-MM-DD}.csv` (app/routes/admin/list-export.server.ts).
 * Amounts are rupees with two decimals (a spreadsheet sums them); dates are en-IN in the shop's
 * time zone, like the pages. The columns up to Open Report are fixed (docs/delivery.md); the
 * last, Refunded, is what processed refunds gave back, so Amount less Refunded over the paid,
 * real orders is the dashboard's net revenue (docs/payments.md, "Refunds"). Each export is
 * recorded in the audit log with its filters (`export.orders`, docs/audit.md).
 */
const yesNo = (value: boolean) => (value ? 'Yes' : 'No')

const COLUMNS: ReadonlyArray<ExportColumn<AdminOrderRow>> = [
  ['Order ID', (order) => order.id],
  ['Date', (order, date) => date.format(new Date(order.createdAt))],
  ['Customer Name', (order) => order.customerName],
  ['Email', (order) => order.customerEmail],
  ['Phone', (order) => order.customerPhone],
  ['Product', (order) => order.productName],
  ['Amount', (order) => paiseToDecimalText(order.amount)],
  ['Status', (order) => adminStatusLabel(order.status)],
  ['Gateway', (order) => order.gateway],
  ['Transaction ID', (order) => order.gatewayTxnId ?? ''],
  ['Test Mode', (order) => yesNo(order.testMode)],
  ['Open Report', (order) => yesNo(order.hasOpenReport)],
  ['Refunded', (order) => paiseToDecimalText(order.refunded)],
]

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requirePermission(request, 'canManageOrders')
  const filter = orderFilterFromUrl(new URL(request.url))
  await recordExport(
    admin,
    context,
    'orders',
    filtersSet({
      search: filter.search,
      status: filter.status ? adminStatusLabel(filter.status) : '',
      openReports: filter.openReports,
      refundProblems: filter.refundProblems,
      realOnly: filter.realOnly,
    }),
  )
  return listExport({
    name: 'orders',
    columns: COLUMNS,
    rows: (db) => exportAdminOrders(db, filter),
  })
}
