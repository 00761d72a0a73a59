import { sql, type Selectable } from 'kysely'
import type { CreditNoteTable } from '../../db/schema'
import type { DB } from '~/lib/db.server'
import { creditNoteDeadline, gstBreakdown, type GstBreakdown } from '~/lib/gst'
import { newId } from '~/lib/id.server'
import {
  financialYearOf,
  invoiceSeller,
  nextInSeries,
  saleInvoice,
  type InvoiceData,
  type InvoiceSettings,
} from './invoice.server'
import { takeOrderRows } from './order.server'
import { getSiteSettings } from './settings.server'
import { keptBusiness } from './customer-gst.server'

/**
 * Credit notes (docs/delivery.md, "Credit notes"): every refund of a sale, through a gateway or
 * recorded by hand, is documented by a credit note that names the sale's invoice and reverses
 * the tax on the amount refunded, numbered in its own consecutive series per financial year
 * (`CN/26-27/00001`). It is issued in the refund's own transaction, and what it says is kept
 * with it: it never changes.
 */
export type CreditNote = Selectable<CreditNoteTable>

/** "CN/26-27/00001": at most 16 characters, as GST rules ask of a document's number. */
export function formatCreditNoteNumber(financialYear: string, sequence: number): string {
  return `CN/${financialYear.slice(2)}/${String(sequence).padStart(5, '0')}`
}

/** What a test-mode order's credit note shows in place of a number of the series. */
export const TEST_CREDIT_NOTE_NUMBER = 'TEST (not numbered)'

/** The source of a refund the admin recorded by hand ('Mark refunded'): one per order. */
export const markedRefundSource = (orderId: string) => `order:${orderId}`

type TaxFigures = Pick<GstBreakdown, 'taxableValue' | 'centralTax' | 'stateTax'> & {
  integratedTax: number | null
}

/**
 * The tax a credit note of `amount` paise reverses, after `credited` paise of the invoice were
 * credited already: the tax in the first `credited + amount` paise less the tax in the first
 * `credited` (gstBreakdown at the invoice's rate), so that the credit notes of a sale refunded in
 * parts add up to the invoice's tax to the paisa. An inter-state sale's is IGST, at the whole
 * rate. A remainder of a paisa or two can carry more rounding than it is worth (a ₹0.01 note
 * with ₹0.01 of CGST and of SGST): the tax is then held to what the note credits (each of CGST
 * and SGST at most half of it, IGST at most all of it), so its taxable value is never negative;
 * such a sale's notes then reverse a paisa or two less tax than its invoice shows.
 */
export function creditNoteTax(
  credited: number,
  amount: number,
  rate: { rateBasisPoints: number; sellerGstin: string; buyerGstin?: string | null },
): TaxFigures {
  const split = (paise: number) =>
    gstBreakdown(paise, rate.rateBasisPoints, rate.sellerGstin, rate.buyerGstin)
  const [before, after] = [split(credited), split(credited + amount)]
  const within = (share: number, most: number) => Math.min(Math.max(share, 0), most)
  if (after.interState) {
    const share = within(after.integratedTax - before.integratedTax, amount)
    return { centralTax: 0, stateTax: 0, integratedTax: share, taxableValue: amount - share }
  }
  const share = within(after.centralTax - before.centralTax, Math.floor(amount / 2))
  return {
    centralTax: share,
    stateTax: share,
    integratedTax: null,
    taxableValue: amount - 2 * share,
  }
}

/**
 * Issues the credit note of a refund, once per `source` (the gateway refund's id, or
 * markedRefundSource), inside the refund's transaction. The invoice it adjusts is numbered first
 * if the sale had none yet. The tax reversed is the invoice's rate on the amount refunded, shared
 * so that the credit notes of a sale refunded in parts add up to its invoice (creditNoteTax). At
 * most what the invoice has left uncredited is credited. Null when nothing is left to credit or
 * the order does not exist.
 */
export async function issueCreditNote(
  trx: DB,
  input: { orderId: string; source: string; amountPaise: number; reason: string },
  settings: InvoiceSettings,
  now: Date,
): Promise<CreditNote | null> {
  // The order's row is written first (SQLite's write lock, PostgreSQL's row lock): two refunds
  // of one order settling at once ('Mark refunded' beside a gateway's confirmation, or two
  // parts) credit in turn, each seeing the other's credit note, and every path takes the order
  // before the counters.
  const order = await takeOrderRows(trx)
    .where('id', '=', input.orderId)
    .returning(['testMode', 'paidAt', 'createdAt', 'amount'])
    .executeTakeFirst()
  if (!order) return null
  const existing = await trx
    .selectFrom('creditNote')
    .selectAll()
    .where('source', '=', input.source)
    .executeTakeFirst()
  if (existing) return existing
  const testMode = Boolean(order.testMode)
  // The invoice's amount, which its tax was worked out on.
  const invoiced = Number(order.amount)
  const before = await trx
    .selectFrom('creditNote')
    .select((eb) => eb.fn.sum<number | string | null>('amount').as('amount'))
    .where('orderId', '=', input.orderId)
    .executeTakeFirstOrThrow()
  const credited = Number(before.amount ?? 0)
  // Never more than the invoice: a refund recorded by hand and one through the gateway for the
  // same money credit it once.
  const amount = Math.min(input.amountPaise, invoiced - credited)
  if (amount <= 0) return null
  // The sale's invoice: a test one, or the issued one (numbered now if it had none).
  const invoice = await saleInvoice(trx, { id: input.orderId, ...order }, settings, now)
  // An invoice issued before its seller was kept has no tax lines: nor has its credit note.
  const taxed = invoice.seller?.sellerGstin ? invoice.seller : null
  const tax = taxed
    ? creditNoteTax(credited, amount, {
        rateBasisPoints: taxed.gstRateBasisPoints,
        sellerGstin: taxed.sellerGstin,
        buyerGstin: invoice.business?.gstin,
      })
    : null
  const seller = invoiceSeller(settings)
  let numbered: { number: string; financialYear: string; sequence: number } | null = null
  if (!testMode) {
    // The credit note's own date decides its year, whatever the invoice's.
    const financialYear = financialYearOf(now)
    const sequence = await nextInSeries(trx, 'creditNoteCounter', financialYear)
    numbered = {
      number: formatCreditNoteNumber(financialYear, sequence),
      financialYear,
      sequence,
    }
  }
  return trx
    .insertInto('creditNote')
    .values({
      id: `CN_${newId()}`,
      orderId: input.orderId,
      source: input.source,
      number: numbered?.number ?? null,
      financialYear: numbered?.financialYear ?? null,
      sequence: numbered?.sequence ?? null,
      issuedAt: now.toISOString(),
      amount,
      reason: input.reason.slice(0, 500),
      invoiceNumber: invoice.number,
      invoiceIssuedAt: invoice.issuedAt,
      sellerName: seller.sellerName,
      sellerAddress: seller.sellerAddress,
      sellerEmail: seller.sellerEmail,
      sellerPhone: seller.sellerPhone,
      sellerGstin: taxed?.sellerGstin ?? '',
      sacCode: taxed?.sacCode ?? '',
      gstRateBasisPoints: taxed?.gstRateBasisPoints ?? null,
      taxableValue: tax?.taxableValue ?? null,
      centralTax: tax?.centralTax ?? null,
      stateTax: tax?.stateTax ?? null,
      integratedTax: tax?.integratedTax ?? null,
      buyerBusinessName: invoice.business?.businessName ?? null,
      buyerGstin: invoice.business?.gstin ?? null,
      buyerAddress: invoice.business?.address ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** PostgreSQL's deadlock, serialization and lock-timeout failures; SQLite's busy database. */
const TRANSIENT = new Set(['40P01', '40001', '55P03', 'SQLITE_BUSY', 'SQLITE_LOCKED'])
const isTransient = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  TRANSIENT.has(String((error as { code?: unknown }).code))

/**
 * issueCreditNote inside a savepoint of the refund's transaction: if the credit note cannot be
 * issued (a fault of ours, not a passing lock conflict), the refund still settles without it
 * (the money has gone back; the order must say so), and the fault is logged and returned for
 * the order's timeline.
 */
export async function issueCreditNoteWithinRefund(
  trx: DB,
  input: Parameters<typeof issueCreditNote>[1],
  settings: InvoiceSettings,
  now: Date,
): Promise<{ creditNote: CreditNote | null; failure: string | null }> {
  await sql`savepoint credit_note`.execute(trx)
  try {
    const creditNote = await issueCreditNote(trx, input, settings, now)
    await sql`release savepoint credit_note`.execute(trx)
    return { creditNote, failure: null }
  } catch (error) {
    // A deadlock or a busy database passes: the whole refund is tried again, credit note too.
    if (isTransient(error)) throw error
    await sql`rollback to savepoint credit_note`.execute(trx)
    const failure = error instanceof Error ? error.message : String(error)
    console.error(`[credit-note] order ${input.orderId}, ${input.source}: ${failure}`)
    return { creditNote: null, failure }
  }
}

/** A refund that went back to the buyer without its credit note (see uncreditedRefunds). */
export interface UncreditedRefund {
  /** What issueCreditNote is given as its source: the gateway refund's id, or markedRefundSource. */
  source: string
  /** Paise the refund gave back. */
  amountPaise: number
  reason: string
}

/**
 * What has been refunded and not yet credited: the money the order's refunds gave back (its
 * processed gateway refunds; for an order marked refunded, its whole payment) beyond its credit
 * notes, at most its invoice, and the refunds that have no credit note of their own, oldest
 * first. A credit note that failed in its refund's transaction, or a refund settled before
 * credit notes were kept, leaves such a gap; 'Issue credit note' fills it (issueCreditNote for
 * each, which credits only what is left).
 */
export async function uncreditedRefunds(
  db: DB,
  orderId: string,
): Promise<{ amount: number; refunds: UncreditedRefund[] }> {
  const [order, refunds, notes] = await Promise.all([
    db
      .selectFrom('order')
      .select(['status', 'amount', 'paidAmount'])
      .where('id', '=', orderId)
      .executeTakeFirst(),
    db
      .selectFrom('orderRefund')
      .select(['id', 'amount', 'reason'])
      .where('orderId', '=', orderId)
      .where('status', '=', 'processed')
      .orderBy('processedAt')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('creditNote')
      .select(['source', 'amount'])
      .where('orderId', '=', orderId)
      .execute(),
  ])
  if (!order) return { amount: 0, refunds: [] }
  const sum = (rows: { amount: number | string }[]) =>
    rows.reduce((total, row) => total + Number(row.amount), 0)
  const paid = Number(order.paidAmount ?? order.amount)
  const processed = sum(refunds)
  const refunded = order.status === 'refunded' ? Math.max(processed, paid) : processed
  const amount = Math.max(0, Math.min(refunded, Number(order.amount)) - sum(notes))
  if (amount === 0) return { amount, refunds: [] }
  const credited = new Set(notes.map((note) => note.source))
  const missing: UncreditedRefund[] = refunds
    .filter((refund) => !credited.has(refund.id))
    .map((refund) => ({
      source: refund.id,
      amountPaise: Number(refund.amount),
      reason: refund.reason,
    }))
  // An order marked refunded: what its gateway refunds did not give back went back by hand.
  const marked = markedRefundSource(orderId)
  if (order.status === 'refunded' && paid > processed && !credited.has(marked))
    missing.push({ source: marked, amountPaise: paid - processed, reason: '' })
  return { amount, refunds: missing }
}

/**
 * How long a sale's credit notes reduce the GST paid on it (creditNoteDeadline): the financial
 * year of the supply (its invoice's, or the year it was paid in when not numbered yet, which is
 * the year its first credit note numbers the invoice in, so the GST register judges the note by
 * the same year) and the deadline. Null for a sale whose credit notes reverse no tax: a
 * test-mode sale, an invoice without a GSTIN (or issued before its seller was kept), or no GSTIN
 * in Settings for a sale not invoiced yet.
 */
export async function creditNoteTimeLimit(
  db: DB,
  order: { id: string; testMode: number | boolean; paidAt: string | null; createdAt: string },
  settings: Pick<InvoiceSettings, 'sellerGstin'>,
): Promise<{ financialYear: string; deadline: Date } | null> {
  if (order.testMode) return null
  const invoice = await db
    .selectFrom('invoice')
    .select(['financialYear', 'sellerName', 'sellerGstin'])
    .where('orderId', '=', order.id)
    .executeTakeFirst()
  const taxed = invoice
    ? invoice.sellerName !== null && Boolean(invoice.sellerGstin)
    : Boolean(settings.sellerGstin)
  if (!taxed) return null
  const financialYear =
    invoice?.financialYear ?? financialYearOf(new Date(order.paidAt ?? order.createdAt))
  return { financialYear, deadline: creditNoteDeadline(financialYear) }
}

/** A credit note as the order pages list it. */
export interface CreditNoteSummary {
  id: string
  /** The number, or TEST_CREDIT_NOTE_NUMBER for a test-mode order's. */
  number: string
  issuedAt: string
  /** Paise. */
  amount: number
}

/** The order's credit notes, oldest first (in series order within one millisecond). */
export async function listCreditNotes(db: DB, orderId: string): Promise<CreditNoteSummary[]> {
  const rows = await db
    .selectFrom('creditNote')
    .select(['id', 'number', 'issuedAt', 'amount'])
    .where('orderId', '=', orderId)
    .orderBy('issuedAt')
    .orderBy('sequence')
    .orderBy('id')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    number: row.number ?? TEST_CREDIT_NOTE_NUMBER,
    issuedAt: row.issuedAt,
    amount: Number(row.amount),
  }))
}

/** What a credit note's PDF shows (app/services/invoice.server.ts renders it). */
export type CreditNoteData = Pick<
  InvoiceData,
  'seller' | 'buyer' | 'orderId' | 'productName' | 'testMode' | 'timezone'
> & {
  creditNoteNumber: string
  /** ISO-8601: its date. */
  issuedAt: string
  invoiceNumber: string
  invoiceIssuedAt: string
  /** The tax reversed, when the invoice had tax lines. */
  tax: InvoiceData['tax']
  /** Paise credited. */
  amount: number
  reason: string
  /** The gateway's refund id, when the refund went through one. */
  refundReference: string | null
}

/** One credit note of an order, or null when there is no such credit note for it. */
export async function getCreditNoteData(
  db: DB,
  orderId: string,
  creditNoteId: string,
): Promise<CreditNoteData | null> {
  const row = await db
    .selectFrom('creditNote')
    .innerJoin('order', 'order.id', 'creditNote.orderId')
    .leftJoin('orderRefund', 'orderRefund.id', 'creditNote.source')
    .selectAll('creditNote')
    .select([
      'order.productName',
      'order.customerName',
      'order.customerEmail',
      'order.customerPhone',
      'order.testMode',
      'orderRefund.gatewayRefundId',
    ])
    .where('creditNote.id', '=', creditNoteId)
    .where('creditNote.orderId', '=', orderId)
    .executeTakeFirst()
  if (!row) return null
  const { timezone } = await getSiteSettings(db)
  // The business it was issued to, kept with it.
  const business = keptBusiness(row)
  const rate = row.gstRateBasisPoints === null ? null : Number(row.gstRateBasisPoints)
  const tax =
    row.sellerGstin && rate !== null && row.centralTax !== null && row.stateTax !== null
      ? {
          // The places and the taxes' names come from the GSTINs; the figures as issued.
          ...gstBreakdown(Number(row.amount), rate, row.sellerGstin, business?.gstin),
          taxableValue: Number(row.taxableValue),
          centralTax: Number(row.centralTax),
          stateTax: Number(row.stateTax),
          integratedTax: Number(row.integratedTax ?? 0),
          interState: row.integratedTax !== null,
          sacCode: row.sacCode,
        }
      : null
  return {
    creditNoteNumber: row.number ?? TEST_CREDIT_NOTE_NUMBER,
    issuedAt: row.issuedAt,
    invoiceNumber: row.invoiceNumber,
    invoiceIssuedAt: row.invoiceIssuedAt,
    seller: {
      name: row.sellerName,
      address: row.sellerAddress,
      gstin: row.sellerGstin,
      email: row.sellerEmail,
      phone: row.sellerPhone,
    },
    tax,
    buyer: {
      name: row.customerName,
      email: row.customerEmail,
      phone: row.customerPhone,
      business,
    },
    orderId: row.orderId,
    productName: row.productName,
    amount: Number(row.amount),
    reason: row.reason,
    refundReference: row.gatewayRefundId ?? null,
    testMode: Boolean(row.testMode),
    timezone,
  }
}
