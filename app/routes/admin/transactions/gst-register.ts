import { data } from 'react-router'
import { gstRegister, monthRange, type GstRegisterRow } from '~/data/gst-register.server'
import { services } from '~/lib/app-context.server'
import { csvDownload, type CsvCell } from '~/lib/csv.server'
import { paiseToDecimalText } from '~/lib/money'
import { requirePermission } from '~/services/permissions.server'
import type { Route } from './+types/gst-register'

/**
 * GET /admin/transactions/gst-register?month=YYYY-MM: the month's GST register
 * (app/data/gst-register.server.ts) as `gst-register-{YYYY-MM}.csv`, for the shop's GST return
 * or its accountant. Amounts are rupees with two decimals, a credit note's negative; dates
 * DD/MM/YYYY in India time.
 */
const signedRupees = (paise: number | null): CsvCell =>
  paise === null ? '' : paise < 0 ? `-${paiseToDecimalText(-paise)}` : paiseToDecimalText(paise)

const day = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
})

const COLUMNS: ReadonlyArray<readonly [string, (row: GstRegisterRow) => CsvCell]> = [
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
  ['Rate (%)', (row) => (row.ratePercent === null ? '' : String(row.ratePercent))],
  ['Taxable value', (row) => signedRupees(row.taxableValue)],
  ['CGST', (row) => signedRupees(row.centralTax)],
  ['SGST/UTGST', (row) => signedRupees(row.stateTax)],
  ['IGST', (row) => signedRupees(row.integratedTax)],
  ['Total', (row) => signedRupees(row.total)],
]

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, 'canManageOrders')
  const month = new URL(request.url).searchParams.get('month') ?? ''
  if (!monthRange(month))
    throw data('Choose a month, such as 2026-11, for the GST register.', { status: 400 })
  const rows = await gstRegister(services().db, month)
  return csvDownload({
    filename: `gst-register-${month}.csv`,
    header: COLUMNS.map(([heading]) => heading),
    rows: (async function* () {
      yield* rows
    })(),
    toCells: (row) => COLUMNS.map(([, cell]) => cell(row)),
  })
}
