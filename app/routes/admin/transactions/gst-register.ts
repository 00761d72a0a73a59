import { data } from 'react-router'
import { gstRegister, monthRange } from '~/data/gst-register.server'
import {
  b2cSummary,
  businessDocuments,
  documentsIssued,
  GSTR1_TABLES,
  outwardSupplies,
  sacSummary,
  type B2cSummaryRow,
  type DocumentSeriesRow,
  type GstRegisterRow,
  type Gstr1Table,
  type OutwardSupplies,
  type SacSummaryRow,
} from '~/lib/gst-returns'
import { services } from '~/lib/app-context.server'
import { csvDownload, type CsvCell } from '~/lib/csv.server'
import { gstToolDate, gstToolState } from '~/lib/gst'
import { paiseToDecimalText } from '~/lib/money'
import { requirePermission } from '~/services/permissions.server'
import { recordExport } from '../list-export.server'
import type { Route } from './+types/gst-register'

/**
 * GET /admin/transactions/gst-register?month=YYYY-MM[&report=...]: the month's GST register
 * (app/data/gst-register.server.ts) as `gst-register-{YYYY-MM}.csv`, for the shop's GST return
 * or its accountant; with `report` one of GSTR-1's tables it fills, `gstr1-{report}-{YYYY-MM}.csv`
 * in the layout of the GST offline tool's CSV import (docs/delivery.md, "GSTR-1 tables"), or
 * `gstr3b`, the month's GSTR-3B table 3.1(a).
 * Amounts are rupees with two decimals; the register's dates are DD/MM/YYYY, the tables'
 * DD-Mon-YYYY, in India time.
 * The register names buyers and their GSTINs, so each download is recorded in the audit log
 * with its month, report and how many documents it read (`export.gst-register`, docs/audit.md).
 */
const rupees = (paise: number | null): CsvCell =>
  paise === null ? '' : paise < 0 ? `-${paiseToDecimalText(-paise)}` : paiseToDecimalText(paise)

const indiaDate = (options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat('en-IN', { timeZone: 'Asia/Kolkata', ...options })
const day = indiaDate({ day: '2-digit', month: '2-digit', year: 'numeric' })
const rate = (percent: number | null): CsvCell => (percent === null ? '' : String(percent))

type Columns<T> = ReadonlyArray<readonly [string, (row: T) => CsvCell]>

const REGISTER: Columns<GstRegisterRow> = [
  ['Document', (row) => row.kind],
  ['Number', (row) => row.number],
  ['Date', (row) => day.format(new Date(row.date))],
  ['Against invoice', (row) => row.againstInvoice],
  ['Order ID', (row) => row.orderId],
  ['Buyer', (row) => row.buyer],
  ['Buyer GSTIN', (row) => row.buyerGstin],
  ['Supply', (row) => (row.buyerGstin ? 'B2B' : 'B2C')],
  ['Place of supply', (row) => row.placeOfSupply],
  ['SAC', (row) => row.sacCode],
  ['Rate (%)', (row) => rate(row.ratePercent)],
  ['Taxable value', (row) => rupees(row.taxableValue)],
  ['CGST', (row) => rupees(row.centralTax)],
  ['SGST/UTGST', (row) => rupees(row.stateTax)],
  ['IGST', (row) => rupees(row.integratedTax)],
  ['Total', (row) => rupees(row.total)],
  // A late credit note is listed with the tax it states but reduces none, so the returns leave
  // it out: said here, or the columns would not add up to them (docs/delivery.md "Time limit").
  ['Reduces tax', (row) => (row.pastTimeLimit ? 'No: past time limit (CGST s. 34(2))' : '')],
]

/** Table 4A: each B2B invoice. */
const B2B: Columns<GstRegisterRow> = [
  ['GSTIN/UIN of Recipient', (row) => row.buyerGstin],
  ['Receiver Name', (row) => row.buyer],
  ['Invoice Number', (row) => row.number],
  ['Invoice date', (row) => gstToolDate(row.date)],
  ['Invoice Value', (row) => rupees(row.total)],
  ['Place Of Supply', (row) => gstToolState(row.placeOfSupplyCode)],
  ['Reverse Charge', () => 'N'],
  ['Applicable % of Tax Rate', () => ''],
  ['Invoice Type', () => 'Regular B2B'],
  ['E-Commerce GSTIN', () => ''],
  ['Rate', (row) => rate(row.ratePercent)],
  ['Taxable Value', (row) => rupees(row.taxableValue)],
  ['Cess Amount', () => rupees(0)],
]

/** Table 9B: each credit note to a business, its figures positive (the register's are not). */
const CDNR: Columns<GstRegisterRow> = [
  ['GSTIN/UIN of Recipient', (row) => row.buyerGstin],
  ['Receiver Name', (row) => row.buyer],
  ['Note Number', (row) => row.number],
  ['Note Date', (row) => gstToolDate(row.date)],
  ['Note Type', () => 'C'],
  ['Place Of Supply', (row) => gstToolState(row.placeOfSupplyCode)],
  ['Reverse Charge', () => 'N'],
  ['Note Supply Type', () => 'Regular B2B'],
  ['Note Value', (row) => rupees(-row.total)],
  ['Applicable % of Tax Rate', () => ''],
  ['Rate', (row) => rate(row.ratePercent)],
  ['Taxable Value', (row) => rupees(-(row.taxableValue ?? 0))],
  ['Cess Amount', () => rupees(0)],
]

const B2CS: Columns<B2cSummaryRow> = [
  // OE: sold by the shop itself, not through an e-commerce operator.
  ['Type', () => 'OE'],
  ['Place Of Supply', (row) => gstToolState(row.placeOfSupplyCode)],
  ['Rate', (row) => rate(row.ratePercent)],
  ['Applicable % of Tax Rate', () => ''],
  ['Taxable Value', (row) => rupees(row.taxableValue)],
  ['Cess Amount', () => rupees(0)],
  ['E-Commerce GSTIN', () => ''],
]

const HSN: Columns<SacSummaryRow> = [
  ['HSN', (row) => row.sacCode],
  ['Description', () => ''],
  // Services are counted in no unit.
  ['UQC', () => 'NA'],
  ['Total Quantity', () => '0'],
  ['Total Value', (row) => rupees(row.totalValue)],
  ['Rate', (row) => rate(row.ratePercent)],
  ['Taxable Value', (row) => rupees(row.taxableValue)],
  ['Integrated Tax Amount', (row) => rupees(row.integratedTax)],
  ['Central Tax Amount', (row) => rupees(row.centralTax)],
  ['State/UT Tax Amount', (row) => rupees(row.stateTax)],
  ['Cess Amount', () => rupees(0)],
]

const DOCS: Columns<DocumentSeriesRow> = [
  ['Nature of Document', (row) => row.nature],
  ['Sr. No. From', (row) => row.from],
  ['Sr. No. To', (row) => row.to],
  ['Total Number', (row) => String(row.total)],
  ['Cancelled', (row) => String(row.cancelled)],
]

const GSTR3B: Columns<OutwardSupplies> = [
  ['Table', () => '3.1(a)'],
  [
    'Nature of supplies',
    () => 'Outward taxable supplies (other than zero rated, nil rated and exempted)',
  ],
  ['Total taxable value', (row) => rupees(row.taxableValue)],
  ['Integrated tax', (row) => rupees(row.integratedTax)],
  ['Central tax', (row) => rupees(row.centralTax)],
  ['State/UT tax', (row) => rupees(row.stateTax)],
  ['Cess', () => rupees(0)],
]

function download<T>(filename: string, columns: Columns<T>, rows: readonly T[]) {
  return csvDownload({
    filename,
    header: columns.map(([heading]) => heading),
    rows: (async function* () {
      yield* rows
    })(),
    toCells: (row) => columns.map(([, cell]) => cell(row)),
  })
}

function gstr1Download(table: Gstr1Table, month: string, rows: GstRegisterRow[]) {
  const filename = `gstr1-${table}-${month}.csv`
  switch (table) {
    case 'b2b':
      return download(filename, B2B, businessDocuments(rows, 'Invoice'))
    case 'cdnr':
      return download(filename, CDNR, businessDocuments(rows, 'Credit note'))
    case 'b2cs':
      return download(filename, B2CS, b2cSummary(rows))
    case 'hsn-b2b':
    case 'hsn-b2c':
      return download(filename, HSN, sacSummary(rows, table === 'hsn-b2b'))
    case 'docs':
      return download(filename, DOCS, documentsIssued(rows))
  }
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requirePermission(request, 'canManageOrders')
  const params = new URL(request.url).searchParams
  const month = params.get('month') ?? ''
  if (!monthRange(month))
    throw data('Choose a month, such as 2026-11, for the GST register.', { status: 400 })
  const report = params.get('report') || 'register'
  const table = GSTR1_TABLES.find((name) => name === report)
  if (report !== 'register' && report !== 'gstr3b' && !table)
    throw data(`Choose a report: register, gstr3b, or one of ${GSTR1_TABLES.join(', ')}.`, {
      status: 400,
    })
  const rows = await gstRegister(services().db, month)
  await recordExport(
    admin,
    context,
    'gst-register',
    { month, report, documents: rows.length },
    `Exported the GST register for ${month} (${report}, ${rows.length} ${rows.length === 1 ? 'document' : 'documents'})`,
  )
  if (table) return gstr1Download(table, month, rows)
  return report === 'gstr3b'
    ? download(`gstr3b-${month}.csv`, GSTR3B, [outwardSupplies(rows)])
    : download(`gst-register-${month}.csv`, REGISTER, rows)
}
