import type { Kysely } from 'kysely'

/**
 * One product per stock item (docs/delivery.md, "One product per item"): `secret_hash` includes
 * the product, so the same key imported into two products was accepted and could be sold to two
 * buyers. `shop_hash` is the item's fingerprint without the product (shopStockFingerprint in
 * app/lib/stock-crypto.server.ts); an import skips an item whose shop_hash another product holds.
 *
 * Not unique: items stocked twice before this rule stay as they are, and hand-delivered items
 * have none (null). Existing rows are fingerprinted at start-up (fillShopFingerprints, run by
 * server/prepare.ts), since that needs APP_SECRET to decrypt them, which a migration never has.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stock_item').addColumn('shop_hash', 'text').execute()
  await db.schema
    .createIndex('stock_item_shop_hash_idx')
    .on('stock_item')
    .column('shop_hash')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('stock_item_shop_hash_idx').execute()
  await db.schema.alterTable('stock_item').dropColumn('shop_hash').execute()
}
