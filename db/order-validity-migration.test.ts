import { describe, expect, it } from 'vitest'
import { deleteProduct } from '~/data/product.server'
import { makeOrder, makeProduct } from '../tests/factories'
import { fileTestDb } from '../tests/helpers/db'
import * as orderValidity from './migrations/0175_order_validity'

/** Orders placed before orders kept their validity (both engines). */
const t = fileTestDb()

const validityOf = async (id: string) =>
  (await t.db.selectFrom('order').select('validity').where('id', '=', id).executeTakeFirstOrThrow())
    .validity

describe(`the order validity migration (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it("gives earlier orders their product's current validity, and null when it is gone", async () => {
    const yearly = await makeProduct(t.db, { validity: '12 months' })
    const blank = await makeProduct(t.db, { validity: '' })
    const gone = await makeProduct(t.db, { validity: '30 days' })
    const orders = {
      yearly: await makeOrder(t.db, yearly.id),
      blank: await makeOrder(t.db, blank.id),
      gone: await makeOrder(t.db, gone.id),
    }
    // Back to before the column: the shop then edits one product and deletes another.
    await t.migrating(() => orderValidity.down(t.db))
    await t.db
      .updateTable('product')
      .set({ validity: '6 months' })
      .where('id', '=', yearly.id)
      .execute()
    expect(await deleteProduct(t.db, gone.id)).toBeTruthy()

    await t.migrating(() => orderValidity.up(t.db))
    expect(await validityOf(orders.yearly.id)).toBe('6 months')
    expect(await validityOf(orders.blank.id)).toBe('')
    expect(await validityOf(orders.gone.id)).toBeNull()

    // New orders record theirs as they are placed.
    expect((await makeOrder(t.db, yearly.id)).validity).toBe('6 months')
  })
})
