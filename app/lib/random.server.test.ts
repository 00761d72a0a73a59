import { describe, expect, it } from 'vitest'
import { randomBytes } from './random.server'

describe('randomBytes', () => {
  it('gives the size asked for, different every time, past many refills of its pool', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 5_000; i++) {
      const bytes = randomBytes(16)
      expect(bytes).toHaveLength(16)
      seen.add(bytes.toString('hex'))
    }
    expect(seen.size).toBe(5_000)
    for (const size of [0, 1, 3, 20, 32, 1_024, 1_025, 10_000])
      expect(randomBytes(size)).toHaveLength(size)
  })

  it('hands out bytes that later calls never change', () => {
    const first = randomBytes(32)
    const copy = Buffer.from(first)
    for (let i = 0; i < 1_000; i++) randomBytes(16)
    expect(first.equals(copy)).toBe(true)
    expect(first.buffer).not.toBe(randomBytes(32).buffer)
  })

  it('looks uniform: every byte value turns up, with a mean near 127.5', () => {
    const counts = new Array<number>(256).fill(0)
    let sum = 0
    const total = 256 * 400
    for (let i = 0; i < total / 32; i++)
      for (const byte of randomBytes(32)) {
        counts[byte]!++
        sum += byte
      }
    expect(Math.min(...counts)).toBeGreaterThan(250)
    expect(Math.max(...counts)).toBeLessThan(580)
    expect(Math.abs(sum / total - 127.5)).toBeLessThan(2)
  })

  it('refuses a size that is not a whole number of bytes', () => {
    expect(() => randomBytes(-1)).toThrow(RangeError)
    expect(() => randomBytes(1.5)).toThrow(RangeError)
  })
})
