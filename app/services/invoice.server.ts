import PDFDocument from 'pdfkit'
import type { CreditNoteData } from '~/data/credit-note.server'
import type { InvoiceData } from '~/data/invoice.server'
import { formatGstRate } from '~/lib/gst'
import { invoiceText } from '~/lib/invoice-text'
import { formatRupees } from '~/lib/money'
import { paymentModeLabel } from '~/lib/validation/gateway'

/**
 * The invoice PDF of a paid order (replaces the original's "Download Invoice" alert) and the
 * credit note PDF of a refund.
 *
 * pdfkit's built-in Helvetica needs no font file or network, but only covers Windows-1252
 * (WinAnsi): the rupee sign and Indian scripts are not in it. Amounts are written "Rs. 1,499"
 * and other characters are replaced by "?" rather than printed as garbage. An embedded TTF
 * (e.g. Noto Sans with Devanagari) would lift this; none ships with the installed packages.
 */

/**
 * Text Helvetica can print: Windows-1252 only, with its curly quotes, dashes and ellipsis kept
 * (pdfkit encodes them); anything else becomes "?" (app/lib/invoice-text.ts).
 */
export function pdfSafe(text: string): string {
  return invoiceText(text)
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

type Seller = InvoiceData['seller']
type Tax = NonNullable<InvoiceData['tax']>

/** A document of the shop (invoice or credit note) being drawn, and its bytes when ended. */
function startDocument(title: string, seller: Seller, compress: boolean) {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    compress,
    info: { Title: title, Author: pdfSafe(seller.name) },
  })
  const chunks: Buffer[] = []
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  const left = 50
  const width = doc.page.width - 100

  doc.font('Helvetica-Bold').fontSize(20).text(pdfSafe(seller.name), left, 50)
  doc.font('Helvetica').fontSize(10)
  for (const line of [seller.address, seller.email, seller.phone]) if (line) doc.text(pdfSafe(line))
  if (seller.gstin) doc.text(`GSTIN: ${pdfSafe(seller.gstin)}`)

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

  return {
    doc,
    done,
    /** The document's title and its numbered lines. */
    heading(name: string, lines: string[]) {
      doc.moveDown(1.5)
      doc.font('Helvetica-Bold').fontSize(16).text(name)
      doc.font('Helvetica').fontSize(10)
      for (const line of lines) doc.text(line)
    },
    /** The buyer: a business with its address and GSTIN first when named, then the person. */
    billedTo(buyer: InvoiceData['buyer'], label = 'Billed to') {
      doc.moveDown()
      doc.font('Helvetica-Bold').text(label)
      doc.font('Helvetica')
      const { business } = buyer
      if (business) {
        doc.text(pdfSafe(business.businessName))
        if (business.address) doc.text(pdfSafe(business.address))
        doc.text(`GSTIN: ${pdfSafe(business.gstin)}`)
      }
      const person = [buyer.name, buyer.email, buyer.phone].filter(Boolean)
      for (const [i, line] of person.entries())
        doc.text(pdfSafe(business && i === 0 ? `Bought by: ${line}` : line))
    },
    /**
     * The table: the item and its amount between rules, then (with tax) the taxable value and
     * each tax at its rate, then the total.
     */
    table(
      item: string,
      amount: number,
      tax: Tax | null,
      totalLabel: string,
      /** Whether the row is a quantity supplied (not a credit of part of its value). */
      quantity = true,
    ) {
      doc.moveDown(1.5)
      tableRow('Helvetica-Bold', 'Item', 'Amount', doc.y)
      rule()
      if (tax) {
        const described = [item, tax.sacCode && `SAC ${pdfSafe(tax.sacCode)}`, quantity && 'Qty 1']
        tableRow(
          'Helvetica',
          described.filter(Boolean).join(' \u00b7 '),
          exactRupeesText(tax.taxableValue),
          doc.y + 10,
        )
        rule()
        const half = formatGstRate(tax.rateBasisPoints / 2)
        tableRow('Helvetica', 'Taxable value', exactRupeesText(tax.taxableValue), doc.y + 10)
        if (tax.interState)
          tableRow(
            'Helvetica',
            `IGST @ ${formatGstRate(tax.rateBasisPoints)}`,
            exactRupeesText(tax.integratedTax),
            doc.y + 4,
          )
        else {
          tableRow('Helvetica', `CGST @ ${half}`, exactRupeesText(tax.centralTax), doc.y + 4)
          tableRow(
            'Helvetica',
            `${tax.stateTaxName} @ ${half}`,
            exactRupeesText(tax.stateTax),
            doc.y + 4,
          )
        }
        rule()
        tableRow(
          'Helvetica-Bold',
          `${totalLabel} (includes GST @ ${formatGstRate(tax.rateBasisPoints)})`,
          exactRupeesText(amount),
          doc.y + 10,
        )
      } else {
        tableRow('Helvetica', item, rupeesText(amount), doc.y + 10)
        rule()
        tableRow('Helvetica-Bold', totalLabel, rupeesText(amount), doc.y + 10)
      }
      doc.moveDown(2)
      doc.font('Helvetica').fontSize(10)
      doc.x = left
    },
    /** The closing line, and the document's bytes. */
    end(footer: string) {
      doc.moveDown()
      doc.fontSize(8).fillColor('#555555').text(footer, left)
      doc.end()
      return done
    },
  }
}

/** Renders the invoice. `compress: false` keeps the text readable in the file (tests). */
export function renderInvoicePdf(
  data: InvoiceData,
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  const pdf = startDocument(`Invoice ${data.invoiceNumber}`, data.seller, options.compress ?? true)
  const { doc } = pdf
  pdf.heading(data.testMode ? 'Test invoice' : data.seller.gstin ? 'Tax Invoice' : 'Invoice', [
    `Invoice number: ${pdfSafe(data.invoiceNumber)}`,
    `Invoice date: ${invoiceDate(data.issuedAt, data.timezone)}`,
    `Order: ${pdfSafe(data.orderId)}`,
    `Paid on: ${invoiceDate(data.paidAt, data.timezone)}`,
    ...(data.tax
      ? [`Place of supply: ${pdfSafe(data.tax.placeOfSupply)}`, 'Tax payable on reverse charge: No']
      : []),
    ...(data.testMode ? ['Test mode: no real payment was made.'] : []),
  ])
  pdf.billedTo(data.buyer)
  pdf.table(pdfSafe(data.productName), data.amount, data.tax, 'Total paid')
  doc.text(`Payment reference: ${pdfSafe(data.paymentReference ?? 'not recorded')}`)
  if (data.paymentMode) doc.text(`Payment method: ${pdfSafe(paymentModeLabel(data.paymentMode))}`)
  return pdf.end('This is a computer-generated invoice and needs no signature.')
}

/**
 * Renders a refund's credit note: the invoice it adjusts (number and date), the amount credited
 * and, for a tax invoice, the tax reversed (docs/delivery.md, "Credit notes").
 */
export function renderCreditNotePdf(
  data: CreditNoteData,
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  const pdf = startDocument(
    `Credit note ${data.creditNoteNumber}`,
    data.seller,
    options.compress ?? true,
  )
  const { doc } = pdf
  pdf.heading(data.testMode ? 'Test credit note' : 'Credit Note', [
    `Credit note number: ${pdfSafe(data.creditNoteNumber)}`,
    `Credit note date: ${invoiceDate(data.issuedAt, data.timezone)}`,
    `Against invoice: ${pdfSafe(data.invoiceNumber)} of ${invoiceDate(data.invoiceIssuedAt, data.timezone)}`,
    `Order: ${pdfSafe(data.orderId)}`,
    ...(data.tax
      ? [`Place of supply: ${pdfSafe(data.tax.placeOfSupply)}`, 'Tax payable on reverse charge: No']
      : []),
    ...(data.testMode ? ['Test mode: no real payment was made or refunded.'] : []),
  ])
  pdf.billedTo(data.buyer, 'Issued to')
  pdf.table(`Refund: ${pdfSafe(data.productName)}`, data.amount, data.tax, 'Total credited', false)
  doc.text(`Reason: ${pdfSafe(data.reason.trim() || 'Refund')}`)
  if (data.refundReference) doc.text(`Refund reference: ${pdfSafe(data.refundReference)}`)
  return pdf.end('This is a computer-generated credit note and needs no signature.')
}
