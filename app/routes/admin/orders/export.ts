import { exportAdminOrders } from '~/data/order-admin.server'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { shopDateTime } from '~/lib/date-format'
import { paiseToDecimalText } from '~/lib/money'
import { requirePermission } from '~/lib/permissions.server'
import { csvLine } from './csv'
import { orderFilterFromUrl } from './filters'
import { adminStatusLabel } from './order-status'
import type { Route } from './+types/export'

/**
 * GET /admin/orders/export?q=&status=&reports=: the orders the list shows (same filters, every
 * page) as a CSV file, streamed batch by batch from the database, so an export of any size
 * starts at once and holds one batch in memory. Amounts are rupees with two decimals (a
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

  const rows = exportAdminOrders(db, filter)
  const encoder = new TextEncoder()
  let started = false
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!started) {
          started = true
          // The byte order mark makes Excel read the file as UTF-8 (₹, Hindi names).
          controller.enqueue(encoder.encode(`\uFEFF${csvLine(EXPORT_COLUMNS)}`))
          return
        }
        let chunk = ''
        for (let i = 0; i < 200; i++) {
          const next = await rows.next()
          if (next.done) {
            if (chunk) controller.enqueue(encoder.encode(chunk))
            controller.close()
            return
          }
          const order = next.value
          chunk += csvLine([
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
          ])
        }
        controller.enqueue(encoder.encode(chunk))
      } catch (error) {
        console.error('[admin] order export failed:', error)
        controller.error(error)
      }
    },
    async cancel() {
      await rows.return(undefined)
    },
  })
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="orders-${today}.csv"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}
