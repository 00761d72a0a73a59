import { describe, expect, it } from 'vitest'
import { discountPercent, formatRupees, paiseToDecimalText, parseRupeesToPaise } from './money'
import { slugify } from './slug'

describe('money', () => {
  it('formats paise as Indian rupees with Indian digit grouping', () => {
    expect(formatRupees(149_900)).toBe('₹1,499')
    expect(formatRupees(1_599_900)).toBe('₹15,999')
    expect(formatRupees(10_000_000_00)).toBe('₹1,00,00,000')
    expect(formatRupees(149_950)).toBe('₹1,499.50')
  })

  it('computes the rounded discount percent, and 0 without a positive original price', () => {
    expect(discountPercent(299_900, 1_599_900)).toBe(81)
    expect(discountPercent(100, 100)).toBe(0)
    expect(discountPercent(100, 0)).toBe(0)
    expect(discountPercent(66_600, 99_900)).toBe(33)
  })

  it('writes gateway amounts exactly, with two decimals', () => {
    expect(paiseToDecimalText(149_900)).toBe('1499.00')
    expect(paiseToDecimalText(5)).toBe('0.05')
    expect(() => paiseToDecimalText(1.5)).toThrow(RangeError)
  })

  it('parses rupee text into paise without floating point error', () => {
    expect(parseRupeesToPaise('1499.00')).toBe(149_900)
    expect(parseRupeesToPaise('0.29')).toBe(29)
    expect(parseRupeesToPaise('1,499.5')).toBe(149_950)
    expect(parseRupeesToPaise('-1')).toBeNull()
    expect(parseRupeesToPaise('1.005')).toBeNull()
    expect(parseRupeesToPaise('abc')).toBeNull()
  })
})

describe('slugify', () => {
  it('lowercases and joins runs of other characters with one hyphen', () => {
    expect(slugify('  StreamVerse Premium — 12 Months!! ')).toBe('streamverse-premium-12-months')
    expect(slugify('C++ & C#')).toBe('c-c')
    expect(slugify('---')).toBe('')
  })
})
