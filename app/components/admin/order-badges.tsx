import FlaskConical from 'lucide-react/icons/flask-conical'
import MessageSquareWarning from 'lucide-react/icons/message-square-warning'
import { Link } from 'react-router'
import { Badge, type BadgeTone } from '~/components/admin/badge'
import { adminOrderPath, isOrderStatus, type OrderStatus } from '~/lib/order-status'

/**
 * Orders in the back office's words and marks. Statuses are named short and exact ("Awaiting
 * stock"), where the buyer's pages use gentler words ("Waiting for stock"). Browser safe:
 * shared by the orders list, the order page, the dashboard and the CSV export.
 */
export const ADMIN_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  delivered: 'Delivered',
  awaiting_stock: 'Awaiting stock',
  failed: 'Failed',
  expired: 'Expired',
  refunded: 'Refunded',
}

export function adminStatusLabel(status: string): string {
  return isOrderStatus(status) ? ADMIN_STATUS_LABELS[status] : status
}

const TONES: Record<OrderStatus, BadgeTone> = {
  delivered: 'success',
  paid: 'info',
  awaiting_stock: 'warning',
  pending: 'neutral',
  failed: 'danger',
  expired: 'muted',
  refunded: 'violet',
}

export function AdminStatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={isOrderStatus(status) ? TONES[status] : 'neutral'}>
      {adminStatusLabel(status)}
    </Badge>
  )
}

/** Paid through the built-in simulator: no real money moved. */
export function TestModeBadge() {
  return (
    <Badge
      tone="orange"
      icon={FlaskConical}
      title="Paid through a built-in simulator or a gateway’s test environment: no real money moved"
    >
      Test
    </Badge>
  )
}

export function OpenReportBadge() {
  return (
    <Badge
      tone="danger"
      icon={MessageSquareWarning}
      title="The buyer reported a problem that is not resolved yet"
    >
      Report
    </Badge>
  )
}

/** An order's id, linking to its page in the back office. */
export function OrderLink({ orderId, wrap = false }: { orderId: string; wrap?: boolean }) {
  return (
    <Link
      to={adminOrderPath(orderId)}
      className={`font-mono text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300 ${wrap ? 'break-all' : ''}`}
    >
      {orderId}
    </Link>
  )
}
