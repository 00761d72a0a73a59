import { describe, expect, it } from 'vitest'
import {
  DEFAULT_VALIDITY,
  effectiveValidity,
  orderValidity,
  parseValidity,
  validityEnd,
  type ValidityDuration,
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
  const end = (iso: string, duration: ValidityDuration, timeZone: string) =>
    validityEnd(new Date(iso), duration, timeZone).toISOString()
  const month = { amount: 1, unit: 'month' } as const

  it('adds days, weeks, months and years on the UTC calendar for a shop in UTC', () => {
    expect(end('2026-03-10T08:30:00.000Z', { amount: 30, unit: 'day' }, 'UTC')).toBe(
      '2026-04-09T08:30:00.000Z',
    )
    expect(end('2026-03-10T08:30:00.000Z', { amount: 2, unit: 'week' }, 'UTC')).toBe(
      '2026-03-24T08:30:00.000Z',
    )
    expect(end('2026-03-10T08:30:00.000Z', { amount: 12, unit: 'month' }, 'UTC')).toBe(
      '2027-03-10T08:30:00.000Z',
    )
    expect(end('2026-11-15T00:00:00.000Z', { amount: 3, unit: 'month' }, 'UTC')).toBe(
      '2027-02-15T00:00:00.000Z',
    )
    // Late in the UTC day stays on that day, whatever the date elsewhere.
    expect(end('2026-02-28T19:30:00.000Z', month, 'UTC')).toBe('2026-03-28T19:30:00.000Z')
  })

  it("keeps to the month's last day when the day does not exist (UTC shop)", () => {
    expect(end('2026-01-31T10:00:00.000Z', month, 'UTC')).toBe('2026-02-28T10:00:00.000Z')
    expect(end('2028-01-31T10:00:00.000Z', month, 'UTC')).toBe('2028-02-29T10:00:00.000Z')
    expect(end('2028-02-29T10:00:00.000Z', { amount: 1, unit: 'year' }, 'UTC')).toBe(
      '2029-02-28T10:00:00.000Z',
    )
  })

  it("counts on the shop's calendar in India, also in the hours it is the day before in UTC", () => {
    // 01:00 on 1 March in India (28 February 19:30 UTC) + 1 month = 01:00 on 1 April there.
    expect(end('2026-02-28T19:30:00.000Z', month, 'Asia/Kolkata')).toBe('2026-03-31T19:30:00.000Z')
    expect(end('2026-02-28T19:30:00.000Z', { amount: 1, unit: 'year' }, 'Asia/Kolkata')).toBe(
      '2027-02-28T19:30:00.000Z',
    )
    // Days too: 1 March + 30 days = 31 March, at 01:00 there.
    expect(end('2026-02-28T19:30:00.000Z', { amount: 30, unit: 'day' }, 'Asia/Kolkata')).toBe(
      '2026-03-30T19:30:00.000Z',
    )
    // Midday is the same date in both calendars.
    expect(end('2026-03-10T08:30:00.000Z', { amount: 12, unit: 'month' }, 'Asia/Kolkata')).toBe(
      '2027-03-10T08:30:00.000Z',
    )
  })

  it("keeps to the month's last day in India: 31 January + 1 month = 28 February there", () => {
    // 02:00 on 31 January in India is 30 January in UTC; it ends on 28 February, not 1 March.
    expect(end('2026-01-30T20:30:00.000Z', month, 'Asia/Kolkata')).toBe('2026-02-27T20:30:00.000Z')
    expect(end('2026-01-31T06:00:00.000Z', month, 'Asia/Kolkata')).toBe('2026-02-28T06:00:00.000Z')
    // 01:30 on 31 December + 2 months: into the next year, to 28 February 01:30 there.
    expect(end('2026-12-30T20:00:00.000Z', { amount: 2, unit: 'month' }, 'Asia/Kolkata')).toBe(
      '2027-02-27T20:00:00.000Z',
    )
  })

  it('knows the leap years on the local calendar', () => {
    // 01:00 on 31 January 2028 in India + 1 month = 01:00 on 29 February 2028 there.
    expect(end('2028-01-30T19:30:00.000Z', month, 'Asia/Kolkata')).toBe('2028-02-28T19:30:00.000Z')
    // 01:00 on 29 February 2028 + 1 year = 01:00 on 28 February 2029.
    expect(end('2028-02-28T19:30:00.000Z', { amount: 1, unit: 'year' }, 'Asia/Kolkata')).toBe(
      '2029-02-27T19:30:00.000Z',
    )
    // + 4 years: 29 February again.
    expect(end('2028-02-28T19:30:00.000Z', { amount: 4, unit: 'year' }, 'Asia/Kolkata')).toBe(
      '2032-02-28T19:30:00.000Z',
    )
  })

  it('keeps the local time of day across daylight saving', () => {
    // New York moves its clocks forward on 8 March 2026 and back on 1 November 2026.
    const ny = 'America/New_York'
    // 10:00 EST + 30 days = 10:00 EDT, an hour fewer in UTC.
    expect(end('2026-03-01T15:00:00.000Z', { amount: 30, unit: 'day' }, ny)).toBe(
      '2026-03-31T14:00:00.000Z',
    )
    expect(end('2026-10-15T14:00:00.000Z', month, ny)).toBe('2026-11-15T15:00:00.000Z')
    // 02:30 does not exist on 8 March: the clock shows 03:30 EDT then.
    expect(end('2026-02-08T07:30:00.000Z', month, ny)).toBe('2026-03-08T07:30:00.000Z')
    // 01:30 comes twice on 1 November: the first, still EDT.
    expect(end('2026-10-01T05:30:00.000Z', month, ny)).toBe('2026-11-01T05:30:00.000Z')
    // 23:00 on 30 January in New York is 31 January in UTC: it ends on 28 February at 23:00 there.
    expect(end('2026-01-31T04:00:00.000Z', month, ny)).toBe('2026-03-01T04:00:00.000Z')
    // London: 09:00 GMT on 1 March + 1 month = 09:00 BST on 1 April.
    expect(end('2026-03-01T09:00:00.000Z', month, 'Europe/London')).toBe('2026-04-01T08:00:00.000Z')
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
