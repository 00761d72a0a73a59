import type { DB } from '~/lib/db.server'
import {
  creditNoteDeadline,
  gstBreakdown,
  indiaYearMonth,
  placeOfSupply,
  placeOfSupplyCode,
} from '~/lib/gst'
import type { GstRegisterRow } from '~/lib/gst-returns'

/**
 * `YYYY-MM` → the month's first and the next month's first instant, India time; null for
 * anything else. Years 2000 to 2999 only: before the shop sold anything there is no register,
 * and December 9999's next month would be no date at all.
 */
export function monthRange(month: string): { from: string; to: string } | null {
  const match = /^(2\d{3})-(0[1-9]|1[0-2])$/.exec(month)
  if (!match) return null
  const [year, mm] = [Number(match[1]), Number(match[2])]
  const next = mm === 12 ? `${year + 1}-01` : `${year}-${String(mm + 1).padStart(2, '0')}`
  const start = (ym: string) => new Date(`${ym}-01T00:00:00+05:30`).toISOString()
  return { from: start(month), to: start(next) }
}

/** "November 2026": a month's name, read from its first day at 00:00 UTC (registerMonths). */
const monthLabel = new Intl.DateTimeFormat('en-IN', {
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
})

/**
 * The `count` months up to `now`'s, newest first, as the register's form offers them:
 * `{ value: '2026-11', label: 'November 2026' }`, in India time.
 */
export function registerMonths(now: Date, count: number): { value: string; label: string }[] {
  const [year, month] = indiaYearMonth(now)
  return Array.from({ length: count }, (_, i) => {
    const first = new Date(Date.UTC(year, month - 1 - i, 1))
    return {
      value: `${first.getUTCFullYear()}-${String(first.getUTCMonth() + 1).padStart(2, '0')}`,
      label: monthLabel.format(first),
    }
  })
}

/** The month's register rows (GstRegisterRow, app/lib/gst-returns.ts), in date order. */
export async function gstRegister(db: DB, month: string): Promise<GstRegisterRow[]> {
  const range = monthRange(month)
  if (!range) return []
  const [invoices, creditNotes] = await Promise.all([
    db
      .selectFrom('invoice')
      .innerJoin('order', 'order.id', 'invoice.orderId')
      .select([
        'invoice.number',
        'invoice.issuedAt',
        'invoice.orderId',
        'invoice.sellerName',
        'invoice.sellerGstin',
        'invoice.sacCode',
        'invoice.gstRateBasisPoints',
        'invoice.buyerBusinessName',
        'invoice.buyerGstin',
        'order.amount',
        'order.customerName',
      ])
      .where('invoice.issuedAt', '>=', range.from)
      .where('invoice.issuedAt', '<', range.to)
      .execute(),
    db
      .selectFrom('creditNote')
      .innerJoin('order', 'order.id', 'creditNote.orderId')
      // The year of the sale it adjusts, for its time limit (creditNoteDeadline). Every
      // numbered credit note has this invoice: issuing one numbers the sale's invoice first, in
      // the same transaction, in the series of the year it was paid in (issueCreditNote), so a
      // sale refunded before its payment mail numbered it is judged by that year too, the one
      // the order page's notice names (creditNoteTimeLimit). Invoices are never deleted, and a
      // test-mode sale's note, which has none, takes no number and is left out below.
      .leftJoin('invoice', 'invoice.orderId', 'creditNote.orderId')
      .select([
        'creditNote.number',
        'creditNote.issuedAt',
        'creditNote.orderId',
        'creditNote.invoiceNumber',
        'creditNote.amount',
        'creditNote.sellerGstin',
        'creditNote.sacCode',
        'creditNote.gstRateBasisPoints',
        'creditNote.taxableValue',
        'creditNote.centralTax',
        'creditNote.stateTax',
        'creditNote.integratedTax',
        'creditNote.buyerBusinessName',
        'creditNote.buyerGstin',
        'order.customerName',
        'invoice.financialYear as invoiceFinancialYear',
      ])
      // A test-mode order's credit note takes no number: it is not in the register.
      .where('creditNote.number', 'is not', null)
      .where('creditNote.issuedAt', '>=', range.from)
      .where('creditNote.issuedAt', '<', range.to)
      .execute(),
  ])
  const rows: GstRegisterRow[] = []
  for (const invoice of invoices) {
    const amount = Number(invoice.amount)
    const rate = invoice.gstRateBasisPoints === null ? null : Number(invoice.gstRateBasisPoints)
    // An invoice issued before its seller was kept, or without a GSTIN, has no tax lines.
    const tax =
      invoice.sellerName !== null && invoice.sellerGstin && rate !== null
        ? gstBreakdown(amount, rate, invoice.sellerGstin, invoice.buyerGstin)
        : null
    rows.push({
      kind: 'Invoice',
      number: invoice.number,
      date: invoice.issuedAt,
      againstInvoice: '',
      orderId: invoice.orderId,
      buyer: invoice.buyerBusinessName ?? invoice.customerName,
      buyerGstin: invoice.buyerGstin ?? '',
      placeOfSupply: tax?.placeOfSupply ?? '',
      placeOfSupplyCode: tax ? placeOfSupplyCode(invoice.sellerGstin!, invoice.buyerGstin) : '',
      sacCode: invoice.sacCode ?? '',
      ratePercent: tax ? tax.rateBasisPoints / 100 : null,
      taxableValue: tax?.taxableValue ?? null,
      centralTax: tax ? tax.centralTax : null,
      stateTax: tax ? tax.stateTax : null,
      integratedTax: tax ? tax.integratedTax : null,
      total: amount,
    })
  }
  for (const note of creditNotes) {
    const rate = note.gstRateBasisPoints === null ? null : Number(note.gstRateBasisPoints)
    const taxed = Boolean(note.sellerGstin) && rate !== null && note.centralTax !== null
    const negative = (paise: number | string | null) => 0 - Number(paise ?? 0)
    rows.push({
      kind: 'Credit note',
      number: note.number!,
      date: note.issuedAt,
      againstInvoice: note.invoiceNumber,
      orderId: note.orderId,
      buyer: note.buyerBusinessName ?? note.customerName,
      buyerGstin: note.buyerGstin ?? '',
      placeOfSupply: taxed ? placeOfSupply(note.sellerGstin, note.buyerGstin) : '',
      placeOfSupplyCode: taxed ? placeOfSupplyCode(note.sellerGstin, note.buyerGstin) : '',
      sacCode: note.sacCode,
      ratePercent: taxed ? rate! / 100 : null,
      taxableValue: taxed ? negative(note.taxableValue) : null,
      centralTax: taxed ? negative(note.centralTax) : null,
      stateTax: taxed ? negative(note.stateTax) : null,
      integratedTax: taxed ? negative(note.integratedTax) : null,
      total: negative(note.amount),
      // Issued after 30 November following the sale's financial year, it no longer reduces the
      // tax paid on it (CGST Act, section 34(2); docs/delivery.md, "Credit notes"): the returns'
      // tables leave its tax out (app/lib/gst-returns.ts).
      ...(taxed &&
      note.invoiceFinancialYear &&
      new Date(note.issuedAt) > creditNoteDeadline(note.invoiceFinancialYear)
        ? { pastTimeLimit: true }
        : {}),
    })
  }
  // Date order; at the same moment invoices first (a credit note adjusts one), then by number.
  return rows.sort(
    (a, b) =>
      a.date.localeCompare(b.date) ||
      Number(a.kind === 'Credit note') - Number(b.kind === 'Credit note') ||
      a.number.localeCompare(b.number),
  )
}
