import type { Kysely } from 'kysely'

/**
 * Test stock (docs/delivery.md, Test mode): a stock item says whether it is a test item. A
 * payment through the built-in simulator (an order with test_mode = 1) is delivered only from
 * test items, and a real payment never gets one, so a shop that imports real keys before it
 * configures a gateway cannot give them away to anyone who "pays" in the simulator.
 *
 * Existing items become real items (0): nothing already stocked is sold in test mode.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('stock_item')
    .addColumn('test_item', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
  // Allocation looks for the oldest available item of one product and one kind.
  await db.schema
    .createIndex('stock_item_available_kind_idx')
    .on('stock_item')
    .columns(['product_id', 'test_item', 'status', 'created_at'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('stock_item_available_kind_idx').execute()
  await db.schema.alterTable('stock_item').dropColumn('test_item').execute()
}
