import { sql, type Selectable, type Transaction } from 'kysely'
import { toFlag, type DB } from '~/lib/db.server'
import { newId } from '~/lib/id.server'
import type { Database, OrderReportTable, ReportResolution } from '../../db/schema'
import { appendOrderEvent } from './order-event.server'

/**
 * "This item does not work": the buyer reports a delivered order from its order page
 * with a reason; the shop sees open reports in the admin and resolves each with a replacement
 * (app/data/order-admin.server.ts) or a reply that is e-mailed to the buyer. One open report per
 * order (a partial unique index); every step is in the order's timeline.
 */
export type OrderReport = Selectable<OrderReportTable>

export const REPORT_REASON_MIN = 10
export const REPORT_REASON_MAX = 2000
export const REPORT_MESSAGES = {
  tooShort: `Please describe the problem in at least ${REPORT_REASON_MIN} characters.`,
  tooLong: `Please keep the description under ${REPORT_REASON_MAX} characters.`,
  notDelivered: 'Only a delivered order can be reported.',
  alreadyOpen: 'You have already reported a problem with this order. We will get back to you soon.',
} as const

export type CreateReportResult = { ok: true; report: OrderReport } | { ok: false; error: string }

/**
 * The buyer reports a delivered order. `notify` runs in the same transaction with the report
 * (app/services/order-reports.server.ts's createOrderReport mails the shop there).
 */
export async function insertOrderReport(
  db: DB,
  input: { orderId: string; reason: string; reportedBy: string },
  now: Date,
  notify: (
    trx: Transaction<Database>,
    report: { orderId: string; productName: string; reason: string },
  ) => Promise<unknown>,
): Promise<CreateReportResult> {
  const reason = input.reason.trim()
  if (reason.length < REPORT_REASON_MIN) return { ok: false, error: REPORT_MESSAGES.tooShort }
  if (reason.length > REPORT_REASON_MAX) return { ok: false, error: REPORT_MESSAGES.tooLong }
  return db.transaction().execute(async (trx) => {
    const order = await trx
      .selectFrom('order')
      .select(['id', 'status', 'productName'])
      .where('id', '=', input.orderId)
      .executeTakeFirst()
    if (order?.status !== 'delivered')
      return { ok: false as const, error: REPORT_MESSAGES.notDelivered }
    const open = await trx
      .selectFrom('orderReport')
      .select('id')
      .where('orderId', '=', order.id)
      .where('status', '=', 'open')
      .executeTakeFirst()
    if (open) return { ok: false as const, error: REPORT_MESSAGES.alreadyOpen }
    const at = now.toISOString()
    // A report sent twice at once: the partial unique index keeps one, the other is told.
    const report = await trx
      .insertInto('orderReport')
      .values({
        id: newId(),
        orderId: order.id,
        reason,
        reportedBy: input.reportedBy,
        createdAt: at,
        resolution: null,
        reply: null,
        resolvedBy: null,
        resolvedAt: null,
      })
      .onConflict((oc) =>
        oc
          .column('orderId')
          .where(sql<boolean>`status = 'open'`)
          .doNothing(),
      )
      .returningAll()
      .executeTakeFirst()
    if (!report) return { ok: false as const, error: REPORT_MESSAGES.alreadyOpen }
    await appendOrderEvent(
      trx,
      order.id,
      {
        type: 'problem_reported',
        message: `Buyer reported a problem: ${reason.slice(0, 200)}`,
        data: { reportId: report.id },
        actor: input.reportedBy,
      },
      at,
    )
    await notify(trx, { orderId: order.id, productName: order.productName, reason })
    return { ok: true as const, report }
  })
}

/** The order's reports, newest first. */
export async function listOrderReports(db: DB, orderId: string): Promise<OrderReport[]> {
  return db
    .selectFrom('orderReport')
    .selectAll()
    .where('orderId', '=', orderId)
    .orderBy('createdAt', 'desc')
    .orderBy('id')
    .execute()
}

export interface OpenReportRow extends OrderReport {
  productName: string
  customerName: string
  customerEmail: string
  orderStatus: string
}

/** Open reports across the shop, oldest first (the admin's queue). */
export async function listOpenReports(
  db: DB,
  options: { limit?: number } = {},
): Promise<OpenReportRow[]> {
  return db
    .selectFrom('orderReport')
    .innerJoin('order', 'order.id', 'orderReport.orderId')
    .selectAll('orderReport')
    .select([
      'order.productName',
      'order.customerName',
      'order.customerEmail',
      'order.status as orderStatus',
    ])
    .where('orderReport.status', '=', 'open')
    .orderBy('orderReport.createdAt')
    .orderBy('orderReport.id')
    .limit(options.limit ?? 100)
    .execute()
}

export async function countOpenReports(
  db: DB,
  { realOnly = false }: { realOnly?: boolean } = {},
): Promise<number> {
  const row = await db
    .selectFrom('orderReport')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('orderReport.status', '=', 'open')
    // Reports on real orders only (the orders list's "Real orders only").
    .$if(realOnly, (qb) =>
      qb.where((eb) =>
        eb.exists(
          eb
            .selectFrom('order')
            .select('order.id')
            .whereRef('order.id', '=', 'orderReport.orderId')
            .where('order.testMode', '=', toFlag(false)),
        ),
      ),
    )
    .executeTakeFirst()
  return Number(row?.count ?? 0)
}

/**
 * Closes the order's open report (if any) with how it was resolved, and the reply the buyer is
 * sent (mailed by the caller, replyToReport in app/services/order-actions.server.ts). Pass the transaction of the action that resolved it (a replacement, a refund).
 * Returns false when there was no open report.
 */
export async function resolveOrderReport(
  db: DB,
  input: { orderId: string; resolution: ReportResolution; actor: string; reply?: string },
  now = new Date(),
): Promise<boolean> {
  const at = now.toISOString()
  const reply = input.reply?.trim() || null
  const resolved = await db
    .updateTable('orderReport')
    .set({
      status: 'resolved',
      resolution: input.resolution,
      reply,
      resolvedBy: input.actor,
      resolvedAt: at,
    })
    .where('orderId', '=', input.orderId)
    .where('status', '=', 'open')
    .returning('id')
    .executeTakeFirst()
  if (!resolved) return false
  await appendOrderEvent(
    db,
    input.orderId,
    {
      type: 'report_resolved',
      message: reply
        ? `Report resolved (${input.resolution}): ${reply.slice(0, 200)}`
        : `Report resolved (${input.resolution})`,
      data: { reportId: resolved.id, resolution: input.resolution },
      actor: input.actor,
    },
    at,
  )
  return true
}
