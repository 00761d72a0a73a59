import { describe, expect, it } from 'vitest'
import { shopDate, shopDateTime, shopLongDate } from './date-format'

describe('the shop date formatters', () => {
  const when = new Date('2026-03-05T18:45:30Z')

  it('format in the given time zone, with or without seconds', () => {
    expect(shopDateTime('Asia/Kolkata').format(when)).toBe('6 Mar 2026, 12:15 am')
    expect(shopDateTime('Asia/Kolkata', { seconds: true }).format(when)).toBe(
      '6 Mar 2026, 12:15:30 am',
    )
    expect(shopDateTime('UTC').format(when)).toBe('5 Mar 2026, 6:45 pm')
    expect(shopDate('Asia/Kolkata').format(when)).toBe('6 Mar 2026')
    expect(shopDate('UTC').format(when)).toBe('5 Mar 2026')
    expect(shopLongDate('Asia/Kolkata').format(when)).toBe('6 March 2026')
    expect(shopLongDate('UTC').format(when)).toBe('5 March 2026')
  })

  it('are made once per time zone and style', () => {
    expect(shopDateTime('Asia/Kolkata')).toBe(shopDateTime('Asia/Kolkata'))
    expect(shopDateTime('Asia/Kolkata')).not.toBe(shopDateTime('UTC'))
    expect(shopDateTime('Asia/Kolkata')).not.toBe(shopDateTime('Asia/Kolkata', { seconds: true }))
    expect(shopLongDate('UTC')).toBe(shopLongDate('UTC'))
    expect(shopDate('UTC')).toBe(shopDate('UTC'))
    expect(shopDate('UTC')).not.toBe(shopLongDate('UTC'))
  })

  it('refuse an unknown time zone every time', () => {
    expect(() => shopDateTime('Mars/Olympus')).toThrow(RangeError)
    expect(() => shopDateTime('Mars/Olympus')).toThrow(RangeError)
  })
})
