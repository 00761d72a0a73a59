import { describe, expect, it } from 'vitest'
import { makeProduct } from '../../tests/factories'
import { fileTestDb } from '../../tests/helpers/db'
import { relatedProducts } from './related-products.server'

const t = fileTestDb()

describe(`related products (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('puts buyable products first, then the same category, then shared tags; up to 4', async () => {
    const category = 'Music'
    const main = await makeProduct(t.db, { title: 'Main', category, tags: ['audio', 'premium'] })
    const sameIn = await makeProduct(t.db, { title: 'Same in', category })
    const sameOut = await makeProduct(t.db, { title: 'Same out', category, inStock: false })
    const twoTags = await makeProduct(t.db, {
      title: 'Two tags',
      category: 'Software',
      tags: ['Audio', 'premium'],
    })
    const oneTag = await makeProduct(t.db, {
      title: 'One tag',
      category: 'Games',
      tags: ['audio'],
    })
    await makeProduct(t.db, { title: 'Unrelated', category: 'Security', tags: ['video'] })

    const related = await relatedProducts(t.db, main, { testItems: false })
    expect(related.map((product) => product.title)).toEqual([
      sameIn.title,
      twoTags.title,
      oneTag.title,
      sameOut.title,
    ])
    expect(related.map((product) => product.available)).toEqual([true, true, true, false])
    expect(
      (await relatedProducts(t.db, main, { testItems: false, limit: 2 })).map(
        (product) => product.id,
      ),
    ).toEqual([sameIn.id, twoTags.id])
  })

  it('shows nothing when no product shares a category or tag', async () => {
    const lonely = await makeProduct(t.db, { category: 'Education', tags: ['unique-tag'] })
    expect(await relatedProducts(t.db, lonely, { testItems: false })).toEqual([])
  })
})
