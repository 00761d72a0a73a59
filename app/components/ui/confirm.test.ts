import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { confirm, settleConfirm, shownConfirm } from './confirm'

describe('confirm', () => {
  beforeAll(() => vi.stubGlobal('window', {}))
  afterAll(() => vi.unstubAllGlobals())

  it('resolves true when confirmed and false when cancelled', async () => {
    const first = confirm({ title: 'Delete this product?' })
    expect(shownConfirm()?.title).toBe('Delete this product?')
    settleConfirm(true)
    await expect(first).resolves.toBe(true)

    const second = confirm({ title: 'Suspend this user?' })
    settleConfirm(false)
    await expect(second).resolves.toBe(false)
    expect(shownConfirm()).toBeNull()
  })

  it('asks one question at a time, in order', async () => {
    const a = confirm({ title: 'A?' })
    const b = confirm({ title: 'B?' })
    expect(shownConfirm()?.title).toBe('A?')
    settleConfirm(false)
    expect(shownConfirm()?.title).toBe('B?')
    settleConfirm(true)
    expect(await Promise.all([a, b])).toEqual([false, true])
  })
})
