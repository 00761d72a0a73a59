import { describe, expect, it } from 'vitest'
import { getDeliveredSecret } from '~/data/stock.server'
import { fileTestDb } from './helpers/db'
import {
  makeAdmin,
  makeCustomer,
  makeOrder,
  makePaidOrder,
  makeProduct,
  makeStockedProduct,
} from './factories'

const APP_SECRET = 'f'.repeat(64)
const t = fileTestDb()

describe('test factories', () => {
  it('makes distinct customers and admins with the permissions asked for', async () => {
    const [a, b] = [await makeCustomer(t.db), await makeCustomer(t.db)]
    expect(a.email).not.toBe(b.email)
    expect(a.role).toBe('user')
    const full = await makeAdmin(t.db)
    expect(full).toMatchObject({
      role: 'admin',
      permissions: { canCreateProducts: true, canManageOrders: true, canManageUsers: true },
    })
    const clerk = await makeAdmin(t.db, {
      permissions: { canCreateProducts: false, canManageUsers: false },
    })
    expect(clerk.permissions).toEqual({
      canCreateProducts: false,
      canManageOrders: true,
      canManageUsers: false,
    })
  })

  it('prices orders from the product and delivers a paid order from stock', async () => {
    const product = await makeProduct(t.db, { price: 29_900 })
    const pending = await makeOrder(t.db, product.id)
    expect(pending).toMatchObject({ status: 'pending', amount: 29_900, productName: product.title })

    const stocked = await makeStockedProduct(t.db, APP_SECRET, ['KEY-FACTORY-1'])
    const paid = await makePaidOrder(t.db, stocked.id)
    expect(paid.status).toBe('delivered')
    expect(await getDeliveredSecret(t.db, APP_SECRET, paid.id)).toEqual({
      kind: 'text',
      text: 'KEY-FACTORY-1',
    })
  })
})
