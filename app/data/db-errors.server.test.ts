import { describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { BUYER, makeOrder, makeProduct, makeStockedProduct } from '../../tests/factories'
import { createPaymentLink } from './payment-link.server'
import { isForeignKeyViolation, isUniqueViolation } from './db-errors.server'

const t = fileTestDb()
const APP_SECRET = 'db-errors-test-secret-0123456789abcdef'

/** What the engine throws for `insert`, which must fail. */
async function failure(insert: () => Promise<unknown>): Promise<unknown> {
  try {
    await insert()
  } catch (error) {
    return error
  }
  throw new Error('The insert was expected to fail')
}

describe(`constraint violations (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  // The names the data layer maps to "Product not found" when a product is deleted while a row
  // naming it is being inserted (order.server.ts, payment-link.server.ts, stock.server.ts).
  it('names the product foreign keys of orders, payment links and stock items', async () => {
    const product = await makeStockedProduct(t.db, APP_SECRET, ['KEY-1'])
    const order = await makeOrder(t.db, product.id)
    const link = await createPaymentLink(
      t.db,
      { productId: product.id, customer: BUYER, createdBy: null },
      'https://shop.example.in',
    )
    const cases = [
      ['order', 'order_product_id_fkey', order.id],
      ['paymentLink', 'payment_link_product_id_fkey', link.id],
      ['stockItem', 'stock_item_product_id_fkey', null],
    ] as const
    for (const [table, constraint, id] of cases) {
      let query = t.db.selectFrom(table).selectAll().where('productId', '=', product.id)
      if (id) query = query.where('id', '=', id)
      const row = (await query.executeTakeFirstOrThrow()) as Record<string, unknown>
      const copy = {
        ...row,
        id: `${String(row.id)}-copy`,
        productId: 'no-such-product',
        // Every other unique column gets a value of its own.
        ...(table === 'order' ? { accessTokenHash: 'another-hash' } : {}),
        ...(table === 'paymentLink' ? { orderId: `${link.orderId}-copy` } : {}),
        ...(table === 'stockItem' ? { secretHash: 'another-hash' } : {}),
      }
      const error = await failure(() =>
        t.db
          .insertInto(table)
          .values(copy as never)
          .execute(),
      )
      expect(isForeignKeyViolation(error, constraint), constraint).toBe(true)
      expect(isUniqueViolation(error)).toBe(false)
      // PostgreSQL names the key, so another key's failure is not taken for this one.
      if (t.engine === 'postgres') expect(isForeignKeyViolation(error, 'user_id_fkey')).toBe(false)
    }
  })

  it('tells a unique violation apart', async () => {
    // Another product with the same slug.
    const product = await makeProduct(t.db)
    const row = await t.db
      .selectFrom('product')
      .selectAll()
      .where('id', '=', product.id)
      .executeTakeFirstOrThrow()
    const error = await failure(() =>
      t.db
        .insertInto('product')
        .values({ ...row, id: `${row.id}-copy` })
        .execute(),
    )
    expect(isUniqueViolation(error)).toBe(true)
    expect(isForeignKeyViolation(error, 'order_product_id_fkey')).toBe(false)
  })
})
