import type { Kysely } from 'kysely'

/**
 * Invoice numbers (docs/delivery.md): Indian GST rules want one consecutive series per
 * financial year (April to March), unique, at most 16 characters. A number is given to an order
 * the first time its invoice is issued, from a per-year counter, in one transaction, so the
 * series has no gaps and an order never gets two numbers.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invoice_counter')
    /** e.g. 2026-27 */
    .addColumn('financial_year', 'text', (col) => col.primaryKey())
    .addColumn('last_number', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
  await db.schema
    .createTable('invoice')
    .addColumn('order_id', 'text', (col) =>
      col.primaryKey().references('order.id').onDelete('restrict'),
    )
    /** INV/26-27/00001 */
    .addColumn('number', 'text', (col) => col.notNull().unique())
    .addColumn('financial_year', 'text', (col) => col.notNull())
    .addColumn('sequence', 'integer', (col) => col.notNull())
    .addColumn('issued_at', 'text', (col) => col.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('invoice').execute()
  await db.schema.dropTable('invoice_counter').execute()
}
