import type { Kysely } from 'kysely'

/**
 * The admin dashboard and transactions pages (app/data/dashboard.server.ts,
 * app/data/transactions.server.ts) sum live orders over a range of dates: this index holds
 * every column those aggregates read (top products too), so a month of orders is summed from
 * the index alone, without visiting the table. Lists newest first read (created_at, id). Active users per period read user.last_active_at by range.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('order_live_created_at_idx')
    .on('order')
    .columns(['test_mode', 'created_at', 'status', 'amount', 'product_id'])
    .execute()
  // Newest first with the id as tie-break (recent orders, the orders and transactions lists).
  await db.schema
    .createIndex('order_created_at_id_idx')
    .on('order')
    .columns(['created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('user_last_active_at_idx')
    .on('user')
    .column('last_active_at')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('user_last_active_at_idx').execute()
  await db.schema.dropIndex('order_created_at_id_idx').execute()
  await db.schema.dropIndex('order_live_created_at_idx').execute()
}
