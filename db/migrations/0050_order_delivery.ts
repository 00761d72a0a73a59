import { sql, type Kysely } from 'kysely'

/**
 * Order page access and after-sales (docs/delivery.md).
 *
 * - order_access_token: further secret links to an order page. The checkout's token hash stays
 *   on the order; each delivery e-mail issues a new token when it is sent, so no token is ever
 *   stored in plain text (not even in the mail outbox). Only SHA-256 hashes are kept.
 * - order_report: a buyer's "this item does not work" report and how the shop resolved it.
 */
export const REPORT_STATUSES = ['open', 'resolved'] as const
export const REPORT_RESOLUTIONS = ['replaced', 'replied', 'refunded'] as const

const list = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '))

// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('order_access_token')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('order_id', 'text', (col) =>
      col.notNull().references('order.id').onDelete('cascade'),
    )
    /** Why it was issued: mail (delivery e-mail), ... */
    .addColumn('purpose', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema
    .createIndex('order_access_token_order_idx')
    .on('order_access_token')
    .column('order_id')
    .execute()

  await db.schema
    .createTable('order_report')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('order_id', 'text', (col) =>
      col.notNull().references('order.id').onDelete('cascade'),
    )
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('open')
        .check(sql`status in (${list(REPORT_STATUSES)})`),
    )
    .addColumn('resolution', 'text', (col) =>
      col.check(sql`resolution is null or resolution in (${list(REPORT_RESOLUTIONS)})`),
    )
    /** The shop's answer, e-mailed to the buyer. */
    .addColumn('reply', 'text')
    /** customer, or user:{id} when a signed-in owner reported it. */
    .addColumn('reported_by', 'text', (col) => col.notNull().defaultTo('customer'))
    .addColumn('resolved_by', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('resolved_at', 'text')
    .execute()
  await db.schema
    .createIndex('order_report_status_idx')
    .on('order_report')
    .columns(['status', 'created_at'])
    .execute()
  await db.schema
    .createIndex('order_report_order_idx')
    .on('order_report')
    .column('order_id')
    .execute()
  // At most one open report per order: a second one adds to the timeline instead.
  await db.schema
    .createIndex('order_report_open_uq')
    .on('order_report')
    .column('order_id')
    .unique()
    .where(sql<boolean>`status = 'open'`)
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('order_report').execute()
  await db.schema.dropTable('order_access_token').execute()
}
