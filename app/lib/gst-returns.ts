/**
 * GST returns from the shop's documents (docs/delivery.md, "GST register", "GSTR-1 tables"):
 * a month's register rows, as app/data/gst-register.server.ts reads them, and the tables of
 * GSTR-1 and GSTR-3B worked out from them. Pure: no database here.
 */

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
  /**
   * A credit note issued after its time limit (creditNoteDeadline in app/lib/gst.ts: 30
   * November after the sale's financial year, CGST Act section 34(2)): listed with the tax it
   * states, but it reduces no tax, so GSTR-1's tax tables and GSTR-3B leave it out (table 13
   * still counts it, as a document issued).
   */
  pastTimeLimit?: boolean
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
  row.ratePercent !== null && row.taxableValue !== null && !row.pastTimeLimit

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
