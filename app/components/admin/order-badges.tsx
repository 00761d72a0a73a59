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

/**
 * A listed order's refund marks beside its status (docs/payments.md, "Refunds"), on the Orders
 * and Transactions lists alike: part refunded (how much, formatted; the order is still a sale),
 * a refund waiting for the gateway's answer, and a refund problem (one that failed, or that the
 * gateway never answered).
 */
export function RefundBadges({
  partRefunded,
  refundPending,
  refundProblem,
}: {
  /** What the processed refunds gave back, formatted, when the payment is part refunded. */
  partRefunded: string | null
  refundPending: boolean
  refundProblem: boolean
}) {
  return (
    <>
      {partRefunded ? (
        <Badge
          tone="violet"
          title="Part of the payment went back through the gateway; the Amount is what was charged"
        >
          Part refunded {partRefunded}
        </Badge>
      ) : null}
      {refundPending ? (
        <Badge tone="warning" title="A refund is waiting for the gateway’s answer">
          Refund pending
        </Badge>
      ) : null}
      {refundProblem ? (
        <Badge
          tone="danger"
          title="A refund failed, or the gateway never answered about it: see the order’s Refunds"
        >
          Refund problem
        </Badge>
      ) : null}
    </>
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
