import type { Kysely } from 'kysely'

/**
 * The product's typed-in `rating` and `reviews` are gone: a product's rating and review count
 * are now the aggregate of its visible reviews (0100_product_reviews). The typed figures were
 * never backed by any review, so they are dropped rather than kept as an "imported rating";
 * see docs/decisions/0013-reviews-replace-typed-ratings.md.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('product').dropColumn('rating').execute()
  await db.schema.alterTable('product').dropColumn('reviews').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('product')
    .addColumn('rating', 'real', (col) => col.notNull().defaultTo(0))
    .execute()
  await db.schema
    .alterTable('product')
    .addColumn('reviews', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
}
