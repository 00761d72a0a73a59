import type { Selectable, Transaction } from 'kysely'
import type { DB } from '~/lib/db.server'
import { newId } from '~/lib/id.server'
import { appendOrderEvent } from './order-event.server'
import { PAID_STATUSES, takeOrderRows } from './order.server'
import type { Database, OrderRefundStatus, OrderRefundTable, OrderStatus } from '../../db/schema'

/**
 * Refunds asked of a gateway's refund API (docs/payments.md, "Refunds"). A refund row is written
 * with the order claimed (a write first in the transaction: SQLite's write lock, PostgreSQL's row
 * lock), so the amount left to refund is decided once even when two admins, or a double click,
 * ask together; the row's id is the key the admin's form carried, so the same form posted twice
 * writes one row. Rows move requested -> pending -> processed | failed, each step a
 * compare-and-set.
 */
export type OrderRefund = Selectable<OrderRefundTable>
export type { OrderRefundStatus }

/** Refunds that still count against what may be refunded (all but failed ones). */
const LIVE_REFUND_STATUSES = ['requested', 'pending', 'processed'] as const

/** Our refund id: also the gateway's idempotency key (Paytm's refId: no "REFUND" in it). */
export function newRefundId(): string {
  for (;;) {
    const id = `RFD_${newId()}`
    if (!/refund/i.test(id)) return id
  }
}

export type CreateRefundResult =
  | { kind: 'created'; refund: OrderRefund }
  /** This id was written before (the same form posted again): nothing new. */
  | { kind: 'duplicate'; refund: OrderRefund }
  | { kind: 'not-refundable'; status: OrderStatus | null }
  | { kind: 'no-payment' }
  | { kind: 'too-much'; leftPaise: number }

/** Paise of the order's refunds in these states. */
async function refundTotal(
  db: DB,
  orderId: string,
  statuses: readonly OrderRefundStatus[],
): Promise<number> {
  const row = await db
    .selectFrom('orderRefund')
    .select((eb) => eb.fn.sum<number | string | null>('amount').as('sum'))
    .where('orderId', '=', orderId)
    .where('status', 'in', statuses)
    .executeTakeFirst()
  return Number(row?.sum ?? 0)
}

/** Paise paid for the order less every refund that has not failed. */
async function leftToRefund(db: DB, orderId: string, paidPaise: number): Promise<number> {
  return paidPaise - (await refundTotal(db, orderId, LIVE_REFUND_STATUSES))
}

/**
 * Writes a refund request for a paid order, once per id, for at most what is left to refund;
 * `enqueue` runs in the same transaction (the job that asks the gateway).
 */
export async function createRefundRequest(
  db: DB,
  input: { id: string; orderId: string; amountPaise: number; reason: string; actor: string },
  now: Date,
  enqueue: (trx: Transaction<Database>, refund: OrderRefund) => Promise<void>,
): Promise<CreateRefundResult> {
  const at = now.toISOString()
  return db.transaction().execute(async (trx) => {
    // The write comes first, so a concurrent request waits here and then sees this one's row.
    const order = await takeOrderRows(trx)
      .where('id', '=', input.orderId)
      .returning(['status', 'gateway', 'gatewayTxnId', 'paidAmount', 'amount'])
      .executeTakeFirst()
    const existing = await trx
      .selectFrom('orderRefund')
      .selectAll()
      .where('id', '=', input.id)
      .executeTakeFirst()
    if (existing) return { kind: 'duplicate', refund: existing } as const
    if (!order || !(PAID_STATUSES as readonly string[]).includes(order.status))
      return { kind: 'not-refundable', status: order?.status ?? null } as const
    if (!order.gatewayTxnId) return { kind: 'no-payment' } as const
    const left = await leftToRefund(trx, input.orderId, order.paidAmount ?? order.amount)
    if (input.amountPaise > left) return { kind: 'too-much', leftPaise: Math.max(0, left) } as const
    const refund = await trx
      .insertInto('orderRefund')
      .values({
        id: input.id,
        orderId: input.orderId,
        gateway: order.gateway,
        amount: input.amountPaise,
        reason: input.reason,
        status: 'requested',
        requestedBy: input.actor,
        createdAt: at,
        updatedAt: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await enqueue(trx, refund)
    return { kind: 'created', refund } as const
  })
}

export async function getRefund(db: DB, id: string): Promise<OrderRefund | null> {
  return (
    (await db.selectFrom('orderRefund').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
  )
}

export async function getRefundByGatewayId(
  db: DB,
  gateway: string,
  gatewayRefundId: string,
): Promise<OrderRefund | null> {
  const row = await db
    .selectFrom('orderRefund')
    .selectAll()
    .where('gateway', '=', gateway)
    .where('gatewayRefundId', '=', gatewayRefundId)
    .executeTakeFirst()
  return row ?? null
}

export async function listOrderRefunds(db: DB, orderId: string): Promise<OrderRefund[]> {
  return db
    .selectFrom('orderRefund')
    .selectAll()
    .where('orderId', '=', orderId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute()
}

/** What may still be refunded of a paid order, in paise (0 for any other order). */
export async function refundableAmount(db: DB, orderId: string): Promise<number> {
  const order = await db
    .selectFrom('order')
    .select(['status', 'paidAmount', 'amount', 'gatewayTxnId'])
    .where('id', '=', orderId)
    .executeTakeFirst()
  if (!order || !order.gatewayTxnId || !(PAID_STATUSES as readonly string[]).includes(order.status))
    return 0
  return Math.max(0, await leftToRefund(db, orderId, order.paidAmount ?? order.amount))
}

/**
 * The gateway accepted the refund: requested -> pending with its refund id (kept when it gave
 * none this time). Counts the check. Returns false when the refund had already moved on.
 */
export async function markRefundPending(
  db: DB,
  id: string,
  answer: { gatewayRefundId: string | null; message: string },
  now: Date,
): Promise<boolean> {
  const at = now.toISOString()
  const updated = await db
    .updateTable('orderRefund')
    .set((eb) => ({
      status: 'pending',
      gatewayRefundId: answer.gatewayRefundId ? answer.gatewayRefundId : eb.ref('gatewayRefundId'),
      gatewayMessage: answer.message.slice(0, 500),
      statusChecks: eb('statusChecks', '+', 1),
      updatedAt: at,
    }))
    .where('id', '=', id)
    .where('status', 'in', ['requested', 'pending'])
    .executeTakeFirst()
  return Number(updated.numUpdatedRows) > 0
}

/** A check that changed nothing: counted, with the gateway's words. */
export async function recordRefundCheck(
  db: DB,
  id: string,
  message: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('orderRefund')
    .set((eb) => ({
      gatewayMessage: message.slice(0, 500),
      statusChecks: eb('statusChecks', '+', 1),
      updatedAt: now.toISOString(),
    }))
    .where('id', '=', id)
    .execute()
}

/**
 * The refund is final (processed or failed), once: the row moves only from `from` (requested or
 * pending; a failed one only when the gateway later reports it processed), and `also` runs in
 * the same transaction (the order's side of it). Returns the settled row, or null when another
 * call settled it first.
 */
export async function settleRefund(
  db: DB,
  id: string,
  outcome: { status: 'processed' | 'failed'; gatewayRefundId: string | null; message: string },
  now: Date,
  also: (trx: Transaction<Database>, refund: OrderRefund) => Promise<void>,
  from: readonly OrderRefundStatus[] = ['requested', 'pending'],
): Promise<OrderRefund | null> {
  const at = now.toISOString()
  return db.transaction().execute(async (trx) => {
    // The order's row first, as a refund request takes it: two refunds of one order settling at
    // once then settle in turn, and the second sees the first's total (the last part of a
    // refund in pieces makes the order refunded, even under PostgreSQL's read committed).
    await takeOrderRows(trx)
      .where('id', '=', (eb) =>
        eb.selectFrom('orderRefund').select('orderRefund.orderId').where('orderRefund.id', '=', id),
      )
      .execute()
    const updated = await trx
      .updateTable('orderRefund')
      .set((eb) => ({
        status: outcome.status,
        gatewayRefundId: outcome.gatewayRefundId
          ? outcome.gatewayRefundId
          : eb.ref('gatewayRefundId'),
        gatewayMessage: outcome.message.slice(0, 500),
        updatedAt: at,
        processedAt: outcome.status === 'processed' ? at : null,
      }))
      .where('id', '=', id)
      .where('status', 'in', from)
      .returningAll()
      .executeTakeFirst()
    if (!updated) return null
    await also(trx, updated)
    return updated
  })
}

/** The order's refunds the gateway has not answered (requested or pending). */
export function listUnansweredRefunds(
  db: DB,
  orderId: string,
): Promise<Pick<OrderRefund, 'id' | 'amount' | 'status' | 'checksStoppedAt'>[]> {
  return db
    .selectFrom('orderRefund')
    .select(['id', 'amount', 'status', 'checksStoppedAt'])
    .where('orderId', '=', orderId)
    .where('status', 'in', ['requested', 'pending'])
    .execute()
}

/**
 * Marks that KeyBazaar stopped asking about a refund still unanswered, once: after the order's
 * row (as a settlement takes it), so a refund settled meanwhile, or marked before, returns false.
 */
export async function markRefundChecksStopped(
  trx: Transaction<Database>,
  refund: Pick<OrderRefund, 'id' | 'orderId'>,
  at: string,
): Promise<boolean> {
  await takeOrderRows(trx).where('id', '=', refund.orderId).execute()
  const marked = await trx
    .updateTable('orderRefund')
    .set({ checksStoppedAt: at })
    .where('id', '=', refund.id)
    .where('status', 'in', ['requested', 'pending'])
    .where('checksStoppedAt', 'is', null)
    .executeTakeFirst()
  return Number(marked.numUpdatedRows) > 0
}

/** Paise refunded (processed) for an order, inside the caller's transaction. */
export function processedRefundTotal(db: DB, orderId: string): Promise<number> {
  return refundTotal(db, orderId, ['processed'])
}

/**
 * A paid order whose whole payment went back: refunded, with its timeline entry, and its live
 * item (delivered or held) revoked so the buyer no longer sees it. Inside the refund's
 * transaction. Returns whether the order changed.
 */
export async function markOrderRefundedByGateway(
  trx: Transaction<Database>,
  orderId: string,
  event: { message: string; data: unknown; actor: string },
  at: string,
): Promise<boolean> {
  const before = await trx
    .selectFrom('order')
    .select('status')
    .where('id', '=', orderId)
    .executeTakeFirst()
  if (!before || !(PAID_STATUSES as readonly string[]).includes(before.status)) return false
  const updated = await trx
    .updateTable('order')
    .set({ status: 'refunded', updatedAt: at })
    .where('id', '=', orderId)
    .where('status', '=', before.status)
    .executeTakeFirst()
  if (Number(updated.numUpdatedRows) === 0) return false
  await appendOrderEvent(
    trx,
    orderId,
    { type: 'refunded', from: before.status, to: 'refunded', ...event },
    at,
  )
  await trx
    .updateTable('stockItem')
    .set({ status: 'revoked', revokedReason: 'Refunded', revokedAt: at, updatedAt: at })
    .where('orderId', '=', orderId)
    .where('status', 'in', ['held', 'delivered'])
    .execute()
  return true
}
