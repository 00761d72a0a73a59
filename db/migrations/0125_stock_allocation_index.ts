import type { Kysely } from 'kysely'

/**
 * Allocation takes the oldest available item of one product and one kind, `order by created_at,
 * id` (allocateStockItem, app/data/stock.server.ts). The index of 0065 stopped at created_at, so
 * PostgreSQL, when it had no statistics yet, read every available item of the product and sorted
 * them to find the first: 13,000 rows and 5.8 ms of database CPU per paid order with 13,000 keys
 * in stock, inside the paying transaction. With `id` at the end the index holds the rows in the
 * order asked for and the first entry is the answer, on both engines, whatever the statistics.
 * It also serves everything the old index served (its columns are this one's first four).
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('stock_item_allocation_idx')
    .on('stock_item')
    .columns(['product_id', 'test_item', 'status', 'created_at', 'id'])
    .execute()
  await db.schema.dropIndex('stock_item_available_kind_idx').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('stock_item_available_kind_idx')
    .on('stock_item')
    .columns(['product_id', 'test_item', 'status', 'created_at'])
    .execute()
  await db.schema.dropIndex('stock_item_allocation_idx').execute()
}
