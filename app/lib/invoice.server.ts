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
  /** ISO-8601: when the invoice was first issued (its date). */
  issuedAt: string
  /** ISO-8601: when the payment was confirmed. */
  paidAt: string
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

/** India's financial year (April to March, India time) of a moment: "2026-27". */
export function financialYearOf(at: Date): string {
  const [year, month] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit' })
    .format(at)
    .split('-')
    .map(Number) as [number, number]
  const start = month >= 4 ? year : year - 1
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`
}

/** "INV/26-27/00042": unique within the year and at most 16 characters, as GST rules ask. */
export function formatInvoiceNumber(financialYear: string, sequence: number): string {
  return `INV/${financialYear.slice(2)}/${String(sequence).padStart(5, '0')}`
}

/**
 * The order's invoice number, given on first issue from the year's counter. The counter's row
 * is written first (SQLite's write lock, or the row lock on PostgreSQL), so two issues at once
 * wait for each other: the second sees the first's invoice and takes nothing, and the series
 * has no gaps.
 */
export async function issueInvoiceNumber(db: DB, orderId: string, now = new Date()): Promise<{ number: string; issuedAt: string }> {
  const existing = await db.selectFrom('invoice').select(['number', 'issuedAt']).where('orderId', '=', orderId).executeTakeFirst()
  if (existing) return existing
  const financialYear = financialYearOf(now)
  return db.transaction().execute(async (trx) => {
    await trx.insertInto('invoiceCounter').values({ financialYear, lastNumber: 0 }).onConflict((oc) => oc.column('financialYear').doNothing()).execute()
    const counter = await trx
      .updateTable('invoiceCounter')
      .set((eb) => ({ lastNumber: eb('lastNumber', '+', 1) }))
      .where('financialYear', '=', financialYear)
      .returning('lastNumber')
      .executeTakeFirstOrThrow()
    const again = await trx.selectFrom('invoice').select(['number', 'issuedAt']).where('orderId', '=', orderId).executeTakeFirst()
    if (again) {
      // Issued meanwhile: give the number back.
      await trx
        .updateTable('invoiceCounter')
        .set((eb) => ({ lastNumber: eb('lastNumber', '-', 1) }))
        .where('financialYear', '=', financialYear)
        .execute()
      return again
    }
    const sequence = Number(counter.lastNumber)
    const issued = { number: formatInvoiceNumber(financialYear, sequence), issuedAt: now.toISOString() }
    await trx.insertInto('invoice').values({ orderId, financialYear, sequence, ...issued }).execute()
    return issued
  })
}

/**
 * What the invoice shows, or null when the order is missing or not paid. The first call for an
 * order gives it its invoice number.
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
    .where('status', 'in', PAID_STATUSES)
    .executeTakeFirst()
  if (!order) return null
  const [settings, invoice] = await Promise.all([getSiteSettings(db), issueInvoiceNumber(db, order.id)])
  const reference = [order.gatewayTxnId, order.bankTxnId ? `bank ${order.bankTxnId}` : null].filter(Boolean).join(', ')
  return {
    invoiceNumber: invoice.number,
    issuedAt: invoice.issuedAt,
    paidAt: order.paidAt ?? order.createdAt,
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
  doc.text(`Invoice date: ${dateFormat.format(new Date(data.issuedAt))}`)
  doc.text(`Order: ${pdfSafe(data.orderId)}`)
  doc.text(`Paid on: ${dateFormat.format(new Date(data.paidAt))}`)
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
