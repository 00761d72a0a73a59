import { describe, expect, it } from 'vitest'
import { paginate } from './paginate'

const sizes = { defaultSize: 20, maxSize: 100 }

describe('paginate', () => {
  it('shows the requested page with its first row, in pages of the default size', () => {
    expect(paginate(45, { page: 2 }, sizes)).toEqual({
      page: 2,
      pageSize: 20,
      pageCount: 3,
      offset: 20,
    })
  })

  it('shows the last page for a page past the end, and the first for nonsense', () => {
    expect(paginate(45, { page: 99 }, sizes)).toMatchObject({ page: 3, offset: 40 })
    expect(paginate(45, { page: 0 }, sizes).page).toBe(1)
    expect(paginate(45, { page: -4 }, sizes).page).toBe(1)
    expect(paginate(45, { page: Number.NaN }, sizes).page).toBe(1)
    expect(paginate(45, { page: 2.7 }, sizes).page).toBe(2)
  })

  it('keeps the page size between one and the maximum', () => {
    expect(paginate(500, { pageSize: 1000 }, sizes)).toMatchObject({ pageSize: 100, pageCount: 5 })
    expect(paginate(500, { pageSize: 0 }, sizes).pageSize).toBe(1)
    expect(paginate(500, { pageSize: Number.NaN }, sizes).pageSize).toBe(20)
  })

  it('has one empty page when there is nothing to list', () => {
    expect(paginate(0, {}, sizes)).toEqual({ page: 1, pageSize: 20, pageCount: 1, offset: 0 })
  })
})
