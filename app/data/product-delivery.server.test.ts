import { describe, expect, it } from 'vitest'
import { decryptSecret, STOCK_SECRETS_PURPOSE } from '~/lib/crypto.server'
import { fileTestDb } from '../../tests/helpers/db'
import { BUYER, makeProduct, orderIdsOf } from '../../tests/factories'
import { createOrder, OrderError } from './order.server'
import { createUser } from './user.server'
import {
  createProduct,
  duplicateProduct,
  getProductDelivery,
  listProductsPage,
  productAvailability,
  stockLeftByProduct,
  type ProductInput,
} from './product.server'
import {
  copyProductDelivery,
  countAwaitingOrders,
  listStockItemsPage,
  maskStockSecret,
  revokeStockItem,
  setProductDelivery,
} from './stock.server'
import { importStock } from '~/services/fulfilment.server'

/**
 * Delivery modes and stock-driven availability: what the storefront, the checkout,
 * order creation, the admin list and the admin stock page read, on SQLite and on PostgreSQL.
 */
const APP_SECRET = 'd'.repeat(64)
/** Count real items only, as a live shop's storefront does. */
const REAL = { testItems: false }

const t = fileTestDb()

async function product(
  mode: 'stock' | 'shared' | 'manual',
  overrides: Partial<ProductInput> = {},
  sharedSecret?: string,
) {
  const created = await makeProduct(t.db, overrides)
  await setProductDelivery(t.db, APP_SECRET, created.id, { mode, sharedSecret })
  return created
}

const add = (productId: string, content: string, format: 'lines' | 'csv' = 'lines') =>
  importStock(t.db, { productId, content, format, appSecret: APP_SECRET })

describe(`availability follows stock (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('counts the available items of stock products only', async () => {
    const sold = await product('stock')
    const empty = await product('stock')
    const manual = await product('manual')
    await add(sold.id, 'A-1\nA-2\nA-3\nA-4')
    await add(manual.id, 'M-1')
    const items = await listStockItemsPage(t.db, APP_SECRET, sold.id)
    await revokeStockItem(t.db, { itemId: items.items[0]!.id, productId: sold.id })

    const left = await stockLeftByProduct(t.db, [sold.id, empty.id, manual.id], REAL)
    expect(Object.fromEntries(left)).toEqual({ [sold.id]: 3, [empty.id]: 0 })
    expect((await stockLeftByProduct(t.db, undefined, REAL)).get(sold.id)).toBe(3)
    expect(await stockLeftByProduct(t.db, [], REAL)).toEqual(new Map())

    // The storefront's question stops at `upTo`: only available items count, never more than it.
    const ids = [sold.id, empty.id, manual.id]
    expect(
      Object.fromEntries(await stockLeftByProduct(t.db, ids, { upTo: 2, testItems: false })),
    ).toEqual({
      [sold.id]: 2,
      [empty.id]: 0,
    })
    expect(
      Object.fromEntries(await stockLeftByProduct(t.db, ids, { upTo: 1, testItems: false })),
    ).toEqual({
      [sold.id]: 1,
      [empty.id]: 0,
    })
    expect(
      Object.fromEntries(await stockLeftByProduct(t.db, ids, { upTo: 10, testItems: false })),
    ).toEqual({
      [sold.id]: 3,
      [empty.id]: 0,
    })
    expect(
      (await stockLeftByProduct(t.db, undefined, { upTo: 1, testItems: false })).get(sold.id),
    ).toBe(1)
  })

  it('is out of stock when switched off, or when a stock product has no item left', async () => {
    const stock = new Map([
      ['s', 2],
      ['empty', 0],
    ])
    const item = (id: string, inStock = true, buyNowLink: string | null = null) => ({
      id,
      inStock,
      buyNowLink,
    })
    expect(productAvailability(item('s'), stock)).toEqual({ inStock: true, stockLeft: 2 })
    expect(productAvailability(item('s', false), stock)).toEqual({ inStock: false, stockLeft: 2 })
    expect(productAvailability(item('empty'), stock)).toEqual({ inStock: false, stockLeft: 0 })
    // Shared and manual products are absent from the map: the owner's switch alone decides.
    expect(productAvailability(item('manual'), stock)).toEqual({ inStock: true, stockLeft: null })
    expect(productAvailability(item('manual', false), stock)).toEqual({
      inStock: false,
      stockLeft: null,
    })
    // A buy now link sells elsewhere; this shop's checkout still delivers from stock.
    const linked = item('empty', true, 'https://elsewhere.example/buy')
    expect(productAvailability(linked, stock)).toEqual({ inStock: true, stockLeft: null })
    expect(productAvailability(linked, stock, { viaCheckout: true })).toEqual({
      inStock: false,
      stockLeft: 0,
    })
  })

  it('refuses an order for a stock product with nothing available, and takes it once stock arrives', async () => {
    const sold = await product('stock')
    const refused = createOrder(t.db, { productId: sold.id, customer: BUYER })
    await expect(refused).rejects.toBeInstanceOf(OrderError)
    await expect(refused).rejects.toMatchObject({
      code: 'out-of-stock',
      message: 'This product is out of stock.',
    })
    expect(await orderIdsOf(t.db, sold.id)).toEqual([])

    await add(sold.id, 'ONLY-KEY')
    const { order } = await createOrder(t.db, { productId: sold.id, customer: BUYER })
    expect(order.status).toBe('pending')

    // A revoked item is not stock.
    const [item] = (await listStockItemsPage(t.db, APP_SECRET, sold.id)).items
    await revokeStockItem(t.db, { itemId: item!.id, productId: sold.id })
    await expect(createOrder(t.db, { productId: sold.id, customer: BUYER })).rejects.toMatchObject({
      code: 'out-of-stock',
    })
  })

  it('takes orders for shared and manual products without stock, but not when switched off', async () => {
    const manual = await product('manual')
    const shared = await product('shared', {}, 'family@example.in / Pass-1')
    for (const { id } of [manual, shared]) {
      expect((await createOrder(t.db, { productId: id, customer: BUYER })).order.productId).toBe(id)
    }
    const off = await product('stock', { inStock: false })
    await add(off.id, 'K-1')
    await expect(createOrder(t.db, { productId: off.id, customer: BUYER })).rejects.toMatchObject({
      code: 'out-of-stock',
    })
    await expect(
      createOrder(t.db, { productId: 'no-such-product', customer: BUYER }),
    ).rejects.toMatchObject({
      code: 'product-not-found',
    })
  })
})

describe(`the admin's view of delivery (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('says how a product is delivered and whether a shared secret is set, never the secret', async () => {
    const shared = await product('shared', {}, 'family@example.in / Pass-1')
    expect(await getProductDelivery(t.db, shared.id)).toEqual({
      mode: 'shared',
      hasSharedSecret: true,
    })
    await setProductDelivery(t.db, APP_SECRET, shared.id, { mode: 'manual', sharedSecret: null })
    expect(await getProductDelivery(t.db, shared.id)).toEqual({
      mode: 'manual',
      hasSharedSecret: false,
    })
    expect(await getProductDelivery(t.db, 'no-such-product')).toBeNull()
  })

  it('writes only product columns, whatever else the input carries', async () => {
    const input = {
      ...(await makeProduct(t.db)),
      slug: `extra-${Date.now()}`,
      deliveryMode: 'shared',
      sharedSecret: 'plain text that must not be stored',
    } as ProductInput
    const created = await createProduct(t.db, input)
    const row = await t.db
      .selectFrom('product')
      .select(['deliveryMode', 'sharedSecret'])
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ deliveryMode: 'manual', sharedSecret: null })
  })

  it('lists each product with its delivery mode', async () => {
    const sold = await product('stock', { title: 'Listed from stock' })
    const page = await listProductsPage(t.db, { search: 'Listed from stock' })
    expect(page.items.map((item) => [item.id, item.deliveryMode])).toEqual([[sold.id, 'stock']])
  })

  it('copies the delivery mode to a duplicate, and the shared secret encrypted for the copy', async () => {
    const stock = await product('stock')
    await add(stock.id, 'S-1\nS-2')
    const stockCopy = await duplicateProduct(t.db, stock.id, { appSecret: APP_SECRET })
    expect(await getProductDelivery(t.db, stockCopy!.id)).toEqual({
      mode: 'stock',
      hasSharedSecret: false,
    })
    // Items belong to one product: the copy starts with none.
    expect((await stockLeftByProduct(t.db, [stockCopy!.id], REAL)).get(stockCopy!.id)).toBe(0)

    const shared = await product('shared', {}, 'family@example.in\nShared-Pass-9')
    const sharedCopy = await duplicateProduct(t.db, shared.id, { appSecret: APP_SECRET })
    const stored = await t.db
      .selectFrom('product')
      .select(['deliveryMode', 'sharedSecret'])
      .where('id', '=', sharedCopy!.id)
      .executeTakeFirstOrThrow()
    expect(stored.deliveryMode).toBe('shared')
    expect(stored.sharedSecret).not.toContain('Shared-Pass-9')
    expect(
      decryptSecret(
        stored.sharedSecret!,
        APP_SECRET,
        `product:${sharedCopy!.id}:sharedSecret`,
        STOCK_SECRETS_PURPOSE,
      ),
    ).toBe('family@example.in\nShared-Pass-9')

    // Without the app secret the copy cannot be given the secret: it waits for an admin.
    const blind = await duplicateProduct(t.db, shared.id)
    expect(await getProductDelivery(t.db, blind!.id)).toEqual({
      mode: 'manual',
      hasSharedSecret: false,
    })
    // Nor with a secret that does not decrypt it.
    const other = await product('manual')
    expect(await copyProductDelivery(t.db, 'x'.repeat(64), shared.id, other.id)).toBe('manual')
    expect(await copyProductDelivery(t.db, APP_SECRET, 'no-such-product', other.id)).toBeNull()
  })
})

describe(`the admin stock page (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('masks items: enough to tell them apart, never more than a third, nothing of a short one', () => {
    const text = (value: string) => maskStockSecret({ kind: 'text', text: value })
    // Keys: the last characters first (serial numbers differ there), then the first ones.
    expect(text('QA-KEY-0001')).toBe('••••••001')
    expect(text('QA-KEY-0002')).toBe('••••••002')
    expect(text('ABCD-EFGH-IJKL-MNOP')).toBe('AB••••••MNOP')
    expect(text('ABCDE-FGHIJ-KLMNO-PQRST-UVWXY')).toBe('ABC••••••VWXY')
    // Short ones show nothing.
    expect(text('KEY-0001')).toBe('••••••01')
    expect(text('KEY-01')).toBe('••••••')
    expect(text('ab')).toBe('••••••')
    // Never more than a third of any value, whatever its length.
    for (let length = 1; length <= 60; length++) {
      const value = 'x'.repeat(length)
      const shown = Array.from(text(value).replaceAll('•', '')).length
      expect(shown, `${length} characters`).toBeLessThanOrEqual(Math.floor(length / 3))
    }
    // An account line: its login (of an address, the part before the @), never its password.
    expect(text('demo-user-001@example.test / Demo-Pass-001')).toBe('••••••-001@•••••• / ••••••')
    expect(text('streamer_family_07:Pa55word!')).toBe('st••••••y_07 / ••••••')
    expect(text('asha@example.in / Secret-1')).toBe('••••••@•••••• / ••••••')
    expect(
      maskStockSecret({
        kind: 'fields',
        fields: [
          { name: 'note', value: 'renewed' },
          { name: 'email', value: 'family.plan.07@example.in' },
          { name: 'password', value: 'Secret-1' },
        ],
      }),
    ).toBe('••••••n.07@•••••• (note, email, password)')
    // A password column is never shown, even first.
    expect(
      maskStockSecret({
        kind: 'fields',
        fields: [
          { name: 'password', value: 'Very-Long-Secret-Pass-01' },
          { name: 'user', value: 'member-number-0042' },
        ],
      }),
    ).toBe('me••••••0042 (password, user)')
    expect(
      maskStockSecret({ kind: 'fields', fields: [{ name: 'pin', value: '12345678901234' }] }),
    ).toBe('•••••• (pin)')
  })

  it('pages the items newest first, filtered by status, masked, with who added them', async () => {
    const sold = await product('stock')
    const user = await createUser(t.db, {
      email: `owner.${Date.now()}@example.test`,
      name: 'Owner',
    })
    await importStock(t.db, {
      productId: sold.id,
      content:
        'email,password\nfirst-buyer-one-1@example.in,Pass-One-1\nsecond-buyer-two-2@example.in,Pass-Two-2\n',
      format: 'csv',
      appSecret: APP_SECRET,
      addedBy: `user:${user.id}`,
      now: new Date('2026-01-01T00:00:00Z'),
    })
    await importStock(t.db, {
      productId: sold.id,
      content: Array.from({ length: 5 }, (_, i) => `LINE-KEY-000${i}`).join('\n'),
      format: 'lines',
      appSecret: APP_SECRET,
      now: new Date('2026-01-02T00:00:00Z'),
    })

    const all = await listStockItemsPage(t.db, APP_SECRET, sold.id, { pageSize: 4 })
    expect(all).toMatchObject({ total: 7, page: 1, pageCount: 2, pageSize: 4 })
    // Each item told apart by its last characters.
    const keys = all.items.map((item) => item.preview)
    expect(new Set(keys).size).toBe(4)
    for (const key of keys) expect(key).toMatch(/^•{6}000\d$/)
    expect(all.items[0]!.addedByLabel).toBe('system')
    const second = await listStockItemsPage(t.db, APP_SECRET, sold.id, { pageSize: 4, page: 99 })
    expect(second.page).toBe(2)
    expect(second.items[0]!.preview).toMatch(/^•{6}000\d$/)
    expect([...keys, second.items[0]!.preview].sort()).toEqual([
      '••••••0000',
      '••••••0001',
      '••••••0002',
      '••••••0003',
      '••••••0004',
    ])
    expect(
      second.items
        .slice(1)
        .map((item) => item.preview)
        .sort(),
    ).toEqual(['f••••••ne-1@•••••• (email, password)', 'se••••••wo-2@•••••• (email, password)'])
    expect(second.items.slice(1).every((item) => item.addedByLabel === user.email)).toBe(true)
    expect(JSON.stringify([all, second])).not.toMatch(
      /Pass-One-1|Pass-Two-2|first-buyer|second-buyer|LINE-KEY/,
    )

    await revokeStockItem(t.db, { itemId: all.items[0]!.id, productId: sold.id, reason: 'Leaked' })
    const revoked = await listStockItemsPage(t.db, APP_SECRET, sold.id, { status: 'revoked' })
    expect(revoked.total).toBe(1)
    expect(revoked.items[0]).toMatchObject({
      id: all.items[0]!.id,
      status: 'revoked',
      revokedReason: 'Leaked',
    })
    expect(
      (await listStockItemsPage(t.db, APP_SECRET, sold.id, { status: 'available' })).total,
    ).toBe(6)

    // An item encrypted under another APP_SECRET is listed, marked unreadable.
    const foreign = await listStockItemsPage(t.db, 'y'.repeat(64), sold.id, { pageSize: 1 })
    expect(foreign.items[0]!.preview).toBe('Unreadable (encrypted with another APP_SECRET)')
  })

  it('counts the paid orders waiting for stock', async () => {
    const sold = await product('stock')
    await add(sold.id, 'W-1\nW-2')
    const orders = await Promise.all(
      [1, 2].map(() => createOrder(t.db, { productId: sold.id, customer: BUYER })),
    )
    expect(await countAwaitingOrders(t.db, sold.id)).toBe(0)
    await t.db
      .updateTable('order')
      .set({ status: 'awaiting_stock' })
      .where(
        'id',
        'in',
        orders.map(({ order }) => order.id),
      )
      .execute()
    expect(await countAwaitingOrders(t.db, sold.id)).toBe(2)
  })
})
