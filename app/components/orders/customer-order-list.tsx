import ChevronRight from 'lucide-react/icons/chevron-right'
import FileDown from 'lucide-react/icons/file-down'
import { Link } from 'react-router'
import { CardList } from '~/components/ui/card'
import { formatRupees } from '~/lib/money'
import { invoicePath, orderPath } from '~/lib/order-status'
import { hasInvoice, OrderStatusBadge } from './order-status'

/** A signed-in customer's orders as rows (My Orders, the dashboard's recent orders). */
export interface CustomerOrderItem {
  id: string
  productName: string
  /** Formatted rupees. */
  amount: string
  status: string
  /** Formatted date and time. */
  date: string
  /** Whether its invoice can be downloaded: a paid sale, or a refunded one with credit notes. */
  invoice: boolean
}

/** A row from the customer's orders (app/data/customer-orders.server.ts), as the list shows it. */
export function customerOrderItem(
  order: {
    id: string
    productName: string
    amount: number
    status: string
    createdAt: string
    creditNoted: boolean
  },
  date: Intl.DateTimeFormat,
): CustomerOrderItem {
  return {
    id: order.id,
    productName: order.productName,
    amount: formatRupees(order.amount),
    status: order.status,
    date: date.format(new Date(order.createdAt)),
    invoice: hasInvoice(order.status) || order.creditNoted,
  }
}

export function CustomerOrderList({ orders }: { orders: CustomerOrderItem[] }) {
  return (
    <CardList>
      {orders.map((order) => (
        <li
          key={order.id}
          className="grid gap-3 p-4 sm:grid-cols-[minmax(0,1fr)_auto_auto] sm:items-center sm:gap-6 sm:px-5"
        >
          <div className="min-w-0">
            <p className="font-semibold text-slate-950 dark:text-white">{order.productName}</p>
            <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-300">
              <span className="font-mono break-all">{order.id}</span>
              <span aria-hidden="true"> · </span>
              <span className="whitespace-nowrap">{order.date}</span>
            </p>
          </div>
          <div className="flex items-center gap-3 sm:flex-col sm:items-end sm:gap-1">
            <span className="font-semibold text-slate-950 dark:text-white">{order.amount}</span>
            <OrderStatusBadge status={order.status} />
          </div>
          <div className="flex flex-wrap items-center gap-2 sm:justify-end">
            {order.invoice ? (
              <a
                href={invoicePath(order.id)}
                download
                className="inline-flex h-10 items-center gap-1.5 rounded-lg px-3 text-sm font-semibold text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
              >
                <FileDown aria-hidden="true" className="size-4" />
                Invoice<span className="sr-only"> for order {order.id} (PDF)</span>
              </a>
            ) : null}
            <Link
              to={orderPath(order.id)}
              className="inline-flex h-10 items-center gap-1 rounded-lg border border-slate-300 px-3 text-sm font-semibold text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
            >
              View order<span className="sr-only"> {order.id}</span>
              <ChevronRight aria-hidden="true" className="size-4" />
            </Link>
          </div>
        </li>
      ))}
    </CardList>
  )
}
