import { sql, type Kysely } from 'kysely'

/**
 * Delivery from stock (docs/delivery.md).
 *
 * - product.delivery_mode: `stock` (one stock item per order), `shared` (one secret for every
 *   buyer, in product.shared_secret, encrypted) or `manual` (an admin fulfils by hand). Existing
 *   rows become `manual`, which is how they sold until now (paid, then delivered by hand): a
 *   migration must not silently change how a live product sells or make it look out of stock.
 *   The product form sets the mode of new products; the demo seed makes its products `stock`.
 * - stock_item: one credential or key, encrypted at rest (AES-256-GCM, key from APP_SECRET);
 *   secret_hash is a keyed HMAC so duplicates are found by the unique index without decrypting.
 */
export const DELIVERY_MODES = ['stock', 'shared', 'manual'] as const
export const STOCK_ITEM_STATUSES = ['available', 'held', 'delivered', 'revoked'] as const

const list = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '))

// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('product')
    .addColumn('delivery_mode', 'text', (col) =>
      col
        .notNull()
        .defaultTo('manual')
        .check(sql`delivery_mode in (${list(DELIVERY_MODES)})`),
    )
    .execute()
  await db.schema
    .alterTable('product')
    /** For `shared` products: the secret every buyer sees, encrypted like stock items. */
    .addColumn('shared_secret', 'text')
    .execute()

  await db.schema
    .createTable('stock_item')
    .addColumn('id', 'text', (col) => col.primaryKey())
    // Set null, not cascade: a delivered item must outlive its product (the order shows it).
    .addColumn('product_id', 'text', (col) => col.references('product.id').onDelete('set null'))
    /** AES-256-GCM of the item (JSON), bound to this row's id; see app/data/stock.server.ts. */
    .addColumn('secret_ciphertext', 'text', (col) => col.notNull())
    /** HMAC-SHA256 of the item's identity, keyed from APP_SECRET: duplicates without decrypting. */
    .addColumn('secret_hash', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('available')
        .check(sql`status in (${list(STOCK_ITEM_STATUSES)})`),
    )
    .addColumn('order_id', 'text', (col) => col.references('order.id').onDelete('set null'))
    /** Who added it: user:{id}, or system (demo seed). */
    .addColumn('added_by', 'text', (col) => col.notNull().defaultTo('system'))
    .addColumn('revoked_reason', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('delivered_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute()
  await db.schema
    .createIndex('stock_item_product_hash_uq')
    .on('stock_item')
    .columns(['product_id', 'secret_hash'])
    .unique()
    .execute()
  // Allocation takes the oldest available item of a product; counts group by status.
  await db.schema
    .createIndex('stock_item_product_status_idx')
    .on('stock_item')
    .columns(['product_id', 'status', 'created_at', 'id'])
    .execute()
  // The database itself refuses a second live item for one order (replacements revoke first).
  await db.schema
    .createIndex('stock_item_live_order_uq')
    .on('stock_item')
    .column('order_id')
    .unique()
    .where(sql<boolean>`status in ('held', 'delivered')`)
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stock_item').execute()
  await db.schema.alterTable('product').dropColumn('shared_secret').execute()
  await db.schema.alterTable('product').dropColumn('delivery_mode').execute()
}
