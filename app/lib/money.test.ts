import { describe, expect, it } from 'vitest'
import {
  convertPaise,
  describeRate,
  discountPercent,
  displayCurrency,
  formatDisplayPrice,
  formatRupees,
  paiseToDecimalText,
  parseRupeesToPaise,
  RUPEES,
} from './money'
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

describe('display currency', () => {
  const usd = displayCurrency('USD', 83.5)
  const eur = displayCurrency('EUR', 90)

  it('shows rupees unchanged for INR, whatever rate is stored', () => {
    expect(displayCurrency('INR', 83.5)).toEqual(RUPEES)
    expect(formatDisplayPrice(149_900, RUPEES)).toBe('₹1,499')
    expect(formatDisplayPrice(149_950, displayCurrency('INR', 2))).toBe('₹1,499.50')
  })

  it('converts paise at the stored rupees-per-unit rate, to the nearest cent', () => {
    // ₹1,499 / 83.50 = $17.9521...
    expect(convertPaise(149_900, usd)).toBe(1795)
    expect(formatDisplayPrice(149_900, usd)).toBe('$17.95')
    // ₹1,350 / 90 = €15 exactly: no cents, like whole rupees.
    expect(formatDisplayPrice(135_000, eur)).toBe('€15')
    // ₹1 crore: international grouping, not lakhs.
    expect(formatDisplayPrice(1_00_00_000_00, usd)).toBe('$119,760.48')
    expect(formatDisplayPrice(0, usd)).toBe('$0')
  })

  it('falls back to rupees for an unknown currency or an unusable rate', () => {
    expect(displayCurrency('GBP', 100)).toEqual(RUPEES)
    expect(displayCurrency('USD', 0)).toEqual(RUPEES)
    expect(displayCurrency('USD', -83)).toEqual(RUPEES)
    expect(displayCurrency('EUR', Number.NaN)).toEqual(RUPEES)
  })

  it('states the rate in rupees per unit', () => {
    expect(describeRate(usd)).toBe('₹83.50 = $1')
    expect(describeRate(eur)).toBe('₹90 = €1')
  })
})

describe('slugify', () => {
  it('lowercases and joins runs of other characters with one hyphen', () => {
    expect(slugify('  StreamVerse Premium — 12 Months!! ')).toBe('streamverse-premium-12-months')
    expect(slugify('C++ & C#')).toBe('c-c')
    expect(slugify('---')).toBe('')
  })
})
