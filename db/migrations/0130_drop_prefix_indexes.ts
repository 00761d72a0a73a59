import type { Kysely } from 'kysely'

/**
 * Four indexes were the leading part of a later, longer one on the same table, so every query
 * they served is served as well by the longer one (an index on (a, b) answers what one on (a)
 * answers), while each insert and each update of an order, product or user still wrote an entry
 * into both. An order is written three times on its way to delivered (created, paid, delivered),
 * each time into the redundant index too.
 *   order (created_at)     <- order_created_at_id_idx (created_at, id), 0080
 *   product (created_at)   <- product_created_at_id_idx (created_at, id)
 *   product (category)     <- product_category_created_at_id_idx (category, created_at, id)
 *   user (role)            <- user_role_created_at_idx (role, created_at, id), 0075
 * db/migrations.test.ts keeps it so: no plain index is the leading part of another.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
const DROPPED = [
  { name: 'order_created_at_idx', table: 'order', columns: ['created_at'] },
  { name: 'product_created_at_idx', table: 'product', columns: ['created_at'] },
  { name: 'product_category_idx', table: 'product', columns: ['category'] },
  { name: 'user_role_idx', table: 'user', columns: ['role'] },
] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const index of DROPPED) await db.schema.dropIndex(index.name).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of DROPPED)
    await db.schema
      .createIndex(index.name)
      .on(index.table)
      .columns([...index.columns])
      .execute()
}
