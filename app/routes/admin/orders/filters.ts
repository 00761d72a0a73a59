import { href } from 'react-router'
import { listQuery } from '../list-query'
import { searchParam } from '~/lib/list-search'
import { isOrderStatus, type OrderStatus } from '~/lib/order-status'

/**
 * The orders list's filters live in the URL (?q=&status=&reports=open&refunds=problem&real=1
 * &page=), so a filtered list can be bookmarked, the back button works, and the export gets
 * exactly what the list shows. Anything else in the URL is ignored.
 */
export const ORDERS_PATH = href('/admin/orders')
export const ORDERS_EXPORT_PATH = href('/admin/orders/export')
export const ORDER_NOT_FOUND_TITLE = 'Order not found'

export interface OrderFilter {
  search: string
  status: OrderStatus | null
  openReports: boolean
  /** Only orders with a refund problem (app/data/order-admin.server.ts, docs/payments.md). */
  refundProblems: boolean
  /** Real orders only, no test-mode (simulated) payments. */
  realOnly: boolean
}

export function orderFilterFromUrl(url: URL): OrderFilter {
  const status = url.searchParams.get('status')
  return {
    search: searchParam(url),
    status: isOrderStatus(status) ? status : null,
    openReports: url.searchParams.get('reports') === 'open',
    refundProblems: url.searchParams.get('refunds') === 'problem',
    realOnly: url.searchParams.get('real') === '1',
  }
}

/** The query string for a filter (and page); empty values are left out. */
export function filterQuery(filter: Partial<OrderFilter>, page = 1): string {
  const { search: q, status, openReports, refundProblems, realOnly } = filter
  return listQuery(
    {
      q,
      status,
      reports: openReports ? 'open' : null,
      refunds: refundProblems ? 'problem' : null,
      real: realOnly ? '1' : null,
    },
    page,
  )
}
