import { describe, expect, it } from 'vitest'
import {
  creditNoteDeadline,
  creditNoteTimeLimitNotice,
  financialYearOf,
  gstToolDate,
  gstToolState,
  formatGstRate,
  gstBreakdown,
  gstinCheckCharacter,
  indiaYearMonth,
  isGstStateCode,
  rateBasisPoints,
} from './gst'
import { dateFormattersBuilt } from '../../tests/helpers/intl'

describe('GST in a price that includes it', () => {
  it('splits the amount into taxable value and tax that add up to it, to the paisa', () => {
    expect(gstBreakdown(149_950, 1800, '29ABCDE1234F1Z5')).toEqual({
      rateBasisPoints: 1800,
      taxableValue: 127_076,
      centralTax: 11_437,
      stateTax: 11_437,
      stateTaxName: 'SGST',
      integratedTax: 0,
      interState: false,
      placeOfSupply: 'Karnataka (29)',
    })
    for (const amount of [1, 99, 100, 49_900, 100_001, 9_999_999])
      for (const rate of [0, 25, 300, 500, 1200, 1800, 2800, 4000]) {
        const split = gstBreakdown(amount, rate, '07ABCDE1234F1Z5')
        expect(split.taxableValue + split.centralTax + split.stateTax).toBe(amount)
        // Equal halves, each half the rate of the taxable value, within the rounding to paise.
        expect(split.centralTax).toBe(split.stateTax)
        expect(
          Math.abs(split.centralTax + split.stateTax - (split.taxableValue * rate) / 10_000),
        ).toBeLessThanOrEqual(1.5)
      }
  })

  it('charges nothing at 0 % and names UTGST for a Union Territory without a legislature', () => {
    expect(gstBreakdown(49_900, 0, '29ABCDE1234F1Z5')).toMatchObject({
      taxableValue: 49_900,
      centralTax: 0,
      stateTax: 0,
    })
    expect(gstBreakdown(11_800, 1800, '04ABCDE1234F1Z5')).toMatchObject({
      taxableValue: 10_000,
      stateTaxName: 'UTGST',
      placeOfSupply: 'Chandigarh (04)',
    })
    // ₹299 at 18 %: CGST and SGST the same figure.
    expect(gstBreakdown(29_900, 1800, '29ABCDE1234F1Z5')).toMatchObject({
      taxableValue: 25_338,
      centralTax: 2_281,
      stateTax: 2_281,
    })
    expect(gstBreakdown(11_800, 1800, '97ABCDE1234F1Z5').stateTaxName).toBe('UTGST')
    // Delhi has a legislature: SGST.
    expect(gstBreakdown(11_800, 1800, '07ABCDE1234F1Z5').stateTaxName).toBe('SGST')
    expect(gstBreakdown(11_800, 1800, '00ABCDE1234F1Z5').placeOfSupply).toBe('State code 00')
  })

  it('taxes a business in another state with IGST at the whole rate, and one in the same state as a consumer', () => {
    // Seller in Karnataka, business in Maharashtra: inter-state, placed in Maharashtra.
    expect(gstBreakdown(149_950, 1800, '29ABCDE1234F1Z5', '27AAPFU0939F1ZV')).toEqual({
      rateBasisPoints: 1800,
      taxableValue: 127_076,
      centralTax: 0,
      stateTax: 0,
      stateTaxName: 'SGST',
      integratedTax: 22_874,
      interState: true,
      placeOfSupply: 'Maharashtra (27)',
    })
    for (const amount of [1, 99, 49_900, 100_001, 9_999_999])
      for (const rate of [0, 25, 500, 1800, 4000]) {
        const split = gstBreakdown(amount, rate, '29ABCDE1234F1Z5', '07AAACI1681G1ZR')
        expect(split.taxableValue + split.integratedTax).toBe(amount)
        expect(
          Math.abs(split.integratedTax - (split.taxableValue * rate) / 10_000),
        ).toBeLessThanOrEqual(1)
      }
    // A business in the seller's own state: CGST and SGST, as for a consumer.
    expect(gstBreakdown(149_950, 1800, '29ABCDE1234F1Z5', '29AAGCB7383J1Z4')).toEqual(
      gstBreakdown(149_950, 1800, '29ABCDE1234F1Z5'),
    )
  })

  it("checks a GSTIN's last character as the GSTN computes it", () => {
    for (const gstin of [
      '27AAPFU0939F1ZV',
      '07AAACI1681G1ZR',
      '29AAGCB7383J1Z4',
      '33AAACH2702H1Z7',
    ])
      expect(gstinCheckCharacter(gstin.slice(0, 14))).toBe(gstin[14])
    expect(gstinCheckCharacter('27AAPFU0939F1Z')).not.toBe('W')
  })

  it('prints rates as invoices write them and reads per cent as hundredths', () => {
    expect(formatGstRate(900)).toBe('9%')
    expect(formatGstRate(250)).toBe('2.5%')
    expect(formatGstRate(12.5)).toBe('0.125%')
    expect(rateBasisPoints(18)).toBe(1800)
    expect(rateBasisPoints(0.1 + 0.2)).toBe(30)
    expect(isGstStateCode('29')).toBe(true)
    expect(isGstStateCode('00')).toBe(false)
    // Centre Jurisdiction GSTINs are overseas suppliers' (IGST only): not a seller here.
    expect(isGstStateCode('99')).toBe(false)
    expect(isGstStateCode('hasOwnProperty')).toBe(false)
  })

  it('knows the financial year of a moment and until when its credit notes reduce the tax', () => {
    expect(financialYearOf(new Date('2026-03-31T18:29:59Z'))).toBe('2025-26')
    expect(financialYearOf(new Date('2026-03-31T18:30:00Z'))).toBe('2026-27')
    // 30 November after the year, to its last moment in India.
    expect(creditNoteDeadline('2025-26').toISOString()).toBe('2026-11-30T18:29:59.999Z')
    expect(creditNoteDeadline('2099-00').toISOString()).toBe('2100-11-30T18:29:59.999Z')
    // Nothing to say more than 30 days before; by the date within them; after it, what is lost.
    expect(creditNoteTimeLimitNotice('2025-26', new Date('2026-10-31T18:29:59Z'))).toBeNull()
    expect(creditNoteTimeLimitNotice('2025-26', new Date('2026-11-28T10:00:00Z'))).toBe(
      'This sale was made in 2025-26: its credit note reduces the GST paid on it only if issued by 30 November 2026 (CGST Act, section 34(2)).',
    )
    expect(creditNoteTimeLimitNotice('2025-26', new Date('2026-11-30T18:29:59.999Z'))).toMatch(
      /only if issued by 30 November 2026/,
    )
    expect(creditNoteTimeLimitNotice('2025-26', new Date('2026-11-30T18:30:00Z'))).toBe(
      'This sale was made in 2025-26: a credit note issued after 30 November 2026 no longer reduces the GST paid on it (CGST Act, section 34(2)). It is issued all the same, to document the refund.',
    )
    expect(creditNoteTimeLimitNotice('2026-27', new Date('2026-11-30T18:30:00Z'))).toBeNull()
  })

  it('reads years, months and dates in India time with formatters made once, not at each call', () => {
    const at = new Date('2027-03-31T19:00:00Z')
    // Checkout and every document read the year; a formatter costs more to make than to use.
    expect(dateFormattersBuilt(() => indiaYearMonth(at))).toBe(0)
    expect(dateFormattersBuilt(() => financialYearOf(at))).toBe(0)
    expect(dateFormattersBuilt(() => creditNoteTimeLimitNotice('2025-26', at))).toBe(0)
    expect(dateFormattersBuilt(() => gstToolDate(at.toISOString()))).toBe(0)
    // The same answers as ever: 00:30 on 1 April in India.
    expect(indiaYearMonth(at)).toEqual([2027, 4])
    expect(financialYearOf(at)).toBe('2027-28')
    expect(creditNoteTimeLimitNotice('2025-26', at)).toMatch(/after 30 November 2026 no longer/)
  })
})

describe("the GST offline tool's words", () => {
  it('writes dates DD-Mon-YYYY in India time, September as "Sep"', () => {
    expect(gstToolDate('2026-09-05T06:00:00Z')).toBe('05-Sep-2026')
    expect(gstToolDate('2026-11-29T06:00:00Z')).toBe('29-Nov-2026')
    // 31 March at 19:00 UTC is already 1 April in India.
    expect(gstToolDate('2027-03-31T19:00:00Z')).toBe('01-Apr-2027')
  })

  it("names places of supply as the tool's list spells them", () => {
    expect(gstToolState('29')).toBe('29-Karnataka')
    expect(gstToolState('01')).toBe('01-Jammu & Kashmir')
    expect(gstToolState('26')).toBe('26-Dadra & Nagar Haveli & Daman & Diu')
    expect(gstToolState('31')).toBe('31-Lakshdweep')
    expect(gstToolState('35')).toBe('35-Andaman & Nicobar Islands')
  })
})
