import { afterEach, describe, expect, it, vi } from 'vitest'
import type { DB } from './db.server'
import { forgetAllReads, READ_CACHE_TTL_MS, readCache } from './read-cache.server'

const handle = (isTransaction = false) => ({ isTransaction }) as unknown as DB

afterEach(() => {
  vi.useRealTimers()
})

describe('readCache', () => {
  it('shares one read between the callers that ask while it runs', async () => {
    const cache = readCache<string, number>(['product'])
    const db = handle()
    let reads = 0
    const load = async () => ++reads
    const answers = await Promise.all([cache.get(db, 'k', load), cache.get(db, 'k', load)])
    expect(answers).toEqual([1, 1])
    expect(reads).toBe(1)
  })

  it('reads again once the copy is older than READ_CACHE_TTL_MS (writes of other processes)', async () => {
    vi.useFakeTimers()
    const cache = readCache<string, number>(['product'])
    const db = handle()
    let reads = 0
    const load = async () => ++reads
    expect(await cache.get(db, 'k', load)).toBe(1)
    vi.advanceTimersByTime(READ_CACHE_TTL_MS - 1)
    expect(await cache.get(db, 'k', load)).toBe(1)
    vi.advanceTimersByTime(1)
    expect(await cache.get(db, 'k', load)).toBe(2)
  })

  it('reads again after forgetAllReads (a change another process made, learnt of here)', async () => {
    const cache = readCache<string, number>(['product'])
    const db = handle()
    let reads = 0
    const load = async () => ++reads
    expect(await cache.get(db, 'k', load)).toBe(1)
    expect(await cache.get(db, 'k', load)).toBe(1)
    forgetAllReads()
    expect(await cache.get(db, 'k', load)).toBe(2)
  })

  it('never caches inside a transaction, nor a failed read', async () => {
    const cache = readCache<string, number>(['product'])
    let reads = 0
    const load = async () => ++reads
    await cache.get(handle(true), 'k', load)
    await cache.get(handle(true), 'k', load)
    expect(reads).toBe(2)
    const db = handle()
    await expect(cache.get(db, 'e', () => Promise.reject(new Error('down')))).rejects.toThrow(
      'down',
    )
    expect(await cache.get(db, 'e', load)).toBe(3)
  })
})
