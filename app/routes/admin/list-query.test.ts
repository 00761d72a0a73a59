import { describe, expect, it } from 'vitest'
import { listQuery } from './list-query'
import { filterQuery } from './orders/filters'
import { userFilterQuery } from './users/filters'

describe('an admin list URL', () => {
  it('keeps the filters that are set, in order, then the page past the first', () => {
    expect(listQuery({ q: 'netflix', status: null, gateway: '', to: '2026-01-31' }, 3)).toBe(
      '?q=netflix&to=2026-01-31&page=3',
    )
    expect(listQuery({ q: '', status: undefined }, 1)).toBe('')
  })

  it('spells the orders and users filters as the lists read them', () => {
    expect(filterQuery({ search: 'a b', status: 'paid', openReports: true }, 2)).toBe(
      '?q=a+b&status=paid&reports=open&page=2',
    )
    expect(filterQuery({ openReports: false })).toBe('')
    expect(userFilterQuery({ search: 'x', status: null, role: 'admin' })).toBe('?q=x&role=admin')
  })
})
