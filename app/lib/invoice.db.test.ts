import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOrder, markOrderPaid } from '~/data/order.server'
import { updateSiteSettings } from '~/data/settings.server'
import { createTestDb, type TestDb } from '../../tests/helpers/db'
import { BUYER, makeProduct } from '../../tests/helpers/payments'
import { getInvoiceData, invoiceNumberFor, pdfSafe, renderInvoicePdf, rupeesText } from './invoice.server'

let t: TestDb
beforeAll(async () => {
  t = await createTestDb()
})
afterAll(async () => {
  await t.destroy()
})

/** The text an uncompressed pdfkit file draws: its TJ arrays hold the glyphs as hex. */
function drawnText(pdf: Buffer): string {
  const content = pdf.toString('latin1')
  return [...content.matchAll(/\[([^\]]*)\]\s*TJ/g)]
    .map((match) => [...match[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((hex) => Buffer.from(hex[1]!, 'hex').toString('latin1')).join(''))
    .join('\n')
}

describe(`invoice PDF (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('renders a paid order as a PDF with seller, GSTIN, buyer, product, rupee amount, reference and order id', async () => {
    await updateSiteSettings(t.db, {
      sellerName: 'Digital Keys Traders',
      sellerAddress: '12 MG Road, Bengaluru 560001',
      sellerGstin: '29ABCDE1234F1Z5',
    })
    const product = await makeProduct(t.db, { title: 'StreamVerse Premium', price: 149_950 })
    const { order } = await createOrder(t.db, { productId: product.id, customer: BUYER })
    expect(await getInvoiceData(t.db, order.id)).toBeNull()
    await markOrderPaid(
      t.db,
      order.id,
      { txnId: 'TXN123456', bankTxnId: 'BANK789', paymentMode: 'UPI', paidAmount: 149_950, respCode: '01', respMsg: 'Txn Success' },
      { message: 'paid' },
    )
    const data = await getInvoiceData(t.db, order.id)
    expect(data).toMatchObject({ invoiceNumber: invoiceNumberFor(order.id), amount: 149_950, paymentReference: 'TXN123456, bank BANK789' })

    const pdf = await renderInvoicePdf(data!, { compress: false })
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    const text = drawnText(pdf)
    for (const expected of [
      order.id,
      invoiceNumberFor(order.id),
      'Digital Keys Traders',
      'GSTIN: 29ABCDE1234F1Z5',
      'Tax Invoice',
      BUYER.name,
      'StreamVerse Premium',
      'Rs. 1,499.50',
      'TXN123456',
    ]) {
      expect(text).toContain(expected)
    }
    // The default (compressed) file is a PDF too.
    expect((await renderInvoicePdf(data!)).subarray(0, 5).toString('latin1')).toBe('%PDF-')
  })

  it('refuses an invalid GSTIN in the settings', async () => {
    await expect(updateSiteSettings(t.db, { sellerGstin: 'NOT-A-GSTIN' })).rejects.toThrow()
  })

  it('writes rupees as Rs. and replaces characters Helvetica cannot print', () => {
    expect(rupeesText(149_900)).toBe('Rs. 1,499')
    expect(pdfSafe('Asha वर्मा Café')).toBe('Asha ????? Café')
  })
})
