import { describe, expect, it } from 'vitest'
import { cachedUpTo } from './bounded-cache'

describe('cachedUpTo', () => {
  it('makes a value once per key and keeps it', () => {
    const cache = new Map<string, { n: number }>()
    let made = 0
    const make = () => ({ n: ++made })
    const first = cachedUpTo(cache, 10, 'a', make)
    expect(cachedUpTo(cache, 10, 'a', make)).toBe(first)
    expect(cachedUpTo(cache, 10, 'b', make)).toEqual({ n: 2 })
    expect(made).toBe(2)
  })

  it('empties the cache once it holds more than the limit', () => {
    const cache = new Map<string, number>()
    for (let i = 0; i < 4; i++) cachedUpTo(cache, 3, `k${i}`, () => i)
    expect(cache.size).toBe(4)
    cachedUpTo(cache, 3, 'k4', () => 4)
    expect([...cache.keys()]).toEqual(['k4'])
  })
})
