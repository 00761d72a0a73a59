import PDFDocument from 'pdfkit'
import type { InvoiceData } from '~/data/invoice.server'
import { formatGstRate } from '~/lib/gst'
import { formatRupees } from '~/lib/money'
import { paymentModeLabel } from '~/lib/validation/gateway'

/**
 * The invoice PDF of a paid order (replaces the original's "Download Invoice" alert).
 *
 * pdfkit's built-in Helvetica needs no font file or network, but only covers Windows-1252
 * (WinAnsi): the rupee sign and Indian scripts are not in it. Amounts are written "Rs. 1,499"
 * and other characters are replaced by "?" rather than printed as garbage. An embedded TTF
 * (e.g. Noto Sans with Devanagari) would lift this; none ships with the installed packages.
 */

/** Text Helvetica can print: Windows-1252 only; anything else becomes "?". */
export function pdfSafe(text: string): string {
  return text.replace(/[^\u0020-\u007e\u00a0-\u00ff\n]/g, '?')
}

/** Rupees in WinAnsi: "Rs. 1,499" (formatRupees, with the rupee sign spelt out). */
export function rupeesText(paise: number): string {
  return formatRupees(paise).replace('₹', 'Rs. ')
}

const exactRupees = new Intl.NumberFormat('en-IN', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
})

/** Rupees and paise, always both ("Rs. 1,499.00"): the figures of a tax invoice's table. */
export function exactRupeesText(paise: number): string {
  return `Rs. ${exactRupees.format(paise / 100)}`
}

/** A date on the invoice: en-IN, in the shop's time zone (Settings). */
function invoiceDate(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeZone }).format(new Date(iso))
}

/** Renders the invoice. `compress: false` keeps the text readable in the file (tests). */
export function renderInvoicePdf(
  data: InvoiceData,
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    compress: options.compress ?? true,
    info: { Title: `Invoice ${data.invoiceNumber}`, Author: pdfSafe(data.seller.name) },
  })
  const chunks: Buffer[] = []
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  const left = 50
  const width = doc.page.width - 100

  doc.font('Helvetica-Bold').fontSize(20).text(pdfSafe(data.seller.name), left, 50)
  doc.font('Helvetica').fontSize(10)
  for (const line of [data.seller.address, data.seller.email, data.seller.phone])
    if (line) doc.text(pdfSafe(line))
  if (data.seller.gstin) doc.text(`GSTIN: ${pdfSafe(data.seller.gstin)}`)

  doc.moveDown(1.5)
  doc
    .font('Helvetica-Bold')
    .fontSize(16)
    .text(data.testMode ? 'Test invoice' : data.seller.gstin ? 'Tax Invoice' : 'Invoice')
  doc.font('Helvetica').fontSize(10)
  doc.text(`Invoice number: ${pdfSafe(data.invoiceNumber)}`)
  doc.text(`Invoice date: ${invoiceDate(data.issuedAt, data.timezone)}`)
  doc.text(`Order: ${pdfSafe(data.orderId)}`)
  doc.text(`Paid on: ${invoiceDate(data.paidAt, data.timezone)}`)
  if (data.tax) {
    doc.text(`Place of supply: ${pdfSafe(data.tax.placeOfSupply)}`)
    doc.text('Tax payable on reverse charge: No')
  }
  if (data.testMode) doc.text('Test mode: no real payment was made.')

  doc.moveDown()
  doc.font('Helvetica-Bold').text('Billed to')
  doc.font('Helvetica')
  for (const line of [data.buyer.name, data.buyer.email, data.buyer.phone])
    if (line) doc.text(pdfSafe(line))

  // The table: the item and its amount between rules, then the total.
  const amountWidth = 120
  /** A row from `top`: `label` (wrapping) on the left, `amount` on the right; then below both. */
  const tableRow = (font: string, label: string, amount: string, top: number) => {
    doc.font(font)
    doc.text(label, left, top, { width: width - amountWidth })
    const afterLabel = doc.y
    doc.text(amount, left + width - amountWidth, top, { width: amountWidth, align: 'right' })
    doc.y = Math.max(afterLabel, doc.y)
  }
  const rule = () =>
    doc
      .moveTo(left, doc.y + 4)
      .lineTo(left + width, doc.y + 4)
      .stroke()
  doc.moveDown(1.5)
  tableRow('Helvetica-Bold', 'Item', 'Amount', doc.y)
  rule()
  const { tax } = data
  if (tax) {
    // A tax invoice: the item at its taxable value, then each tax at its rate.
    const item = [pdfSafe(data.productName), tax.sacCode && `SAC ${pdfSafe(tax.sacCode)}`, 'Qty 1']
    tableRow(
      'Helvetica',
      item.filter(Boolean).join(' \u00b7 '),
      exactRupeesText(tax.taxableValue),
      doc.y + 10,
    )
    rule()
    const half = formatGstRate(tax.rateBasisPoints / 2)
    tableRow('Helvetica', 'Taxable value', exactRupeesText(tax.taxableValue), doc.y + 10)
    tableRow('Helvetica', `CGST @ ${half}`, exactRupeesText(tax.centralTax), doc.y + 4)
    tableRow('Helvetica', `${tax.stateTaxName} @ ${half}`, exactRupeesText(tax.stateTax), doc.y + 4)
    rule()
    tableRow(
      'Helvetica-Bold',
      `Total paid (includes GST @ ${formatGstRate(tax.rateBasisPoints)})`,
      exactRupeesText(data.amount),
      doc.y + 10,
    )
  } else {
    tableRow('Helvetica', pdfSafe(data.productName), rupeesText(data.amount), doc.y + 10)
    rule()
    tableRow('Helvetica-Bold', 'Total paid', rupeesText(data.amount), doc.y + 10)
  }

  doc.moveDown(2)
  doc.font('Helvetica').fontSize(10)
  doc.text(`Payment reference: ${pdfSafe(data.paymentReference ?? 'not recorded')}`, left)
  if (data.paymentMode) doc.text(`Payment method: ${pdfSafe(paymentModeLabel(data.paymentMode))}`)
  doc.moveDown()
  doc
    .fontSize(8)
    .fillColor('#555555')
    .text('This is a computer-generated invoice and needs no signature.')
  doc.end()
  return done
}
