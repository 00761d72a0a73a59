import type { ReactNode } from 'react'
import { ListCard } from './admin-list'
import type { Column } from './list-table'
import { OrderLink } from './order-badges'

/** What each row of a back-office list of orders says about the order and its buyer. */
interface ListedOrder {
  createdAt: string
  /** createdAt in the shop's wording. */
  date: string
  customerName: string
  customerEmail: string
}

/**
 * The columns both back-office lists of orders open with (the orders, and the transactions,
 * one payment attempt per order): the order's id, when it was placed, and the buyer's name over
 * their e-mail, each cut to `customerWidth`.
 */
export function orderLeadColumns<Row extends ListedOrder>(
  orderId: (row: Row) => string,
  customerWidth: 'max-w-48' | 'max-w-56',
): Array<Column<Row>> {
  const person = `block ${customerWidth} truncate`
  return [
    { label: 'Order ID', cell: (row) => <OrderLink orderId={orderId(row)} /> },
    {
      label: 'Date',
      look: 'text',
      // The day and the time stay whole; the time goes under the day where the table needs
      // the room (a 1280 px laptop).
      cell: (row) => {
        const cut = row.date.lastIndexOf(', ')
        return (
          <time dateTime={row.createdAt}>
            {cut < 0 ? (
              <span className="whitespace-nowrap">{row.date}</span>
            ) : (
              <>
                <span className="whitespace-nowrap">{row.date.slice(0, cut + 1)}</span>{' '}
                <span className="whitespace-nowrap">{row.date.slice(cut + 2)}</span>
              </>
            )}
          </time>
        )
      },
    },
    {
      label: 'Customer',
      cell: (row) => (
        <>
          <span className={`${person} font-medium text-slate-950 dark:text-white`}>
            {row.customerName}
          </span>
          <span className={`${person} text-xs text-slate-500 dark:text-slate-400`}>
            {row.customerEmail}
          </span>
        </>
      ),
    },
  ]
}

/**
 * The phone card of both back-office lists of orders: the order's id over when it was placed
 * (and `when`'s addition, the gateway), the amount, the row's own facts, then its status badges.
 */
export function OrderListCard({
  orderId,
  order,
  whenExtra,
  markers,
  children,
}: {
  orderId: string
  order: Pick<ListedOrder, 'createdAt' | 'date'> & { amount: string }
  whenExtra?: ReactNode
  markers: ReactNode
  children: ReactNode
}) {
  return (
    <ListCard
      title={<OrderLink orderId={orderId} wrap />}
      detail={
        <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
          <time dateTime={order.createdAt}>{order.date}</time>
          {whenExtra}
        </p>
      }
      amount={order.amount}
    >
      {children}
      <div className="mt-2">{markers}</div>
    </ListCard>
  )
}
