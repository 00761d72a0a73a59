import { CompiledQuery, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  decryptSecret,
  keyedHash,
  STOCK_FINGERPRINT_PURPOSE,
  STOCK_SECRETS_PURPOSE,
} from '~/lib/crypto.server'
import { createDatabase, type DB } from '~/lib/db.server'
import { slugify } from '~/lib/slug'
import { DEMO_PRODUCTS } from '~/services/seed/demo-products'
import { DEMO_STOCK_PER_PRODUCT, seedDemoStock } from '~/services/seed'
import { fileTestDb, testEngine } from '../../tests/helpers/db'
import { BUYER, makeProduct } from '../../tests/factories'
import { createOrder, getOrder, listOrderEvents, ORDER_MESSAGES } from './order.server'
import { stockLeftByProduct } from './product.server'
import { updateSiteSettings } from './settings.server'
import {
  allocateStockItem,
  availableItemsByKind,
  getDeliveredSecret,
  listStockItems,
  oldestAvailableItem,
  productsWithAwaitingOrders,
  revealStockItem,
  revokeStockItem,
  setProductDelivery,
  soldOnlyForRealPayments,
  stockCounts,
} from './stock.server'
import {
  fillAwaitingOrders,
  fulfilPaidOrder,
  importStock,
  markOrderPaid,
} from '~/services/fulfilment.server'
import { parseStockInput } from '~/lib/stock-import.server'
import { StockImportError } from '~/lib/stock-parse'

const APP_SECRET = 's'.repeat(64)

const t = fileTestDb()
/** On PostgreSQL a pool big enough for the concurrent transactions to really overlap. */
let wide: DB
beforeAll(async () => {
  wide =
    t.engine === 'postgres'
      ? createDatabase({
          databaseUrl: process.env.TEST_DATABASE_URL,
          pgSchema: t.location,
          maxConnections: 25,
        })
      : t.db
})
afterAll(async () => {
  if (wide !== t.db) await wide.destroy()
})

/**
 * Keys KEY-00000 and on; a test's keys are its own (prefix), since a key another product holds
 * is not imported again (docs/delivery.md, "One product per item").
 */
const lines = (from: number, to: number, prefix = 'KEY') =>
  Array.from(
    { length: to - from },
    (_, i) => `${prefix}-${String(from + i).padStart(5, '0')}`,
  ).join('\n')

/** A product sold from stock (new products default to manual delivery). */
async function stockProduct(overrides: Parameters<typeof makeProduct>[1] = {}) {
  const product = await makeProduct(t.db, overrides)
  await setProductDelivery(t.db, APP_SECRET, product.id, { mode: 'stock' })
  return product
}

/** Pastes lines into a product's stock as the admin's import does: real items unless `testItems`. */
function importLines(
  productId: string,
  content: string,
  { db = t.db, testItems }: { db?: DB; testItems?: boolean } = {},
) {
  return importStock(db, {
    productId,
    content,
    format: 'lines',
    appSecret: APP_SECRET,
    ...(testItems ? { testItems } : {}),
  })
}

async function paidOrders(productId: string, count: number): Promise<string[]> {
  const ids: string[] = []
  // createOrder refuses a `stock` product with no available item; these orders are meant to wait.
  const { deliveryMode } = await t.db
    .selectFrom('product')
    .select('deliveryMode')
    .where('id', '=', productId)
    .executeTakeFirstOrThrow()
  await t.db
    .updateTable('product')
    .set({ deliveryMode: 'manual' })
    .where('id', '=', productId)
    .execute()
  for (let i = 0; i < count; i++) {
    const { order } = await createOrder(t.db, { productId, customer: BUYER })
    ids.push(order.id)
  }
  await t.db.updateTable('product').set({ deliveryMode }).where('id', '=', productId).execute()
  await t.db.updateTable('order').set({ status: 'paid' }).where('id', 'in', ids).execute()
  return ids
}

/** Confirms a pending order's payment as a gateway's successful UPI callback does. */
function pay(db: DB, orderId: string, amount: number, txnId: string) {
  return markOrderPaid(
    db,
    orderId,
    {
      txnId,
      bankTxnId: null,
      paymentMode: 'UPI',
      paidAmount: amount,
      status: 'TXN_SUCCESS',
      respCode: '01',
      respMsg: 'Txn Success',
    },
    { message: 'Payment confirmed', expected: 'pending' },
  )
}

/** Confirms every order's payment at once, each in its own transaction (as callbacks do). */
function payAllAtOnce(orderIds: string[], amount: number, txnPrefix: string) {
  return Promise.all(orderIds.map((orderId, i) => pay(wide, orderId, amount, `${txnPrefix}-${i}`)))
}

describe(`stock (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('adds pasted lines, skipping duplicates in the batch and against existing stock, and reports bad lines', async () => {
    const product = await stockProduct()
    const first = await importLines(
      product.id,
      'KEY-A\n\n  KEY-B  \r\nKEY-A\nbad\u0001line\nKEY-C\n',
    )
    expect(first).toMatchObject({
      added: 3,
      duplicates: 1,
      invalid: 1,
      duplicateLines: [4],
      invalidLines: [5],
      filled: 0,
    })
    const second = await importLines(product.id, 'KEY-C\nKEY-D\nKEY-B')
    expect(second).toMatchObject({ added: 1, duplicates: 2, invalid: 0, duplicateLines: [1, 3] })
    expect(await stockCounts(t.db, product.id)).toEqual({
      available: 4,
      held: 0,
      delivered: 0,
      revoked: 0,
      availableByKind: { real: 4, test: 0 },
    })
  })

  it('stores items encrypted so the database alone reveals nothing, and decrypts them with APP_SECRET', async () => {
    const product = await stockProduct()
    await importLines(product.id, 'SECRET-LICENCE-123')
    const row = await t.db
      .selectFrom('stockItem')
      .select(['id', 'secretCiphertext', 'secretHash'])
      .where('productId', '=', product.id)
      .executeTakeFirstOrThrow()
    expect(row.secretCiphertext).not.toContain('SECRET-LICENCE-123')
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/)
    expect(await revealStockItem(t.db, APP_SECRET, row.id)).toEqual({
      kind: 'text',
      text: 'SECRET-LICENCE-123',
    })
    await expect(revealStockItem(t.db, 'x'.repeat(64), row.id)).rejects.toThrow(
      /cannot be decrypted/,
    )
    // Stock has its own key: the gateway secrets' key (same context) cannot open it.
    expect(() => decryptSecret(row.secretCiphertext, APP_SECRET, `stock_item:${row.id}`)).toThrow(
      /cannot be decrypted/,
    )
    expect(
      decryptSecret(
        row.secretCiphertext,
        APP_SECRET,
        `stock_item:${row.id}`,
        STOCK_SECRETS_PURPOSE,
      ),
    ).toContain('SECRET-LICENCE-123')
  })

  it('reads CSV columns into named fields; a different note does not make a new item', async () => {
    const product = await stockProduct()
    const csv = [
      'Email,Password,Note',
      'a@example.test,"pa,ss",first',
      'b@example.test,pw2,',
      'a@example.test,"pa,ss",same account again',
      'c@example.test,only-two-columns',
      ',,just a note',
    ].join('\n')
    const summary = await importStock(t.db, {
      productId: product.id,
      content: csv,
      format: 'csv',
      appSecret: APP_SECRET,
    })
    expect(summary).toMatchObject({
      added: 2,
      duplicates: 1,
      invalid: 2,
      duplicateLines: [4],
      invalidLines: [5, 6],
    })
    const [item] = await listStockItems(t.db, product.id, { limit: 10 })
    const secrets = await Promise.all(
      (await listStockItems(t.db, product.id)).map((i) => revealStockItem(t.db, APP_SECRET, i.id)),
    )
    expect(item).not.toHaveProperty('secretCiphertext')
    expect(secrets).toContainEqual({
      kind: 'fields',
      fields: [
        { name: 'email', value: 'a@example.test' },
        { name: 'password', value: 'pa,ss' },
        { name: 'note', value: 'first' },
      ],
    })
  })

  it('finds an account already in stock whatever the order of the CSV columns', async () => {
    const product = await stockProduct()
    const csv = (header: string, ...rows: string[]) =>
      importStock(t.db, {
        productId: product.id,
        content: [header, ...rows].join('\n'),
        format: 'csv',
        appSecret: APP_SECRET,
      })
    expect(await csv('email,password', 'a@example.test,p1')).toMatchObject({ added: 1 })
    expect(await csv('password,email,note', 'p1,a@example.test,again')).toMatchObject({
      added: 0,
      duplicates: 1,
    })
    // An item stocked before fingerprints took fields in name order carries its file's order.
    const [item] = await listStockItems(t.db, product.id, { limit: 1 })
    await t.db
      .updateTable('stockItem')
      .set({
        secretHash: keyedHash(
          APP_SECRET,
          STOCK_FINGERPRINT_PURPOSE,
          JSON.stringify([product.id, ['fields', ['password', 'p1'], ['email', 'a@example.test']]]),
        ),
      })
      .where('id', '=', item!.id)
      .execute()
    // Found from a file in either order; a new account beside it is added.
    expect(await csv('email,password', 'a@example.test,p1', 'b@example.test,p2')).toMatchObject({
      added: 1,
      duplicates: 1,
    })
    expect(await csv('password,email', 'p1,a@example.test', 'p3,c@example.test')).toMatchObject({
      added: 1,
      duplicates: 1,
    })
    expect(await stockCounts(t.db, product.id)).toMatchObject({ available: 3 })
  })

  it('refuses a CSV file whose first line does not name the columns', () => {
    expect(() => parseStockInput('email,,note\nx,y,z', 'csv')).toThrow(StockImportError)
    expect(() => parseStockInput('email,email\nx,y', 'csv')).toThrow(StockImportError)
  })

  it('revokes an unsold item but never a delivered one', async () => {
    const product = await stockProduct()
    await importLines(product.id, 'R-1\nR-2')
    const [orderId] = await paidOrders(product.id, 1)
    const sold = await t.db
      .transaction()
      .execute((trx) =>
        allocateStockItem(trx, { orderId: orderId!, productId: product.id, testItems: false }),
      )
    const unsold = (await listStockItems(t.db, product.id, { status: 'available' }))[0]!
    expect(
      await revokeStockItem(t.db, { itemId: unsold.id, productId: product.id, reason: 'leaked' }),
    ).toEqual({ revoked: true })
    expect(await revokeStockItem(t.db, { itemId: sold!.id, productId: product.id })).toEqual({
      revoked: false,
      status: 'delivered',
    })
    expect(await stockCounts(t.db, product.id)).toEqual({
      available: 0,
      held: 0,
      delivered: 1,
      revoked: 1,
      availableByKind: { real: 0, test: 0 },
    })
  })

  it('imports 10,000 lines with 100 duplicates: 9,900 added, 100 reported', async () => {
    const product = await stockProduct()
    const content = `${lines(0, 9_900, 'BULK')}\n${lines(0, 100, 'BULK')}`
    const summary = await importLines(product.id, content)
    expect(summary).toMatchObject({ added: 9_900, duplicates: 100, invalid: 0 })
    expect(
      (await stockLeftByProduct(t.db, [product.id], { testItems: false })).get(product.id),
    ).toBe(9_900)
  })

  it('finds the oldest available item of a kind as the first entry of an index, whatever lies before it', async () => {
    // Older test items first: an index in another order has to step over all 1,500 of them, or
    // read all 1,500 real items and sort them, before it has the answer.
    const product = await stockProduct()
    await importLines(product.id, lines(0, 1_500, 'INDEX'), { testItems: true })
    await importLines(product.id, lines(1_500, 3_000, 'INDEX'))
    const query = oldestAvailableItem(t.db, product.id, false).compile()
    const explain =
      t.engine === 'postgres' ? 'explain (analyze, format json) ' : 'explain query plan '
    const { rows } = await t.db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(explain + query.sql, [...query.parameters]),
    )
    if (t.engine === 'postgres') {
      type PlanNode = {
        'Node Type': string
        'Actual Rows': number
        'Rows Removed by Filter'?: number
        Plans?: PlanNode[]
      }
      const nodes: PlanNode[] = []
      const walk = (node: PlanNode) => {
        nodes.push(node)
        node.Plans?.forEach(walk)
      }
      walk((Object.values(rows[0]!)[0] as [{ Plan: PlanNode }])[0].Plan)
      expect(nodes.map((node) => node['Node Type'])).not.toContain('Sort')
      const read = nodes.map((node) => node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0))
      expect(Math.max(...read)).toBe(1)
    } else {
      const plan = rows.map((row) => String(row.detail)).join('\n')
      expect(plan).toContain('stock_item_allocation_idx')
      expect(plan).not.toContain('TEMP B-TREE')
    }
    const oldest = await t.db
      .selectFrom('stockItem')
      .select('id')
      .where('productId', '=', product.id)
      .where('testItem', '=', 0)
      .orderBy('createdAt')
      .orderBy('id')
      .executeTakeFirstOrThrow()
    expect(await oldestAvailableItem(t.db, product.id, false).executeTakeFirst()).toEqual(oldest)
  })

  it('never gives one item to two orders: 50 concurrent allocations over 10 items', async () => {
    const product = await stockProduct()
    await importLines(product.id, lines(0, 10))
    const orders = await paidOrders(product.id, 50)
    const results = await Promise.all(
      orders.map((orderId) =>
        wide
          .transaction()
          .execute((trx) =>
            allocateStockItem(trx, { orderId, productId: product.id, testItems: false }),
          ),
      ),
    )
    const allocated = results.filter((item) => item !== null)
    expect(allocated).toHaveLength(10)
    expect(new Set(allocated.map((item) => item.id)).size).toBe(10)
    expect(new Set(allocated.map((item) => item.orderId)).size).toBe(10)
    expect(results.filter((item) => item === null)).toHaveLength(40)
    expect(await stockCounts(t.db, product.id)).toMatchObject({ available: 0, delivered: 10 })
  })

  it('delivers 10 of 50 concurrently paid orders, holds 40 awaiting stock, and fills them oldest first when 40 items arrive', async () => {
    const product = await stockProduct()
    await importLines(product.id, lines(100, 110))
    const orders = await paidOrders(product.id, 50)
    const results = await Promise.all(
      orders.map((orderId) =>
        wide.transaction().execute((trx) => fulfilPaidOrder(trx, { orderId })),
      ),
    )
    expect(results.filter((r) => r.status === 'delivered')).toHaveLength(10)
    expect(results.filter((r) => r.status === 'awaiting_stock')).toHaveLength(40)

    const summary = await importLines(product.id, lines(110, 150), { db: wide })
    expect(summary).toMatchObject({ added: 40, filled: 40 })
    const statuses = await t.db
      .selectFrom('order')
      .select('status')
      .where('id', 'in', orders)
      .execute()
    expect(statuses.every((row) => row.status === 'delivered')).toBe(true)
    const items = await t.db
      .selectFrom('stockItem')
      .select(['id', 'orderId'])
      .where('productId', '=', product.id)
      .execute()
    expect(items).toHaveLength(50)
    expect(new Set(items.map((item) => item.orderId)).size).toBe(50)
    expect(await fillAwaitingOrders(t.db, product.id)).toBe(0)

    const events = await listOrderEvents(t.db, orders[0]!)
    expect(events.map((event) => event.type)).toContain('delivered')
    const secret = await getDeliveredSecret(t.db, APP_SECRET, orders[0]!)
    expect(secret?.kind).toBe('text')
  })

  it('mails the shop once when a sale leaves the low-stock threshold of items (site setting, 0 = off)', async () => {
    await updateSiteSettings(t.db, { contactEmail: 'owner@example.test', lowStockThreshold: 2 })
    const product = await stockProduct()
    await importLines(product.id, 'L1\nL2\nL3\nL4')
    const lowMails = async () =>
      (await t.db.selectFrom('job').select('payload').where('type', '=', 'mail.send').execute())
        .map((job) => JSON.parse(job.payload) as { to: string; subject: string })
        .filter((mail) => mail.subject.includes(`left of ${product.title}`))
    const sell = async () => {
      const [id] = await paidOrders(product.id, 1)
      await t.db.transaction().execute((trx) => fulfilPaidOrder(trx, { orderId: id! }))
    }
    await sell() // 3 left
    expect(await lowMails()).toEqual([])
    await sell() // 2 left: the threshold
    expect(await lowMails()).toEqual([
      {
        to: 'owner@example.test',
        subject: `Low stock: 2 items left of ${product.title}`,
        text: expect.any(String),
        html: expect.any(String),
      },
    ])
    await sell() // 1 left: already told
    expect(await lowMails()).toHaveLength(1)

    await updateSiteSettings(t.db, { lowStockThreshold: 0 })
    const quiet = await stockProduct()
    await importLines(quiet.id, 'Q1')
    const [id] = await paidOrders(quiet.id, 1)
    await t.db.transaction().execute((trx) => fulfilPaidOrder(trx, { orderId: id! }))
    const all = await t.db
      .selectFrom('job')
      .select('payload')
      .where('type', '=', 'mail.send')
      .execute()
    expect(all.some((job) => job.payload.includes(`left of ${quiet.title}`))).toBe(false)
    await updateSiteSettings(t.db, { lowStockThreshold: 3 })
  })

  it('mails the shop when a sale takes the last item, also of a product stocked below the threshold', async () => {
    await updateSiteSettings(t.db, { contactEmail: 'owner@example.test', lowStockThreshold: 3 })
    const product = await stockProduct()
    await importLines(product.id, 'S1\nS2')
    const alerts = async () =>
      (await t.db.selectFrom('job').select('payload').where('type', '=', 'mail.send').execute())
        .map((job) => (JSON.parse(job.payload) as { subject: string }).subject)
        .filter((subject) => subject.includes(product.title))
    const sell = async () => {
      const [id] = await paidOrders(product.id, 1)
      await t.db.transaction().execute((trx) => fulfilPaidOrder(trx, { orderId: id! }))
    }
    await sell() // 1 left: below the threshold, never at it
    expect(await alerts()).toEqual([])
    await sell() // none left
    expect(await alerts()).toEqual([`Sold out: ${product.title}`])
  })

  it('counts only real items and orders for the stock alerts, and a test sale sends none', async () => {
    await updateSiteSettings(t.db, { contactEmail: 'owner@example.test', lowStockThreshold: 3 })
    const product = await stockProduct()
    await importLines(product.id, 'REAL-1\nREAL-2\nREAL-3\nREAL-4')
    await importLines(product.id, lines(500, 520), { testItems: true })
    const alerts = async () =>
      (await t.db.selectFrom('job').select('payload').where('type', '=', 'mail.send').execute())
        .map((job) => (JSON.parse(job.payload) as { subject: string }).subject)
        .filter((subject) => subject.includes(product.title))
    const sell = async (testMode: boolean) => {
      const { order } = await createOrder(t.db, {
        productId: product.id,
        customer: BUYER,
        testMode,
      })
      await t.db.updateTable('order').set({ status: 'paid' }).where('id', '=', order.id).execute()
      return t.db.transaction().execute((trx) => fulfilPaidOrder(trx, { orderId: order.id }))
    }
    // Test sales use test items and tell the shop nothing.
    for (let i = 0; i < 18; i++) expect((await sell(true)).status).toBe('delivered')
    expect(await alerts()).toEqual([])
    // The first real sale leaves 3 real items, beside 2 test ones: the shop is told.
    expect((await sell(false)).status).toBe('delivered')
    expect(await alerts()).toEqual([`Low stock: 3 items left of ${product.title}`])
    await updateSiteSettings(t.db, { lowStockThreshold: 3 })
  })

  it('mails the shop at the low-stock crossing when new items go to waiting orders', async () => {
    await updateSiteSettings(t.db, { contactEmail: 'owner@example.test', lowStockThreshold: 3 })
    const product = await stockProduct()
    // Ten real orders wait; twelve items arrive: ten are taken at once, two are left.
    const waiting = await paidOrders(product.id, 10)
    await t.db
      .updateTable('order')
      .set({ status: 'awaiting_stock' })
      .where('id', 'in', waiting)
      .execute()
    const summary = await importLines(product.id, lines(700, 712))
    expect(summary).toMatchObject({ added: 12, filled: 10 })
    const subjects = (
      await t.db.selectFrom('job').select('payload').where('type', '=', 'mail.send').execute()
    )
      .map((job) => (JSON.parse(job.payload) as { subject: string }).subject)
      .filter((subject) => subject.includes(product.title))
    expect(subjects).toContain(`Low stock: 3 items left of ${product.title}`)
    expect(subjects.filter((subject) => subject.startsWith('Low stock'))).toHaveLength(1)
  })

  it('mails the shop once at the low-stock and the out-of-stock crossing while 30 sales commit at once', async () => {
    await updateSiteSettings(t.db, { contactEmail: 'owner@example.test', lowStockThreshold: 5 })
    const product = await stockProduct()
    await importLines(product.id, lines(300, 310))
    const orders: string[] = []
    for (let i = 0; i < 30; i++)
      orders.push((await createOrder(t.db, { productId: product.id, customer: BUYER })).order.id)
    await payAllAtOnce(orders, product.price, 'TXN-L')
    const subjects = (
      await t.db.selectFrom('job').select('payload').where('type', '=', 'mail.send').execute()
    )
      .map((job) => JSON.parse(job.payload) as { to: string; subject: string })
      .filter((mail) => mail.to === 'owner@example.test' && mail.subject.includes(product.title))
      .map((mail) => mail.subject)
      .sort()
    expect(subjects).toEqual([
      `Low stock: 5 items left of ${product.title}`,
      `Out of stock: ${product.title} has paid orders waiting`,
      `Sold out: ${product.title}`,
    ])
    await updateSiteSettings(t.db, { lowStockThreshold: 3 })
  })

  it('fills waiting orders oldest first when fewer items arrive than orders wait, after one out-of-stock mail', async () => {
    await updateSiteSettings(t.db, { contactEmail: 'owner@example.test' })
    const product = await stockProduct()
    const orders = await paidOrders(product.id, 3)
    for (const [index, id] of orders.entries()) {
      await t.db
        .updateTable('order')
        .set({ createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 3 - index)).toISOString() })
        .where('id', '=', id)
        .execute()
      await t.db.transaction().execute((trx) => fulfilPaidOrder(trx, { orderId: id }))
    }
    // The shop hears about it once, not once per waiting order.
    const mails = await t.db
      .selectFrom('job')
      .select('payload')
      .where('type', '=', 'mail.send')
      .execute()
    const outOfStock = mails.filter((mail) =>
      mail.payload.includes(`Out of stock: ${product.title} `),
    )
    expect(outOfStock).toHaveLength(1)
    expect(JSON.parse(outOfStock[0]!.payload)).toMatchObject({ to: 'owner@example.test' })

    const summary = await importLines(product.id, 'ONE\nTWO')
    expect(summary.filled).toBe(2)
    // orders[2] was created first, orders[0] last.
    expect((await getOrder(t.db, orders[2]!))?.status).toBe('delivered')
    expect((await getOrder(t.db, orders[1]!))?.status).toBe('delivered')
    expect((await getOrder(t.db, orders[0]!))?.status).toBe('awaiting_stock')
    expect(await productsWithAwaitingOrders(t.db)).not.toContain(product.id)

    // An item that became available without a fill (e.g. an allocation rolled back) is found by the safety net.
    const at = new Date().toISOString()
    await t.db
      .insertInto('stockItem')
      .values({
        id: `raw-${product.id}`,
        productId: product.id,
        secretCiphertext: 'x',
        secretHash: `raw-${product.id}`,
        createdAt: at,
        updatedAt: at,
      })
      .execute()
    expect(await productsWithAwaitingOrders(t.db)).toContain(product.id)
    expect(await fillAwaitingOrders(t.db, product.id)).toBe(1)
    expect((await getOrder(t.db, orders[0]!))?.status).toBe('delivered')
  })

  it('delivers the orders another filler held while it found no stock: the import waits for them, it does not skip them', async () => {
    const product = await stockProduct()
    const orders = await paidOrders(product.id, 3)
    for (const id of orders)
      await t.db.transaction().execute((trx) => fulfilPaidOrder(trx, { orderId: id }))
    // The shop's periodic filler claims the waiting orders and looks for stock before the import's
    // items are committed: it finds none and holds the orders until its transaction ends.
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    let claimed = () => {}
    const holding = new Promise<void>((resolve) => (claimed = resolve))
    const periodic = wide.transaction().execute(async (trx) => {
      await trx
        .updateTable('order')
        .set((eb) => ({ updatedAt: eb.ref('updatedAt') }))
        .where('id', 'in', orders)
        .execute()
      claimed()
      await released
    })
    await holding
    const importing = importLines(product.id, 'HELD-ONE\nHELD-TWO\nHELD-THREE', { db: wide })
    await new Promise((resolve) => setTimeout(resolve, 300))
    release()
    await periodic
    expect(await importing).toMatchObject({ added: 3, filled: 3 })
    const statuses = await t.db
      .selectFrom('order')
      .select('status')
      .where('id', 'in', orders)
      .execute()
    expect(statuses.map((row) => row.status)).toEqual(['delivered', 'delivered', 'delivered'])
  })

  it.runIf(testEngine() === 'postgres')(
    'serves the orders that waited first: a payment made while an import runs cannot take its items ahead of them',
    async () => {
      const product = await stockProduct()
      const [waiting, newer] = await paidOrders(product.id, 2)
      await t.db.transaction().execute((trx) => fulfilPaidOrder(trx, { orderId: waiting! }))
      await t.db.updateTable('order').set({ status: 'pending' }).where('id', '=', newer!).execute()
      // Someone holds the waiting order's row (the periodic filler, say), so the import stops
      // at its claim with its one new item written.
      let release = () => {}
      const released = new Promise<void>((resolve) => (release = resolve))
      let held = () => {}
      const holding = new Promise<void>((resolve) => (held = resolve))
      const holder = wide.transaction().execute(async (trx) => {
        await trx.selectFrom('order').select('id').where('id', '=', waiting!).forUpdate().execute()
        held()
        await released
      })
      await holding
      const lockWaits = async () =>
        Number(
          (
            await sql<{ count: string }>`select count(*) as count from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db)
          ).rows[0]!.count,
        )
      const until = async (done: () => Promise<boolean>) => {
        for (let i = 0; i < 200 && !(await done()); i++)
          await new Promise((resolve) => setTimeout(resolve, 25))
      }
      const importing = importLines(product.id, 'ONLY-ONE', { db: wide })
      await until(async () => (await lockWaits()) >= 1)
      // The newer order's payment arrives meanwhile.
      let paid = false
      const paying = pay(wide, newer!, 10_000, `TXN-NEWER-${newer}`).finally(() => (paid = true))
      await until(async () => paid || (await lockWaits()) >= 2)
      release()
      await holder
      await importing
      await paying
      const status = async (id: string) => (await getOrder(t.db, id))?.status
      expect(await status(waiting!)).toBe('delivered')
      expect(await status(newer!)).toBe('awaiting_stock')
    },
  )

  it('delivers the shared secret of a shared product and leaves manual products paid', async () => {
    const shared = await makeProduct(t.db)
    await setProductDelivery(t.db, APP_SECRET, shared.id, {
      mode: 'shared',
      sharedSecret: 'family@example.test / Shared-Pass-1',
    })
    const stored = await t.db
      .selectFrom('product')
      .select('sharedSecret')
      .where('id', '=', shared.id)
      .executeTakeFirstOrThrow()
    expect(stored.sharedSecret).not.toContain('Shared-Pass-1')
    const [sharedOrder] = await paidOrders(shared.id, 1)
    expect(
      await t.db.transaction().execute((trx) => fulfilPaidOrder(trx, { orderId: sharedOrder! })),
    ).toEqual({ status: 'delivered', stockItemId: null })
    expect(await getDeliveredSecret(t.db, APP_SECRET, sharedOrder!)).toEqual({
      kind: 'text',
      text: 'family@example.test / Shared-Pass-1',
    })
    // Editing the shared secret changes what every buyer sees.
    await setProductDelivery(t.db, APP_SECRET, shared.id, {
      mode: 'shared',
      sharedSecret: 'family@example.test / Shared-Pass-2',
    })
    expect(await getDeliveredSecret(t.db, APP_SECRET, sharedOrder!)).toEqual({
      kind: 'text',
      text: 'family@example.test / Shared-Pass-2',
    })
    // Selling the product another way later does not take the secret from its past buyers.
    await setProductDelivery(t.db, APP_SECRET, shared.id, { mode: 'manual' })
    expect(await getDeliveredSecret(t.db, APP_SECRET, sharedOrder!)).toEqual({
      kind: 'text',
      text: 'family@example.test / Shared-Pass-2',
    })

    const manual = await makeProduct(t.db)
    // Products sell by hand until the owner chooses otherwise (the migration's default).
    expect(
      (
        await t.db
          .selectFrom('product')
          .select('deliveryMode')
          .where('id', '=', manual.id)
          .executeTakeFirstOrThrow()
      ).deliveryMode,
    ).toBe('manual')
    await setProductDelivery(t.db, APP_SECRET, manual.id, { mode: 'manual' })
    const [manualOrder] = await paidOrders(manual.id, 1)
    expect(
      await t.db.transaction().execute((trx) => fulfilPaidOrder(trx, { orderId: manualOrder! })),
    ).toEqual({ status: 'paid' })
    expect((await getOrder(t.db, manualOrder!))?.status).toBe('paid')
  })

  it('refuses a second live item for one order at the database level', async () => {
    const product = await stockProduct()
    await importLines(product.id, 'L-1\nL-2')
    const [orderId] = await paidOrders(product.id, 1)
    await t.db
      .transaction()
      .execute((trx) =>
        allocateStockItem(trx, { orderId: orderId!, productId: product.id, testItems: false }),
      )
    await expect(
      t.db
        .transaction()
        .execute((trx) =>
          allocateStockItem(trx, { orderId: orderId!, productId: product.id, testItems: false }),
        ),
    ).rejects.toThrow()
  })

  it('gives demo products a few fictional stock items, once', async () => {
    const demo = await stockProduct({ slug: slugify(DEMO_PRODUCTS[0]!.title) })
    expect(await seedDemoStock(t.db, APP_SECRET)).toBe(DEMO_STOCK_PER_PRODUCT)
    expect(await seedDemoStock(t.db, APP_SECRET)).toBe(0)
    expect((await stockCounts(t.db, demo.id)).available).toBe(DEMO_STOCK_PER_PRODUCT)
    // Fictional items are test items: sold only in test mode.
    expect(await availableItemsByKind(t.db, demo.id)).toEqual({
      real: 0,
      test: DEMO_STOCK_PER_PRODUCT,
    })
    const [item] = await listStockItems(t.db, demo.id, { limit: 1 })
    const secret = await revealStockItem(t.db, APP_SECRET, item!.id)
    expect(secret).toMatchObject({
      kind: 'text',
      text: expect.stringMatching(/^demo-user-\d{3}@example\.test \/ Demo-Pass-\d{3}$/),
    })
  })

  it('delivers in the paying transaction: 50 orders paid concurrently over 10 items -> 10 delivered, 40 awaiting stock, then all 50', async () => {
    const product = await stockProduct()
    await importLines(product.id, lines(200, 210))
    const orders: string[] = []
    for (let i = 0; i < 50; i++)
      orders.push((await createOrder(t.db, { productId: product.id, customer: BUYER })).order.id)
    const paid = await payAllAtOnce(orders, product.price, 'TXN-C')
    expect(paid.every((result) => result.changed)).toBe(true)
    const count = async (status: 'delivered' | 'awaiting_stock') =>
      (
        await t.db
          .selectFrom('order')
          .select('id')
          .where('id', 'in', orders)
          .where('status', '=', status)
          .execute()
      ).length
    expect(await count('delivered')).toBe(10)
    expect(await count('awaiting_stock')).toBe(40)

    await importLines(product.id, lines(210, 250))
    expect(await count('delivered')).toBe(50)
    const items = await t.db
      .selectFrom('stockItem')
      .select('orderId')
      .where('productId', '=', product.id)
      .where('status', '=', 'delivered')
      .execute()
    expect(new Set(items.map((item) => item.orderId))).toEqual(new Set(orders))
  })
})

describe(`test mode never gives real goods away (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  const secretOf = async (orderId: string) => {
    const secret = await getDeliveredSecret(t.db, APP_SECRET, orderId)
    return secret?.kind === 'text' ? secret.text : null
  }

  it('delivers a simulated payment only from test items and a real payment only from real items', async () => {
    const product = await stockProduct()
    await importLines(product.id, 'REAL-M1')
    await importLines(product.id, 'TEST-M1', { testItems: true })
    expect(await soldOnlyForRealPayments(t.db, product.id)).toBe(false)

    const simulated = (
      await createOrder(t.db, { productId: product.id, customer: BUYER, testMode: true })
    ).order
    const real = (await createOrder(t.db, { productId: product.id, customer: BUYER })).order
    await pay(t.db, simulated.id, product.price, `TXN-TM-${simulated.id}`)
    await pay(t.db, real.id, product.price, `TXN-RM-${real.id}`)
    expect(await secretOf(simulated.id)).toBe('TEST-M1')
    expect(await secretOf(real.id)).toBe('REAL-M1')
  })

  it('counts real and test items apart, and lists each with its kind', async () => {
    const product = await stockProduct()
    await importLines(product.id, 'REAL-C1\nREAL-C2')
    await importLines(product.id, 'TEST-C1\nTEST-C2\nTEST-C3', { testItems: true })
    const [sold] = await listStockItems(t.db, product.id, { status: 'available', limit: 1 })
    await revokeStockItem(t.db, { itemId: sold!.id, productId: product.id })
    expect(await stockCounts(t.db, product.id)).toEqual({
      available: 4,
      held: 0,
      delivered: 0,
      revoked: 1,
      availableByKind: { real: 2, test: 2 },
    })
    expect(await availableItemsByKind(t.db, product.id)).toEqual({ real: 2, test: 2 })
    const items = await listStockItems(t.db, product.id)
    const shown = await Promise.all(
      items.map(async (item) => {
        const secret = await revealStockItem(t.db, APP_SECRET, item.id)
        return `${secret?.kind === 'text' ? secret.text : ''}:${item.testItem}`
      }),
    )
    expect(shown.sort()).toEqual([
      'REAL-C1:false',
      'REAL-C2:false',
      'TEST-C1:true',
      'TEST-C2:true',
      'TEST-C3:true',
    ])
  })

  it('refuses a test-mode order for a product with only real stock, and a real order for one with only test stock', async () => {
    const realOnly = await stockProduct()
    await importLines(realOnly.id, 'REAL-A\nREAL-B')
    expect(await soldOnlyForRealPayments(t.db, realOnly.id)).toBe(true)
    await expect(
      createOrder(t.db, { productId: realOnly.id, customer: BUYER, testMode: true }),
    ).rejects.toMatchObject({
      code: 'not-in-test-mode',
      message: ORDER_MESSAGES.notInTestMode,
    })
    const testOnly = await stockProduct()
    await importLines(testOnly.id, 'TEST-A', { testItems: true })
    await expect(
      createOrder(t.db, { productId: testOnly.id, customer: BUYER }),
    ).rejects.toMatchObject({ code: 'out-of-stock' })
    const orders = await t.db
      .selectFrom('order')
      .select('id')
      .where('productId', 'in', [realOnly.id, testOnly.id])
      .execute()
    expect(orders).toEqual([])
  })

  it('never allocates a test item to a real order, nor a real item to a test-mode order, even when that is all that is left', async () => {
    const product = await stockProduct()
    await importLines(product.id, 'REAL-X')
    await importLines(product.id, 'TEST-X', { testItems: true })
    // Two orders of each kind, paid: one item of each kind for two buyers of each kind.
    const simulated = [
      (await createOrder(t.db, { productId: product.id, customer: BUYER, testMode: true })).order,
      (await createOrder(t.db, { productId: product.id, customer: BUYER, testMode: true })).order,
    ]
    const real = [
      (await createOrder(t.db, { productId: product.id, customer: BUYER })).order,
      (await createOrder(t.db, { productId: product.id, customer: BUYER })).order,
    ]
    for (const order of [...simulated, ...real])
      await pay(t.db, order.id, product.price, `TXN-MIX-${order.id}`)
    expect((await getOrder(t.db, simulated[0]!.id))?.status).toBe('delivered')
    expect((await getOrder(t.db, simulated[1]!.id))?.status).toBe('awaiting_stock')
    expect((await getOrder(t.db, real[0]!.id))?.status).toBe('delivered')
    expect((await getOrder(t.db, real[1]!.id))?.status).toBe('awaiting_stock')
    expect(await secretOf(simulated[0]!.id)).toBe('TEST-X')
    expect(await secretOf(real[0]!.id)).toBe('REAL-X')

    // New real stock fills only the waiting real order; new test stock only the test one.
    expect((await importLines(product.id, 'REAL-Y')).filled).toBe(1)
    expect((await getOrder(t.db, simulated[1]!.id))?.status).toBe('awaiting_stock')
    expect(await secretOf(real[1]!.id)).toBe('REAL-Y')
    expect((await importLines(product.id, 'TEST-Y', { testItems: true })).filled).toBe(1)
    expect(await secretOf(simulated[1]!.id)).toBe('TEST-Y')
    expect(await fillAwaitingOrders(t.db, product.id)).toBe(0)
  })

  it('never reveals a shared secret for a test-mode payment, and takes no test-mode order for a shared product', async () => {
    const product = await makeProduct(t.db)
    await setProductDelivery(t.db, APP_SECRET, product.id, { mode: 'manual' })
    // An order made in test mode before the product was switched to a shared secret.
    const simulated = (
      await createOrder(t.db, { productId: product.id, customer: BUYER, testMode: true })
    ).order
    await setProductDelivery(t.db, APP_SECRET, product.id, {
      mode: 'shared',
      sharedSecret: 'family-plan / real-password',
    })
    expect(await soldOnlyForRealPayments(t.db, product.id)).toBe(true)
    await expect(
      createOrder(t.db, { productId: product.id, customer: BUYER, testMode: true }),
    ).rejects.toMatchObject({
      code: 'not-in-test-mode',
    })
    await pay(t.db, simulated.id, product.price, `TXN-SH-${simulated.id}`)
    expect((await getOrder(t.db, simulated.id))?.status).toBe('paid')
    expect(await getDeliveredSecret(t.db, APP_SECRET, simulated.id)).toBeNull()
  })
})
