import { exportAdminOrders } from '~/data/order-admin.server'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { csvDownload } from '~/lib/csv.server'
import { shopDateTime } from '~/lib/date-format'
import { paiseToDecimalText } from '~/lib/money'
import { requirePermission } from '~/services/permissions.server'
import { orderFilterFromUrl } from './filters'
import { adminStatusLabel } from '~/components/admin/order-badges'
import type { Route } from './+types/export'

/**
 * GET /admin/orders/export?q=&status=&reports=: the orders the list shows (same filters, every
 * page) as a CSV file streamed from the database (app/lib/csv.server.ts), so an export of any
 * size starts at once and holds a few rows in memory. Amounts are rupees with two decimals (a
 * spreadsheet sums them); dates are en-IN in the shop's time zone, like the pages.
 */
export const EXPORT_COLUMNS = [
  'Order ID',
  'Date',
  'Customer Name',
  'Email',
  'Phone',
  'Product',
  'Amount',
  'Status',
  'Gateway',
  'Transaction ID',
  'Test Mode',
  'Open Report',
] as const

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, 'canManageOrders')
  const { db } = services()
  const filter = orderFilterFromUrl(new URL(request.url))
  const { timezone } = await getSiteSettings(db)
  const date = shopDateTime(timezone)
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: timezone }).format(new Date())

  return csvDownload({
    filename: `orders-${today}.csv`,
    header: EXPORT_COLUMNS,
    rows: exportAdminOrders(db, filter),
    toCells: (order) => [
      order.id,
      date.format(new Date(order.createdAt)),
      order.customerName,
      order.customerEmail,
      order.customerPhone,
      order.productName,
      paiseToDecimalText(order.amount),
      adminStatusLabel(order.status),
      order.gateway,
      order.gatewayTxnId ?? '',
      order.testMode ? 'Yes' : 'No',
      order.hasOpenReport ? 'Yes' : 'No',
    ],
  })
}
