import { describe, expect, it } from 'vitest'
import { NEVER_ENDS, storeValidityEnds } from '~/data/expiry-reminder.server'
import { makeOrder, makeProduct } from '../tests/factories'
import { fileTestDb } from '../tests/helpers/db'
import * as orderValidityEnd from './migrations/0190_order_validity_end'

/** The stored end of delivered orders' validity (both engines). */
const t = fileTestDb()

const endOf = async (id: string) =>
  (
    await t.db
      .selectFrom('order')
      .select('validityEndsAt')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).validityEndsAt

describe(`the order validity end migration (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('leaves earlier orders to be counted by the next reminder check, and reverts cleanly', async () => {
    const monthly = await makeProduct(t.db, { validity: '1 month' })
    const lifetime = await makeProduct(t.db, { validity: 'Lifetime' })
    const paidAt = '2026-01-10T04:30:00.000Z'
    const orders = {
      monthly: await makeOrder(t.db, monthly.id),
      lifetime: await makeOrder(t.db, lifetime.id),
      pending: await makeOrder(t.db, monthly.id),
    }
    await t.db
      .updateTable('order')
      .set({ status: 'delivered', paidAt })
      .where('id', 'in', [orders.monthly.id, orders.lifetime.id])
      .execute()

    // Back to before the column, and forward again: every order starts without a stored end.
    await t.migrating(() => orderValidityEnd.down(t.db))
    await t.migrating(() => orderValidityEnd.up(t.db))
    for (const order of Object.values(orders)) expect(await endOf(order.id)).toBeNull()

    // The check counts the delivered ones (from the payment, as no delivery was recorded).
    expect(await storeValidityEnds(t.db, 'Asia/Kolkata')).toBe(2)
    expect(await endOf(orders.monthly.id)).toBe('2026-02-10T04:30:00.000Z')
    expect(await endOf(orders.lifetime.id)).toBe(NEVER_ENDS)
    expect(await endOf(orders.pending.id)).toBeNull()
    expect(await storeValidityEnds(t.db, 'Asia/Kolkata')).toBe(0)
  })
})
