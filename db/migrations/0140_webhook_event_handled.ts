import { sql, type Kysely } from 'kysely'

/**
 * payment_webhook_event.handled_at: when the claimed event was acted on. A claim with no
 * handled_at long after it was taken belongs to a process that died while handling it, so the
 * gateway's retry may take it over instead of being dropped as a duplicate
 * (app/data/payment-webhook.server.ts). Events claimed before this column existed were handled.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payment_webhook_event').addColumn('handled_at', 'text').execute()
  await sql`update payment_webhook_event set handled_at = received_at`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payment_webhook_event').dropColumn('handled_at').execute()
}
