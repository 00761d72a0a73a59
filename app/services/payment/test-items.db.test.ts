import { describe, expect, it } from 'vitest'
import { saveGateway } from '~/data/gateway.server'
import { catalogueStockLeft } from '~/data/storefront-cache.server'
import { listWishlist, addToWishlist } from '~/data/wishlist.server'
import type { Env } from '~/lib/env.server'
import { gatewayForm } from '../../../tests/helpers/forms'
import { createTestDb, fileTestDb } from '../../../tests/helpers/db'
import { makeCustomer, makeProduct, makeStockedProduct } from '../../../tests/factories'
import { importStock } from '~/services/fulfilment.server'
import { setProductDelivery } from '~/data/stock.server'
import {
  checkoutGateways,
  gatewaysFor,
  itemsSoldThrough,
  sellableNow,
  sellsTestItems,
  stockKindsOnSale,
  stockKindsSoldThrough,
  testItemsOnSale,
  testModeOnly,
} from './offered-gateways.server'

/**
 * Test items (the demo's fictional accounts) are stock only while checkout offers a built-in
 * simulator, and real items only while it offers a real gateway: a shop must not show "In
 * Stock" for a product it cannot sell (docs/delivery.md).
 */
const t = fileTestDb()

const SECRET = 'k'.repeat(64)
const env = { PUBLIC_URL: 'https://shop.example.in', APP_SECRET: SECRET } as Env

/** A stock product holding `test` test items and `real` real ones. */
async function stockedProduct(test: number, real: number, db = t.db) {
  const product = await makeStockedProduct(db, SECRET, [])
  const add = (count: number, testItems: boolean, prefix: string) =>
    count > 0 &&
    importStock(db, {
      productId: product.id,
      content: Array.from({ length: count }, (_, i) => `${prefix}-${product.id}-${i}`).join('\n'),
      format: 'lines',
      appSecret: SECRET,
      testItems,
    })
  await add(test, true, 'test')
  await add(real, false, 'real')
  return product
}

describe(`test items on the storefront (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('count while a simulator is a way to pay, and not once only real gateways are', async () => {
    // A fresh install pays through the simulators: test items, and only they, sell.
    expect(await testItemsOnSale(t.db, env)).toBe('only')
    // Keys in the environment make Paytm real, and the simulators step aside.
    const live = {
      ...env,
      PAYTM_MID: 'ENVMID',
      PAYTM_MERCHANT_KEY: 'abcdefghijklmnop',
      PAYTM_HOST: 'https://securegw.paytm.in',
    } as Env
    expect(await testItemsOnSale(t.db, live)).toBe(false)
    // The same, as the admin's stock figures name it (app/lib/stock-status.ts).
    expect(await stockKindsOnSale(t.db, env)).toBe('test')
    expect(await stockKindsOnSale(t.db, live)).toBe('real')
    expect(await testModeOnly(t.db, env)).toBe(true)
    expect(await testModeOnly(t.db, live)).toBe(false)
  })

  it('keep counting when checkout offers nothing at all, and with a simulator beside a real gateway', () => {
    const real = { id: 'paytm', label: 'Paytm', testMode: false, sandbox: false } as const
    const simulator = { id: 'razorpay', label: 'Razorpay', testMode: true, sandbox: false } as const
    expect(sellsTestItems([])).toBe(true)
    expect(sellsTestItems([real])).toBe(false)
    expect(sellsTestItems([real, simulator])).toBe(true)
    // The items counted as stock: both kinds, real ones, test ones alone in test mode.
    expect(itemsSoldThrough([])).toBe(true)
    expect(itemsSoldThrough([real])).toBe(false)
    expect(itemsSoldThrough([real, simulator])).toBe(true)
    expect(itemsSoldThrough([simulator])).toBe('only')
    expect([[], [real], [real, simulator], [simulator]].map(stockKindsSoldThrough)).toEqual([
      'both',
      'real',
      'both',
      'test',
    ])
  })

  it('stop counting as soon as the owner saves a real gateway in this process', async () => {
    expect(await testItemsOnSale(t.db, env)).toBe('only')
    const saved = await saveGateway(t.db, SECRET, {
      mode: 'add',
      ...gatewayForm({
        name: 'Paytm',
        type: 'paytm',
        status: 'active',
        merchantId: 'KEYBAZ12345678901234',
        merchantKey: 'abcdefghijklmnop',
        website: 'DEFAULT',
        environment: 'production',
      }),
    })
    expect(saved).toMatchObject({ ok: true })
    // The copy shared by pages for a second is dropped by the write, not served stale.
    expect(await testItemsOnSale(t.db, env)).toBe(false)
  })

  it('decide what the storefront and the wishlist show for a product of test items only', async () => {
    const demo = await stockedProduct(3, 0)
    const mixed = await stockedProduct(30, 2)
    const ids = [demo.id, mixed.id]
    const live = await catalogueStockLeft(t.db, ids, { upTo: 11, testItems: false })
    expect(Object.fromEntries(live)).toEqual({ [demo.id]: 0, [mixed.id]: 2 })
    const both = await catalogueStockLeft(t.db, ids, { upTo: 11, testItems: true })
    expect(Object.fromEntries(both)).toEqual({ [demo.id]: 3, [mixed.id]: 11 })
    // In test mode a product of real items only is out of stock: a simulator cannot sell it.
    const realOnly = await stockedProduct(0, 4)
    const testing = await catalogueStockLeft(t.db, [...ids, realOnly.id], {
      upTo: 11,
      testItems: 'only',
    })
    expect(Object.fromEntries(testing)).toEqual({
      [demo.id]: 3,
      [mixed.id]: 11,
      [realOnly.id]: 0,
    })

    const buyer = await makeCustomer(t.db)
    await addToWishlist(t.db, buyer.id, demo.id, { testItems: false })
    const [wish] = await listWishlist(t.db, buyer.id, { testItems: false })
    expect(wish).toMatchObject({ productId: demo.id, inStock: false })
    const [asTest] = await listWishlist(t.db, buyer.id, { testItems: 'only' })
    expect(asTest).toMatchObject({ productId: demo.id, inStock: true })
    await addToWishlist(t.db, buyer.id, realOnly.id, { testItems: 'only' })
    const inTestMode = await listWishlist(t.db, buyer.id, { testItems: 'only' })
    expect(inTestMode.find((item) => item.productId === realOnly.id)).toMatchObject({
      inStock: false,
    })
  })

  it('offer for a payment link only what some offered gateway can sell: test items and no shared account through a simulator, real items through a real gateway', async () => {
    // A database of its own: the other tests saved a real gateway in the shared one.
    const { db, destroy } = await createTestDb()
    try {
      const demo = await stockedProduct(3, 0, db)
      const realOnly = await stockedProduct(0, 2, db)
      const soldOut = await stockedProduct(0, 0, db)
      const shared = await makeProduct(db)
      await setProductDelivery(db, SECRET, shared.id, {
        mode: 'shared',
        sharedSecret: 'family plan login',
      })
      const manual = await makeProduct(db)
      const off = await makeProduct(db, { inStock: false })
      const products = [demo, realOnly, soldOut, shared, manual, off]
      const sellable = async (on: Env) => {
        const ids = await sellableNow(db, on, products)
        return products.filter((product) => ids.has(product.id)).map((product) => product.title)
      }
      const titles = (...list: Array<{ title: string }>) => list.map((product) => product.title)

      // A fresh install: only simulators, so only test items and products not sold from stock,
      // and never the shared account (a test order does not get it).
      expect(await sellable(env)).toEqual(titles(demo, manual))
      // Only a real gateway: real items, the shared account and the manual product.
      const live = {
        ...env,
        PAYTM_MID: 'ENVMID',
        PAYTM_MERCHANT_KEY: 'abcdefghijklmnop',
        PAYTM_HOST: 'https://securegw.paytm.in',
      } as Env
      expect(await sellable(live)).toEqual(titles(realOnly, shared, manual))
      // A simulator kept in testing beside the real gateway: either kind sells.
      const saved = await saveGateway(db, SECRET, {
        mode: 'add',
        ...gatewayForm({ name: 'Razorpay', type: 'razorpay', status: 'testing' }),
      })
      expect(saved).toMatchObject({ ok: true })
      expect((await checkoutGateways(db, live)).map((g) => [g.id, g.testMode])).toEqual([
        ['razorpay', true],
        ['paytm', false],
      ])
      expect(await sellable(live)).toEqual(titles(demo, realOnly, shared, manual))
      // Checkout offers each product only the gateways that can sell it (all when none can).
      const offered = await checkoutGateways(db, live)
      const through = async (product: { id: string }) =>
        (await gatewaysFor(db, offered, product.id)).map((gateway) => gateway.id)
      expect(await through(demo)).toEqual(['razorpay'])
      expect(await through(realOnly)).toEqual(['paytm'])
      expect(await through(shared)).toEqual(['paytm'])
      expect(await through(manual)).toEqual(['razorpay', 'paytm'])
      expect(await through(soldOut)).toEqual(['razorpay', 'paytm'])
      // Without the mix there is nothing to narrow.
      const simulators = await checkoutGateways(db, env)
      expect(await gatewaysFor(db, simulators, realOnly.id)).toEqual(simulators)
    } finally {
      await destroy()
    }
  })
})
