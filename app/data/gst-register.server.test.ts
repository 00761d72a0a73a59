import { afterEach, describe, expect, it } from 'vitest'
import { creditNoteTimeLimit, issueCreditNote } from '~/data/credit-note.server'
import { gstRegister } from '~/data/gst-register.server'
import { issueInvoiceNumber } from '~/data/invoice.server'
import { getOrder } from '~/data/order.server'
import { readSiteSettings, updateSiteSettings } from '~/data/settings.server'
import { creditNoteTimeLimitNotice } from '~/lib/gst'
import { b2cSummary, documentsIssued, outwardSupplies, sacSummary } from '~/lib/gst-returns'
import { fileTestDb } from '../../tests/helpers/db'
import { makePaidOrder, makeProduct } from '../../tests/factories'

/**
 * A credit note's time limit in the GST register (docs/delivery.md, "Credit notes", "GST
 * register"): one issued after 30 November following its sale's financial year no longer
 * reduces the tax paid on it (CGST Act, section 34(2)), so the returns' tables must not net it.
 */
const t = fileTestDb()

afterEach(async () => {
  await updateSiteSettings(t.db, { sellerGstin: '', gstRate: 18, sacCode: '' })
})

describe(`GST register: credit notes past their time limit (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('lists a late credit note but takes none of its tax off the month', async () => {
    await updateSiteSettings(t.db, {
      sellerGstin: '29ABCDE1234F1Z5',
      gstRate: 18,
      sacCode: '998434',
    })
    const settings = await readSiteSettings(t.db)
    const product = await makeProduct(t.db, { title: 'Office Suite Key', price: 149_950 })
    const credit = (orderId: string, amountPaise: number, at: string) =>
      t.db
        .transaction()
        .execute((trx) =>
          issueCreditNote(
            trx,
            { orderId, source: `cn-${orderId}`, amountPaise, reason: '' },
            settings,
            new Date(at),
          ),
        )
    // Sold and invoiced in March 2033 (financial year 2032-33): its time limit is 30 November 2033.
    const old = await makePaidOrder(t.db, product.id)
    await t.db
      .updateTable('order')
      .set({ paidAt: '2033-03-10T06:00:00.000Z' })
      .where('id', '=', old.id)
      .execute()
    await issueInvoiceNumber(
      t.db,
      old.id,
      settings,
      new Date('2033-03-10T06:00:00Z'),
      new Date('2033-03-10T06:00:00Z'),
    )
    // Sold and invoiced in December 2033: its credit note is in time.
    const recent = await makePaidOrder(t.db, product.id)
    await issueInvoiceNumber(
      t.db,
      recent.id,
      settings,
      new Date('2033-12-02T06:00:00Z'),
      new Date('2033-12-02T06:00:00Z'),
    )
    // Refunded on 1 December 2033 (India time), a day after the old sale's limit.
    const late = await credit(old.id, 50_000, '2033-11-30T19:00:00Z')
    const inTime = await credit(recent.id, 50_000, '2033-12-05T06:00:00Z')

    const rows = await gstRegister(t.db, '2033-12')
    const lateRow = rows.find((row) => row.number === late!.number)!
    const inTimeRow = rows.find((row) => row.number === inTime!.number)!
    // Both documented, with the tax each states.
    expect(lateRow).toMatchObject({ kind: 'Credit note', total: -50_000, centralTax: -3_814 })
    expect(inTimeRow).toMatchObject({ kind: 'Credit note', total: -50_000, centralTax: -3_814 })
    expect(inTimeRow.pastTimeLimit).toBeFalsy()
    // Only the one in time is netted: the December invoice less its own credit note.
    expect(outwardSupplies(rows)).toEqual({
      taxableValue: 127_076 - 42_372,
      integratedTax: 0,
      centralTax: 11_437 - 3_814,
      stateTax: 11_437 - 3_814,
    })
    expect(b2cSummary(rows)).toEqual([
      { placeOfSupplyCode: '29', ratePercent: 18, taxableValue: 127_076 - 42_372 },
    ])
    expect(sacSummary(rows, false)).toMatchObject([
      { totalValue: 149_950 - 50_000, centralTax: 11_437 - 3_814 },
    ])
    // Still a document issued in the month.
    expect(documentsIssued(rows).find((row) => row.nature === 'Credit Note')?.total).toBe(2)
  })

  it('judges a sale refunded before it was invoiced by the year it was paid in, as the order page warned', async () => {
    await updateSiteSettings(t.db, {
      sellerGstin: '29ABCDE1234F1Z5',
      gstRate: 18,
      sacCode: '998434',
    })
    const settings = await readSiteSettings(t.db)
    const product = await makeProduct(t.db, { title: 'Office Suite Key', price: 149_950 })
    // Three sales with no invoice yet: their payment mail, which numbers it, has not run (an
    // order paid before invoices were numbered at payment is in the same state). One paid at
    // 23:30 on 31 March 2034 in India (financial year 2033-34, limit 30 November 2034), one an
    // hour later, on 1 April in India but still 31 March in UTC (2034-35), one in test mode.
    const paid = async (paidAt: string, testMode = 0) => {
      const order = await makePaidOrder(t.db, product.id)
      await t.db.updateTable('order').set({ paidAt, testMode }).where('id', '=', order.id).execute()
      return (await getOrder(t.db, order.id))!
    }
    const lastHour = await paid('2034-03-31T18:00:00.000Z')
    const firstHour = await paid('2034-03-31T19:00:00.000Z')
    const test = await paid('2034-03-31T18:00:00.000Z', 1)
    const invoiceOf = (orderId: string) =>
      t.db.selectFrom('invoice').selectAll().where('orderId', '=', orderId).executeTakeFirst()
    for (const order of [lastHour, firstHour, test])
      expect(await invoiceOf(order.id)).toBeUndefined()

    // Refunded at 00:30 on 1 December 2034 in India. What the order page says beforehand.
    const refundedAt = new Date('2034-11-30T19:00:00Z')
    const limitOf = async (orderId: string) =>
      creditNoteTimeLimit(t.db, (await getOrder(t.db, orderId))!, settings)
    expect(await limitOf(lastHour.id)).toEqual({
      financialYear: '2033-34',
      deadline: new Date('2034-11-30T18:29:59.999Z'),
    })
    expect(creditNoteTimeLimitNotice('2033-34', refundedAt)).toMatch(/no longer reduces/)
    expect((await limitOf(firstHour.id))?.financialYear).toBe('2034-35')
    expect(creditNoteTimeLimitNotice('2034-35', refundedAt)).toBeNull()
    expect(await limitOf(test.id)).toBeNull()

    const credit = (orderId: string) =>
      t.db
        .transaction()
        .execute((trx) =>
          issueCreditNote(
            trx,
            { orderId, source: `cn-${orderId}`, amountPaise: 50_000, reason: '' },
            settings,
            refundedAt,
          ),
        )
    const late = (await credit(lastHour.id))!
    const inTime = (await credit(firstHour.id))!
    const testNote = (await credit(test.id))!

    // A credit note of a real sale never stands without its invoice: issuing it numbers the
    // invoice first, in the same transaction, in the series of the year the sale was paid in,
    // the year the notice named; the register judges the note by that invoice.
    expect(await invoiceOf(lastHour.id)).toMatchObject({
      financialYear: '2033-34',
      number: late.invoiceNumber,
      issuedAt: refundedAt.toISOString(),
    })
    expect(await invoiceOf(firstHour.id)).toMatchObject({
      financialYear: '2034-35',
      number: inTime.invoiceNumber,
    })
    expect((await limitOf(lastHour.id))?.financialYear).toBe('2033-34')
    // A test-mode sale's credit note takes no number and its invoice none: neither is in the
    // register, and no time limit is judged for them.
    expect(testNote.number).toBeNull()
    expect(await invoiceOf(test.id)).toBeUndefined()
    const unmatched = await t.db
      .selectFrom('creditNote')
      .leftJoin('invoice', 'invoice.orderId', 'creditNote.orderId')
      .select('creditNote.number')
      .where('creditNote.number', 'is not', null)
      .where('invoice.orderId', 'is', null)
      .execute()
    expect(unmatched).toEqual([])

    const rows = await gstRegister(t.db, '2034-12')
    expect(rows.map((row) => [row.kind, row.number, Boolean(row.pastTimeLimit)])).toEqual([
      ['Invoice', late.invoiceNumber, false],
      ['Invoice', inTime.invoiceNumber, false],
      ['Credit note', late.number, true],
      ['Credit note', inTime.number, false],
    ])
    // GSTR-3B and GSTR-1 take off only the note in time: both invoices less its tax.
    expect(outwardSupplies(rows)).toEqual({
      taxableValue: 2 * 127_076 - 42_372,
      integratedTax: 0,
      centralTax: 2 * 11_437 - 3_814,
      stateTax: 2 * 11_437 - 3_814,
    })
    expect(b2cSummary(rows)).toEqual([
      { placeOfSupplyCode: '29', ratePercent: 18, taxableValue: 2 * 127_076 - 42_372 },
    ])
  })
})
