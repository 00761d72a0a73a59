import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { makePaidOrder, makeProduct } from '../../tests/factories'
import { listAuditEntries } from '~/data/audit.server'
import { getOrder } from '~/data/order.server'
import { listStockItems, setProductDelivery } from '~/data/stock.server'
import { engineOf } from '~/lib/db.server'
import { importStockAudited } from './product-admin.server'

const SECRET = 'stock-import-audit-test-secret-0123456789'
const WHO = {
  actor: { id: 'owner-1', name: 'Shop Owner', email: 'owner@example.test' },
  ip: '203.0.113.7',
}

const t = fileTestDb()

/** A stock product with one real paid order waiting for an item. */
async function productWithWaitingOrder(title: string) {
  // createOrder refuses a stock product with nothing in stock: the order is made while the
  // product is delivered by hand, then waits as a stock product's order would.
  const product = await makeProduct(t.db, { title })
  await setProductDelivery(t.db, SECRET, product.id, { mode: 'manual' })
  const order = await makePaidOrder(t.db, product.id)
  await setProductDelivery(t.db, SECRET, product.id, { mode: 'stock' })
  await t.db
    .updateTable('order')
    .set({ status: 'awaiting_stock' })
    .where('id', '=', order.id)
    .execute()
  return { product, order }
}

const importLines = (product: { id: string; title: string }, content: string) =>
  importStockAudited(
    t.db,
    {
      productId: product.id,
      productTitle: product.title,
      content,
      format: 'lines',
      appSecret: SECRET,
      addedBy: 'user:owner-1',
    },
    WHO,
  )

describe(`a stock import and its audit entry (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('records the counts the import reports, waiting orders filled included', async () => {
    const { product, order } = await productWithWaitingOrder('Audited Import')
    const summary = await importLines(product, 'key-1\nkey-2\nkey-1\nbad\u0007line\nkey-3\n')
    expect(summary).toMatchObject({ added: 3, duplicates: 1, invalid: 1, filled: 1 })
    expect((await getOrder(t.db, order.id))?.status).toBe('delivered')
    const { entries } = await listAuditEntries(t.db, { targetId: product.id })
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({
      action: 'stock.import',
      summary: 'Imported 3 stock items for Audited Import',
      changes: {
        added: { before: null, after: 3 },
        duplicates: { before: null, after: 1 },
        invalid: { before: null, after: 1 },
        filled: { before: null, after: 1 },
      },
    })
    // Nothing new: nothing recorded.
    const again = await importLines(product, 'key-1\nkey-2\n')
    expect(again).toMatchObject({ added: 0, duplicates: 2 })
    expect((await listAuditEntries(t.db, { targetId: product.id })).entries).toHaveLength(1)
  })

  it('adds nothing and fills no order when its audit entry cannot be written', async () => {
    const { product, order } = await productWithWaitingOrder('Unaudited Import')
    const postgres = engineOf(t.db) === 'postgres'
    if (postgres) {
      await sql`create function kb_test_no_import_audit() returns trigger language plpgsql as $$ begin raise exception 'audit log unavailable'; end $$`.execute(
        t.db,
      )
      await sql`create trigger kb_test_no_import_audit before insert on audit_log for each row execute function kb_test_no_import_audit()`.execute(
        t.db,
      )
    } else {
      await sql`create trigger kb_test_no_import_audit before insert on audit_log begin select raise(abort, 'audit log unavailable'); end`.execute(
        t.db,
      )
    }
    try {
      await expect(importLines(product, 'key-a\nkey-b\n')).rejects.toThrow('audit log unavailable')
    } finally {
      await sql`drop trigger kb_test_no_import_audit${postgres ? sql` on audit_log` : sql``}`.execute(
        t.db,
      )
      if (postgres) await sql`drop function kb_test_no_import_audit()`.execute(t.db)
    }
    // What the stock page then says, "nothing was added", is true.
    expect(await listStockItems(t.db, product.id)).toEqual([])
    expect((await getOrder(t.db, order.id))?.status).toBe('awaiting_stock')
    expect((await listAuditEntries(t.db, { targetId: product.id })).entries).toEqual([])
    // Tried again once the log works, the same lines are added (they were never stored).
    expect(await importLines(product, 'key-a\nkey-b\n')).toMatchObject({ added: 2, filled: 1 })
  })
})
