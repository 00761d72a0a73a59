import PDFDocument from 'pdfkit'
import { PAID_STATUSES } from '~/data/order.server'
import { getSiteSettings } from '~/data/settings.server'
import type { DB } from './db.server'
import { formatRupees } from './money'

/**
 * The invoice PDF of a paid order (issue 7; replaces the original's "Download Invoice" alert).
 *
 * pdfkit's built-in Helvetica needs no font file or network, but only covers Windows-1252
 * (WinAnsi): the rupee sign and Indian scripts are not in it. Amounts are written "Rs. 1,499"
 * and other characters are replaced by "?" rather than printed as garbage. An embedded TTF
 * (e.g. Noto Sans with Devanagari) would lift this; none ships with the installed packages.
 */
export interface InvoiceData {
  invoiceNumber: string
  /** ISO-8601: when the payment was confirmed. */
  issuedAt: string
  seller: { name: string; address: string; gstin: string; email: string; phone: string }
  buyer: { name: string; email: string; phone: string }
  orderId: string
  productName: string
  /** Paise. */
  amount: number
  /** The gateway's transaction id (and the bank's, when given). */
  paymentReference: string | null
  paymentMode: string | null
  testMode: boolean
}

/** One invoice per order, so its number follows from the order id (ORD_{timestamp}_{n}). */
export function invoiceNumberFor(orderId: string): string {
  return `INV-${orderId.replace(/^ORD_/, '')}`
}

/** What the invoice shows, or null when the order is missing or not paid. */
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
    .where('status', 'in', PAID_STATUSES)
    .executeTakeFirst()
  if (!order) return null
  const settings = await getSiteSettings(db)
  const reference = [order.gatewayTxnId, order.bankTxnId ? `bank ${order.bankTxnId}` : null].filter(Boolean).join(', ')
  return {
    invoiceNumber: invoiceNumberFor(order.id),
    issuedAt: order.paidAt ?? order.createdAt,
    seller: {
      name: settings.sellerName || settings.siteName,
      address: settings.sellerAddress,
      gstin: settings.sellerGstin,
      email: settings.contactEmail,
      phone: settings.phoneNumber,
    },
    buyer: { name: order.customerName, email: order.customerEmail, phone: order.customerPhone },
    orderId: order.id,
    productName: order.productName,
    amount: Number(order.amount),
    paymentReference: reference || null,
    paymentMode: order.paymentMode,
    testMode: Boolean(order.testMode),
  }
}

/** Text Helvetica can print: Windows-1252 only; anything else becomes "?". */
export function pdfSafe(text: string): string {
  return text.replace(/[^\u0020-\u007e\u00a0-\u00ff\n]/g, '?')
}

/** Rupees in WinAnsi: "Rs. 1,499" (formatRupees, with the rupee sign spelt out). */
export function rupeesText(paise: number): string {
  return formatRupees(paise).replace('₹', 'Rs. ')
}

const dateFormat = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeZone: 'Asia/Kolkata' })

/** Renders the invoice. `compress: false` keeps the text readable in the file (tests). */
export function renderInvoicePdf(data: InvoiceData, options: { compress?: boolean } = {}): Promise<Buffer> {
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
  for (const line of [data.seller.address, data.seller.email, data.seller.phone]) if (line) doc.text(pdfSafe(line))
  if (data.seller.gstin) doc.text(`GSTIN: ${pdfSafe(data.seller.gstin)}`)

  doc.moveDown(1.5)
  doc.font('Helvetica-Bold').fontSize(16).text(data.seller.gstin ? 'Tax Invoice' : 'Invoice')
  doc.font('Helvetica').fontSize(10)
  doc.text(`Invoice number: ${pdfSafe(data.invoiceNumber)}`)
  doc.text(`Date: ${dateFormat.format(new Date(data.issuedAt))}`)
  doc.text(`Order: ${pdfSafe(data.orderId)}`)
  if (data.testMode) doc.text('Test mode: no real payment was made.')

  doc.moveDown()
  doc.font('Helvetica-Bold').text('Billed to')
  doc.font('Helvetica')
  for (const line of [data.buyer.name, data.buyer.email, data.buyer.phone]) if (line) doc.text(pdfSafe(line))

  doc.moveDown(1.5)
  const tableTop = doc.y
  doc.font('Helvetica-Bold')
  doc.text('Item', left, tableTop, { width: width - 120 })
  doc.text('Amount', left + width - 120, tableTop, { width: 120, align: 'right' })
  doc.moveTo(left, doc.y + 4).lineTo(left + width, doc.y + 4).stroke()
  const rowTop = doc.y + 10
  doc.font('Helvetica')
  doc.text(pdfSafe(data.productName), left, rowTop, { width: width - 120 })
  const afterItem = doc.y
  doc.text(rupeesText(data.amount), left + width - 120, rowTop, { width: 120, align: 'right' })
  doc.y = Math.max(afterItem, doc.y)
  doc.moveTo(left, doc.y + 4).lineTo(left + width, doc.y + 4).stroke()
  const totalTop = doc.y + 10
  doc.font('Helvetica-Bold')
  doc.text('Total paid', left, totalTop, { width: width - 120 })
  doc.text(rupeesText(data.amount), left + width - 120, totalTop, { width: 120, align: 'right' })

  doc.moveDown(2)
  doc.font('Helvetica').fontSize(10)
  doc.text(`Payment reference: ${pdfSafe(data.paymentReference ?? 'not recorded')}`, left)
  if (data.paymentMode) doc.text(`Payment method: ${pdfSafe(data.paymentMode)}`)
  doc.moveDown()
  doc.fontSize(8).fillColor('#555555').text('This is a computer-generated invoice and needs no signature.')
  doc.end()
  return done
}
