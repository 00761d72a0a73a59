import type { InvoiceTable } from '../../db/schema'
import type { DB } from '~/lib/db.server'
import { financialYearOf, gstBreakdown, rateBasisPoints, type GstBreakdown } from '~/lib/gst'
import { keptBusiness, orderBusiness, type BusinessBuyer } from './customer-gst.server'
import { PAID_STATUSES } from './order.server'
import { getSiteSettings, type SiteSettings } from './settings.server'

/**
 * An order's invoice: its number from the financial year's gap-free series, and what the PDF
 * shows (app/services/invoice.server.ts renders it).
 */
export interface InvoiceData {
  invoiceNumber: string
  /** ISO-8601: when the invoice was first issued (its date). */
  issuedAt: string
  /** ISO-8601: when the payment was confirmed. */
  paidAt: string
  seller: { name: string; address: string; gstin: string; email: string; phone: string }
  /**
   * The GST in the amount, when the seller had a GSTIN at issue (a tax invoice); null for a
   * seller not registered for GST.
   */
  tax: (GstBreakdown & { sacCode: string }) | null
  /** The person who bought, and the business they bought for when it is named (its GSTIN). */
  buyer: { name: string; email: string; phone: string; business: BusinessBuyer | null }
  orderId: string
  productName: string
  /** Paise. */
  amount: number
  /** The gateway's transaction id (and the bank's, when given). */
  paymentReference: string | null
  paymentMode: string | null
  testMode: boolean
  /** The shop's time zone (Settings): the dates on the invoice are in it. */
  timezone: string
}

export { financialYearOf }

/**
 * "INV/26-27/00042": unique within the year and at most 16 characters, as GST rules ask. The
 * prefix is the shop's (Settings, 1 to 4 letters or digits).
 */
export function formatInvoiceNumber(
  financialYear: string,
  sequence: number,
  prefix = 'INV',
): string {
  return `${prefix}/${financialYear.slice(2)}/${String(sequence).padStart(5, '0')}`
}

/** The settings an invoice is issued under: its number's prefix, the seller and the tax. */
export type InvoiceSettings = Pick<
  SiteSettings,
  | 'invoicePrefix'
  | 'siteName'
  | 'sellerName'
  | 'sellerAddress'
  | 'sellerGstin'
  | 'contactEmail'
  | 'phoneNumber'
  | 'gstRate'
  | 'sacCode'
>

/** The seller and tax an invoice states, kept with it when it is numbered. */
export interface InvoiceSeller {
  sellerName: string
  sellerAddress: string
  sellerGstin: string
  sellerEmail: string
  sellerPhone: string
  sacCode: string
  gstRateBasisPoints: number
}

export function invoiceSeller(settings: InvoiceSettings): InvoiceSeller {
  return {
    sellerName: settings.sellerName || settings.siteName,
    sellerAddress: settings.sellerAddress,
    sellerGstin: settings.sellerGstin,
    sellerEmail: settings.contactEmail,
    sellerPhone: settings.phoneNumber,
    sacCode: settings.sacCode,
    gstRateBasisPoints: rateBasisPoints(settings.gstRate),
  }
}

export interface IssuedInvoice {
  number: string
  issuedAt: string
  /** Null for an invoice issued before the seller was kept with it. */
  seller: InvoiceSeller | null
  /** The business it is made out to (docs/delivery.md, "Business invoices"); null: a consumer. */
  business: BusinessBuyer | null
}

const ISSUED_COLUMNS = [
  'number',
  'issuedAt',
  'sellerName',
  'sellerAddress',
  'sellerGstin',
  'sellerEmail',
  'sellerPhone',
  'sacCode',
  'gstRateBasisPoints',
  'buyerBusinessName',
  'buyerGstin',
  'buyerAddress',
] as const

function issued(row: Pick<InvoiceTable, (typeof ISSUED_COLUMNS)[number]>): IssuedInvoice {
  const { number, issuedAt, buyerBusinessName, buyerGstin, buyerAddress, ...seller } = row
  return {
    number,
    issuedAt,
    business: keptBusiness({ buyerBusinessName, buyerGstin, buyerAddress }),
    seller:
      seller.sellerName === null
        ? null
        : {
            sellerName: seller.sellerName,
            sellerAddress: seller.sellerAddress ?? '',
            sellerGstin: seller.sellerGstin ?? '',
            sellerEmail: seller.sellerEmail ?? '',
            sellerPhone: seller.sellerPhone ?? '',
            sacCode: seller.sacCode ?? '',
            gstRateBasisPoints: Number(seller.gstRateBasisPoints ?? 0),
          },
  }
}

/**
 * The order's invoice, numbered on first issue from the year's counter, with the seller and
 * tax of `settings` kept beside the number: an issued invoice says the same thing at every
 * download, whatever Settings say later. The counter's row is written first (SQLite's write
 * lock, or the row lock on PostgreSQL), so two issues at once wait for each other: the second
 * sees the first's invoice and takes nothing, and the series has no gaps.
 */
export async function issueInvoiceNumber(
  db: DB,
  orderId: string,
  settings: InvoiceSettings,
  now = new Date(),
  /** When the sale was made, whose financial year's series it joins (default: now). */
  suppliedAt: Date = now,
): Promise<IssuedInvoice> {
  const existing = await findIssuedInvoice(db, orderId)
  if (existing) return existing
  const number = (trx: DB) => numberInvoice(trx, orderId, settings, now, suppliedAt)
  // Inside a caller's transaction (a refund's credit note), in it; otherwise in its own.
  return db.isTransaction ? number(db) : db.transaction().execute(number)
}

/** The order's invoice if it has been issued. */
async function findIssuedInvoice(db: DB, orderId: string): Promise<IssuedInvoice | null> {
  const row = await db
    .selectFrom('invoice')
    .select(ISSUED_COLUMNS)
    .where('orderId', '=', orderId)
    .executeTakeFirst()
  return row ? issued(row) : null
}

/** issueInvoiceNumber's numbering, inside a transaction. */
async function numberInvoice(
  trx: DB,
  orderId: string,
  settings: InvoiceSettings,
  now: Date,
  suppliedAt: Date,
): Promise<IssuedInvoice> {
  const financialYear = financialYearOf(suppliedAt)
  const sequence = await nextInSeries(trx, 'invoiceCounter', financialYear)
  const again = await findIssuedInvoice(trx, orderId)
  if (again) {
    // Issued meanwhile: give the number back.
    await trx
      .updateTable('invoiceCounter')
      .set((eb) => ({ lastNumber: eb('lastNumber', '-', 1) }))
      .where('financialYear', '=', financialYear)
      .execute()
    return again
  }
  const seller = invoiceSeller(settings)
  // The business the order was placed for (saved before it: orderBusiness).
  const business = await orderBusiness(trx, orderId)
  const invoice = {
    number: formatInvoiceNumber(financialYear, sequence, settings.invoicePrefix),
    issuedAt: now.toISOString(),
  }
  await trx
    .insertInto('invoice')
    .values({
      orderId,
      financialYear,
      sequence,
      ...invoice,
      ...seller,
      buyerBusinessName: business?.businessName ?? null,
      buyerGstin: business?.gstin ?? null,
      buyerAddress: business?.address ?? null,
    })
    .execute()
  return { ...invoice, seller, business }
}

/**
 * The next number of a financial year's series (invoices or credit notes), inside the caller's
 * transaction. The counter's row is written first (SQLite's write lock, or the row lock on
 * PostgreSQL), so numbers taken at once wait for each other, and a rolled-back transaction gives
 * its number back: the series has no gaps.
 */
export async function nextInSeries(
  trx: DB,
  counter: 'invoiceCounter' | 'creditNoteCounter',
  financialYear: string,
): Promise<number> {
  await trx
    .insertInto(counter)
    .values({ financialYear, lastNumber: 0 })
    .onConflict((oc) => oc.column('financialYear').doNothing())
    .execute()
  const row = await trx
    .updateTable(counter)
    .set((eb) => ({ lastNumber: eb('lastNumber', '+', 1) }))
    .where('financialYear', '=', financialYear)
    .returning('lastNumber')
    .executeTakeFirstOrThrow()
  return Number(row.lastNumber)
}

/**
 * Gives a real sale its invoice number if it has none: called when the order is paid (by the
 * job that mails the buyer, seconds after the payment), so every sale is invoiced at the time of
 * supply, in the series of that financial year, whether or not anybody downloads the invoice.
 * Null for a test-mode order (it takes no number) or an order not paid.
 */
export async function invoicePaidOrder(
  db: DB,
  orderId: string,
  settings: InvoiceSettings,
  now = new Date(),
): Promise<string | null> {
  const order = await db
    .selectFrom('order')
    .select(['testMode', 'paidAt'])
    .where('id', '=', orderId)
    .where('status', 'in', PAID_STATUSES)
    .executeTakeFirst()
  if (!order || order.testMode) return null
  // A sale paid at 23:59 on 31 March whose mail goes out after midnight stays in March's year.
  const paidAt = order.paidAt ? new Date(order.paidAt) : now
  return (await issueInvoiceNumber(db, orderId, settings, now, paidAt)).number
}

/** What a test-mode order's invoice shows in place of a number of the series. */
export const TEST_INVOICE_NUMBER = 'TEST (not numbered)'

/**
 * The invoice of a sale: a test-mode order's test invoice (not numbered: a test-mode order sold
 * nothing and takes no number from the shop's legal series; today's seller), or the issued one,
 * numbered now if it has none yet, in the series of the year it was paid in, as the payment mail
 * would have.
 */
export async function saleInvoice(
  db: DB,
  order: { id: string; testMode: number | boolean; paidAt: string | null; createdAt: string },
  settings: InvoiceSettings,
  now: Date,
): Promise<IssuedInvoice> {
  if (!order.testMode)
    return issueInvoiceNumber(
      db,
      order.id,
      settings,
      now,
      new Date(order.paidAt ?? order.createdAt),
    )
  return {
    number: TEST_INVOICE_NUMBER,
    issuedAt: now.toISOString(),
    seller: invoiceSeller(settings),
    business: await orderBusiness(db, order.id),
  }
}

async function hasCreditNote(db: DB, orderId: string): Promise<boolean> {
  const row = await db
    .selectFrom('creditNote')
    .select('id')
    .where('orderId', '=', orderId)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * What the invoice shows, or null when the order is missing, not paid, or refunded without a
 * credit note. The first call for a paid order gives it its invoice number.
 */
export async function getInvoiceData(db: DB, orderId: string): Promise<InvoiceData | null> {
  const order = await db
    .selectFrom('order')
    .select([
      'id',
      'status',
      'productName',
      'amount',
      'customerName',
      'customerEmail',
      'customerPhone',
      'gatewayTxnId',
      'bankTxnId',
      'paymentMode',
      'testMode',
      'paidAt',
      'createdAt',
    ])
    .where('id', '=', orderId)
    .where('status', 'in', [...PAID_STATUSES, 'refunded'])
    .executeTakeFirst()
  if (!order) return null
  // A refunded sale keeps its invoice beside the credit note that reverses it (issued with the
  // refund, which numbers the invoice first if needed). A refund from before credit notes has
  // none, and its order no invoice, as then.
  if (order.status === 'refunded' && !(await hasCreditNote(db, order.id))) return null
  const settings = await getSiteSettings(db)
  // Numbered at its first download only if its payment mail has not numbered it yet.
  const invoice = await saleInvoice(db, order, settings, new Date())
  // A test invoice states today's settings. One issued before its seller was kept states
  // today's seller, as it always did, but no tax lines: it never had them, and today's rate
  // may not be the one it was sold at.
  const legacy = !order.testMode && invoice.seller === null
  const seller = invoice.seller ?? invoiceSeller(settings)
  const amount = Number(order.amount)
  const reference = [order.gatewayTxnId, order.bankTxnId ? `bank ${order.bankTxnId}` : null]
    .filter(Boolean)
    .join(', ')
  return {
    invoiceNumber: invoice.number,
    issuedAt: invoice.issuedAt,
    paidAt: order.paidAt ?? order.createdAt,
    seller: {
      name: seller.sellerName,
      address: seller.sellerAddress,
      gstin: seller.sellerGstin,
      email: seller.sellerEmail,
      phone: seller.sellerPhone,
    },
    tax:
      seller.sellerGstin && !legacy
        ? {
            ...gstBreakdown(
              amount,
              seller.gstRateBasisPoints,
              seller.sellerGstin,
              invoice.business?.gstin,
            ),
            sacCode: seller.sacCode,
          }
        : null,
    buyer: {
      name: order.customerName,
      email: order.customerEmail,
      phone: order.customerPhone,
      business: invoice.business,
    },
    orderId: order.id,
    productName: order.productName,
    amount,
    paymentReference: reference || null,
    paymentMode: order.paymentMode,
    testMode: Boolean(order.testMode),
    timezone: settings.timezone,
  }
}

/**
 * The business an order's invoice names: the one its issued invoice keeps, or, before it is
 * issued (and for a test-mode order, whose invoice is never numbered), the account's as saved
 * before the order was placed (orderBusiness).
 */
export async function invoiceBusinessOf(
  db: DB,
  orderId: string,
): Promise<{ business: BusinessBuyer; issued: boolean } | null> {
  const invoice = await findIssuedInvoice(db, orderId)
  if (invoice) return invoice.business ? { business: invoice.business, issued: true } : null
  const business = await orderBusiness(db, orderId)
  return business ? { business, issued: false } : null
}
