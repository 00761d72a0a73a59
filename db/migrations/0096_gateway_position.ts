import type { Kysely } from 'kysely'

/**
 * The order in which checkout offers the active gateways (docs/payments.md, "Choosing how to
 * pay"), set on the Gateways page; existing gateways keep the order they were added in.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('payment_gateway')
    .addColumn('position', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payment_gateway').dropColumn('position').execute()
}
