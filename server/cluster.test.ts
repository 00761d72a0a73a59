import { describe, expect, it } from 'vitest'
import { respawnDelayMs } from './cluster'

describe('respawnDelayMs', () => {
  it('replaces a worker that ran a while at once, and backs off while replacements die young', () => {
    expect(respawnDelayMs(0)).toBe(0)
    expect([1, 2, 3, 4, 5].map(respawnDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000])
    expect(respawnDelayMs(6)).toBe(30_000)
    expect(respawnDelayMs(50)).toBe(30_000)
  })
})
