import { sql, type SelectQueryBuilder } from 'kysely'
import { streamRows, toFlag, type DB } from '~/lib/db.server'
import { SEARCH_MAX } from '~/lib/list-search'
import { paginate } from '~/lib/paginate'
import { containsAny } from '~/lib/sql-contains'
import {
  TRANSACTION_STATUSES,
  transactionStatusOf,
  type TransactionStatus,
} from '~/lib/transaction-status'
import type { Database, OrderStatus } from '../../db/schema'
import { successRate } from './dashboard.server'
import { PAID_STATUSES } from './order.server'
import {
  BUYER_COLUMNS,
  LISTED_ORDER_COLUMNS,
  newestOrdersFirst,
  refundMarkColumns,
  refundMarksOf,
  type ListedOrderRow,
} from './order-admin.server'

/**
 * The back office's Transactions: every order is one payment attempt at its gateway, with the
 * gateway's transaction id and bank reference, and a status the owner reads as a payment's
 * (success, pending, failed, refunded; app/lib/transaction-status.ts maps the order statuses).
 * Filters, search, paging, the success rate of the filtered set and the streamed CSV export
 * all run in the database. Like the Orders page, every attempt is listed unless "real only"
 * leaves out those paid through the simulator (test mode), from the figures, the status
 * counts, the list and the export alike. A refund does not always change the attempt's status:
 * part of a payment given back leaves the order paid (a success), so each attempt also carries
 * what its processed refunds gave back and whether a refund is still pending at the gateway, as
 * the Orders list marks them (docs/payments.md, "Refunds").
 */
export const TRANSACTIONS_PAGE_SIZE = 20

export { TRANSACTION_STATUSES, type TransactionStatus }

const ORDER_STATUSES_OF: Record<TransactionStatus, readonly OrderStatus[]> = {
  success: PAID_STATUSES,
  pending: ['pending'],
  failed: ['failed', 'expired'],
  refunded: ['refunded'],
}

export interface TransactionFilter {
  /**
   * Contains, any case: order id, customer name or e-mail, and the payment's references (the
   * gateway's transaction and order ids, the bank's reference).
   */
  search?: string
  status?: TransactionStatus | null
  gateway?: string | null
  /** ISO-8601 UTC instants: placed at or after `from`, before `to` (the route turns local dates into these). */
  from?: string | null
  to?: string | null
  /** Real payments only: no test-mode (simulated) attempts. */
  realOnly?: boolean
}

export interface TransactionRow extends ListedOrderRow {
  orderId: string
  status: TransactionStatus
  bankTxnId: string | null
  /** Paise given back by the order's processed refunds (`processedRefunds`, app/data/order.server.ts). */
  refunded: number
  /** Part of the payment went back through the gateway and the attempt is still a success. */
  partRefunded: boolean
  /** A refund the gateway has not answered yet, and KeyBazaar still asks it about. */
  refundPending: boolean
  /** A refund for the shop to see to: it failed, or the gateway never answered about it. */
  refundProblem: boolean
}

export interface TransactionSummary {
  total: number
  successful: number
  /** successful / total x 100, one decimal; null for an empty set. */
  successRate: number | null
}

function filtered<O>(query: SelectQueryBuilder<Database, 'order', O>, filter: TransactionFilter) {
  let q = query
  const search = filter.search?.trim().slice(0, SEARCH_MAX)
  // Besides the buyer: the ids a gateway's dashboard or a buyer's bank shows for the payment
  // (its transaction id, its own order id such as Razorpay's order_..., and the bank's
  // reference: a UPI payment's UTR, which buyers quote from their banking app).
  if (search)
    q = q.where(
      containsAny(
        [
          ...BUYER_COLUMNS,
          sql`lower(coalesce(gateway_txn_id, ''))`,
          sql`lower(coalesce(gateway_order_id, ''))`,
          sql`lower(coalesce(bank_txn_id, ''))`,
        ],
        search,
      ),
    )
  if (filter.status) q = q.where('order.status', 'in', ORDER_STATUSES_OF[filter.status])
  if (filter.gateway) q = q.where('order.gateway', '=', filter.gateway)
  if (filter.from) q = q.where('order.createdAt', '>=', filter.from)
  if (filter.to) q = q.where('order.createdAt', '<', filter.to)
  if (filter.realOnly) q = q.where('order.testMode', '=', toFlag(false))
  return q
}

const selectRows = (db: DB, filter: TransactionFilter) =>
  newestOrdersFirst(
    filtered(db.selectFrom('order'), filter)
      .select('order.id as orderId')
      .select([...LISTED_ORDER_COLUMNS, 'order.bankTxnId', 'order.paidAmount'])
      .select((eb) => refundMarkColumns(db, eb)),
  )

type RawRow = Awaited<ReturnType<ReturnType<typeof selectRows>['execute']>>[number]

const toRow = ({ paidAmount, ...row }: RawRow): TransactionRow => ({
  ...row,
  amount: Number(row.amount),
  status: transactionStatusOf(row.status),
  testMode: Boolean(row.testMode),
  // Read off the order's status, before it becomes the attempt's.
  ...refundMarksOf(row, paidAmount),
})

const paidList = sql.join(PAID_STATUSES.map((status) => sql.lit(status)))

/** How many attempts the filter matches and how many succeeded. */
export async function transactionSummary(
  db: DB,
  filter: TransactionFilter,
): Promise<TransactionSummary> {
  const row = await filtered(db.selectFrom('order'), filter)
    .select((eb) => [
      eb.fn.countAll<number | string>().as('total'),
      eb.fn
        .sum<number | string | null>(sql`case when status in (${paidList}) then 1 else 0 end`)
        .as('successful'),
    ])
    .executeTakeFirstOrThrow()
  const total = Number(row.total)
  const successful = Number(row.successful ?? 0)
  return { total, successful, successRate: successRate(successful, total) }
}

/** How many attempts of each status the filter matches when its status is left out (the status chips). */
export async function transactionStatusCounts(
  db: DB,
  filter: TransactionFilter,
): Promise<Record<TransactionStatus, number>> {
  const rows = await filtered(db.selectFrom('order'), { ...filter, status: null })
    .select((eb) => ['order.status', eb.fn.countAll<number | string>().as('count')])
    .groupBy('order.status')
    .execute()
  const counts: Record<TransactionStatus, number> = {
    success: 0,
    pending: 0,
    failed: 0,
    refunded: 0,
  }
  for (const row of rows) counts[transactionStatusOf(row.status)] += Number(row.count)
  return counts
}

/** A page of attempts, newest first, with the filtered set's summary. */
export async function listTransactions(
  db: DB,
  query: TransactionFilter & { page?: number; pageSize?: number },
) {
  const summary = await transactionSummary(db, query)
  const { page, pageSize, pageCount, offset } = paginate(summary.total, query, {
    defaultSize: TRANSACTIONS_PAGE_SIZE,
    maxSize: 100,
  })
  const rows = await selectRows(db, query).limit(pageSize).offset(offset).execute()
  return { items: rows.map(toRow), summary, page, pageSize, pageCount }
}

/** The gateways that have orders, for the gateway filter. */
export async function transactionGateways(db: DB): Promise<string[]> {
  const rows = await db
    .selectFrom('order')
    .select('gateway')
    .distinct()
    .orderBy('gateway')
    .execute()
  return rows.map((row) => row.gateway)
}

/**
 * Every attempt the filter matches, newest first, streamed on a connection of its own
 * (streamRows), so an export of 100,000 rows holds a few hundred in memory.
 */
export async function* exportTransactions(
  db: DB,
  filter: TransactionFilter,
  chunkSize = 500,
): AsyncGenerator<TransactionRow> {
  for await (const row of streamRows(db, (reader) => selectRows(reader, filter), chunkSize)) {
    yield toRow(row)
  }
}
