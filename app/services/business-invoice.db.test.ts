import { afterEach, describe, expect, it } from 'vitest'
import { getCreditNoteData, issueCreditNote, listCreditNotes } from '~/data/credit-note.server'
import {
  businessForNextOrder,
  getCustomerBusiness,
  saveCustomerBusiness,
} from '~/data/customer-gst.server'
import { getInvoiceData, invoiceBusinessOf, invoicePaidOrder } from '~/data/invoice.server'
import { readSiteSettings, updateSiteSettings } from '~/data/settings.server'
import { deleteUserAccount } from '~/data/user.server'
import { createOrder, markOrderFailed } from '~/data/order.server'
import { createPaymentLink } from '~/data/payment-link.server'
import { markRefunded } from '~/services/order-actions.server'
import { fileTestDb } from '../../tests/helpers/db'
import { makeCustomer, makePaidOrder, makeProduct, payOrder } from '../../tests/factories'
import { pdfText } from '../../tests/helpers/pdf'
import { renderCreditNotePdf, renderInvoicePdf } from './invoice.server'

/**
 * GST invoices to a business on the real database, SQLite and PostgreSQL (docs/delivery.md,
 * "Business invoices"): the business a customer keeps in their settings is named on the
 * invoices of their orders with its GSTIN and address, kept with the invoice; the place of
 * supply is the business's state, and a sale to another state is taxed (and credited) as IGST.
 */
const t = fileTestDb()
const actor = 'user:admin-1'
/** A registered business in Maharashtra (27); the seller is in Karnataka (29). */
const MUMBAI = {
  businessName: 'Udyam Software Private Limited',
  gstin: '27AAPFU0939F1ZV',
  address: '4th Floor, Nariman Point, Mumbai 400021',
}
const BENGALURU = {
  businessName: 'Kaveri Analytics LLP',
  gstin: '29AAGCB7383J1Z4',
  address: '12 MG Road, Bengaluru 560001',
}

afterEach(async () => {
  await updateSiteSettings(t.db, { sellerName: '', sellerGstin: '', gstRate: 18, sacCode: '' })
})

async function soldTo(business: typeof MUMBAI | null, price = 149_950) {
  const customer = await makeCustomer(t.db, { name: 'Rohan Mehta' })
  if (business) await saveCustomerBusiness(t.db, customer.id, business)
  const product = await makeProduct(t.db, { title: 'Office Suite Key', price })
  const order = await makePaidOrder(t.db, product.id, { userId: customer.id })
  return { customer, order }
}

describe(`business invoices (${process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'})`, () => {
  it('names the business of another state with its GSTIN, places the supply there and charges IGST', async () => {
    await updateSiteSettings(t.db, {
      sellerName: 'Digital Keys Traders',
      sellerGstin: '29ABCDE1234F1Z5',
      gstRate: 18,
      sacCode: '998434',
    })
    const { customer, order } = await soldTo(MUMBAI)
    await invoicePaidOrder(t.db, order.id, await readSiteSettings(t.db))
    const invoice = (await getInvoiceData(t.db, order.id))!
    expect(invoice.buyer.business).toEqual(MUMBAI)
    expect(invoice.tax).toMatchObject({
      interState: true,
      integratedTax: 22_874,
      centralTax: 0,
      stateTax: 0,
      taxableValue: 127_076,
      placeOfSupply: 'Maharashtra (27)',
    })
    const text = pdfText(await renderInvoicePdf(invoice))
    for (const line of [
      'Tax Invoice',
      'Place of supply: Maharashtra (27)',
      'Udyam Software Private Limited',
      '4th Floor, Nariman Point, Mumbai 400021',
      'GSTIN: 27AAPFU0939F1ZV',
      'Bought by: Asha Verma',
      'IGST @ 18%',
      'Rs. 228.74',
      'Rs. 1,270.76',
    ])
      expect(text).toContain(line)
    expect(text).not.toContain('CGST')

    // The invoice keeps the business it was issued to: changing or removing the details later
    // changes the next invoices, not this one.
    await saveCustomerBusiness(t.db, customer.id, BENGALURU)
    expect((await getInvoiceData(t.db, order.id))!.buyer.business).toEqual(MUMBAI)
    await saveCustomerBusiness(t.db, customer.id, null)
    expect(await getCustomerBusiness(t.db, customer.id)).toBeNull()
    expect((await getInvoiceData(t.db, order.id))!.tax?.interState).toBe(true)
  })

  it('charges CGST and SGST to a business in the seller’s state, and names nobody for a consumer', async () => {
    await updateSiteSettings(t.db, { sellerGstin: '29ABCDE1234F1Z5', gstRate: 18 })
    const { order } = await soldTo(BENGALURU)
    const invoice = (await getInvoiceData(t.db, order.id))!
    expect(invoice.buyer.business).toEqual(BENGALURU)
    expect(invoice.tax).toMatchObject({
      interState: false,
      integratedTax: 0,
      centralTax: 11_437,
      stateTax: 11_437,
      placeOfSupply: 'Karnataka (29)',
    })
    const text = pdfText(await renderInvoicePdf(invoice))
    expect(text).toContain('GSTIN: 29AAGCB7383J1Z4')
    expect(text).toContain('CGST @ 9%')
    expect(text).not.toContain('IGST')

    const consumer = await soldTo(null)
    const plain = (await getInvoiceData(t.db, consumer.order.id))!
    expect(plain.buyer.business).toBeNull()
    expect(pdfText(await renderInvoicePdf(plain))).not.toContain('Bought by')
  })

  it('reverses IGST on the credit notes of an inter-state sale, parts adding up to the invoice', async () => {
    await updateSiteSettings(t.db, { sellerGstin: '29ABCDE1234F1Z5', gstRate: 18 })
    // 100.05 at 18 %: 15.26 of IGST.
    const { order } = await soldTo(MUMBAI, 10_005)
    const settings = await readSiteSettings(t.db)
    await t.db
      .transaction()
      .execute((trx) =>
        issueCreditNote(
          trx,
          { orderId: order.id, source: `part-${order.id}`, amountPaise: 3_333, reason: 'Part' },
          settings,
          new Date(),
        ),
      )
    expect((await markRefunded(t.db, { orderId: order.id, note: 'The rest', actor })).ok).toBe(true)
    const notes = await Promise.all(
      (await listCreditNotes(t.db, order.id)).map((note) =>
        getCreditNoteData(t.db, order.id, note.id),
      ),
    )
    const invoice = (await getInvoiceData(t.db, order.id))!
    expect(invoice.tax!.integratedTax).toBe(1_526)
    expect(notes.map((note) => note!.tax!.integratedTax)).toEqual([508, 1_018])
    expect(notes.every((note) => note!.tax!.interState && note!.tax!.centralTax === 0)).toBe(true)
    expect(notes.reduce((sum, note) => sum + note!.tax!.taxableValue, 0)).toBe(
      invoice.tax!.taxableValue,
    )
    const text = pdfText(await renderCreditNotePdf(notes[0]!))
    for (const line of [
      'Credit Note',
      'Place of supply: Maharashtra (27)',
      'GSTIN: 27AAPFU0939F1ZV',
      'IGST @ 18%',
      'Rs. 5.08',
    ])
      expect(text).toContain(line)
    expect(text).not.toContain('CGST')
  })

  it("tells the admin's order page whom the invoice names: the business saved before the order", async () => {
    const { customer, order } = await soldTo(MUMBAI)
    expect(await invoiceBusinessOf(t.db, order.id)).toEqual({ business: MUMBAI, issued: false })
    await getInvoiceData(t.db, order.id)
    await saveCustomerBusiness(t.db, customer.id, null)
    expect(await invoiceBusinessOf(t.db, order.id)).toEqual({ business: MUMBAI, issued: true })
    // A consumer's: nobody, before and after.
    const consumer = await soldTo(null)
    expect(await invoiceBusinessOf(t.db, consumer.order.id)).toBeNull()
    await getInvoiceData(t.db, consumer.order.id)
    expect(await invoiceBusinessOf(t.db, consumer.order.id)).toBeNull()
  })

  it("does not make an invoice out to the shop's own GSTIN, saved before the shop set it", async () => {
    await updateSiteSettings(t.db, { sellerGstin: '', gstRate: 18 })
    const { customer, order } = await soldTo(MUMBAI)
    expect(await businessForNextOrder(t.db, customer.id)).toEqual(MUMBAI)
    await updateSiteSettings(t.db, { sellerGstin: MUMBAI.gstin })
    expect(await invoiceBusinessOf(t.db, order.id)).toBeNull()
    // Checkout does not promise it either.
    expect(await businessForNextOrder(t.db, customer.id)).toBeNull()
    await invoicePaidOrder(t.db, order.id, await readSiteSettings(t.db))
    expect((await getInvoiceData(t.db, order.id))!.buyer.business).toBeNull()
    await updateSiteSettings(t.db, { sellerGstin: '29ABCDE1234F1Z5' })
  })

  it('never makes a sale to a consumer out to a business saved after it, even invoiced late', async () => {
    await updateSiteSettings(t.db, { sellerGstin: '29ABCDE1234F1Z5', gstRate: 18 })
    // Bought as a consumer, refunded, never invoiced; the business is added afterwards.
    const { customer, order } = await soldTo(null)
    await saveCustomerBusiness(t.db, customer.id, MUMBAI)
    expect(await invoiceBusinessOf(t.db, order.id)).toBeNull()
    expect((await markRefunded(t.db, { orderId: order.id, note: 'By UPI', actor })).ok).toBe(true)
    const invoice = (await getInvoiceData(t.db, order.id))!
    expect(invoice.buyer.business).toBeNull()
    expect(invoice.tax).toMatchObject({ interState: false, placeOfSupply: 'Karnataka (29)' })
    const [note] = await listCreditNotes(t.db, order.id)
    const data = (await getCreditNoteData(t.db, order.id, note!.id))!
    expect(data.buyer.business).toBeNull()
    expect(data.tax).toMatchObject({ interState: false, integratedTax: 0 })
    // The orders placed from now on are the business's.
    const product = await makeProduct(t.db)
    const next = await makePaidOrder(t.db, product.id, { userId: customer.id })
    expect((await getInvoiceData(t.db, next.id))!.buyer.business).toEqual(MUMBAI)
  })

  it('names the business a payment link was made out to, on every attempt; a plain link names nobody', async () => {
    await updateSiteSettings(t.db, { sellerGstin: '29ABCDE1234F1Z5', gstRate: 18 })
    const settings = await readSiteSettings(t.db)
    const product = await makeProduct(t.db, { title: 'Office Suite Key', price: 118_000 })
    const buyer = { name: 'Rohan Mehta', email: 'rohan@example.in', phone: '9876543210' }
    const pay = async (business: typeof MUMBAI | null) => {
      const link = await createPaymentLink(
        t.db,
        { productId: product.id, customer: buyer, createdBy: null, business },
        'http://shop.test',
      )
      const viaLink = { id: link.id, amount: link.amount, preferredOrderId: link.orderId }
      // The first attempt fails; the second, an order of its own, is paid.
      const first = await createOrder(t.db, {
        productId: product.id,
        customer: buyer,
        paymentLink: viaLink,
      })
      await markOrderFailed(
        t.db,
        first.order.id,
        { status: 'TXN_FAILURE', respCode: '227', respMsg: 'declined' },
        { message: 'failed' },
      )
      const retry = await createOrder(t.db, {
        productId: product.id,
        customer: buyer,
        paymentLink: viaLink,
      })
      await payOrder(t.db, retry.order)
      await invoicePaidOrder(t.db, retry.order.id, settings)
      return (await getInvoiceData(t.db, retry.order.id))!
    }
    const business = await pay(MUMBAI)
    expect(business.buyer.business).toEqual(MUMBAI)
    expect(business.tax).toMatchObject({
      interState: true,
      placeOfSupply: 'Maharashtra (27)',
      integratedTax: 18_000,
      centralTax: 0,
    })
    const consumer = await pay(null)
    expect(consumer.buyer.business).toBeNull()
    expect(consumer.tax).toMatchObject({ interState: false, centralTax: 9_000, stateTax: 9_000 })
  })

  it("keeps a test-mode credit note's business with it, agreeing with its tax", async () => {
    await updateSiteSettings(t.db, { sellerGstin: '29ABCDE1234F1Z5', gstRate: 18 })
    const { customer, order } = await soldTo(MUMBAI, 10_005)
    await t.db.updateTable('order').set({ testMode: 1 }).where('id', '=', order.id).execute()
    const settings = await readSiteSettings(t.db)
    const note = await t.db
      .transaction()
      .execute((trx) =>
        issueCreditNote(
          trx,
          { orderId: order.id, source: `test-${order.id}`, amountPaise: 3_333, reason: '' },
          settings,
          new Date(),
        ),
      )
    await saveCustomerBusiness(t.db, customer.id, null)
    const data = (await getCreditNoteData(t.db, order.id, note!.id))!
    expect(data.buyer.business).toEqual(MUMBAI)
    expect(data.tax).toMatchObject({ interState: true, placeOfSupply: 'Maharashtra (27)' })
  })

  it('forgets the business with the account; issued invoices keep it', async () => {
    const { customer, order } = await soldTo(MUMBAI)
    await getInvoiceData(t.db, order.id)
    await deleteUserAccount(t.db, customer.id)
    expect(await getCustomerBusiness(t.db, customer.id)).toBeNull()
    expect((await getInvoiceData(t.db, order.id))!.buyer.business).toEqual(MUMBAI)
  })
})
