import type { Kysely } from 'kysely'

/**
 * A payment link made out to a business (docs/delivery.md, "Business invoices"): the admin who
 * creates a link for a customer registered for GST may add the business's legal name, GSTIN and
 * address (`buyer_*`, all three or none; null: a consumer). The invoice of the link's order
 * names that business, as an account's saved business names the orders placed after it.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['buyer_business_name', 'buyer_gstin', 'buyer_address'])
    await db.schema.alterTable('payment_link').addColumn(column, 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['buyer_address', 'buyer_gstin', 'buyer_business_name'])
    await db.schema.alterTable('payment_link').dropColumn(column).execute()
}
