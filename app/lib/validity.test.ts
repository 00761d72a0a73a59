import { describe, expect, it } from 'vitest'
import {
  DEFAULT_VALIDITY,
  effectiveValidity,
  orderValidity,
  parseValidity,
  validityEnd,
} from './validity'

describe('parseValidity', () => {
  it.each([
    ['12 months', { amount: 12, unit: 'month' }],
    ['1 Year', { amount: 1, unit: 'year' }],
    ['30 Days', { amount: 30, unit: 'day' }],
    ['3-month', { amount: 3, unit: 'month' }],
    ['6mo', { amount: 6, unit: 'month' }],
    ['1 yr', { amount: 1, unit: 'year' }],
    ['2 weeks', { amount: 2, unit: 'week' }],
    ['One year', { amount: 1, unit: 'year' }],
    ['a month', { amount: 1, unit: 'month' }],
    ['Twelve Months', { amount: 12, unit: 'month' }],
    ['Validity: 365 days', { amount: 365, unit: 'day' }],
    ['Valid for 12 Months (auto-renew off)', { amount: 12, unit: 'month' }],
    ['1 account, 6 months', { amount: 6, unit: 'month' }],
    ['1.5 years', { amount: 18, unit: 'month' }],
    ['Monthly', { amount: 1, unit: 'month' }],
    ['  Yearly ', { amount: 1, unit: 'year' }],
    ['１２ months', { amount: 12, unit: 'month' }],
  ])('reads %j as a duration', (text, expected) => {
    expect(parseValidity(text)).toEqual(expected)
  })

  it.each([
    'Lifetime',
    'Life time access',
    '12 months or lifetime',
    'Forever',
    'Until cancelled',
    '',
    '   ',
    '0 months',
    '1 account',
    '500 years',
    'months',
    null,
    undefined,
  ])('has no end for %j', (text) => {
    expect(parseValidity(text)).toBeNull()
  })
})

describe('validityEnd', () => {
  const at = (iso: string) => new Date(iso)
  it('adds days, weeks, months and years in UTC', () => {
    expect(
      validityEnd(at('2026-03-10T08:30:00.000Z'), { amount: 30, unit: 'day' }).toISOString(),
    ).toBe('2026-04-09T08:30:00.000Z')
    expect(
      validityEnd(at('2026-03-10T08:30:00.000Z'), { amount: 2, unit: 'week' }).toISOString(),
    ).toBe('2026-03-24T08:30:00.000Z')
    expect(
      validityEnd(at('2026-03-10T08:30:00.000Z'), { amount: 12, unit: 'month' }).toISOString(),
    ).toBe('2027-03-10T08:30:00.000Z')
    expect(
      validityEnd(at('2026-11-15T00:00:00.000Z'), { amount: 3, unit: 'month' }).toISOString(),
    ).toBe('2027-02-15T00:00:00.000Z')
  })

  it("keeps to the month's last day when the day does not exist", () => {
    expect(
      validityEnd(at('2026-01-31T10:00:00.000Z'), { amount: 1, unit: 'month' }).toISOString(),
    ).toBe('2026-02-28T10:00:00.000Z')
    expect(
      validityEnd(at('2028-01-31T10:00:00.000Z'), { amount: 1, unit: 'month' }).toISOString(),
    ).toBe('2028-02-29T10:00:00.000Z')
    expect(
      validityEnd(at('2028-02-29T10:00:00.000Z'), { amount: 1, unit: 'year' }).toISOString(),
    ).toBe('2029-02-28T10:00:00.000Z')
  })
})

describe('a blank validity', () => {
  it('is shown and counted as a year, as the storefront shows it', () => {
    expect(DEFAULT_VALIDITY).toBe('1 Year')
    for (const blank of ['', '   ', null, undefined])
      expect(effectiveValidity(blank)).toBe(DEFAULT_VALIDITY)
    expect(parseValidity(effectiveValidity(''))).toEqual({ amount: 1, unit: 'year' })
    expect(effectiveValidity(' 6 months ')).toBe('6 months')
    expect(effectiveValidity('Lifetime')).toBe('Lifetime')
  })
})

describe('orderValidity', () => {
  it("is the order's own, else its product's, else unknown", () => {
    expect(orderValidity('12 months', '6 months')).toBe('12 months')
    // Sold without one: a year, whatever the product says now.
    expect(orderValidity('', '6 months')).toBe('1 Year')
    expect(orderValidity(null, '6 months')).toBe('6 months')
    expect(orderValidity(null, ' ')).toBe('1 Year')
    expect(orderValidity(null, null)).toBeNull()
    expect(orderValidity(undefined, undefined)).toBeNull()
  })
})
