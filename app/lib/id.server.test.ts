import { describe, expect, it } from 'vitest'
import { newId, sortableId } from './id.server'

describe('identifiers', () => {
  it('newId: 20 random URL-safe characters', () => {
    expect(newId()).toMatch(/^[a-z2-7]{20}$/)
    expect(newId()).not.toBe(newId())
  })

  it('sortableId: ids of one millisecond sort in the order they were made, later times after', () => {
    const at = new Date('2026-11-25T10:00:00.000Z')
    const sameMillisecond = Array.from({ length: 50 }, () => sortableId(at))
    expect([...sameMillisecond].sort()).toEqual(sameMillisecond)
    expect(new Set(sameMillisecond).size).toBe(50)
    for (const id of sameMillisecond) expect(id).toMatch(/^[0-9a-z]{20}$/)
    const later = sortableId(new Date(at.getTime() + 1))
    expect(later > sameMillisecond.at(-1)!).toBe(true)
  })
})
