import type { Kysely } from 'kysely'

/**
 * Credit notes (docs/delivery.md, "Credit notes"): a refund of a sale that was invoiced is
 * documented by a credit note that names the invoice and reverses its tax (CGST Act, section 34;
 * Rule 53). Credit notes have their own consecutive series per financial year, like invoices,
 * from their own counter. One per refund: `source` is the gateway refund's id, or `order:<id>`
 * for a refund the admin recorded by hand ('Mark refunded'). A test-mode order's credit note
 * takes no number (null), as its invoice takes none.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('credit_note_counter')
    /** e.g. 2026-27 */
    .addColumn('financial_year', 'text', (col) => col.primaryKey())
    .addColumn('last_number', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
  await db.schema
    .createTable('credit_note')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('order_id', 'text', (col) =>
      col.notNull().references('order.id').onDelete('restrict'),
    )
    .addColumn('source', 'text', (col) => col.notNull().unique())
    /** CN/26-27/00001; null for a test-mode order's. */
    .addColumn('number', 'text', (col) => col.unique())
    .addColumn('financial_year', 'text')
    .addColumn('sequence', 'integer')
    .addColumn('issued_at', 'text', (col) => col.notNull())
    /** Paise credited: what went back to the buyer. */
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull().defaultTo(''))
    /** The invoice it adjusts, as that invoice is numbered. */
    .addColumn('invoice_number', 'text', (col) => col.notNull())
    .addColumn('invoice_issued_at', 'text', (col) => col.notNull())
    .addColumn('seller_name', 'text', (col) => col.notNull())
    .addColumn('seller_address', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('seller_email', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('seller_phone', 'text', (col) => col.notNull().defaultTo(''))
    /** The invoice's GSTIN, SAC and rate: the tax being reversed (empty / null: no tax lines). */
    .addColumn('seller_gstin', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('sac_code', 'text', (col) => col.notNull().defaultTo(''))
    /** Hundredths of a per cent (1800 is 18 %). */
    .addColumn('gst_rate_basis_points', 'integer')
    /** Paise: the tax reversed, worked out when issued (null: no tax lines). */
    .addColumn('taxable_value', 'integer')
    .addColumn('central_tax', 'integer')
    .addColumn('state_tax', 'integer')
    .execute()
  await db.schema
    .createIndex('credit_note_order_idx')
    .on('credit_note')
    .column('order_id')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('credit_note').execute()
  await db.schema.dropTable('credit_note_counter').execute()
}
