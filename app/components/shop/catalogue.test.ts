import { describe, expect, it } from 'vitest'
import { categoryChips, filterProducts, matchesSearch } from './catalogue'

const products = [
  { title: 'StreamVerse Premium', category: 'Streaming', tags: ['movies', '4k'] },
  { title: 'TuneWave Family', category: 'Music', tags: ['songs'] },
  { title: 'Astrion Pro Theme', category: 'WordPress Themes', tags: ['wordpress', 'theme'] },
  { title: 'ShieldLine VPN', category: 'Security', tags: ['vpn', 'privacy'] },
]

describe('catalogue filter', () => {
  it('compares the category chip case-insensitively', () => {
    expect(filterProducts(products, { category: 'music' }).map((p) => p.title)).toEqual([
      'TuneWave Family',
    ])
    expect(filterProducts(products, { category: 'WORDPRESS THEMES' }).map((p) => p.title)).toEqual([
      'Astrion Pro Theme',
    ])
  })

  it('shows everything without a category or search', () => {
    expect(filterProducts(products, {})).toHaveLength(4)
    expect(filterProducts(products, { category: '', search: '  ' })).toHaveLength(4)
  })

  it('searches title, category and tags, every word, ignoring case', () => {
    expect(matchesSearch(products[0]!, 'streamverse')).toBe(true)
    expect(matchesSearch(products[0]!, 'STREAMING')).toBe(true)
    expect(matchesSearch(products[0]!, '4k movies')).toBe(true)
    expect(matchesSearch(products[0]!, 'movies vpn')).toBe(false)
    expect(filterProducts(products, { search: 'privacy' }).map((p) => p.title)).toEqual([
      'ShieldLine VPN',
    ])
  })

  it('combines a chip with a search', () => {
    expect(filterProducts(products, { category: 'Security', search: 'theme' })).toEqual([])
    expect(
      filterProducts(products, { category: 'wordpress themes', search: 'astrion' }),
    ).toHaveLength(1)
  })

  it('offers chips only for categories with products, known ones first in their order', () => {
    const chips = categoryChips(
      ['Streaming', 'Software', 'Music', 'Security', 'WordPress Themes'],
      [
        ...products,
        { title: 'Odd one', category: 'Gadgets', tags: [] },
        { title: 'Lower case', category: 'music', tags: [] },
      ],
    )
    expect(chips).toEqual(['Streaming', 'Music', 'Security', 'WordPress Themes', 'Gadgets'])
  })
})
