import type { DB } from '~/lib/db.server'
import { isShopGstin } from './settings.server'

/**
 * The business a customer buys for (docs/delivery.md, "Business invoices"): kept in their
 * account settings, named on the invoices of their orders with its GSTIN, which sets the place
 * of supply. One row per user, gone with the account.
 */
export interface BusinessBuyer {
  businessName: string
  gstin: string
  address: string
}

/** The business a document keeps in its `buyer_*` columns (invoice, credit note); null: a consumer. */
export function keptBusiness(columns: {
  buyerBusinessName: string | null
  buyerGstin: string | null
  buyerAddress: string | null
}): BusinessBuyer | null {
  return columns.buyerBusinessName && columns.buyerGstin
    ? {
        businessName: columns.buyerBusinessName,
        gstin: columns.buyerGstin,
        address: columns.buyerAddress ?? '',
      }
    : null
}

export async function getCustomerBusiness(db: DB, userId: string): Promise<BusinessBuyer | null> {
  const row = await db
    .selectFrom('customerGstDetails')
    .select(['businessName', 'gstin', 'address'])
    .where('userId', '=', userId)
    .executeTakeFirst()
  return row ?? null
}

/**
 * The business a customer's next order will be invoiced to, as checkout tells them: their saved
 * business, unless it has the shop's own GSTIN (see orderBusiness).
 */
export async function businessForNextOrder(db: DB, userId: string): Promise<BusinessBuyer | null> {
  const business = await getCustomerBusiness(db, userId)
  return business && !(await isShopGstin(db, business.gstin)) ? business : null
}

/** Saves (or, with null, removes) the customer's business; invoices issued already keep theirs. */
export async function saveCustomerBusiness(
  db: DB,
  userId: string,
  business: BusinessBuyer | null,
): Promise<void> {
  if (!business) {
    await db.deleteFrom('customerGstDetails').where('userId', '=', userId).execute()
    return
  }
  const updatedAt = new Date().toISOString()
  await db
    .insertInto('customerGstDetails')
    .values({ userId, ...business, updatedAt })
    .onConflict((oc) => oc.column('userId').doUpdateSet({ ...business, updatedAt }))
    .execute()
}

/**
 * The business the order was placed for: the one its payment link was made out to, else the
 * account's, as saved before the order was placed; null for a guest's or a consumer's. A
 * business saved (or changed) after the purchase is not named on it: a sale made to a consumer
 * is never made out to a business after the fact, even when its invoice is numbered late. A
 * business with the shop's own GSTIN (saved before the shop set it, or before Settings refused
 * it) is not one: the shop does not invoice itself, so the sale is a consumer's.
 */
export async function orderBusiness(db: DB, orderId: string): Promise<BusinessBuyer | null> {
  const row = await db
    .selectFrom('order')
    .leftJoin('paymentLink', 'paymentLink.id', 'order.paymentLinkId')
    .leftJoin('customerGstDetails', (join) =>
      join
        .onRef('customerGstDetails.userId', '=', 'order.userId')
        .onRef('customerGstDetails.updatedAt', '<=', 'order.createdAt'),
    )
    .select([
      'paymentLink.buyerBusinessName',
      'paymentLink.buyerGstin',
      'paymentLink.buyerAddress',
      'customerGstDetails.businessName',
      'customerGstDetails.gstin',
      'customerGstDetails.address',
    ])
    .where('order.id', '=', orderId)
    .executeTakeFirst()
  if (!row) return null
  const business =
    keptBusiness(row) ??
    keptBusiness({
      buyerBusinessName: row.businessName,
      buyerGstin: row.gstin,
      buyerAddress: row.address,
    })
  return business && !(await isShopGstin(db, business.gstin)) ? business : null
}
