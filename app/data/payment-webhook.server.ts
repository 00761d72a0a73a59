import type { DB } from '~/lib/db.server'

/**
 * Webhook deliveries already handled, by the gateway's event id (Razorpay's
 * x-razorpay-event-id, the same for every retry of one event). A delivery is claimed before it
 * is acted on, so of several identical deliveries arriving together only one acts; a claim whose
 * handling failed is released, so the gateway's retry acts instead.
 */
export async function claimWebhookEvent(
  db: DB,
  event: { gateway: string; eventId: string; event: string; orderId: string | null },
  now = new Date(),
): Promise<boolean> {
  const inserted = await db
    .insertInto('paymentWebhookEvent')
    .values({ ...event, receivedAt: now.toISOString() })
    .onConflict((oc) => oc.columns(['gateway', 'eventId']).doNothing())
    .returning('eventId')
    .executeTakeFirst()
  return Boolean(inserted)
}

export async function releaseWebhookEvent(db: DB, gateway: string, eventId: string): Promise<void> {
  await db
    .deleteFrom('paymentWebhookEvent')
    .where('gateway', '=', gateway)
    .where('eventId', '=', eventId)
    .execute()
}

/**
 * How long a handled event is remembered: Razorpay retries a delivery for 24 hours and PhonePe
 * for less, so a week leaves a wide margin for a shop that was down meanwhile.
 */
export const WEBHOOK_EVENT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000

/** Forgets events received more than WEBHOOK_EVENT_RETENTION_MS before `now` (housekeeping). */
export async function pruneWebhookEvents(db: DB, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - WEBHOOK_EVENT_RETENTION_MS)
  const result = await db
    .deleteFrom('paymentWebhookEvent')
    .where('receivedAt', '<', before.toISOString())
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
