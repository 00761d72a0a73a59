import type { DB } from '~/lib/db.server'
import { gstBreakdown, indiaYearMonth, placeOfSupply, placeOfSupplyCode } from '~/lib/gst'

/**
 * The GST register of a month (docs/delivery.md, "GST register"): every invoice and credit note
 * the shop issued in it, real sales only (a test-mode order's documents are outside the
 * series), with what a GST return asks of each: number, date, buyer and GSTIN, place of supply,
 * rate and the tax by kind. A credit note's figures are negative, so a column's sum is the
 * month's net. Months are India's calendar months (Asia/Kolkata), as GST periods are.
 */
export interface GstRegisterRow {
  kind: 'Invoice' | 'Credit note'
  number: string
  /** ISO-8601. */
  date: string
  /** For a credit note: the invoice it adjusts. */
  againstInvoice: string
  orderId: string
  buyer: string
  /** The business's GSTIN (a B2B supply), or '' for a consumer (B2C). */
  buyerGstin: string
  placeOfSupply: string
  /** The place of supply's state code ("29"), '' without tax lines. */
  placeOfSupplyCode: string
  sacCode: string
  /** Per cent, as the document states it; null when it has no tax lines. */
  ratePercent: number | null
  /** Paise; negative for a credit note. Null: no tax lines (no GSTIN at issue). */
  taxableValue: number | null
  centralTax: number | null
  stateTax: number | null
  integratedTax: number | null
  /** Paise: the document's total (the amount paid, or credited). */
  total: number
}

/** `YYYY-MM` → the month's first and the next month's first instant, India time. */
export function monthRange(month: string): { from: string; to: string } | null {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month)
  if (!match) return null
  const [year, mm] = [Number(match[1]), Number(match[2])]
  const next = mm === 12 ? `${year + 1}-01` : `${year}-${String(mm + 1).padStart(2, '0')}`
  const start = (ym: string) => new Date(`${ym}-01T00:00:00+05:30`).toISOString()
  return { from: start(month), to: start(next) }
}

/**
 * The `count` months up to `now`'s, newest first, as the register's form offers them:
 * `{ value: '2026-11', label: 'November 2026' }`, in India time.
 */
export function registerMonths(now: Date, count: number): { value: string; label: string }[] {
  const [year, month] = indiaYearMonth(now)
  const label = new Intl.DateTimeFormat('en-IN', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  })
  return Array.from({ length: count }, (_, i) => {
    const first = new Date(Date.UTC(year, month - 1 - i, 1))
    return {
      value: `${first.getUTCFullYear()}-${String(first.getUTCMonth() + 1).padStart(2, '0')}`,
      label: label.format(first),
    }
  })
}

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

/**
 * GSTR-1's tables that the month's register fills (docs/delivery.md, "GSTR-1 tables"), each a
 * CSV file in the layout of the GST offline tool's import: B2B invoices (table 4A), B2C others
 * by state and rate (7), credit notes to businesses (9B, "cdnr"), the SAC summary of B2B and of
 * B2C supplies (12), and the documents issued (13). Only documents with tax lines go into the
 * tax tables (a shop without a GSTIN files none); a consumer's place of supply is the seller's
 * own state, so there is never a B2C (large) inter-state invoice (table 5).
 */
export const GSTR1_TABLES = ['b2b', 'b2cs', 'cdnr', 'hsn-b2b', 'hsn-b2c', 'docs'] as const
export type Gstr1Table = (typeof GSTR1_TABLES)[number]

/** Table 7: B2C supplies of a state at a rate, net of their credit notes (paise). */
export interface B2cSummaryRow {
  placeOfSupplyCode: string
  ratePercent: number
  taxableValue: number
}

/** Table 12: supplies of a SAC at a rate, net of their credit notes (paise). */
export interface SacSummaryRow {
  sacCode: string
  ratePercent: number
  totalValue: number
  taxableValue: number
  integratedTax: number
  centralTax: number
  stateTax: number
}

/** Table 13: one series of documents issued in the month. */
export interface DocumentSeriesRow {
  nature: 'Invoices for outward supply' | 'Credit Note'
  from: string
  to: string
  total: number
  /** Always 0: an issued invoice or credit note is never cancelled here (gap-free series). */
  cancelled: number
}

type TaxedRow = GstRegisterRow & { ratePercent: number; taxableValue: number }
const taxed = (row: GstRegisterRow): row is TaxedRow =>
  row.ratePercent !== null && row.taxableValue !== null

/** Rows summed by key, in first-seen order. */
function sumBy<K extends string, T>(
  rows: readonly TaxedRow[],
  key: (row: TaxedRow) => K,
  start: (row: TaxedRow) => T,
  add: (sum: T, row: TaxedRow) => void,
): T[] {
  const sums = new Map<K, T>()
  for (const row of rows) {
    const k = key(row)
    let sum = sums.get(k)
    if (!sum) sums.set(k, (sum = start(row)))
    add(sum, row)
  }
  return [...sums.values()]
}

/** The month's B2B invoices (table 4A), or its credit notes to businesses (9B): register rows. */
export function businessDocuments(
  rows: readonly GstRegisterRow[],
  kind: GstRegisterRow['kind'],
): TaxedRow[] {
  return rows.filter((row): row is TaxedRow => taxed(row) && row.kind === kind && !!row.buyerGstin)
}

/** Table 7 (B2C others): consumers' supplies by place of supply and rate, credit notes netted. */
export function b2cSummary(rows: readonly GstRegisterRow[]): B2cSummaryRow[] {
  return sumBy(
    rows.filter((row): row is TaxedRow => taxed(row) && !row.buyerGstin),
    (row) => `${row.placeOfSupplyCode}|${row.ratePercent}`,
    (row) => ({
      placeOfSupplyCode: row.placeOfSupplyCode,
      ratePercent: row.ratePercent,
      taxableValue: 0,
    }),
    (sum, row) => {
      sum.taxableValue += row.taxableValue
    },
  )
}

/** Table 12, the B2B or the B2C part: supplies by SAC and rate, credit notes netted. */
export function sacSummary(rows: readonly GstRegisterRow[], business: boolean): SacSummaryRow[] {
  return sumBy(
    rows.filter((row): row is TaxedRow => taxed(row) && !!row.buyerGstin === business),
    (row) => `${row.sacCode}|${row.ratePercent}`,
    (row) => ({
      sacCode: row.sacCode,
      ratePercent: row.ratePercent,
      totalValue: 0,
      taxableValue: 0,
      integratedTax: 0,
      centralTax: 0,
      stateTax: 0,
    }),
    (sum, row) => {
      sum.totalValue += row.total
      sum.taxableValue += row.taxableValue
      sum.integratedTax += row.integratedTax ?? 0
      sum.centralTax += row.centralTax ?? 0
      sum.stateTax += row.stateTax ?? 0
    },
  )
}

/**
 * Table 13: each series of invoices and of credit notes the month used (a March sale invoiced in
 * April is numbered in the old year's series, so a month may use two), with its first and last
 * number and how many were issued.
 */
export function documentsIssued(rows: readonly GstRegisterRow[]): DocumentSeriesRow[] {
  const series = new Map<string, { nature: DocumentSeriesRow['nature']; numbers: string[] }>()
  for (const row of rows) {
    const nature = row.kind === 'Invoice' ? 'Invoices for outward supply' : 'Credit Note'
    const key = `${nature}|${row.number.replace(/\d+$/, '')}`
    const entry = series.get(key) ?? { nature, numbers: [] }
    entry.numbers.push(row.number)
    series.set(key, entry)
  }
  const sequence = (number: string) => Number(/\d+$/.exec(number)?.[0] ?? 0)
  return [...series.values()]
    .map(({ nature, numbers }) => {
      numbers.sort((a, b) => sequence(a) - sequence(b))
      return { nature, from: numbers[0]!, to: numbers.at(-1)!, total: numbers.length, cancelled: 0 }
    })
    .sort(
      (a, b) =>
        Number(a.nature === 'Credit Note') - Number(b.nature === 'Credit Note') ||
        a.from.localeCompare(b.from),
    )
}

/** GSTR-3B table 3.1(a): the month's outward taxable supplies, credit notes netted (paise). */
export interface OutwardSupplies {
  taxableValue: number
  integratedTax: number
  centralTax: number
  stateTax: number
}

/**
 * GSTR-3B's table 3.1(a) from the month's register: every document with tax lines, B2B and B2C,
 * credit notes netted, as the tax the month's return declares. Table 3.2 (inter-state supplies
 * to consumers) stays empty here: a consumer's place of supply is the shop's own state.
 */
export function outwardSupplies(rows: readonly GstRegisterRow[]): OutwardSupplies {
  const sum = { taxableValue: 0, integratedTax: 0, centralTax: 0, stateTax: 0 }
  for (const row of rows) {
    if (!taxed(row)) continue
    sum.taxableValue += row.taxableValue
    sum.integratedTax += row.integratedTax ?? 0
    sum.centralTax += row.centralTax ?? 0
    sum.stateTax += row.stateTax ?? 0
  }
  return sum
}
