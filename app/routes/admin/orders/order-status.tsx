import FlaskConical from 'lucide-react/icons/flask-conical'
import MessageSquareWarning from 'lucide-react/icons/message-square-warning'

/**
 * Order statuses as the back office names them (the buyer's pages use gentler words). Browser
 * safe: shared by the orders list, the order page and the CSV export.
 */
export const ADMIN_ORDER_STATUSES = [
  'pending',
  'paid',
  'delivered',
  'awaiting_stock',
  'failed',
  'expired',
  'refunded',
] as const
export type AdminOrderStatus = (typeof ADMIN_ORDER_STATUSES)[number]

export const ADMIN_STATUS_LABELS: Record<AdminOrderStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  delivered: 'Delivered',
  awaiting_stock: 'Awaiting stock',
  failed: 'Failed',
  expired: 'Expired',
  refunded: 'Refunded',
}

export function isAdminOrderStatus(value: unknown): value is AdminOrderStatus {
  return typeof value === 'string' && (ADMIN_ORDER_STATUSES as readonly string[]).includes(value)
}

export function adminStatusLabel(status: string): string {
  return isAdminOrderStatus(status) ? ADMIN_STATUS_LABELS[status] : status
}

const TONES: Record<AdminOrderStatus, string> = {
  delivered:
    'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  paid: 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300',
  awaiting_stock: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  pending: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
  failed: 'bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-300',
  expired: 'bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
  refunded: 'bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-300',
}

const pill = 'inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold'

export function AdminStatusBadge({ status }: { status: string }) {
  const tone = isAdminOrderStatus(status) ? TONES[status] : TONES.pending
  return <span className={`${pill} ${tone}`}>{adminStatusLabel(status)}</span>
}

/** Paid through the built-in simulator: no real money moved. */
export function TestModeBadge() {
  return (
    <span
      className={`${pill} bg-orange-100 text-orange-900 dark:bg-orange-950 dark:text-orange-200`}
      title="Paid through the built-in Paytm simulator: no real money moved"
    >
      <FlaskConical aria-hidden="true" className="size-3" />
      Test
    </span>
  )
}

export function OpenReportBadge() {
  return (
    <span
      className={`${pill} bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-300`}
      title="The buyer reported a problem that is not resolved yet"
    >
      <MessageSquareWarning aria-hidden="true" className="size-3" />
      Report
    </span>
  )
}
