import type { DB } from '~/lib/db.server'
import type { OrderStatus } from '../../db/schema'

export interface EventInput {
  type: string
  message: string
  data?: unknown
  actor?: string
  /** The status change the entry records, if any. */
  from?: OrderStatus | null
  to?: OrderStatus | null
}

/**
 * Adds an entry to the order's timeline: the one writer of order_event. Pass the transaction of
 * the change it records; on its own it notes something without a change (e.g. an amount mismatch).
 */
export async function appendOrderEvent(
  db: DB,
  orderId: string,
  event: EventInput,
  now: Date | string = new Date(),
): Promise<void> {
  await db
    .insertInto('orderEvent')
    .values({
      orderId,
      type: event.type,
      fromStatus: event.from ?? null,
      toStatus: event.to ?? null,
      message: event.message,
      data: event.data === undefined ? null : JSON.stringify(event.data),
      actor: event.actor ?? 'system',
      createdAt: typeof now === 'string' ? now : now.toISOString(),
    })
    .execute()
}

/** When the order's latest timeline entry of one of `types` after `since` was written, or null. */
export async function latestOrderEventAt(
  db: DB,
  orderId: string,
  types: readonly string[],
  since: Date,
): Promise<Date | null> {
  const latest = await db
    .selectFrom('orderEvent')
    .select((eb) => eb.fn.max('createdAt').as('at'))
    .where('orderId', '=', orderId)
    .where('type', 'in', types)
    .where('createdAt', '>', since.toISOString())
    .executeTakeFirst()
  return latest?.at ? new Date(latest.at) : null
}
