import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { makeProduct, makeStockedProduct } from '../../tests/factories'
import { countQueries } from '~/lib/query-count.server'
import { catalogue, catalogueProduct, catalogueStockLeft } from './storefront-cache.server'

const SECRET = 'test-secret-0123456789abcdef0123456789'

const t = fileTestDb()

/** The queries `run` makes. */
async function queries(run: () => Promise<unknown>): Promise<number> {
  return countQueries(async (counter) => {
    await run()
    return counter.queries
  })
}

describe(`storefront read copies (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('answers again from the copy without a query', async () => {
    const product = await makeProduct(t.db)
    expect(await queries(() => catalogueProduct(t.db, product.slug))).toBe(1)
    expect(await queries(() => catalogueProduct(t.db, product.slug))).toBe(0)
    expect((await catalogueProduct(t.db, product.id))?.slug).toBe(product.slug)
  })

  it("sees this process's writes at once: update, insert, delete, raw SQL", async () => {
    const product = await makeProduct(t.db)
    await catalogue(t.db)
    await t.db
      .updateTable('product')
      .set({ title: 'Renamed' })
      .where('id', '=', product.id)
      .execute()
    expect((await catalogueProduct(t.db, product.slug))?.title).toBe('Renamed')

    const added = await makeProduct(t.db)
    expect((await catalogue(t.db)).map((row) => row.id)).toContain(added.id)

    await sql`update product set title = 'Raw' where id = ${product.id}`.execute(t.db)
    expect((await catalogueProduct(t.db, product.slug))?.title).toBe('Raw')

    await t.db.deleteFrom('product').where('id', '=', added.id).execute()
    expect(await catalogueProduct(t.db, added.slug)).toBeNull()
  })

  it('sees a write made inside a transaction once it is committed', async () => {
    const product = await makeProduct(t.db)
    await catalogue(t.db)
    await t.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('product')
        .set({ title: 'In a transaction' })
        .where('id', '=', product.id)
        .execute()
    })
    expect((await catalogueProduct(t.db, product.slug))?.title).toBe('In a transaction')
  })

  it('counts stock again when an item is sold or imported', async () => {
    const product = await makeStockedProduct(t.db, SECRET, ['one', 'two'])
    expect(
      (await catalogueStockLeft(t.db, [product.id], { upTo: 5, testItems: false })).get(product.id),
    ).toBe(2)
    await t.db
      .updateTable('stockItem')
      .set({ status: 'held' })
      .where('productId', '=', product.id)
      .where('status', '=', 'available')
      .execute()
    expect(
      (await catalogueStockLeft(t.db, [product.id], { upTo: 5, testItems: false })).get(product.id),
    ).toBe(0)
  })
})
