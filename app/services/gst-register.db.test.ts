import { afterEach, describe, expect, it } from 'vitest'
import { saveCustomerBusiness } from '~/data/customer-gst.server'
import { gstRegister, monthRange, registerMonths } from '~/data/gst-register.server'
import {
  b2cSummary,
  businessDocuments,
  documentsIssued,
  outwardSupplies,
  sacSummary,
  type GstRegisterRow,
} from '~/lib/gst-returns'
import { issueInvoiceNumber } from '~/data/invoice.server'
import { readSiteSettings, updateSiteSettings } from '~/data/settings.server'
import { issueCreditNote } from '~/data/credit-note.server'
import { fileTestDb } from '../../tests/helpers/db'
import { dateFormattersBuilt } from '../../tests/helpers/intl'
import { makeCustomer, makePaidOrder, makeProduct } from '../../tests/factories'

/**
 * The month's GST register on the real database, SQLite and PostgreSQL (docs/delivery.md, "GST
 * register"): every invoice and credit note issued in the month (India time), real sales only,
 * with the buyer's GSTIN, place of supply and tax by kind; credit notes negative.
 */
const t = fileTestDb()

afterEach(async () => {
  await updateSiteSettings(t.db, { sellerGstin: '', gstRate: 18, sacCode: '' })
})

describe(`GST register (${process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'})`, () => {
  it('knows the months in India time', () => {
    expect(monthRange('2026-11')).toEqual({
      from: '2026-10-31T18:30:00.000Z',
      to: '2026-11-30T18:30:00.000Z',
    })
    expect(monthRange('2026-12')?.to).toBe('2026-12-31T18:30:00.000Z')
    expect(monthRange('2999-12')?.to).toBe('2999-12-31T18:30:00.000Z')
    for (const bad of ['', '2026-13', '2026-1', '26-11', '2026-11-01', '9999-12', '0000-01'])
      expect(monthRange(bad)).toBeNull()
    // 1 January 2027 at 01:00 in India is still 31 December in UTC.
    expect(registerMonths(new Date('2026-12-31T19:30:00Z'), 3)).toEqual([
      { value: '2027-01', label: 'January 2027' },
      { value: '2026-12', label: 'December 2026' },
      { value: '2026-11', label: 'November 2026' },
    ])
    // The month's names come from one formatter, made once.
    expect(dateFormattersBuilt(() => registerMonths(new Date('2026-12-31T19:30:00Z'), 13))).toBe(0)
  })

  it("lists a month's invoices and credit notes with their tax, B2B with the GSTIN, credit notes negative", async () => {
    await updateSiteSettings(t.db, {
      sellerGstin: '29ABCDE1234F1Z5',
      gstRate: 18,
      sacCode: '998434',
    })
    const settings = await readSiteSettings(t.db)
    const product = await makeProduct(t.db, { title: 'Office Suite Key', price: 149_950 })
    const business = await makeCustomer(t.db)
    await saveCustomerBusiness(t.db, business.id, {
      businessName: 'Udyam Software Private Limited',
      gstin: '27AAPFU0939F1ZV',
      address: 'Mumbai',
    })
    // A month of the past, so that the other tests' documents (issued today) are not in it.
    const inMonth = new Date('2031-03-10T06:00:00Z')
    const consumer = await makePaidOrder(t.db, product.id)
    const b2b = await makePaidOrder(t.db, product.id, { userId: business.id })
    const later = await makePaidOrder(t.db, product.id)
    const test = await makePaidOrder(t.db, product.id)
    await t.db.updateTable('order').set({ testMode: 1 }).where('id', '=', test.id).execute()
    const consumerInvoice = await issueInvoiceNumber(t.db, consumer.id, settings, inMonth)
    const b2bInvoice = await issueInvoiceNumber(
      t.db,
      b2b.id,
      settings,
      new Date('2031-03-20T06:00:00Z'),
    )
    // Issued at 00:30 on 1 April in India: April's, not March's.
    await issueInvoiceNumber(t.db, later.id, settings, new Date('2031-03-31T19:00:00Z'))
    const credit = (orderId: string, amountPaise: number, at: string) =>
      t.db
        .transaction()
        .execute((trx) =>
          issueCreditNote(
            trx,
            { orderId, source: `cn-${orderId}-${at}`, amountPaise, reason: '' },
            settings,
            new Date(at),
          ),
        )
    const note = await credit(b2b.id, 50_000, '2031-03-25T06:00:00Z')
    // A test-mode order's credit note is outside the series, and out of the register.
    await credit(test.id, 10_000, '2031-03-25T07:00:00Z')
    // Never invoiced, refunded: its invoice is numbered with its credit note, the same moment.
    const late = await makePaidOrder(t.db, product.id)
    const lateNote = await credit(late.id, 149_950, '2031-03-28T06:00:00Z')

    const rows = await gstRegister(t.db, '2031-03')
    expect(rows.map((row) => [row.kind, row.number])).toEqual([
      ['Invoice', consumerInvoice.number],
      ['Invoice', b2bInvoice.number],
      ['Credit note', note!.number],
      // The invoice first, then the credit note that adjusts it.
      ['Invoice', lateNote!.invoiceNumber],
      ['Credit note', lateNote!.number],
    ])
    expect(rows[0]).toMatchObject({
      orderId: consumer.id,
      buyer: consumer.customerName,
      buyerGstin: '',
      placeOfSupply: 'Karnataka (29)',
      sacCode: '998434',
      ratePercent: 18,
      taxableValue: 127_076,
      centralTax: 11_437,
      stateTax: 11_437,
      integratedTax: 0,
      total: 149_950,
    })
    expect(rows[1]).toMatchObject({
      buyer: 'Udyam Software Private Limited',
      buyerGstin: '27AAPFU0939F1ZV',
      placeOfSupply: 'Maharashtra (27)',
      centralTax: 0,
      stateTax: 0,
      integratedTax: 22_874,
      total: 149_950,
    })
    expect(rows[2]).toMatchObject({
      againstInvoice: b2bInvoice.number,
      buyerGstin: '27AAPFU0939F1ZV',
      placeOfSupply: 'Maharashtra (27)',
      integratedTax: -7_627,
      taxableValue: -42_373,
      centralTax: 0,
      total: -50_000,
    })
    expect(await gstRegister(t.db, '2031-04')).toHaveLength(1)
    expect(await gstRegister(t.db, 'March')).toEqual([])

    // The late sale was paid today and is credited in 2031, long after 30 November following
    // its financial year: its credit note no longer reduces the tax paid on it (CGST Act,
    // section 34(2)), so the tables leave its tax out (app/data/gst-register.server.test.ts
    // nets a consumer's credit note in time).
    expect(rows[4]).toMatchObject({ kind: 'Credit note', pastTimeLimit: true, total: -149_950 })
    expect(rows[2]!.pastTimeLimit).toBeFalsy()
    // GSTR-1's tables from the same rows. Consumers' supplies in Karnataka: two invoices, the
    // late credit note not netted.
    expect(b2cSummary(rows)).toEqual([
      { placeOfSupplyCode: '29', ratePercent: 18, taxableValue: 2 * 127_076 },
    ])
    expect(businessDocuments(rows, 'Invoice').map((row) => row.number)).toEqual([b2bInvoice.number])
    expect(businessDocuments(rows, 'Credit note').map((row) => row.number)).toEqual([note!.number])
    expect(sacSummary(rows, true)).toEqual([
      {
        sacCode: '998434',
        ratePercent: 18,
        totalValue: 99_950,
        taxableValue: 127_076 - 42_373,
        integratedTax: 22_874 - 7_627,
        centralTax: 0,
        stateTax: 0,
      },
    ])
    expect(sacSummary(rows, false)).toEqual([
      {
        sacCode: '998434',
        ratePercent: 18,
        totalValue: 2 * 149_950,
        taxableValue: 2 * 127_076,
        integratedTax: 0,
        centralTax: 2 * 11_437,
        stateTax: 2 * 11_437,
      },
    ])
    // GSTR-3B 3.1(a): everything taxed, netted; the same as table 12's two parts together.
    expect(outwardSupplies(rows)).toEqual({
      taxableValue: 127_076 - 42_373 + 2 * 127_076,
      integratedTax: 22_874 - 7_627,
      centralTax: 2 * 11_437,
      stateTax: 2 * 11_437,
    })
    // The late invoice joined the series of the year its sale was paid in: March used two.
    const paidYear = lateNote!.invoiceNumber.split('/')[1]
    expect(paidYear).not.toBe('30-31')
    expect(documentsIssued(rows)).toEqual([
      {
        nature: 'Invoices for outward supply',
        from: lateNote!.invoiceNumber,
        to: lateNote!.invoiceNumber,
        total: 1,
        cancelled: 0,
      },
      {
        nature: 'Invoices for outward supply',
        from: consumerInvoice.number,
        to: b2bInvoice.number,
        total: 2,
        cancelled: 0,
      },
      { nature: 'Credit Note', from: note!.number, to: lateNote!.number, total: 2, cancelled: 0 },
    ])
  })

  it('gives each series of documents issued its first and last number by sequence, not by text', () => {
    const row = (kind: GstRegisterRow['kind'], number: string) =>
      ({ kind, number }) as GstRegisterRow
    expect(
      documentsIssued([
        row('Invoice', 'INV/26-27/00099'),
        row('Credit note', 'CN/26-27/00003'),
        row('Invoice', 'INV/26-27/100000'),
        row('Invoice', 'INV/26-27/00100'),
      ]),
    ).toEqual([
      {
        nature: 'Invoices for outward supply',
        from: 'INV/26-27/00099',
        to: 'INV/26-27/100000',
        total: 3,
        cancelled: 0,
      },
      {
        nature: 'Credit Note',
        from: 'CN/26-27/00003',
        to: 'CN/26-27/00003',
        total: 1,
        cancelled: 0,
      },
    ])
    expect(documentsIssued([])).toEqual([])
  })
})
