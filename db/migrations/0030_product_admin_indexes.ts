import type { Kysely } from 'kysely'

/**
 * The admin products list pages newest first, optionally within one category:
 * with these, both orders are read straight from an index instead of sorting the category
 * (or the whole catalogue) on every page. The id makes the order total (equal timestamps).
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('product_created_at_id_idx')
    .on('product')
    .columns(['created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('product_category_created_at_id_idx')
    .on('product')
    .columns(['category', 'created_at', 'id'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('product_category_created_at_id_idx').execute()
  await db.schema.dropIndex('product_created_at_id_idx').execute()
}
