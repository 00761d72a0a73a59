import { describe, expect, it } from 'vitest'
import { createOrder } from '~/data/order.server'
import { markOrderPaid } from '~/services/fulfilment.server'
import { readSiteSettings, SITE_SETTING_DEFAULTS, updateSiteSettings } from '~/data/settings.server'
import { createTestDb, fileTestDb } from '../../tests/helpers/db'
import { BUYER, makeCustomer, makePaidOrder, makeProduct } from '../../tests/factories'
import { saveCustomerBusiness } from '~/data/customer-gst.server'
import { pdfSafe, renderInvoicePdf, rupeesText } from './invoice.server'
import {
  financialYearOf,
  formatInvoiceNumber,
  getInvoiceData,
  invoicePaidOrder,
  issueInvoiceNumber,
  TEST_INVOICE_NUMBER,
} from '~/data/invoice.server'

const t = fileTestDb()

/**
 * WinAnsi, the standard fonts' encoding: Latin-1, but 0x80-0x9f hold curly quotes, dashes and
 * more (Node's TextDecoder reads "windows-1252" as Latin-1, so they are spelt out here).
 */
const WIN_ANSI_80 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ'
const winAnsi = (bytes: Buffer) =>
  [...bytes]
    .map((byte) =>
      byte >= 0x80 && byte <= 0x9f ? WIN_ANSI_80[byte - 0x80] : String.fromCharCode(byte),
    )
    .join('')

/** The text an uncompressed pdfkit file draws: its TJ arrays hold the glyphs as hex. */
function drawnText(pdf: Buffer): string {
  const content = pdf.toString('latin1')
  return [...content.matchAll(/\[([^\]]*)\]\s*TJ/g)]
    .map((match) =>
      [...match[1]!.matchAll(/<([0-9a-fA-F]*)>/g)]
        .map((hex) => winAnsi(Buffer.from(hex[1]!, 'hex')))
        .join(''),
    )
    .join('\n')
}

/** An order marked paid now, without a gateway's answer (the invoice reads no more). */
async function paidNow(productId: string) {
  const { order } = await createOrder(t.db, { productId, customer: BUYER })
  await t.db
    .updateTable('order')
    .set({ status: 'paid', paidAt: new Date().toISOString() })
    .where('id', '=', order.id)
    .execute()
  return order
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
      {
        txnId: 'TXN123456',
        bankTxnId: 'BANK789',
        paymentMode: 'PPI',
        paidAmount: 149_950,
        status: 'TXN_SUCCESS',
        respCode: '01',
        respMsg: 'Txn Success',
      },
      { message: 'paid' },
    )
    const data = await getInvoiceData(t.db, order.id)
    expect(data).toMatchObject({
      invoiceNumber: expect.stringMatching(/^INV\/\d{2}-\d{2}\/\d{5}$/),
      amount: 149_950,
      paymentReference: 'TXN123456, bank BANK789',
    })
    // The number is given once: asking again gives the same invoice.
    expect((await getInvoiceData(t.db, order.id))!.invoiceNumber).toBe(data!.invoiceNumber)

    const pdf = await renderInvoicePdf(data!, { compress: false })
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    const text = drawnText(pdf)
    for (const expected of [
      order.id,
      data!.invoiceNumber,
      'Digital Keys Traders',
      'GSTIN: 29ABCDE1234F1Z5',
      'Tax Invoice',
      // Prices include GST (18 % by default): the seller is in Karnataka, as the place of supply.
      'Place of supply: Karnataka (29)',
      'Tax payable on reverse charge: No',
      'StreamVerse Premium \u00b7 Qty 1',
      'Taxable value',
      'Rs. 1,270.76',
      'CGST @ 9%',
      'SGST @ 9%',
      'Rs. 114.37',
      'Total paid (includes GST @ 18%)',
      BUYER.name,
      'Rs. 1,499.50',
      'TXN123456',
      // Paytm's PAYMENTMODE code (PPI), in words.
      'Payment method: Paytm wallet',
    ]) {
      expect(text).toContain(expected)
    }
    // The default (compressed) file is a PDF too.
    expect((await renderInvoicePdf(data!)).subarray(0, 5).toString('latin1')).toBe('%PDF-')
  })

  it('numbers invoices in one consecutive series per Indian financial year (April to March), at most 16 characters', () => {
    expect(financialYearOf(new Date('2026-03-31T18:29:59Z'))).toBe('2025-26') // 23:59 on 31 March in India
    expect(financialYearOf(new Date('2026-03-31T18:30:00Z'))).toBe('2026-27') // 00:00 on 1 April in India
    expect(financialYearOf(new Date('2026-11-21T10:00:00Z'))).toBe('2026-27')
    expect(financialYearOf(new Date('2099-12-31T10:00:00Z'))).toBe('2099-00')
    expect(formatInvoiceNumber('2026-27', 42)).toBe('INV/26-27/00042')
    expect(formatInvoiceNumber('2026-27', 123_456).length).toBeLessThanOrEqual(16)
  })

  it('numbers a sale first downloaded after its year ended in the series of the year it was paid in', async () => {
    const product = await makeProduct(t.db)
    const { order } = await createOrder(t.db, { productId: product.id, customer: BUYER })
    await t.db
      .updateTable('order')
      // 23:30 on 31 March 2026, India time; no payment mail numbered it.
      .set({ status: 'delivered', paidAt: '2026-03-31T18:00:00.000Z' })
      .where('id', '=', order.id)
      .execute()
    const data = await getInvoiceData(t.db, order.id)
    expect(data?.invoiceNumber).toMatch(/^INV\/25-26\/\d{5}$/)
  })

  it('gives concurrent first issues consecutive numbers without gaps, and an order only one number', async () => {
    const product = await makeProduct(t.db)
    const orders: string[] = []
    for (let i = 0; i < 12; i++) {
      const { order } = await createOrder(t.db, { productId: product.id, customer: BUYER })
      await markOrderPaid(
        t.db,
        order.id,
        {
          txnId: `TXN-S-${order.id}`,
          bankTxnId: null,
          paymentMode: 'UPI',
          paidAmount: order.amount,
          status: 'TXN_SUCCESS',
          respCode: '01',
          respMsg: 'ok',
        },
        { message: 'paid' },
      )
      orders.push(order.id)
    }
    const at = new Date('2030-06-01T10:00:00Z')
    // Every order asked for three times at once.
    const issued = await Promise.all(
      orders.flatMap((id) =>
        [0, 1, 2].map(() =>
          issueInvoiceNumber(t.db, id, SITE_SETTING_DEFAULTS, at).then(
            (r) => [id, r.number] as const,
          ),
        ),
      ),
    )
    const byOrder = new Map<string, Set<string>>()
    for (const [id, number] of issued) byOrder.set(id, (byOrder.get(id) ?? new Set()).add(number))
    expect([...byOrder.values()].every((numbers) => numbers.size === 1)).toBe(true)
    const numbers = [...byOrder.values()].map((numbers) => [...numbers][0]!).sort()
    expect(numbers).toEqual(
      Array.from({ length: 12 }, (_, i) => formatInvoiceNumber('2030-31', i + 1)),
    )
  })

  it('gives a test-mode order no number of the series, so live sales start it at 00001', async () => {
    const db = (await createTestDb()).db
    try {
      const product = await makeProduct(db, { price: 49_900 })
      const paid = async (testMode: boolean) => {
        const { order } = await createOrder(db, {
          productId: product.id,
          customer: BUYER,
          testMode,
        })
        await markOrderPaid(
          db,
          order.id,
          {
            txnId: `TXN-${order.id}`,
            bankTxnId: null,
            paymentMode: 'UPI',
            paidAmount: 49_900,
            status: 'TXN_SUCCESS',
            respCode: '01',
            respMsg: 'Txn Success',
          },
          { message: 'paid' },
        )
        return order.id
      }
      const test = await getInvoiceData(db, await paid(true))
      expect(test).toMatchObject({ invoiceNumber: TEST_INVOICE_NUMBER, testMode: true })
      const text = drawnText(await renderInvoicePdf(test!, { compress: false }))
      expect(text).toContain('Test invoice')
      expect(text).toContain('Test mode: no real payment was made.')
      expect(await db.selectFrom('invoice').select('orderId').execute()).toEqual([])
      const live = await getInvoiceData(db, await paid(false))
      expect(live!.invoiceNumber).toMatch(/^INV\/\d{2}-\d{2}\/00001$/)
    } finally {
      await db.destroy()
    }
  })

  it('numbers a sale in the financial year it was paid in, even when numbered after it ended', async () => {
    const product = await makeProduct(t.db)
    const { order } = await createOrder(t.db, { productId: product.id, customer: BUYER })
    // Paid at 23:59 on 31 March, India time; the numbering job runs after midnight.
    await t.db
      .updateTable('order')
      .set({ status: 'paid', paidAt: '2027-03-31T18:29:00.000Z' })
      .where('id', '=', order.id)
      .execute()
    const number = await invoicePaidOrder(
      t.db,
      order.id,
      SITE_SETTING_DEFAULTS,
      new Date('2027-03-31T18:31:00.000Z'),
    )
    expect(number).toMatch(/^INV\/26-27\/\d{5}$/)
    expect((await getInvoiceData(t.db, order.id))!.invoiceNumber).toBe(number)
  })

  it('keeps what an issued invoice said when the settings change: seller, GSTIN, rate and SAC', async () => {
    await updateSiteSettings(t.db, {
      sellerName: 'Digital Keys Traders',
      sellerAddress: 'Sector 17, Chandigarh',
      sellerGstin: '04ABCDE1234F1Z5',
      gstRate: 5,
      sacCode: '998434',
    })
    const product = await makeProduct(t.db, { title: 'Office Suite Key', price: 100_001 })
    const order = await paidNow(product.id)
    // Numbered by the payment's mail job, under the settings of that moment.
    await invoicePaidOrder(t.db, order.id, await readSiteSettings(t.db))
    const expected = {
      seller: { name: 'Digital Keys Traders', gstin: '04ABCDE1234F1Z5' },
      // 1,000.01 at 5 %: 952.39 taxable and 47.62 of tax, its odd paisa to the centre.
      tax: {
        rateBasisPoints: 500,
        taxableValue: 95_239,
        centralTax: 2_381,
        stateTax: 2_381,
        stateTaxName: 'UTGST',
        placeOfSupply: 'Chandigarh (04)',
        sacCode: '998434',
      },
    }
    expect(await getInvoiceData(t.db, order.id)).toMatchObject(expected)
    const text = drawnText(
      await renderInvoicePdf((await getInvoiceData(t.db, order.id))!, { compress: false }),
    )
    for (const line of [
      'Office Suite Key \u00b7 SAC 998434 \u00b7 Qty 1',
      'CGST @ 2.5%',
      'UTGST @ 2.5%',
      'Rs. 952.39',
      'Rs. 23.81',
      'Rs. 1,000.01',
    ])
      expect(text).toContain(line)

    // The shop leaves GST and renames itself: the issued invoice still says what it said.
    await updateSiteSettings(t.db, {
      sellerName: 'New Name',
      sellerGstin: '',
      gstRate: 18,
      sacCode: '',
    })
    expect(await getInvoiceData(t.db, order.id)).toMatchObject(expected)
    // A sale invoiced from now on is an invoice without tax lines.
    const later = await paidNow(product.id)
    const plain = (await getInvoiceData(t.db, later.id))!
    expect(plain).toMatchObject({ seller: { name: 'New Name', gstin: '' }, tax: null })
    const plainText = drawnText(await renderInvoicePdf(plain, { compress: false }))
    expect(plainText).not.toContain('GST')
    expect(plainText).not.toContain('Tax Invoice')
    expect(plainText).toContain('Rs. 1,000.01')
  })

  it('shows an invoice issued before its seller was kept with the current seller and no tax lines', async () => {
    await updateSiteSettings(t.db, { sellerName: 'Keys Co', sellerGstin: '27ABCDE1234F1Z5' })
    const product = await makeProduct(t.db, { price: 118_000 })
    const order = await paidNow(product.id)
    // As such an invoice was stored: the number and date only.
    await t.db
      .insertInto('invoice')
      .values({
        orderId: order.id,
        number: 'INV/25-26/09999',
        financialYear: '2025-26',
        sequence: 9999,
        issuedAt: '2026-01-05T10:00:00.000Z',
      })
      .execute()
    expect(await getInvoiceData(t.db, order.id)).toMatchObject({
      invoiceNumber: 'INV/25-26/09999',
      seller: { name: 'Keys Co', gstin: '27ABCDE1234F1Z5' },
      // It never had them, and today's rate may not be the one it was sold at.
      tax: null,
    })
  })

  it('refuses an invalid GSTIN in the settings', async () => {
    await expect(updateSiteSettings(t.db, { sellerGstin: 'NOT-A-GSTIN' })).rejects.toThrow()
    for (const gstRate of [-1, 40.01, 18.005])
      await expect(updateSiteSettings(t.db, { gstRate })).rejects.toThrow()
    await expect(updateSiteSettings(t.db, { sacCode: '99843' })).rejects.toThrow()
  })

  it('writes rupees as Rs. and replaces characters Helvetica cannot print', () => {
    expect(rupeesText(149_900)).toBe('Rs. 1,499')
    expect(pdfSafe('Asha वर्मा Café')).toBe('Asha ????? Café')
    // WinAnsi's curly quotes, dashes and ellipsis are kept (pdfkit encodes them); look-alikes it
    // lacks become plain ASCII; a form's \r\n is a line end; invisible characters are dropped;
    // an accent typed as a separate mark joins its letter; an emoji is one "?".
    expect(pdfSafe('Sharma’s “Kirana” – 9–5 … ‘A’ — €')).toBe('Sharma’s “Kirana” – 9–5 … ‘A’ — €')
    expect(pdfSafe('A\u2011B \u2212 5\u2032 \u2033')).toBe('A-B - 5\' "')
    expect(pdfSafe('12 MG Road\r\nMumbai\u00a0400001\u202f\u200B\u00AD')).toBe(
      '12 MG Road\nMumbai\u00a0400001 ',
    )
    expect(pdfSafe('Cafe\u0301 \u{1F600}')).toBe('Café ?')
  })

  it('prints the business’s legal name and address as typed on a phone: curly apostrophe and quotes, dashes, line ends', async () => {
    await updateSiteSettings(t.db, {
      sellerName: 'Digital Keys Traders',
      sellerGstin: '29ABCDE1234F1Z5',
    })
    const customer = await makeCustomer(t.db, { name: 'Ravi Sharma' })
    await saveCustomerBusiness(t.db, customer.id, {
      businessName: 'Sharma’s Traders – “Kirana”',
      gstin: '27AAPFU0939F1ZV',
      // A textarea posts its line ends as \r\n.
      address: 'Shop 4, Linking Road\r\nBandra (W), Mumbai 400050…',
    })
    const product = await makeProduct(t.db, { title: 'Office Suite Key' })
    const order = await makePaidOrder(t.db, product.id, { userId: customer.id })
    await invoicePaidOrder(t.db, order.id, await readSiteSettings(t.db))
    const text = drawnText(
      await renderInvoicePdf((await getInvoiceData(t.db, order.id))!, { compress: false }),
    )
    for (const line of [
      'Sharma’s Traders – “Kirana”',
      'Shop 4, Linking Road',
      'Bandra (W), Mumbai 400050…',
      'GSTIN: 27AAPFU0939F1ZV',
    ])
      expect(text).toContain(line)
    expect(text).not.toContain('?')
    await updateSiteSettings(t.db, { sellerName: '', sellerGstin: '' })
  })
})
