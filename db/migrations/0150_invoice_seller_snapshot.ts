import type { Kysely } from 'kysely'

/**
 * An issued invoice keeps what it said (docs/delivery.md, "Invoice"): the seller's name,
 * address, GSTIN and contact, the GST rate and the SAC code as they were when it was numbered,
 * so a later change in Settings does not rewrite it. Invoices issued before this migration have
 * none (null) and are shown with the current settings, as they were before.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of [
    'seller_name',
    'seller_address',
    'seller_gstin',
    'seller_email',
    'seller_phone',
    'sac_code',
  ])
    await db.schema.alterTable('invoice').addColumn(column, 'text').execute()
  /** Hundredths of a per cent (1800 is 18 %). */
  await db.schema.alterTable('invoice').addColumn('gst_rate_basis_points', 'integer').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of [
    'gst_rate_basis_points',
    'sac_code',
    'seller_phone',
    'seller_email',
    'seller_gstin',
    'seller_address',
    'seller_name',
  ])
    await db.schema.alterTable('invoice').dropColumn(column).execute()
}
