import { describe, expect, it } from 'vitest'
import { startOfMonthIn } from './shop-month'

describe('startOfMonthIn', () => {
  it('is local midnight of the 1st in Kolkata (UTC+5:30)', () => {
    // 1 March 2026, 02:00 in Kolkata is still 28 February in UTC.
    expect(startOfMonthIn(new Date('2026-02-28T20:30:00Z'), 'Asia/Kolkata').toISOString()).toBe(
      '2026-02-28T18:30:00.000Z',
    )
    expect(startOfMonthIn(new Date('2026-02-28T18:00:00Z'), 'Asia/Kolkata').toISOString()).toBe(
      '2026-01-31T18:30:00.000Z',
    )
  })
  it('follows daylight saving in New York and London', () => {
    expect(startOfMonthIn(new Date('2026-07-15T12:00:00Z'), 'America/New_York').toISOString()).toBe(
      '2026-07-01T04:00:00.000Z',
    )
    expect(startOfMonthIn(new Date('2026-01-15T12:00:00Z'), 'America/New_York').toISOString()).toBe(
      '2026-01-01T05:00:00.000Z',
    )
    expect(startOfMonthIn(new Date('2026-04-01T00:30:00Z'), 'Europe/London').toISOString()).toBe(
      '2026-03-31T23:00:00.000Z',
    )
  })
})
