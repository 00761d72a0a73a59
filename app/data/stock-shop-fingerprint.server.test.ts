import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabase, type DB } from '~/lib/db.server'
import { encryptStockItem, shopStockFingerprint, stockFingerprint } from '~/lib/stock-crypto.server'
import { importSummaryText } from '~/lib/validation/stock-import'
import { importStock } from '~/services/fulfilment.server'
import { importStockAudited } from '~/services/product-admin.server'
import { listAuditEntries } from './audit.server'
import { elsewhereSentence } from '~/routes/admin/products/stock.server'
import { fileTestDb } from '../../tests/helpers/db'
import { BUYER, makeProduct } from '../../tests/factories'
import { createOrder } from './order.server'
import {
  allocateStockItem,
  fillShopFingerprints,
  insertManualOrderItem,
  revokeStockItem,
  setProductDelivery,
} from './stock.server'

/**
 * One product per stock item (docs/delivery.md, "One product per item"): an item another
 * product holds, whatever its status, is not imported again; older rows are fingerprinted at
 * start-up (fillShopFingerprints).
 */
const APP_SECRET = 'f'.repeat(64)

const t = fileTestDb()
/** On PostgreSQL a pool big enough for concurrent imports to really overlap. */
let wide: DB
beforeAll(() => {
  wide =
    t.engine === 'postgres'
      ? createDatabase({
          databaseUrl: process.env.TEST_DATABASE_URL,
          pgSchema: t.location,
          maxConnections: 8,
        })
      : t.db
})
afterAll(async () => {
  if (wide !== t.db) await wide.destroy()
})

async function stockProduct(title: string) {
  const product = await makeProduct(t.db, { title })
  await setProductDelivery(t.db, APP_SECRET, product.id, { mode: 'stock' })
  return product
}

function importInto(
  productId: string,
  content: string,
  options: { format?: 'lines' | 'csv'; testItems?: boolean; db?: DB } = {},
) {
  return importStock(options.db ?? t.db, {
    productId,
    content,
    format: options.format ?? 'lines',
    appSecret: APP_SECRET,
    ...(options.testItems ? { testItems: true } : {}),
  })
}

const countOf = async (productId: string) =>
  (await t.db.selectFrom('stockItem').select('id').where('productId', '=', productId).execute())
    .length

describe(`one product per stock item (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('skips a key another product holds, naming it, apart from plain duplicates', async () => {
    const a = await stockProduct('StreamVerse Premium 1 Month')
    const b = await stockProduct('StreamVerse Premium 3 Months')
    expect(await importInto(a.id, 'SV-KEY-1\nSV-KEY-2\nSV-KEY-3')).toMatchObject({ added: 3 })

    const summary = await importInto(b.id, 'SV-KEY-9\nSV-KEY-2\nSV-KEY-9\nSV-KEY-3\n')
    expect(summary).toMatchObject({
      added: 1,
      duplicates: 1,
      duplicateLines: [3],
      elsewhere: 2,
      elsewhereLines: [2, 4],
      elsewhereProducts: ['StreamVerse Premium 1 Month'],
      elsewhereProductCount: 1,
    })
    expect(await countOf(b.id)).toBe(1)
    expect(importSummaryText(summary)).toBe(
      '1 added, 1 duplicate skipped (line 3), 2 skipped: already in stock under StreamVerse Premium 1 Month (lines 2, 4), 0 invalid',
    )
    expect(elsewhereSentence(summary)).toBe(
      '2 items skipped: lines 2 and 4 are already in stock under StreamVerse Premium 1 Month (each item is sold to one buyer only)',
    )

    // The same key again into its own product is still a plain duplicate.
    expect(await importInto(a.id, 'SV-KEY-1')).toMatchObject({
      added: 0,
      duplicates: 1,
      elsewhere: 0,
      elsewhereProducts: [],
    })
  })

  it('counts sold and revoked items of the other product too, and names every product', async () => {
    const a = await stockProduct('Sold Key Product')
    const b = await stockProduct('Revoked Key Product')
    const c = await stockProduct('Third Product')
    await importInto(a.id, 'SOLD-1')
    await importInto(b.id, 'REVOKED-1')
    const { order } = await createOrder(t.db, { productId: a.id, customer: BUYER })
    expect(
      await allocateStockItem(t.db, { orderId: order.id, productId: a.id, testItems: false }),
    ).not.toBeNull()
    const [revokable] = await t.db
      .selectFrom('stockItem')
      .select('id')
      .where('productId', '=', b.id)
      .execute()
    expect((await revokeStockItem(t.db, { itemId: revokable!.id, productId: b.id })).revoked).toBe(
      true,
    )

    const summary = await importInto(c.id, 'SOLD-1\nREVOKED-1')
    expect(summary).toMatchObject({ added: 0, elsewhere: 2, elsewhereProductCount: 2 })
    expect([...summary.elsewhereProducts].sort()).toEqual([
      'Revoked Key Product',
      'Sold Key Product',
    ])
  })

  it('finds a CSV account in another product whatever the column order or note', async () => {
    const a = await stockProduct('CSV Product A')
    const b = await stockProduct('CSV Product B')
    await importInto(
      a.id,
      'email,password,note\nann@example.com,pw-1,first\nbob@example.com,pw-2,',
      {
        format: 'csv',
      },
    )
    const summary = await importInto(
      b.id,
      'password,email,note\npw-1,ann@example.com,another note\npw-3,cy@example.com,\n',
      { format: 'csv' },
    )
    expect(summary).toMatchObject({
      added: 1,
      elsewhere: 1,
      elsewhereLines: [2],
      elsewhereProducts: ['CSV Product A'],
    })
  })

  it('keeps test items apart: only a real item on either side refuses it', async () => {
    const a = await stockProduct('Test Items A')
    const b = await stockProduct('Test Items B')
    await importInto(a.id, 'demo-user-001@example.test / Demo-Pass-001', { testItems: true })
    await importInto(a.id, 'REAL-KEY-1')
    // The demo seed's neighbouring products share fictional test items: still added.
    expect(
      await importInto(b.id, 'demo-user-001@example.test / Demo-Pass-001', { testItems: true }),
    ).toMatchObject({ added: 1, elsewhere: 0 })
    // A real key stocked elsewhere is not given away to simulated payments...
    expect(await importInto(b.id, 'REAL-KEY-1', { testItems: true })).toMatchObject({
      added: 0,
      elsewhere: 1,
    })
    // ...and a test item elsewhere is not sold again for real.
    const c = await stockProduct('Test Items C')
    expect(await importInto(c.id, 'demo-user-001@example.test / Demo-Pass-001')).toMatchObject({
      added: 0,
      elsewhere: 1,
      elsewhereProductCount: 2,
    })
  })

  it('names a deleted product whose sold item remains', async () => {
    const a = await stockProduct('Soon Deleted')
    const b = await stockProduct('After The Deletion')
    await importInto(a.id, 'GONE-KEY-1')
    // What deleting the product leaves of a sold item (product_id on delete set null).
    await t.db
      .updateTable('stockItem')
      .set({ productId: null })
      .where('productId', '=', a.id)
      .execute()
    expect(await importInto(b.id, 'GONE-KEY-1')).toMatchObject({
      added: 0,
      elsewhere: 1,
      elsewhereProducts: ['a deleted product'],
    })
  })

  it('records the items of other products in the import audit entry', async () => {
    const a = await stockProduct('Audit Elsewhere A')
    const b = await stockProduct('Audit Elsewhere B')
    await importInto(a.id, 'AUDIT-1')
    const summary = await importStockAudited(
      t.db,
      {
        productId: b.id,
        productTitle: b.title,
        content: 'AUDIT-1\nAUDIT-2',
        format: 'lines',
        appSecret: APP_SECRET,
      },
      { actor: { id: 'owner-1', email: 'owner@example.com', name: 'Owner' }, ip: '127.0.0.1' },
    )
    expect(summary).toMatchObject({ added: 1, elsewhere: 1 })
    const { entries } = await listAuditEntries(t.db, { targetId: b.id })
    expect(entries[0]?.changes).toMatchObject({ elsewhere: { before: null, after: 1 } })
  })

  it('fingerprints older items at start-up in batches, and then the import finds them', async () => {
    const a = await stockProduct('Stocked Before The Rule')
    const b = await stockProduct('Stocked After The Rule')
    await importInto(a.id, 'OLD-1\nOLD-2\nOLD-3\nOLD-4\nOLD-5')
    await importInto(a.id, 'email,password\nold@example.com,old-pw\n', { format: 'csv' })
    // A hand-delivered item needs no shop fingerprint; one under another APP_SECRET cannot have one.
    const { order } = await createOrder(t.db, { productId: a.id, customer: BUYER })
    await t.db.transaction().execute((trx) =>
      insertManualOrderItem(trx, APP_SECRET, {
        orderId: order.id,
        productId: a.id,
        secret: { kind: 'text', text: 'OLD-1' },
        addedBy: 'user:owner-1',
      }),
    )
    const other = 'o'.repeat(64)
    const stray = { kind: 'text', text: 'STRAY-1' } as const
    await t.db
      .insertInto('stockItem')
      .values({
        id: 'stray-item',
        productId: a.id,
        secretCiphertext: encryptStockItem(other, 'stray-item', stray),
        secretHash: stockFingerprint(other, a.id, stray),
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
        orderId: null,
        revokedReason: null,
        deliveredAt: null,
        revokedAt: null,
      })
      .execute()
    // As the rows were before 0220_stock_shop_fingerprint.
    await t.db
      .updateTable('stockItem')
      .set({ shopHash: null })
      .where('productId', '=', a.id)
      .execute()

    // Not filled yet: the import cannot see them (the start-up fills them before serving).
    expect(await importInto(b.id, 'OLD-1')).toMatchObject({ added: 1, elsewhere: 0 })
    await t.db.deleteFrom('stockItem').where('productId', '=', b.id).execute()

    const filled = await fillShopFingerprints(t.db, APP_SECRET, { batchSize: 2 })
    expect(filled).toMatchObject({ filled: 6, manual: 1, unreadable: 1 })
    const rows = await t.db
      .selectFrom('stockItem')
      .select(['id', 'shopHash', 'secretHash'])
      .where('productId', '=', a.id)
      .execute()
    expect(rows.filter((row) => row.shopHash !== null)).toHaveLength(6)
    expect(rows.find((row) => row.id === 'stray-item')?.shopHash).toBeNull()
    expect(rows.map((row) => row.shopHash)).toContain(
      shopStockFingerprint(APP_SECRET, { kind: 'text', text: 'OLD-3' }),
    )
    // Idempotent: a second start (or a second process) changes nothing.
    expect(await fillShopFingerprints(t.db, APP_SECRET)).toMatchObject({ filled: 0 })

    const summary = await importInto(b.id, 'OLD-1\nOLD-5\nNEW-1\n')
    expect(summary).toMatchObject({
      added: 1,
      elsewhere: 2,
      elsewhereProducts: ['Stocked Before The Rule'],
    })
    expect(
      await importInto(b.id, 'password,email\nold-pw,old@example.com\n', { format: 'csv' }),
    ).toMatchObject({ added: 0, elsewhere: 1 })
  })

  it('a shop fingerprint never equals a product fingerprint', () => {
    const secret = { kind: 'text', text: 'KEY' } as const
    expect(shopStockFingerprint(APP_SECRET, secret)).not.toBe(
      stockFingerprint(APP_SECRET, 'shop', secret),
    )
    expect(shopStockFingerprint(APP_SECRET, secret)).toBe(
      shopStockFingerprint(APP_SECRET, { kind: 'text', text: 'KEY' }),
    )
  })

  it('lets only one of two concurrent imports of the same key into two products add it', async () => {
    const a = await stockProduct('Concurrent A')
    const b = await stockProduct('Concurrent B')
    const content = Array.from({ length: 50 }, (_, i) => `RACE-${i}`).join('\n')
    const [first, second] = await Promise.all([
      importInto(a.id, content, { db: wide }),
      importInto(b.id, content, { db: wide }),
    ])
    expect(first!.added + second!.added).toBe(50)
    expect(first!.elsewhere + second!.elsewhere).toBe(50)
  })
})
