import type { Kysely } from 'kysely'

/**
 * Refunds made through a gateway's refund API (docs/payments.md, "Refunds"): one row per refund
 * the admin asks for. Its id is the key the admin's form carries, so a double click inserts one
 * row; it is also the idempotency key sent to the gateway (Paytm's refId, Razorpay's
 * X-Refund-Idempotency), so a retried job refunds once. The gateway's refund id is unique per
 * gateway: a webhook or a status answer finds exactly one row.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('order_refund')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('order_id', 'text', (col) => col.notNull().references('order.id'))
    .addColumn('gateway', 'text', (col) => col.notNull())
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull().defaultTo(''))
    // requested -> pending (the gateway accepted it) -> processed | failed
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('requested'))
    .addColumn('gateway_refund_id', 'text')
    .addColumn('gateway_message', 'text')
    .addColumn('status_checks', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('requested_by', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('processed_at', 'text')
    .execute()
  await db.schema
    .createIndex('order_refund_order_idx')
    .on('order_refund')
    .columns(['order_id', 'created_at'])
    .execute()
  await db.schema
    .createIndex('order_refund_gateway_refund_idx')
    .on('order_refund')
    .columns(['gateway', 'gateway_refund_id'])
    .unique()
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('order_refund').execute()
}
