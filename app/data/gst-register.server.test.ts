import { afterEach, describe, expect, it } from 'vitest'
import { issueCreditNote } from '~/data/credit-note.server'
import { gstRegister } from '~/data/gst-register.server'
import { issueInvoiceNumber } from '~/data/invoice.server'
import { readSiteSettings, updateSiteSettings } from '~/data/settings.server'
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
})
