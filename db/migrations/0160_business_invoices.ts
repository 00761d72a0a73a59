import type { Kysely } from 'kysely'

/**
 * GST invoices to a business (docs/delivery.md, "Business invoices"): a customer registered for
 * GST keeps the business's legal name, GSTIN and address in their account settings, one row per
 * user (`customer_gst_details`, gone with the account). An invoice numbered for an order of
 * theirs keeps what those details were then (`buyer_*` on `invoice`, null: a consumer's), so
 * the place of supply is the business's state and a sale to another state is taxed as IGST. A
 * credit note keeps the business it is issued to and the IGST it reverses (`integrated_tax`,
 * null when the sale was intra-state).
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('customer_gst_details')
    .addColumn('user_id', 'text', (col) =>
      col.primaryKey().references('user.id').onDelete('cascade'),
    )
    .addColumn('business_name', 'text', (col) => col.notNull())
    .addColumn('gstin', 'text', (col) => col.notNull())
    .addColumn('address', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute()
  for (const column of ['buyer_business_name', 'buyer_gstin', 'buyer_address'])
    await db.schema.alterTable('invoice').addColumn(column, 'text').execute()
  /** Paise of IGST reversed (an inter-state sale's); null: CGST and SGST, or no tax. */
  await db.schema.alterTable('credit_note').addColumn('integrated_tax', 'integer').execute()
  // The business the credit note is issued to, as its invoice named it (null: a consumer).
  for (const column of ['buyer_business_name', 'buyer_gstin', 'buyer_address'])
    await db.schema.alterTable('credit_note').addColumn(column, 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['buyer_address', 'buyer_gstin', 'buyer_business_name'])
    await db.schema.alterTable('credit_note').dropColumn(column).execute()
  await db.schema.alterTable('credit_note').dropColumn('integrated_tax').execute()
  for (const column of ['buyer_address', 'buyer_gstin', 'buyer_business_name'])
    await db.schema.alterTable('invoice').dropColumn(column).execute()
  await db.schema.dropTable('customer_gst_details').execute()
}
