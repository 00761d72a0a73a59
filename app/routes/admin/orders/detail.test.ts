import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { REFUND_REFRESH, refreshFor } from './detail'

/**
 * The order page's refresh while a refund waits for its gateway (useRefreshWhileRefunding):
 * every 10 s, one refresh at a time, for 5 minutes at most, and not once it is stopped.
 */
describe('the order page refreshing while a refund waits', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('refreshes every 10 s and stops after 5 minutes', async () => {
    const revalidate = vi.fn(() => Promise.resolve())
    refreshFor(revalidate, REFUND_REFRESH)
    await vi.advanceTimersByTimeAsync(9_999)
    expect(revalidate).toHaveBeenCalledTimes(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(revalidate).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(revalidate).toHaveBeenCalledTimes(7)
    await vi.advanceTimersByTimeAsync(60 * 60_000)
    expect(revalidate).toHaveBeenCalledTimes(30)
  })

  it('waits for a refresh to finish before the next one', async () => {
    let finish = () => {}
    const revalidate = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)))
    refreshFor(revalidate, REFUND_REFRESH)
    await vi.advanceTimersByTimeAsync(30_000)
    expect(revalidate).toHaveBeenCalledTimes(1)
    finish()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(revalidate).toHaveBeenCalledTimes(2)
  })

  it('stops when told (no refund waits any more, or the page is left)', async () => {
    const revalidate = vi.fn(() => Promise.resolve())
    const stop = refreshFor(revalidate, REFUND_REFRESH)
    await vi.advanceTimersByTimeAsync(10_000)
    stop()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(revalidate).toHaveBeenCalledTimes(1)
  })
})
