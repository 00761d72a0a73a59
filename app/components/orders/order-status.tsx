import { Pill, type PillTone } from '~/components/ui/badge'
import { formatRupees } from '~/lib/money'
import {
  creditNotePath,
  invoicePath,
  isOrderStatus,
  PAID_PRODUCT_GONE,
  type OrderStatus,
} from '~/lib/order-status'

/**
 * An order's status in words a buyer understands (the order page, My Orders, the dashboard).
 * The database says `awaiting_stock`; the buyer reads "Waiting for stock" and what happens next
 * (the back office has its own shorter names: app/components/admin/order-badges.tsx).
 */
const STATUS: Record<OrderStatus, Entry> = {
  delivered: {
    label: 'Delivered',
    tone: 'success',
    explanation: 'Your order has been delivered. Your account details or key are on this page.',
  },
  awaiting_stock: {
    label: 'Waiting for stock',
    tone: 'warning',
    explanation:
      'Your payment is confirmed. This item is briefly out of stock: your order is in line and will be delivered automatically as soon as new stock arrives. We will e-mail you when it is ready.',
  },
  paid: {
    label: 'Paid, being prepared',
    tone: 'warning',
    explanation:
      'Your payment is confirmed. The shop is preparing your account details and will deliver them shortly. We will e-mail you when they are ready.',
  },
  pending: {
    label: 'Payment pending',
    tone: 'neutral',
    explanation:
      'We are waiting for the payment gateway to confirm this payment. If you paid, it is usually confirmed within a few minutes: reload this page to see it.',
  },
  failed: {
    label: 'Payment failed',
    tone: 'danger',
    explanation:
      'This payment did not go through, so nothing was delivered. If money left your account, contact us with your order ID and we will sort it out.',
  },
  expired: {
    label: 'Payment not completed',
    tone: 'danger',
    explanation:
      'We did not receive a confirmation of this payment from the gateway in time, so nothing was delivered. If money left your account, contact us with your order ID.',
  },
  refunded: {
    label: 'Refunded',
    tone: 'neutral',
    explanation:
      'Your payment has been refunded. Refunds usually reach your account within 5 to 7 working days, depending on your bank.',
  },
}

type Entry = { label: string; tone: PillTone; explanation: string }

/**
 * A paid order whose product was deleted before the payment landed is not being prepared: the
 * shop will deliver it another way or refund it, as the 'payment received' mail says.
 */
const PAID_PRODUCT_GONE_ENTRY: Entry = {
  label: 'Paid',
  tone: 'warning',
  explanation: `Your payment is confirmed. ${PAID_PRODUCT_GONE}`,
}

/** Whether the order's product was deleted since it was placed. */
interface Situation {
  productGone?: boolean
}

function entry(status: string, { productGone = false }: Situation = {}): Entry {
  if (status === 'paid' && productGone) return PAID_PRODUCT_GONE_ENTRY
  return isOrderStatus(status)
    ? STATUS[status]
    : { label: status, tone: 'neutral', explanation: '' }
}

export function orderStatusLabel(status: string, situation?: Situation): string {
  return entry(status, situation).label
}

/** A sentence or two: where the order stands and what happens next. */
export function orderStatusExplanation(status: string, situation?: Situation): string {
  return entry(status, situation).explanation
}

export function OrderStatusBadge({ status, productGone }: { status: string } & Situation) {
  const { label, tone } = entry(status, { productGone })
  return <Pill tone={tone}>{label}</Pill>
}

/** Whether the order has an invoice (payment confirmed and not refunded). */
export function hasInvoice(status: string): boolean {
  return status === 'paid' || status === 'delivered' || status === 'awaiting_stock'
}

/**
 * The links to an order's invoice (a paid sale, or a refunded one beside its credit notes) and
 * to its credit notes, as the buyer's and the admin's order pages offer them; `date` writes an
 * ISO date as the page does.
 */
export function orderDocuments(
  order: { id: string; status: string },
  creditNotes: ReadonlyArray<{ id: string; number: string; issuedAt: string; amount: number }>,
  date: (iso: string) => string,
) {
  return {
    invoiceUrl: hasInvoice(order.status) || creditNotes.length > 0 ? invoicePath(order.id) : null,
    creditNotes: creditNotes.map((note) => ({
      id: note.id,
      number: note.number,
      amount: formatRupees(note.amount),
      issuedAt: date(note.issuedAt),
      href: creditNotePath(order.id, note.id),
    })),
  }
}
