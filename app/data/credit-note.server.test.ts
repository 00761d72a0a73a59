import { describe, expect, it } from 'vitest'
import { gstBreakdown } from '~/lib/gst'
import { creditNoteTax } from './credit-note.server'

/**
 * The tax a credit note reverses (docs/delivery.md, "Credit notes"): each part's share of the
 * invoice's tax, never more than the part itself, so no credit note shows a negative taxable
 * value, whatever is left of the sale when it is refunded.
 */
const SELLER = '29ABCDE1234F1Z5'
const RATES = [500, 1200, 1800, 2800, 4000]
const places = {
  'within the state (CGST and SGST)': null,
  'to a business in another state (IGST)': '07ABCDE1234F1Z5',
}

describe('the tax of a credit note', () => {
  it('shows no negative taxable value for the paisa left after a gateway refund (₹100.11 at 18 %)', () => {
    const rate = { rateBasisPoints: 1800, sellerGstin: SELLER }
    // Worked out on its own, the ₹0.01 left would carry ₹0.01 of CGST and ₹0.01 of SGST.
    expect(gstBreakdown(10_011, 1800, SELLER).centralTax).toBe(764)
    expect(gstBreakdown(10_010, 1800, SELLER).centralTax).toBe(763)
    expect(creditNoteTax(10_010, 1, rate)).toEqual({
      taxableValue: 1,
      centralTax: 0,
      stateTax: 0,
      integratedTax: null,
    })
  })

  for (const [place, buyerGstin] of Object.entries(places)) {
    it(`keeps every small remainder's tax within what it credits, ${place}, at 5/12/18/28/40 %`, () => {
      const wrong: string[] = []
      for (const rateBasisPoints of RATES) {
        const rate = { rateBasisPoints, sellerGstin: SELLER, buyerGstin }
        // Sales of ₹1.00 to ₹7.00, every paisa (so every rounding edge), refunded but for 1 to
        // 4 paise, then the rest.
        for (let invoiced = 100; invoiced <= 700; invoiced += 1) {
          for (let left = 1; left <= 4; left += 1) {
            const notes = [
              { amount: invoiced - left, tax: creditNoteTax(0, invoiced - left, rate) },
              { amount: left, tax: creditNoteTax(invoiced - left, left, rate) },
            ]
            let creditedTax = 0
            for (const { amount, tax: note } of notes) {
              const tax = note.centralTax + note.stateTax + (note.integratedTax ?? 0)
              creditedTax += tax
              const fits =
                note.taxableValue >= 0 &&
                note.centralTax === note.stateTax &&
                note.centralTax <= Math.floor(amount / 2) &&
                tax <= amount &&
                note.taxableValue + tax === amount &&
                (buyerGstin === null ? note.integratedTax === null : note.centralTax === 0)
              if (!fits)
                wrong.push(
                  `${rateBasisPoints} bp, ${amount} of ${invoiced}: ${JSON.stringify(note)}`,
                )
            }
            // Together they reverse the invoice's tax, or at most two paise less.
            const invoice = gstBreakdown(invoiced, rateBasisPoints, SELLER, buyerGstin)
            const short =
              invoice.centralTax + invoice.stateTax + invoice.integratedTax - creditedTax
            if (short < 0 || short > 2)
              wrong.push(`${rateBasisPoints} bp, ${invoiced}: ${short} short`)
          }
        }
      }
      expect(wrong).toEqual([])
    })
  }
})
