import { expect, test } from '../helpers/fixtures'
import {
  addItems,
  countBy,
  deliveryState,
  payAtGatewayTenAtATime,
  postCallback,
  SHOP_ENGINES,
  startShop,
  stockedProduct,
  type Shop,
} from '../helpers/shop'

/**
 * A flash sale on a product with 10 items. 50 buyers pay; their 50 signed callbacks
 * (each sent twice, as an impatient browser or a gateway retry would) reach the shop's real
 * callback endpoint all at once. Exactly 10 orders get 10 distinct items, 40 wait for stock;
 * adding 40 items delivers all 50, and no item ever goes to two orders. On SQLite, and on
 * PostgreSQL when TEST_DATABASE_URL is set.
 */

for (const engine of SHOP_ENGINES) {
  test.describe(`concurrent callbacks on ${engine}`, () => {
    let shop: Shop

    test.beforeAll(async () => {
      shop = await startShop(engine)
    })
    test.afterAll(async () => {
      await shop?.close()
    })

    test('10 items, 50 paid at once: 10 delivered, 40 waiting; 40 more items deliver them all, never an item twice', async () => {
      test.setTimeout(180_000)
      const product = await stockedProduct(shop.db, 10)

      const purchases = await payAtGatewayTenAtATime(shop.app.url, product.slug, 50)
      const orderIds = purchases.map((p) => p.orderId)
      expect(new Set(orderIds).size).toBe(50)

      // Every callback twice, all 100 at once.
      const answers = await Promise.all(
        purchases.flatMap((p) => [
          postCallback(shop.app.url, p.callback),
          postCallback(shop.app.url, p.callback),
        ]),
      )
      expect(countBy(answers.map(String))).toEqual({ '303': 100 })

      const after = await deliveryState(shop.db, orderIds)
      expect(countBy(Object.values(after.statuses))).toEqual({ delivered: 10, awaiting_stock: 40 })
      const firstItems = [...after.liveItems.values()].flat()
      expect(firstItems).toHaveLength(10)
      expect(new Set(firstItems).size).toBe(10)
      for (const [orderId, items] of after.liveItems) {
        expect(after.statuses[orderId]).toBe('delivered')
        expect(items).toHaveLength(1)
      }
      expect([...after.deliveredEvents.values()]).toEqual(Array(10).fill(1))

      // Stock arrives: the waiting orders are filled, oldest first.
      const summary = await addItems(shop.db, product.id, 11, 50)
      expect(summary).toMatchObject({ added: 40, duplicates: 0 })
      // The import fills them; the shop's own periodic filler may take some of them at the same
      // moment (both are safe to run together), so the import's own count can be below 40.
      expect(summary.filled).toBeGreaterThan(0)
      await expect
        .poll(
          async () => countBy(Object.values((await deliveryState(shop.db, orderIds)).statuses)),
          { timeout: 10_000 },
        )
        .toEqual({ delivered: 50 })

      const filled = await deliveryState(shop.db, orderIds)
      const allItems = [...filled.liveItems.values()].flat()
      expect(allItems).toHaveLength(50)
      expect(new Set(allItems).size).toBe(50)
      expect([...filled.itemOrders.values()].every((n) => n === 1)).toBe(true)
      expect(filled.deliveredEvents.size).toBe(50)
      expect([...filled.deliveredEvents.values()].every((n) => n === 1)).toBe(true)
      // The ten first deliveries kept their items.
      for (const [orderId, items] of after.liveItems)
        expect(filled.liveItems.get(orderId)).toEqual(items)
    })
  })
}
