import { sql } from 'kysely'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  creditNoteTimeLimit,
  getCreditNoteData,
  issueCreditNote,
  listCreditNotes,
  markedRefundSource,
  TEST_CREDIT_NOTE_NUMBER,
  uncreditedRefunds,
} from '~/data/credit-note.server'
import { getInvoiceData } from '~/data/invoice.server'
import { getOrder, listOrderEvents } from '~/data/order.server'
import { readSiteSettings, updateSiteSettings } from '~/data/settings.server'
import { issueMissingCreditNotes, markRefunded } from '~/services/order-actions.server'
import { createTestDb, fileTestDb } from '../../tests/helpers/db'
import { makePaidOrder, makeProduct, makeRefund } from '../../tests/factories'
import { renderCreditNotePdf } from './invoice.server'

/**
 * Credit notes on the real database, SQLite and PostgreSQL (docs/delivery.md, "Credit notes"):
 * a refund recorded by hand issues one against the sale's invoice (numbering the invoice first
 * if it had none), in the credit notes' own gap-free series of the credit note's financial
 * year, for what the gateway refunds have not already given back; a test-mode sale's is not
 * numbered; an invoice without tax lines gives a credit note without them.
 */
const t = fileTestDb()
const actor = 'user:admin-1'

afterEach(async () => {
  await updateSiteSettings(t.db, { sellerName: '', sellerGstin: '', gstRate: 18, sacCode: '' })
})

/** The text an uncompressed pdfkit file draws (as in invoice.db.test.ts). */
function drawnText(pdf: Buffer): string {
  return [...pdf.toString('latin1').matchAll(/\[([^\]]*)\]\s*TJ/g)]
    .map((match) =>
      [...match[1]!.matchAll(/<([0-9a-fA-F]*)>/g)]
        .map((hex) => Buffer.from(hex[1]!, 'hex').toString('latin1'))
        .join(''),
    )
    .join('\n')
}

async function soldAt(price: number, overrides: { testMode?: boolean } = {}) {
  const product = await makeProduct(t.db, { title: 'Office Suite Key', price })
  const order = await makePaidOrder(t.db, product.id)
  if (overrides.testMode)
    await t.db.updateTable('order').set({ testMode: 1 }).where('id', '=', order.id).execute()
  return order
}

const sequenceOf = (number: string) => Number(number.split('/')[2])

/** A refund's credit note issued as the refund's transaction issues it, under today's settings. */
async function credit(orderId: string, source: string, amountPaise: number) {
  const settings = await readSiteSettings(t.db)
  return t.db
    .transaction()
    .execute((trx) =>
      issueCreditNote(trx, { orderId, source, amountPaise, reason: '' }, settings, new Date()),
    )
}

describe(`credit notes (${process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'})`, () => {
  it("'Mark refunded' issues a credit note against the invoice that reverses its GST", async () => {
    await updateSiteSettings(t.db, {
      sellerName: 'Digital Keys Traders',
      sellerGstin: '29ABCDE1234F1Z5',
      gstRate: 18,
      sacCode: '998434',
    })
    const order = await soldAt(149_900)
    const result = await markRefunded(t.db, { orderId: order.id, note: 'Refunded by UPI', actor })
    expect(result.ok).toBe(true)
    // The sale had no invoice yet (its mail had not gone): it was numbered first.
    const invoice = (await getInvoiceData(t.db, order.id))!
    expect(invoice.invoiceNumber).toMatch(/^INV\/\d{2}-\d{2}\/\d{5}$/)
    const [note, ...more] = await listCreditNotes(t.db, order.id)
    expect(more).toEqual([])
    expect(note).toMatchObject({ number: expect.stringMatching(/^CN\/\d{2}-\d{2}\/\d{5}$/) })
    expect(note!.amount).toBe(149_900)
    const data = (await getCreditNoteData(t.db, order.id, note!.id))!
    // The whole of the invoice's tax goes back: 1,499 at 18 % is 1,270.34 + 114.33 + 114.33.
    expect(data).toMatchObject({
      invoiceNumber: invoice.invoiceNumber,
      // The admin's note stays in the shop: the buyer's PDF gives a plain reason.
      reason: '',
      seller: { name: 'Digital Keys Traders', gstin: '29ABCDE1234F1Z5' },
      tax: {
        taxableValue: invoice.tax!.taxableValue,
        centralTax: invoice.tax!.centralTax,
        stateTax: invoice.tax!.stateTax,
        stateTaxName: 'SGST',
        placeOfSupply: 'Karnataka (29)',
        sacCode: '998434',
      },
    })
    expect(invoice.tax).toMatchObject({ taxableValue: 127_034, centralTax: 11_433 })
    const text = drawnText(await renderCreditNotePdf(data, { compress: false }))
    for (const line of [
      'Credit Note',
      `Credit note number: ${note!.number}`,
      `Against invoice: ${invoice.invoiceNumber} of `,
      'Refund: Office Suite Key \u00b7 SAC 998434',
      'CGST @ 9%',
      'SGST @ 9%',
      'Rs. 1,270.34',
      'Rs. 114.33',
      'Total credited (includes GST @ 18%)',
      'Rs. 1,499.00',
      'Reason: Refund',
      'Issued to',
    ])
      expect(text).toContain(line)
    // A credit of value, not a quantity returned.
    expect(text).not.toContain('Qty')
    // The refunded sale keeps its invoice, and a credit note of another order is not this one's.
    expect(await getInvoiceData(t.db, order.id)).not.toBeNull()
    const other = await soldAt(10_000)
    expect(await getCreditNoteData(t.db, other.id, note!.id)).toBeNull()
  })

  it('credits only what the gateway refunds left, and never more than the invoice', async () => {
    const order = await soldAt(100_000)
    // 300 went back through the gateway before credit notes were issued for refunds.
    const at = new Date().toISOString()
    await t.db
      .insertInto('orderRefund')
      .values({
        id: `RFD_${order.id}`,
        orderId: order.id,
        gateway: 'paytm',
        amount: 30_000,
        reason: '',
        status: 'processed',
        requestedBy: actor,
        createdAt: at,
        updatedAt: at,
      })
      .execute()
    expect(
      (await markRefunded(t.db, { orderId: order.id, note: 'The rest by UPI', actor })).ok,
    ).toBe(true)
    expect((await listCreditNotes(t.db, order.id)).map((note) => note.amount)).toEqual([70_000])
    // The same source again returns its credit note and issues no other.
    expect((await credit(order.id, markedRefundSource(order.id), 1))?.amount).toBe(70_000)
    expect(await listCreditNotes(t.db, order.id)).toHaveLength(1)
    // A gateway refund confirmed after the whole order was recorded refunded by hand credits
    // nothing more: the invoice is credited once.
    const whole = await soldAt(40_000)
    expect((await markRefunded(t.db, { orderId: whole.id, note: 'By UPI', actor })).ok).toBe(true)
    expect(await credit(whole.id, 'RFD_late', 40_000)).toBeNull()
    expect((await listCreditNotes(t.db, whole.id)).map((note) => note.amount)).toEqual([40_000])
  })

  it('finds the refunds that went back without a credit note, and nothing when the invoice is credited', async () => {
    const order = await soldAt(100_000)
    const refunded = async (id: string, amount: number, processedAt: string) =>
      t.db
        .insertInto('orderRefund')
        .values({
          id,
          orderId: order.id,
          gateway: 'razorpay',
          amount,
          reason: `Part ${id}`,
          status: 'processed',
          requestedBy: actor,
          createdAt: processedAt,
          updatedAt: processedAt,
          processedAt,
        })
        .execute()
    // Two parts went back; the first one's credit note failed, the second's was issued.
    await refunded(`RFD_a${order.id}`, 30_000, '2026-11-01T10:00:00.000Z')
    await refunded(`RFD_b${order.id}`, 20_000, '2026-11-02T10:00:00.000Z')
    await credit(order.id, `RFD_b${order.id}`, 20_000)
    expect(await uncreditedRefunds(t.db, order.id)).toEqual({
      amount: 30_000,
      refunds: [
        { source: `RFD_a${order.id}`, amountPaise: 30_000, reason: `Part RFD_a${order.id}` },
      ],
    })
    // Issued late, each refund has its own; nothing is left.
    expect((await issueMissingCreditNotes(t.db, { orderId: order.id, actor })).ok).toBe(true)
    expect((await listCreditNotes(t.db, order.id)).map((note) => note.amount)).toEqual([
      20_000, 30_000,
    ])
    expect(await uncreditedRefunds(t.db, order.id)).toEqual({ amount: 0, refunds: [] })
    // The rest marked refunded by hand with its credit note failing: the rest is missing.
    await t.db.updateTable('order').set({ status: 'refunded' }).where('id', '=', order.id).execute()
    expect(await uncreditedRefunds(t.db, order.id)).toEqual({
      amount: 50_000,
      refunds: [{ source: markedRefundSource(order.id), amountPaise: 50_000, reason: '' }],
    })

    // Refunded by hand, then the gateway confirms the same money: its credit note credited
    // nothing (the invoice was credited once), and nothing is missing.
    const whole = await soldAt(40_000)
    expect((await markRefunded(t.db, { orderId: whole.id, note: 'By UPI', actor })).ok).toBe(true)
    expect(await credit(whole.id, 'RFD_late_whole', 40_000)).toBeNull()
    expect(await uncreditedRefunds(t.db, whole.id)).toEqual({ amount: 0, refunds: [] })
    // A sale never refunded, and an order that does not exist: nothing.
    expect(await uncreditedRefunds(t.db, (await soldAt(9_900)).id)).toEqual({
      amount: 0,
      refunds: [],
    })
    expect(await uncreditedRefunds(t.db, 'ORD_missing')).toEqual({ amount: 0, refunds: [] })
    expect(await issueMissingCreditNotes(t.db, { orderId: 'ORD_missing', actor })).toEqual({
      ok: false,
      message: 'Order not found',
    })
  })

  it("knows until when a sale's credit notes reduce its GST: by its invoice's year, only when they reverse tax", async () => {
    const settingsNow = await readSiteSettings(t.db)
    const limitOf = async (orderId: string) =>
      creditNoteTimeLimit(t.db, (await getOrder(t.db, orderId))!, await readSiteSettings(t.db))
    // No GSTIN in Settings: its credit notes reverse no tax.
    const untaxed = await soldAt(10_000)
    expect(await limitOf(untaxed.id)).toBeNull()
    // A GSTIN, not invoiced yet: the year it was paid in (31 March 2026, India time).
    await updateSiteSettings(t.db, { sellerGstin: '29ABCDE1234F1Z5' })
    const march = await soldAt(10_000)
    await t.db
      .updateTable('order')
      .set({ paidAt: '2026-03-31T18:00:00.000Z' })
      .where('id', '=', march.id)
      .execute()
    expect(await limitOf(march.id)).toEqual({
      financialYear: '2025-26',
      deadline: new Date('2026-11-30T18:29:59.999Z'),
    })
    // Invoiced: its invoice's year, and its invoice's GSTIN, whatever Settings say now.
    await getInvoiceData(t.db, march.id)
    await updateSiteSettings(t.db, { sellerGstin: '' })
    expect((await limitOf(march.id))?.financialYear).toBe('2025-26')
    await getInvoiceData(t.db, untaxed.id)
    await updateSiteSettings(t.db, { sellerGstin: '29ABCDE1234F1Z5' })
    expect(await limitOf(untaxed.id)).toBeNull()
    // A test-mode sale has no tax to reverse.
    const test = await soldAt(10_000, { testMode: true })
    expect(await limitOf(test.id)).toBeNull()
    expect(settingsNow.sellerGstin).toBe('')
  })

  it('shares the tax so that parts add up to the invoice, and credits once when two refunds of an order settle at once', async () => {
    await updateSiteSettings(t.db, { sellerGstin: '29ABCDE1234F1Z5', gstRate: 18 })
    // 100.05 at 18 %: 7.63 of CGST and of SGST. Rounding each part on its own would credit
    // 0.03 + 7.61 + 0.00 = 7.64 of each.
    const order = await soldAt(10_005)
    for (const [i, part] of [33, 9_971, 1].entries()) await credit(order.id, `part-${i}`, part)
    const notes = await Promise.all(
      (await listCreditNotes(t.db, order.id)).map((note) =>
        getCreditNoteData(t.db, order.id, note.id),
      ),
    )
    expect(notes.map((note) => note!.tax!.centralTax)).toEqual([3, 760, 0])
    expect(notes.map((note) => note!.tax!.stateTax)).toEqual([3, 760, 0])
    const invoice = (await getInvoiceData(t.db, order.id))!
    expect(invoice.tax!.centralTax).toBe(763)
    expect(notes.reduce((sum, note) => sum + note!.tax!.taxableValue, 0)).toBe(
      invoice.tax!.taxableValue,
    )

    // 'Mark refunded' and a gateway's confirmation of the same money at the same moment: the
    // invoice is credited once, whichever goes first.
    const twice = await soldAt(50_000)
    await Promise.all([
      markRefunded(t.db, { orderId: twice.id, note: 'By UPI', actor }),
      credit(twice.id, 'RFD_same_money', 50_000),
    ])
    const credited = await listCreditNotes(t.db, twice.id)
    expect(credited.reduce((sum, note) => sum + note.amount, 0)).toBe(50_000)
  })

  it('shows no negative taxable value on the paisa a gateway refund left, marked refunded', async () => {
    await updateSiteSettings(t.db, { sellerGstin: '29ABCDE1234F1Z5', gstRate: 18 })
    // ₹100.11 at 18 %: ₹7.64 of CGST and of SGST; ₹100.10 of it refunded through the gateway.
    const order = await soldAt(10_011)
    await makeRefund(t.db, order.id, {
      amount: 10_010,
      status: 'processed',
      at: new Date().toISOString(),
    })
    const refund = await t.db
      .selectFrom('orderRefund')
      .select('id')
      .where('orderId', '=', order.id)
      .executeTakeFirstOrThrow()
    await credit(order.id, refund.id, 10_010)
    const result = await markRefunded(t.db, { orderId: order.id, note: 'The rest by UPI', actor })
    expect(result.ok).toBe(true)
    const notes = await Promise.all(
      (await listCreditNotes(t.db, order.id)).map((note) =>
        getCreditNoteData(t.db, order.id, note.id),
      ),
    )
    expect(notes.map((note) => note!.amount)).toEqual([10_010, 1])
    expect(notes.map((note) => note!.tax)).toEqual([
      expect.objectContaining({ taxableValue: 8_484, centralTax: 763, stateTax: 763 }),
      expect.objectContaining({ taxableValue: 1, centralTax: 0, stateTax: 0 }),
    ])
  })

  it('lists credit notes issued in the same millisecond in series order', async () => {
    const order = await soldAt(90_000)
    const settings = await readSiteSettings(t.db)
    const at = new Date()
    for (const [i, part] of [10_000, 20_000, 30_000, 5_000].entries())
      await t.db.transaction().execute((trx) =>
        issueCreditNote(
          trx,
          {
            orderId: order.id,
            source: `same-ms-${order.id}-${i}`,
            amountPaise: part,
            reason: '',
          },
          settings,
          at,
        ),
      )
    const notes = await listCreditNotes(t.db, order.id)
    expect(notes.map((note) => note.amount)).toEqual([10_000, 20_000, 30_000, 5_000])
    expect(notes.map((note) => sequenceOf(note.number))).toEqual(
      [...notes.map((note) => sequenceOf(note.number))].sort((a, b) => a - b),
    )
  })

  it('numbers credit notes in their own series, by the year of the credit note, without gaps', async () => {
    const orders = await Promise.all(Array.from({ length: 8 }, () => soldAt(5_000)))
    // Paid in the last hour of March 2027 (India time), refunded after midnight: the invoice is
    // in 2026-27's series, the credit note in 2027-28's.
    const paidAt = '2027-03-31T18:00:00.000Z'
    await t.db
      .updateTable('order')
      .set({ paidAt })
      .where(
        'id',
        'in',
        orders.map((order) => order.id),
      )
      .execute()
    const now = new Date('2027-03-31T19:00:00.000Z')
    const results = await Promise.all(
      orders.map((order) =>
        markRefunded(t.db, { orderId: order.id, note: 'Refunded', actor, now }),
      ),
    )
    expect(results.every((result) => result.ok)).toBe(true)
    const notes = (await Promise.all(orders.map((order) => listCreditNotes(t.db, order.id)))).flat()
    expect(notes).toHaveLength(8)
    for (const note of notes) expect(note.number).toMatch(/^CN\/27-28\/\d{5}$/)
    const sequences = notes.map((note) => sequenceOf(note.number)).sort((a, b) => a - b)
    expect(sequences).toEqual(Array.from({ length: 8 }, (_, i) => sequences[0]! + i))
    expect(sequences[0]).toBe(1)
    for (const order of orders)
      expect((await getInvoiceData(t.db, order.id))?.invoiceNumber).toMatch(/^INV\/26-27\//)
  })

  it("gives a test-mode sale's refund a credit note outside the series, and an invoice without tax lines one without", async () => {
    const test = await soldAt(20_000, { testMode: true })
    expect((await markRefunded(t.db, { orderId: test.id, note: 'Trying refunds', actor })).ok).toBe(
      true,
    )
    const [testNote] = await listCreditNotes(t.db, test.id)
    expect(testNote?.number).toBe(TEST_CREDIT_NOTE_NUMBER)
    const testData = (await getCreditNoteData(t.db, test.id, testNote!.id))!
    expect(testData).toMatchObject({ testMode: true, invoiceNumber: 'TEST (not numbered)' })
    const testText = drawnText(await renderCreditNotePdf(testData, { compress: false }))
    expect(testText).toContain('Test credit note')
    expect(testText).toContain('Test mode: no real payment was made or refunded.')

    // No GSTIN at the sale: a credit note without GST, even if one is set by the refund.
    const plain = await soldAt(20_000)
    await getInvoiceData(t.db, plain.id)
    await updateSiteSettings(t.db, { sellerGstin: '27ABCDE1234F1Z5' })
    expect((await markRefunded(t.db, { orderId: plain.id, note: 'Refunded', actor })).ok).toBe(true)
    const [plainNote] = await listCreditNotes(t.db, plain.id)
    const plainData = (await getCreditNoteData(t.db, plain.id, plainNote!.id))!
    expect(plainData).toMatchObject({ tax: null, seller: { gstin: '' } })
    const plainText = drawnText(await renderCreditNotePdf(plainData, { compress: false }))
    expect(plainText).not.toContain('GST')
    expect(plainText).toContain('Total credited')
    expect(plainText).toContain('Rs. 200')
  })

  it("settles the refund even when its credit note cannot be issued, says so on the timeline, and 'Issue credit note' issues it later", async () => {
    // A database of its own, whose credit note counter is away: issuing fails inside the refund.
    const own = await createTestDb()
    try {
      const product = await makeProduct(own.db, { price: 30_000 })
      const order = await makePaidOrder(own.db, product.id)
      await sql`alter table credit_note_counter rename to credit_note_counter_away`.execute(own.db)
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
      const result = await markRefunded(own.db, { orderId: order.id, note: 'By UPI', actor })
      expect(errors).toHaveBeenCalledWith(expect.stringMatching(/^\[credit-note\] order /))
      errors.mockRestore()
      expect(result.ok).toBe(true)
      expect((await getOrder(own.db, order.id))?.status).toBe('refunded')
      expect(await listCreditNotes(own.db, order.id)).toEqual([])
      const events = await listOrderEvents(own.db, order.id)
      expect(events.find((event) => event.type === 'credit_note_failed')?.message).toMatch(
        /^No credit note could be issued for this refund: /,
      )
      expect(await uncreditedRefunds(own.db, order.id)).toEqual({
        amount: 30_000,
        refunds: [{ source: markedRefundSource(order.id), amountPaise: 30_000, reason: '' }],
      })

      // The fault mended, the admin issues it: numbered today, the buyer e-mailed, once.
      await sql`alter table credit_note_counter_away rename to credit_note_counter`.execute(own.db)
      const issued = await issueMissingCreditNotes(own.db, { orderId: order.id, actor })
      expect(issued).toMatchObject({ ok: true, status: 'refunded' })
      const [note, ...others] = await listCreditNotes(own.db, order.id)
      expect(others).toEqual([])
      expect(note).toMatchObject({
        amount: 30_000,
        number: expect.stringMatching(/^CN\/\d\d-\d\d\/00001$/),
      })
      expect(issued.message).toBe(
        `Credit note ${note!.number} issued; the buyer has been e-mailed.`,
      )
      expect((await uncreditedRefunds(own.db, order.id)).amount).toBe(0)
      const timeline = await listOrderEvents(own.db, order.id)
      expect(timeline.at(-1)).toMatchObject({
        type: 'credit_note_issued',
        actor,
        message: `Credit note ${note!.number} issued for ₹300 refunded`,
      })
      const mails = await own.db
        .selectFrom('job')
        .select('payload')
        .where('type', '=', 'order.mail')
        .execute()
      expect(mails.map((job) => JSON.parse(job.payload))).toContainEqual({
        orderId: order.id,
        kind: 'credit_note',
        creditNoteId: note!.id,
      })
      // Again (a double click, a second admin): nothing left to credit, nothing changes.
      expect(await issueMissingCreditNotes(own.db, { orderId: order.id, actor })).toEqual({
        ok: false,
        message: 'Every refund of this order already has its credit note. Nothing was changed.',
      })
      expect(await listCreditNotes(own.db, order.id)).toHaveLength(1)
    } finally {
      await own.destroy()
    }
  })
})
