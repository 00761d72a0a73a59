import type { Kysely } from 'kysely'

/**
 * The customers' wishlists (app/data/wishlist.server.ts): one row per user and product.
 * `awaiting_restock` is 1 while the product was last seen out of stock, so that its return
 * sends one back-in-stock mail and the next return another one. `notify_restock` is the
 * customer's choice to get that mail (on by default).
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('wishlist_item')
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('product_id', 'text', (col) =>
      col.notNull().references('product.id').onDelete('cascade'),
    )
    .addColumn('awaiting_restock', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('notify_restock', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('restock_mailed_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('wishlist_item_pk', ['user_id', 'product_id'])
    .execute()
  await db.schema
    .createIndex('wishlist_item_product_idx')
    .on('wishlist_item')
    .columns(['product_id'])
    .execute()
  await db.schema
    .createIndex('wishlist_item_user_created_idx')
    .on('wishlist_item')
    .columns(['user_id', 'created_at'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('wishlist_item').execute()
}
