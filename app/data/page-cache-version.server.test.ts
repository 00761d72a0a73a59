import { describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { makeCustomer, makePaidOrder, makeProduct, makeStockedProduct } from '../../tests/factories'
import { readPageCacheVersion } from './page-cache-version.server'
import { deleteProduct, updateProduct, type Product } from './product.server'
import { insertReview, setReviewHidden } from './review.server'
import { setMarker, updateSiteSettings } from './settings.server'
import { revokeStockItem } from './stock.server'
import { importStock } from '~/services/fulfilment.server'

const APP_SECRET = 's'.repeat(64)
const keys = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `PCV-${from + i}`)

const t = fileTestDb()

/** Whether running `change` raised the version. */
async function bumps(change: () => Promise<unknown>): Promise<boolean> {
  const before = await readPageCacheVersion(t.db)
  await change()
  return (await readPageCacheVersion(t.db)) > before
}

describe('page cache version', () => {
  it('goes up when a product is created, edited or deleted', async () => {
    let product: Product | undefined
    expect(await bumps(async () => (product = await makeProduct(t.db)))).toBe(true)
    const { id, ...input } = product!
    expect(await bumps(() => updateProduct(t.db, id, { ...input, price: 12_300 }))).toBe(true)
    expect(await bumps(() => deleteProduct(t.db, id))).toBe(true)
  })

  it('goes up on a settings change but not on an internal marker', async () => {
    expect(await bumps(() => updateSiteSettings(t.db, { siteName: 'Cache Test Shop' }))).toBe(true)
    expect(await bumps(() => setMarker(t.db, 'marker.pageCacheTest', 'x'))).toBe(false)
  })

  it('goes up when a reviewer the shop shows changes name, not on other user changes', async () => {
    const rename = (userId: string, name: string) => () =>
      t.db.updateTable('user').set({ name }).where('id', '=', userId).execute()
    // No review: the storefront shows this name nowhere.
    const user = await makeCustomer(t.db)
    expect(await bumps(rename(user.id, 'Renamed Buyer'))).toBe(false)
    expect(
      await bumps(() =>
        t.db
          .updateTable('user')
          .set({ lastActiveAt: new Date().toISOString() })
          .where('id', '=', user.id)
          .execute(),
      ),
    ).toBe(false)

    const product = await makeProduct(t.db)
    const order = await makePaidOrder(t.db, product.id, { userId: user.id })
    const review = await insertReview(t.db, {
      orderId: order.id,
      productId: product.id,
      userId: user.id,
      rating: 5,
      title: '',
      body: 'Works as described.',
    })
    expect(await bumps(rename(user.id, 'Reviewer Renamed'))).toBe(true)
    // The same name again changes nothing.
    expect(await bumps(rename(user.id, 'Reviewer Renamed'))).toBe(false)
    // A review the shop hides shows no name.
    await setReviewHidden(t.db, review!.id, { reason: 'Spam' })
    expect(await bumps(rename(user.id, 'Hidden Reviewer'))).toBe(false)
  })

  it("goes up when a reviewed order is refunded or its refund undone, not on other orders' changes", async () => {
    const product = await makeProduct(t.db)
    const buyer = await makeCustomer(t.db)
    const setStatus = (orderId: string, status: 'refunded' | 'delivered') => () =>
      t.db.updateTable('order').set({ status }).where('id', '=', orderId).execute()
    const reviewed = await makePaidOrder(t.db, product.id, { userId: buyer.id })
    await setStatus(reviewed.id, 'delivered')()
    await insertReview(t.db, {
      orderId: reviewed.id,
      productId: product.id,
      userId: buyer.id,
      rating: 2,
      title: '',
      body: 'Stopped working after a week.',
    })
    const plain = await makePaidOrder(t.db, product.id, { userId: buyer.id })
    await setStatus(plain.id, 'delivered')()

    // The storefront shows no review of a refunded order: its rating changes.
    expect(await bumps(setStatus(reviewed.id, 'refunded'))).toBe(true)
    expect(await bumps(setStatus(reviewed.id, 'delivered'))).toBe(true)
    // An order without a review, or a change that is not a refund, shows nowhere.
    expect(await bumps(setStatus(plain.id, 'refunded'))).toBe(false)
    expect(await bumps(() => makePaidOrder(t.db, product.id, { userId: buyer.id }))).toBe(false)
  })

  it('goes up on stock only when the shown stock state can change', async () => {
    // 30 items: plenty, the page shows no count.
    const product = await makeStockedProduct(t.db, APP_SECRET, keys(0, 30))
    // A sale out of plenty changes nothing the storefront shows.
    expect(await bumps(() => makePaidOrder(t.db, product.id))).toBe(false)
    const items = await t.db
      .selectFrom('stockItem')
      .select('id')
      .where('productId', '=', product.id)
      .where('status', '=', 'available')
      .orderBy('createdAt')
      .execute()
    expect(items).toHaveLength(29)
    // Down to 12 left: still plenty.
    for (const item of items.slice(0, 17)) {
      expect(
        await bumps(() => revokeStockItem(t.db, { itemId: item.id, productId: product.id })),
      ).toBe(false)
    }
    // 11 and fewer: "Only N left" may change with each sale, and the last one makes it Out of Stock.
    expect(
      await bumps(() => revokeStockItem(t.db, { itemId: items[17]!.id, productId: product.id })),
    ).toBe(true)
    expect(await bumps(() => makePaidOrder(t.db, product.id))).toBe(true)
    // Stock arriving for a product with few items left shows again.
    expect(
      await bumps(() =>
        importStock(t.db, {
          productId: product.id,
          content: keys(100, 3).join('\n'),
          format: 'lines',
          appSecret: APP_SECRET,
        }),
      ),
    ).toBe(true)
  })

  it('counts real and test items apart, as the storefront may count real ones only', async () => {
    // A live shop's product: 2 real items behind the demo's 30 test items.
    const product = await makeStockedProduct(t.db, APP_SECRET, keys(200, 2))
    expect(
      await bumps(() =>
        importStock(t.db, {
          productId: product.id,
          content: keys(300, 30).join('\n'),
          format: 'lines',
          appSecret: APP_SECRET,
          testItems: true,
        }),
      ),
    ).toBe(true)
    // A real sale leaves 1 real item ("Only 1 left" on a live shop), the next none (Out of Stock).
    expect(await bumps(() => makePaidOrder(t.db, product.id))).toBe(true)
    expect(await bumps(() => makePaidOrder(t.db, product.id))).toBe(true)
    // A test sale out of plenty of test items changes nothing the storefront shows.
    expect(await bumps(() => makePaidOrder(t.db, product.id, { testMode: true }))).toBe(false)
  })
})
