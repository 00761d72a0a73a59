import type { Kysely } from 'kysely'

/**
 * Gateways beyond Paytm (docs/payments.md, "Gateways"):
 *  - order.gateway_order_id: the gateway's own id for our order (Razorpay's order_...), unique
 *    per gateway, so a webhook or a browser return about it finds exactly one of our orders;
 *  - payment_webhook_event: the webhook deliveries already handled, by the gateway's event id
 *    (Razorpay's x-razorpay-event-id), so a retried or replayed event is acted on once.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order').addColumn('gateway_order_id', 'text').execute()
  await db.schema
    .createIndex('order_gateway_order_id_idx')
    .on('order')
    .columns(['gateway', 'gateway_order_id'])
    .unique()
    .execute()
  await db.schema
    .createTable('payment_webhook_event')
    .addColumn('gateway', 'text', (col) => col.notNull())
    .addColumn('event_id', 'text', (col) => col.notNull())
    .addColumn('event', 'text', (col) => col.notNull())
    .addColumn('order_id', 'text')
    .addColumn('received_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('payment_webhook_event_pk', ['gateway', 'event_id'])
    .execute()
  await db.schema
    .createIndex('payment_webhook_event_received_idx')
    .on('payment_webhook_event')
    .column('received_at')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_webhook_event').execute()
  await db.schema.dropIndex('order_gateway_order_id_idx').execute()
  await db.schema.alterTable('order').dropColumn('gateway_order_id').execute()
}
