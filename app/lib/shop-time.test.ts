import { describe, expect, it } from 'vitest'
import { localDayRange, parseIsoDate } from './shop-time'

describe('parseIsoDate', () => {
  it('reads a real calendar day', () => {
    expect(parseIsoDate('2026-03-05')).toEqual({ year: 2026, month: 3, day: 5 })
    expect(parseIsoDate('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 })
  })

  it('refuses days that do not exist instead of rolling them over, and other text', () => {
    for (const text of ['2026-02-31', '2026-02-29', '2026-13-01', '2026-00-10', '0050-01-01'])
      expect(parseIsoDate(text), text).toBeNull()
    for (const text of ['5 March', '2026-3-5', '', null, undefined])
      expect(parseIsoDate(text), String(text)).toBeNull()
  })
})

describe('localDayRange', () => {
  it("is from's local midnight to the midnight after `to`, in the zone", () => {
    expect(localDayRange('2026-03-05', '2026-03-05', 'Asia/Kolkata')).toEqual({
      from: '2026-03-04T18:30:00.000Z',
      to: '2026-03-05T18:30:00.000Z',
    })
    // Across the end of daylight saving in New York (1 November 2026).
    expect(localDayRange('2026-11-01', '2026-11-01', 'America/New_York')).toEqual({
      from: '2026-11-01T04:00:00.000Z',
      to: '2026-11-02T05:00:00.000Z',
    })
  })

  it('leaves a side open when it is missing or not a real day', () => {
    expect(localDayRange(null, '2026-02-31', 'Asia/Kolkata')).toEqual({ from: null, to: null })
  })
})
