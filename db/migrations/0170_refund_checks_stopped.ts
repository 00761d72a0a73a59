import type { Kysely } from 'kysely'

/**
 * When KeyBazaar stopped asking a gateway about a refund it never answered (its last check, or
 * its job giving up on an error): set once, so the shop is told once, and read by the order
 * page's 'Mark refunded', which a refund no longer asked about does not hold up
 * (docs/payments.md, "Refunds").
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_refund').addColumn('checks_stopped_at', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_refund').dropColumn('checks_stopped_at').execute()
}
