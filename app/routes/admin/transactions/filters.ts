import { href } from 'react-router'
import { isTransactionStatus, type TransactionStatus } from '~/lib/transaction-status'
import { searchParam } from '~/lib/list-search'
import { localDayRange, parseIsoDate } from '~/lib/shop-time'
import { listQuery } from '../list-query'

/**
 * The transactions list's filters live in the URL (?q=&status=&gateway=&from=&to=&real=1&page=),
 * so a filtered list can be bookmarked, works without JavaScript, and the export gets exactly
 * what the list shows. Dates are calendar days (YYYY-MM-DD) in the shop's time zone, both
 * included. `real=1` leaves out test-mode (simulated) payments, as on the Orders page
 * (app/routes/admin/orders/filters.ts); without it every attempt is shown, as there.
 */
export const TRANSACTIONS_PATH = href('/admin/transactions')
export const TRANSACTIONS_EXPORT_PATH = href('/admin/transactions/export')
export const GST_REGISTER_PATH = href('/admin/transactions/gst-register')
const GATEWAY_MAX = 40

export interface TransactionUrlFilter {
  search: string
  status: TransactionStatus | null
  gateway: string
  /** YYYY-MM-DD or '' */
  from: string
  to: string
  /** Real payments only, no test-mode (simulated) ones. */
  realOnly: boolean
}

export function transactionFilterFromUrl(url: URL): TransactionUrlFilter {
  const status = url.searchParams.get('status')
  const date = (name: string) => {
    const parsed = parseIsoDate(url.searchParams.get(name))
    return parsed ? (url.searchParams.get(name) ?? '') : ''
  }
  return {
    search: searchParam(url),
    status: isTransactionStatus(status) ? status : null,
    gateway: (url.searchParams.get('gateway') ?? '').trim().slice(0, GATEWAY_MAX),
    from: date('from'),
    to: date('to'),
    realOnly: url.searchParams.get('real') === '1',
  }
}

/** The database filter: local dates become UTC instants (from's midnight, the midnight after to). */
export function toQueryFilter(filter: TransactionUrlFilter, timeZone: string) {
  return {
    search: filter.search,
    status: filter.status,
    gateway: filter.gateway || null,
    ...localDayRange(filter.from, filter.to, timeZone),
    realOnly: filter.realOnly,
  }
}

/** The query string for a filter (and page); empty values are left out. */
export function filterQuery(filter: Partial<TransactionUrlFilter>, page = 1): string {
  const { search: q, status, gateway, from, to, realOnly } = filter
  return listQuery({ q, status, gateway, from, to, real: realOnly ? '1' : null }, page)
}
