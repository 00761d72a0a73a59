import type { DB } from '~/lib/db.server'

/**
 * Webhook deliveries already handled, by the gateway's event id (Razorpay's
 * x-razorpay-event-id, the same for every retry of one event). A delivery is claimed before it
 * is acted on, so of several identical deliveries arriving together only one acts; a claim whose
 * handling failed is released, so the gateway's retry acts instead. A claim never marked handled
 * (the process died while acting on it) is taken over by a delivery arriving
 * WEBHOOK_CLAIM_TIMEOUT_MS later, so a crash does not turn the gateway's retry into a duplicate.
 */
export async function claimWebhookEvent(
  db: DB,
  event: { gateway: string; eventId: string; event: string; orderId: string | null },
  now = new Date(),
): Promise<boolean> {
  const at = now.toISOString()
  const inserted = await db
    .insertInto('paymentWebhookEvent')
    .values({ ...event, receivedAt: at, handledAt: null })
    .onConflict((oc) => oc.columns(['gateway', 'eventId']).doNothing())
    .returning('eventId')
    .executeTakeFirst()
  if (inserted) return true
  // Compare-and-set on the abandoned claim: of two retries at once, one takes it.
  const taken = await db
    .updateTable('paymentWebhookEvent')
    .set({ receivedAt: at })
    .where('gateway', '=', event.gateway)
    .where('eventId', '=', event.eventId)
    .where('handledAt', 'is', null)
    .where('receivedAt', '<', new Date(now.getTime() - WEBHOOK_CLAIM_TIMEOUT_MS).toISOString())
    .returning('eventId')
    .executeTakeFirst()
  return Boolean(taken)
}

/** A claim older than this and not marked handled was abandoned (well beyond a handler's time). */
export const WEBHOOK_CLAIM_TIMEOUT_MS = 2 * 60_000

/** The claimed event was acted on: no later delivery of it acts again. */
export async function markWebhookEventHandled(
  db: DB,
  gateway: string,
  eventId: string,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable('paymentWebhookEvent')
    .set({ handledAt: now.toISOString() })
    .where('gateway', '=', gateway)
    .where('eventId', '=', eventId)
    .execute()
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
