import { sql, type Kysely } from 'kysely'

/**
 * Reviews from verified buyers (app/data/review.server.ts): one row per delivered order at most
 * (the unique order_id), written by the order's owner, rating 1 to 5. `hidden` is 1 when an admin
 * took the review off the shop, with their reason; hidden reviews count for nothing.
 * `helpful_count` mirrors the rows of `review_vote`, kept in the same transaction as each vote so
 * the "most helpful" order reads from an index instead of counting votes per page.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('review')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('order_id', 'text', (col) =>
      col.notNull().unique().references('order.id').onDelete('cascade'),
    )
    .addColumn('product_id', 'text', (col) =>
      col.notNull().references('product.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('rating', 'integer', (col) => col.notNull().check(sql`rating between 1 and 5`))
    .addColumn('title', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('hidden', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('hidden_reason', 'text')
    .addColumn('hidden_at', 'text')
    .addColumn('helpful_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute()
  // The product page: visible reviews newest first, or most helpful first.
  await db.schema
    .createIndex('review_product_created_idx')
    .on('review')
    .columns(['product_id', 'hidden', 'created_at'])
    .execute()
  await db.schema
    .createIndex('review_product_helpful_idx')
    .on('review')
    .columns(['product_id', 'hidden', 'helpful_count', 'created_at'])
    .execute()
  await db.schema.createIndex('review_user_idx').on('review').columns(['user_id']).execute()
  // The back office's list, newest first.
  await db.schema.createIndex('review_created_idx').on('review').columns(['created_at']).execute()

  await db.schema
    .createTable('review_vote')
    .addColumn('review_id', 'text', (col) =>
      col.notNull().references('review.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('review_vote_pk', ['review_id', 'user_id'])
    .execute()
  await db.schema
    .createIndex('review_vote_user_idx')
    .on('review_vote')
    .columns(['user_id'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('review_vote').execute()
  await db.schema.dropTable('review').execute()
}
