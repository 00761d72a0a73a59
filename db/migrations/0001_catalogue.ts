import { sql, type Kysely } from 'kysely'

/** The shop's twelve categories, in the order the storefront shows them. */
export const CATEGORIES = [
  'Streaming',
  'Software',
  'Premium',
  'Music',
  'Entertainment',
  'Games',
  'WordPress Themes',
  'Plugins',
  'Design Tools',
  'Productivity',
  'Security',
  'Education',
] as const

// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('category')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('slug', 'text', (col) => col.notNull().unique())
    .addColumn('sort_order', 'integer', (col) => col.notNull())
    .execute()

  await db
    .insertInto('category')
    .values(
      CATEGORIES.map((name, index) => ({
        name,
        slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        sort_order: index + 1,
      })),
    )
    .execute()

  await db.schema
    .createTable('product')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('slug', 'text', (col) => col.notNull().unique())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('short_description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('image', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('price', 'integer', (col) => col.notNull().check(sql`price > 0`))
    .addColumn('original_price', 'integer', (col) => col.notNull().check(sql`original_price > 0`))
    .addColumn('category', 'text', (col) =>
      col.notNull().defaultTo('Streaming').references('category.name').onUpdate('cascade'),
    )
    .addColumn('featured', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('in_stock', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('buy_now_link', 'text')
    .addColumn('tags', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('validity', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('delivery_time', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('features', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('meta_title', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('meta_description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('keywords', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('rating', 'real', (col) => col.notNull().defaultTo(0))
    .addColumn('reviews', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute()

  // The storefront lists newest first and filters featured products and categories.
  await db.schema.createIndex('product_created_at_idx').on('product').column('created_at').execute()
  await db.schema.createIndex('product_category_idx').on('product').column('category').execute()
  await db.schema.createIndex('product_featured_idx').on('product').column('featured').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('product').execute()
  await db.schema.dropTable('category').execute()
}
