import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { engineOf } from '~/lib/db.server'
import { readPageCacheVersion } from '~/data/page-cache-version.server'
import { fileTestDb } from '../../tests/helpers/db'
import { whileProductUpdates } from '../../tests/helpers/product-write-trigger'
import {
  BUYER,
  makeCustomer,
  makeOrder,
  makePaidOrder,
  makeProduct,
  makeStockedProduct,
  payOrder,
} from '../../tests/factories'
import { createPaymentLink } from '~/data/payment-link.server'
import { getOrder } from '~/data/order.server'
import { listAuditEntries } from '~/data/audit.server'
import {
  getProductById,
  getProductDelivery,
  lockProduct,
  updateProduct,
  type Product,
  type ProductInput,
} from '~/data/product.server'
import {
  getDeliveredSecret,
  keepSharedSecretForBuyers,
  listStockItems,
  setProductDelivery,
} from '~/data/stock.server'
import { insertReview, setReviewHidden } from '~/data/review.server'
import { MASK } from './audit.server'
import {
  createProductAudited,
  deleteProductAudited,
  duplicateProductAudited,
  importStockAudited,
  productEditVersion,
  reviewCounts,
  revokeStockItemAudited,
  updateProductAudited,
} from './product-admin.server'

const SECRET = 'product-admin-test-secret-0123456789'
const WHO = {
  actor: { id: 'owner-1', name: 'Shop Owner', email: 'owner@example.test' },
  ip: '203.0.113.7',
}

const t = fileTestDb()

/** A new product's fields: a factory product's, under another title and slug. */
async function newProductInput(): Promise<ProductInput> {
  const { id: _id, discount: _d, createdAt: _c, updatedAt: _u, ...fields } = await makeProduct(t.db)
  return { ...fields, title: 'Audit Vault 12 Months', slug: 'audit-vault-12-months', price: 49_900 }
}

/** The version an edit page opened now would post (productEditVersion of the stored product). */
async function pageVersion(id: string): Promise<string> {
  const product = await getProductById(t.db, id)
  const delivery = await getProductDelivery(t.db, id)
  return productEditVersion(product!, delivery!)
}

/** What the edit form saves: the product's own fields, changed by `changes`. */
const edited = (product: Product, changes: Partial<ProductInput> = {}): ProductInput => {
  const { id: _id, discount: _d, createdAt: _c, updatedAt: _u, ...fields } = product
  return { ...fields, ...changes }
}

/** The stock items an order holds (a kept shared secret is one of its own). */
const listStockItemsOfOrder = (orderId: string) =>
  t.db.selectFrom('stockItem').select(['id', 'status']).where('orderId', '=', orderId).execute()

const entriesFor = async (targetId: string) =>
  (await listAuditEntries(t.db, { targetId })).entries.map((entry) => ({
    action: entry.action,
    actorEmail: entry.actorEmail,
    ip: entry.ip,
    summary: entry.summary,
    changes: entry.changes,
  }))

describe(`product changes in the audit log (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('records a created product with its fields after, the secret masked', async () => {
    const created = await createProductAudited(
      t.db,
      {
        product: await newProductInput(),
        delivery: { mode: 'shared', sharedSecret: 'family@example.in / hunter2' },
        appSecret: SECRET,
      },
      WHO,
    )
    const [entry] = await entriesFor(created.id)
    expect(entry).toMatchObject({
      action: 'product.create',
      actorEmail: 'owner@example.test',
      ip: '203.0.113.7',
      summary: 'Created Audit Vault 12 Months',
    })
    expect(entry!.changes).toMatchObject({
      title: { before: null, after: 'Audit Vault 12 Months' },
      price: { before: null, after: 49_900 },
      deliveryMode: { before: null, after: 'shared' },
      sharedSecret: { before: null, after: MASK },
    })
    expect(JSON.stringify(entry!.changes)).not.toContain('hunter2')
  })

  it('records an update with only the fields that changed, before and after', async () => {
    const product = await makeProduct(t.db, { price: 10_000, title: 'Before Title' })
    const saved = await updateProductAudited(
      t.db,
      {
        id: product.id,
        version: await pageVersion(product.id),
        product: edited(product, { price: 12_500, inStock: false }),
        delivery: { mode: 'manual' },
        appSecret: SECRET,
      },
      WHO,
    )
    expect(saved).toMatchObject({ status: 'saved', product: { price: 12_500 } })
    const entries = await entriesFor(product.id)
    expect(entries).toEqual([
      {
        action: 'product.update',
        actorEmail: 'owner@example.test',
        ip: '203.0.113.7',
        summary: 'Updated Before Title',
        changes: {
          price: { before: 10_000, after: 12_500 },
          inStock: { before: true, after: false },
        },
      },
    ])
  })

  it('writes nothing when the product is gone or the save fails', async () => {
    const product = await makeProduct(t.db)
    const other = await makeProduct(t.db)
    // Another product's slug: the update fails and takes its entry with it.
    await expect(
      updateProductAudited(
        t.db,
        {
          id: product.id,
          version: await pageVersion(product.id),
          product: edited(product, { slug: other.slug }),
          delivery: { mode: 'manual' },
          appSecret: SECRET,
        },
        WHO,
      ),
    ).rejects.toThrow()
    expect(await entriesFor(product.id)).toEqual([])
    expect(
      await updateProductAudited(
        t.db,
        {
          id: 'no-such-product',
          version: await pageVersion(product.id),
          product: edited(product),
          delivery: { mode: 'manual' },
          appSecret: SECRET,
        },
        WHO,
      ),
    ).toEqual({ status: 'missing' })
    expect(await deleteProductAudited(t.db, SECRET, 'no-such-product', WHO)).toEqual({
      status: 'missing',
    })
    expect(await entriesFor('no-such-product')).toEqual([])
  })

  it('answers failed, saving nothing, when the database takes the save without changing the row', async () => {
    const product = await makeProduct(t.db, { title: 'Quietly Refused', price: 10_000 })
    await setProductDelivery(t.db, SECRET, product.id, {
      mode: 'shared',
      sharedSecret: 'kept@example.in / hunter2',
    })
    const buyer = await makePaidOrder(t.db, product.id)
    const stored = await getProductById(t.db, product.id)
    const result = await whileProductUpdates(t.db, 'Quietly Refused Renamed', 'ignore', async () =>
      updateProductAudited(
        t.db,
        {
          id: product.id,
          version: await pageVersion(product.id),
          product: edited(product, { title: 'Quietly Refused Renamed', price: 12_000 }),
          delivery: { mode: 'manual', sharedSecret: null },
          appSecret: SECRET,
        },
        WHO,
      ),
    )
    expect(result).toEqual({ status: 'failed' })
    // Rolled back whole: the product, its secret, the buyer's copy of it and the log as before.
    expect(await getProductById(t.db, product.id)).toEqual(stored)
    expect(await getProductDelivery(t.db, product.id)).toEqual({
      mode: 'shared',
      hasSharedSecret: true,
    })
    expect(await listStockItemsOfOrder(buyer.id)).toEqual([])
    expect(await entriesFor(product.id)).toEqual([])
  })

  it('records a shared secret set, replaced and cleared, and nothing when it stays, never the secret', async () => {
    const product = await makeProduct(t.db, { title: 'Secret Audit', price: 10_000 })
    let price = 10_000
    /** Saves the form with `sharedSecret` (and a new price), returning the entry's changes. */
    const save = async (mode: 'shared' | 'manual', sharedSecret?: string | null) => {
      price += 100
      const saved = await updateProductAudited(
        t.db,
        {
          id: product.id,
          version: await pageVersion(product.id),
          product: edited(product, { price }),
          delivery: sharedSecret === undefined ? { mode } : { mode, sharedSecret },
          appSecret: SECRET,
        },
        WHO,
      )
      expect(saved).toMatchObject({ status: 'saved' })
      const [newest] = (await listAuditEntries(t.db, { targetId: product.id })).entries
      return newest!.changes
    }
    // Set for the first time: empty before.
    expect((await save('shared', 'first@example.in / hunter2'))?.sharedSecret).toEqual({
      before: null,
      after: MASK,
    })
    // Left empty, or typed again as it is: no change to the secret.
    expect(await save('shared')).not.toHaveProperty('sharedSecret')
    expect(await save('shared', ' first@example.in / hunter2 ')).not.toHaveProperty('sharedSecret')
    // Replaced: set before and after, so it reads as changed, not as a first secret.
    expect((await save('shared', 'second@example.in / swordfish'))?.sharedSecret).toEqual({
      before: MASK,
      after: MASK,
    })
    // Cleared: set before, empty after.
    expect((await save('manual', null))?.sharedSecret).toEqual({ before: MASK, after: null })
    // Clearing none: nothing.
    expect(await save('manual', null)).not.toHaveProperty('sharedSecret')
    const log = JSON.stringify(await listAuditEntries(t.db, { targetId: product.id }))
    expect(log).not.toContain('hunter2')
    expect(log).not.toContain('swordfish')
  })

  it('refuses an edit made from a page showing older values: nothing changes, no entry', async () => {
    const product = await makeProduct(t.db, { title: 'Two Admins', price: 10_000 })
    // Both admins open the edit page now.
    const opened = await pageVersion(product.id)
    const first = await updateProductAudited(
      t.db,
      {
        id: product.id,
        version: opened,
        product: edited(product, { price: 12_000 }),
        delivery: { mode: 'manual' },
        appSecret: SECRET,
      },
      WHO,
    )
    expect(first).toMatchObject({ status: 'saved', product: { price: 12_000 } })
    const stored = await getProductById(t.db, product.id)

    // The second admin's form still holds the old price and changes the title.
    const second = await updateProductAudited(
      t.db,
      {
        id: product.id,
        version: opened,
        product: edited(product, { title: 'Two Admins Renamed' }),
        delivery: { mode: 'shared', sharedSecret: 'family@example.in / hunter2' },
        appSecret: SECRET,
      },
      WHO,
    )
    expect(second).toEqual({ status: 'stale' })
    expect(await getProductById(t.db, product.id)).toEqual(stored)
    expect(await getProductDelivery(t.db, product.id)).toEqual({
      mode: 'manual',
      hasSharedSecret: false,
    })
    expect((await entriesFor(product.id)).map((entry) => entry.summary)).toEqual([
      'Updated Two Admins',
    ])

    // A save without a version (an old page, a script) is refused the same way.
    expect(
      await updateProductAudited(
        t.db,
        {
          id: product.id,
          version: '',
          product: edited(product, { title: 'No Version' }),
          delivery: { mode: 'manual' },
          appSecret: SECRET,
        },
        WHO,
      ),
    ).toEqual({ status: 'stale' })
    expect(await getProductById(t.db, product.id)).toEqual(stored)
    expect(await entriesFor(product.id)).toHaveLength(1)
  })

  it('takes a fresh edit, its entry before being the product as stored', async () => {
    const product = await makeProduct(t.db, { title: 'Fresh Edit', price: 10_000 })
    // Another admin's change, saved before this page was opened.
    await updateProduct(t.db, product.id, edited(product, { price: 15_000, featured: true }))
    const opened = await pageVersion(product.id)
    const saved = await updateProductAudited(
      t.db,
      {
        id: product.id,
        version: opened,
        product: edited(product, { price: 17_500, featured: true, title: 'Fresh Edit 2' }),
        delivery: { mode: 'manual' },
        appSecret: SECRET,
      },
      WHO,
    )
    expect(saved).toMatchObject({
      status: 'saved',
      product: { price: 17_500, title: 'Fresh Edit 2' },
      before: { price: 15_000, featured: true, title: 'Fresh Edit' },
    })
    const [entry] = await entriesFor(product.id)
    // The price before is the stored one (15,000), not the factory's 10,000.
    expect(entry!.changes).toEqual({
      title: { before: 'Fresh Edit', after: 'Fresh Edit 2' },
      price: { before: 15_000, after: 17_500 },
    })
  })

  it('versions what the form edits, delivery included, and nothing else', async () => {
    const product = await makeProduct(t.db, { title: 'Versioned' })
    const delivery = { mode: 'manual' as const, hasSharedSecret: false }
    const version = productEditVersion(product, delivery)
    expect(version).toMatch(/^[A-Za-z0-9_-]{16}$/)
    // Times (an edit, or anything else touching the row) do not count; fields and delivery do.
    expect(productEditVersion({ ...product, updatedAt: 'later', createdAt: 'x' }, delivery)).toBe(
      version,
    )
    for (const changed of [
      { ...product, price: product.price + 1 },
      { ...product, inStock: !product.inStock },
      { ...product, tags: [...product.tags, 'new'] },
      { ...product, image: 'products/other.png' },
    ])
      expect(productEditVersion(changed, delivery)).not.toBe(version)
    expect(productEditVersion(product, { ...delivery, mode: 'stock' })).not.toBe(version)
    expect(productEditVersion(product, { ...delivery, hasSharedSecret: true })).not.toBe(version)

    // A delivery change by another admin makes an open page stale too.
    const opened = await pageVersion(product.id)
    await setProductDelivery(t.db, SECRET, product.id, { mode: 'stock' })
    expect(
      await updateProductAudited(
        t.db,
        {
          id: product.id,
          version: opened,
          product: edited(product, { title: 'Versioned 2' }),
          delivery: { mode: 'manual' },
          appSecret: SECRET,
        },
        WHO,
      ),
    ).toEqual({ status: 'stale' })
    expect(await getProductDelivery(t.db, product.id)).toMatchObject({ mode: 'stock' })
  })

  it('lets one of two saves from the same page through when they race, refusing the other', async () => {
    for (let round = 0; round < 3; round++) {
      const product = await makeProduct(t.db, { title: `Race ${round}`, price: 10_000 })
      const opened = await pageVersion(product.id)
      const save = (price: number) =>
        updateProductAudited(
          t.db,
          {
            id: product.id,
            version: opened,
            product: edited(product, { price }),
            delivery: { mode: 'manual' },
            appSecret: SECRET,
          },
          WHO,
        )
      const results = await Promise.all([save(11_000), save(12_000)])
      expect(results.map((result) => result.status).sort()).toEqual(['saved', 'stale'])
      const winner = results.find((result) => result.status === 'saved')
      expect(await getProductById(t.db, product.id)).toMatchObject({
        price: winner?.status === 'saved' ? winner.product.price : null,
      })
      expect(await entriesFor(product.id)).toHaveLength(1)
    }
  })

  it('records a duplicated product as created, naming its source, the copied secret masked', async () => {
    const source = await createProductAudited(
      t.db,
      {
        product: { ...(await newProductInput()), title: 'Copy Source', slug: 'copy-source' },
        delivery: { mode: 'shared', sharedSecret: 'family@example.in / hunter2' },
        appSecret: SECRET,
      },
      WHO,
    )
    const copy = await duplicateProductAudited(
      t.db,
      { source, image: source.image, appSecret: SECRET },
      WHO,
    )
    expect(copy).toMatchObject({ title: 'Copy Source (Copy)' })
    const entries = await entriesFor(copy!.id)
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({
      action: 'product.create',
      actorEmail: 'owner@example.test',
      summary: 'Created Copy Source (Copy) as a copy of Copy Source',
    })
    expect(entries[0]!.changes).toMatchObject({
      title: { before: null, after: 'Copy Source (Copy)' },
      deliveryMode: { before: null, after: 'shared' },
      sharedSecret: { before: null, after: MASK },
      copiedFrom: { before: null, after: source.id },
    })
    expect(JSON.stringify(entries)).not.toContain('hunter2')
    // A source deleted meanwhile copies nothing and records nothing.
    await deleteProductAudited(t.db, SECRET, source.id, WHO)
    const before = (await listAuditEntries(t.db, {})).total
    expect(
      await duplicateProductAudited(t.db, { source, image: source.image, appSecret: SECRET }, WHO),
    ).toBeNull()
    expect((await listAuditEntries(t.db, {})).total).toBe(before)
  })

  it('reports a duplicate made even when its audit entry cannot be written', async () => {
    const source = await makeProduct(t.db, { title: 'Unaudited Source' })
    const postgres = engineOf(t.db) === 'postgres'
    if (postgres) {
      await sql`create function kb_test_no_audit() returns trigger language plpgsql as $$ begin raise exception 'audit log unavailable'; end $$`.execute(
        t.db,
      )
      await sql`create trigger kb_test_no_audit before insert on audit_log for each row execute function kb_test_no_audit()`.execute(
        t.db,
      )
    } else {
      await sql`create trigger kb_test_no_audit before insert on audit_log begin select raise(abort, 'audit log unavailable'); end`.execute(
        t.db,
      )
    }
    try {
      const copy = await duplicateProductAudited(
        t.db,
        { source, image: source.image, appSecret: SECRET },
        WHO,
      )
      expect(copy).toMatchObject({ title: 'Unaudited Source (Copy)' })
      expect(await getProductById(t.db, copy!.id)).not.toBeNull()
    } finally {
      await sql`drop trigger kb_test_no_audit${postgres ? sql` on audit_log` : sql``}`.execute(t.db)
      if (postgres) await sql`drop function kb_test_no_audit()`.execute(t.db)
    }
  })

  it('records a deleted product with what it was', async () => {
    const product = await makeProduct(t.db, { title: 'Soon Gone' })
    expect(await deleteProductAudited(t.db, SECRET, product.id, WHO)).toMatchObject({
      status: 'deleted',
      product: { id: product.id },
      withdrawn: 0,
      reviews: 0,
    })
    expect(await getProductById(t.db, product.id)).toBeNull()
    const [entry] = await entriesFor(product.id)
    expect(entry).toMatchObject({ action: 'product.delete', summary: 'Deleted Soon Gone' })
    expect(entry!.changes).toMatchObject({
      title: { before: 'Soon Gone', after: null },
      slug: { before: product.slug, after: null },
    })
  })

  it('leaves each buyer of a shared account the secret they were delivered', async () => {
    const product = await makeProduct(t.db, { title: 'Family Plan' })
    await setProductDelivery(t.db, SECRET, product.id, {
      mode: 'shared',
      sharedSecret: 'family@example.in / hunter2',
    })
    const first = await makePaidOrder(t.db, product.id)
    const second = await makePaidOrder(t.db, product.id)
    expect([first.status, second.status]).toEqual(['delivered', 'delivered'])
    expect(await deleteProductAudited(t.db, SECRET, product.id, WHO)).toMatchObject({
      status: 'deleted',
    })
    for (const order of [first, second])
      expect(await getDeliveredSecret(t.db, SECRET, order.id)).toEqual({
        kind: 'text',
        text: 'family@example.in / hunter2',
      })
  })

  it('leaves past buyers the shared secret they were delivered when an edit replaces or clears it', async () => {
    const product = await makeProduct(t.db, { title: 'Family Plan Edited' })
    await setProductDelivery(t.db, SECRET, product.id, {
      mode: 'shared',
      sharedSecret: 'first@example.in / hunter2',
    })
    const save = async (delivery: { mode: 'shared' | 'manual'; sharedSecret?: string | null }) =>
      updateProductAudited(
        t.db,
        {
          id: product.id,
          version: await pageVersion(product.id),
          product: edited(product),
          delivery,
          appSecret: SECRET,
        },
        WHO,
      )
    const revealed = async (orderId: string) =>
      (await getDeliveredSecret(t.db, SECRET, orderId)) as { text: string } | null

    const first = await makePaidOrder(t.db, product.id)
    expect(first.status).toBe('delivered')
    // Typed again unchanged: nothing to keep, no copy made.
    expect(
      await save({ mode: 'shared', sharedSecret: ' first@example.in / hunter2 ' }),
    ).toMatchObject({ status: 'saved' })
    expect(await listStockItemsOfOrder(first.id)).toEqual([])

    // Replaced: the past buyer keeps the first secret, a new buyer gets the new one.
    expect(
      await save({ mode: 'shared', sharedSecret: 'second@example.in / swordfish' }),
    ).toMatchObject({ status: 'saved' })
    const second = await makePaidOrder(t.db, product.id)
    expect(second.status).toBe('delivered')
    expect((await revealed(first.id))?.text).toBe('first@example.in / hunter2')
    expect((await revealed(second.id))?.text).toBe('second@example.in / swordfish')

    // Cleared (switching to manual): each keeps exactly what they were delivered.
    expect(await save({ mode: 'manual', sharedSecret: null })).toMatchObject({ status: 'saved' })
    expect(await getProductDelivery(t.db, product.id)).toEqual({
      mode: 'manual',
      hasSharedSecret: false,
    })
    expect((await revealed(first.id))?.text).toBe('first@example.in / hunter2')
    expect((await revealed(second.id))?.text).toBe('second@example.in / swordfish')
    expect(await listStockItemsOfOrder(first.id)).toHaveLength(1)
  })

  /** Until another connection of this database waits for a row lock (PostgreSQL). */
  const waitingOnALock = () =>
    expect
      .poll(
        async () =>
          Number(
            (
              await sql<{
                waiting: number | string
              }>`select count(*) as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(
                t.db,
              )
            ).rows[0]?.waiting,
          ),
        { timeout: 5_000, interval: 20 },
      )
      .toBeGreaterThan(0)

  it.runIf(process.env.TEST_DB_ENGINE === 'postgres')(
    'deleting a product while a late payment of one of its orders is delivered: no deadlock, the paid order keeps the product',
    async () => {
      const product = await makeProduct(t.db, { title: 'Family Plan Deleted Late' })
      await setProductDelivery(t.db, SECRET, product.id, {
        mode: 'shared',
        sharedSecret: 'late@example.in / hunter2',
      })
      const order = await makeOrder(t.db, product.id)
      await t.db
        .updateTable('order')
        .set({ status: 'expired' })
        .where('id', '=', order.id)
        .execute()
      let deleted: Promise<unknown> | undefined
      // The late payment's transaction, as a delivery of a shared account runs it: its order's
      // row first, then the product's; the delete starts in between.
      await t.db.transaction().execute(async (trx) => {
        await trx.updateTable('order').set({ status: 'paid' }).where('id', '=', order.id).execute()
        deleted = deleteProductAudited(t.db, SECRET, product.id, WHO)
        await waitingOnALock()
        await trx
          .selectFrom('product')
          .select('sharedSecret')
          .where('id', '=', product.id)
          .forShare()
          .execute()
      })
      // The delete waited for the payment, then found a paid order to deliver: kept.
      expect(await deleted).toMatchObject({ status: 'open-sales', orders: 1 })
      expect(await getOrder(t.db, order.id)).toMatchObject({
        status: 'paid',
        productId: product.id,
      })
    },
  )

  it('edits and deletes a shared product whose secret was saved under another APP_SECRET', async () => {
    const product = await makeProduct(t.db, { title: 'Family Plan Old Key' })
    await setProductDelivery(t.db, 'another-app-secret-0123456789abcdef', product.id, {
      mode: 'shared',
      sharedSecret: 'old@example.in / hunter2',
    })
    const save = async (sharedSecret: string | null) =>
      updateProductAudited(
        t.db,
        {
          id: product.id,
          version: await pageVersion(product.id),
          product: edited(product),
          delivery: { mode: 'shared', sharedSecret },
          appSecret: SECRET,
        },
        WHO,
      )
    expect(await save('new@example.in / swordfish')).toMatchObject({ status: 'saved' })
    await setProductDelivery(t.db, 'another-app-secret-0123456789abcdef', product.id, {
      mode: 'shared',
      sharedSecret: 'old@example.in / hunter2',
    })
    expect(await save(null)).toMatchObject({ status: 'saved' })
    await setProductDelivery(t.db, 'another-app-secret-0123456789abcdef', product.id, {
      mode: 'shared',
      sharedSecret: 'old@example.in / hunter2',
    })
    expect(await deleteProductAudited(t.db, SECRET, product.id, WHO)).toMatchObject({
      status: 'deleted',
    })
  })

  // PostgreSQL runs the two at once; SQLite one writer at a time, so there is no race to show.
  it.runIf(process.env.TEST_DB_ENGINE === 'postgres')(
    'a payment of a shared account arriving while an edit clears its secret never leaves the buyer with nothing',
    async () => {
      const product = await makeProduct(t.db, { title: 'Family Plan Racing' })
      await setProductDelivery(t.db, SECRET, product.id, {
        mode: 'shared',
        sharedSecret: 'racing@example.in / hunter2',
      })
      const order = await makeOrder(t.db, product.id)
      let paid: Promise<unknown> | undefined
      // The edit's transaction, as updateProductAudited runs it: the row held, the secret kept
      // for the orders delivered so far (none), then cleared; the payment arrives in between.
      await t.db.transaction().execute(async (trx) => {
        await lockProduct(trx, product.id, { for: 'edit' })
        await keepSharedSecretForBuyers(trx, SECRET, product.id)
        paid = payOrder(t.db, order)
        await waitingOnALock()
        await setProductDelivery(trx, SECRET, product.id, { mode: 'manual', sharedSecret: null })
      })
      await paid
      // The payment waited for the edit and found no secret: the order waits for the shop.
      expect((await getOrder(t.db, order.id))?.status).toBe('paid')
      expect(await getDeliveredSecret(t.db, SECRET, order.id)).toBeNull()
    },
  )

  it('keeps a product whose real orders are still being paid or delivered', async () => {
    // Delivered by hand: a real order paid and waiting for the shop, a real one at the
    // gateway, a simulated one paid.
    const product = await makeProduct(t.db, { title: 'Hand Delivered' })
    const waiting = await makePaidOrder(t.db, product.id)
    expect(waiting.status).toBe('paid')
    const atGateway = await makeOrder(t.db, product.id)
    await makePaidOrder(t.db, product.id, { testMode: true })
    const version = await readPageCacheVersion(t.db)
    expect(await deleteProductAudited(t.db, SECRET, product.id, WHO)).toEqual({
      status: 'open-sales',
      title: product.title,
      orders: 2,
      paymentLinks: 0,
    })
    // Refused, it changed nothing a page shows: no cached page is thrown away.
    expect(await readPageCacheVersion(t.db)).toBe(version)
    expect(await getProductById(t.db, product.id)).not.toBeNull()
    expect(await entriesFor(product.id)).toEqual([])
    // Once neither is open (one expired, the other refunded), it can go.
    await t.db
      .updateTable('order')
      .set({ status: 'expired' })
      .where('id', '=', atGateway.id)
      .execute()
    await t.db
      .updateTable('order')
      .set({ status: 'refunded' })
      .where('id', '=', waiting.id)
      .execute()
    expect(await deleteProductAudited(t.db, SECRET, product.id, WHO)).toMatchObject({
      status: 'deleted',
    })
    expect(await getProductById(t.db, product.id)).toBeNull()
    // Its orders stay in the records, under the name they were sold as.
    const kept = await getOrder(t.db, waiting.id)
    expect(kept).toMatchObject({ productId: null, productName: product.title })
  })

  it('keeps a product with a payment link not yet paid, even before its buyer opened it', async () => {
    const product = await makeProduct(t.db, { title: 'Linked Plan' })
    const admin = await makeCustomer(t.db)
    const link = await createPaymentLink(
      t.db,
      { productId: product.id, customer: BUYER, createdBy: admin.id, business: null },
      'http://shop.test',
    )
    expect(await deleteProductAudited(t.db, SECRET, product.id, WHO)).toEqual({
      status: 'open-sales',
      title: 'Linked Plan',
      orders: 0,
      paymentLinks: 1,
    })
    // Cancelled, it no longer holds the product.
    await t.db
      .updateTable('paymentLink')
      .set({ status: 'cancelled' })
      .where('id', '=', link.id)
      .execute()
    expect(await deleteProductAudited(t.db, SECRET, product.id, WHO)).toMatchObject({
      status: 'deleted',
    })
  })

  it('withdraws the unsold stock of a deleted product and says how many items in the audit log', async () => {
    const product = await makeStockedProduct(t.db, SECRET, ['KEY-1', 'KEY-2', 'KEY-3'])
    // One sold and delivered: it stays as it was.
    const sold = await makePaidOrder(t.db, product.id)
    expect(sold.status).toBe('delivered')
    const items = await listStockItems(t.db, product.id)
    expect(await deleteProductAudited(t.db, SECRET, product.id, WHO)).toMatchObject({
      status: 'deleted',
      withdrawn: 2,
    })
    const after = await t.db
      .selectFrom('stockItem')
      .select(['id', 'status', 'revokedReason'])
      .where(
        'id',
        'in',
        items.map((item) => item.id),
      )
      .execute()
    expect(after.map((item) => item.status).sort()).toEqual(['delivered', 'revoked', 'revoked'])
    expect(after.find((item) => item.status === 'revoked')?.revokedReason).toBe(
      `Withdrawn with the deleted product ${product.title}`,
    )
    const [entry] = await entriesFor(product.id)
    expect(entry).toMatchObject({
      action: 'product.delete',
      summary: `Deleted ${product.title} and withdrew its 2 unsold items`,
    })
  })

  it('names the reviews deleted with a product, hidden ones included, in the audit log', async () => {
    const product = await makeStockedProduct(t.db, SECRET, ['R-1', 'R-2', 'R-3', 'R-4'])
    const other = await makeStockedProduct(t.db, SECRET, ['O-1'])
    const review = async (productId: string) => {
      const buyer = await makeCustomer(t.db)
      const order = await makePaidOrder(t.db, productId, { userId: buyer.id })
      expect(order.status).toBe('delivered')
      const written = await insertReview(t.db, {
        orderId: order.id,
        productId,
        userId: buyer.id,
        rating: 5,
        title: '',
        body: 'Worked on the first try.',
      })
      return written!
    }
    await review(product.id)
    const hidden = await review(product.id)
    await setReviewHidden(t.db, hidden.id, { reason: 'Spam' })
    await review(other.id)
    const counts = await reviewCounts(t.db, [product.id, other.id, 'no-such-product'])
    expect(counts).toEqual(
      new Map([
        [product.id, 2],
        [other.id, 1],
      ]),
    )

    expect(await deleteProductAudited(t.db, SECRET, product.id, WHO)).toMatchObject({
      status: 'deleted',
      withdrawn: 2,
      reviews: 2,
    })
    const [entry] = await entriesFor(product.id)
    expect(entry?.summary).toBe(
      `Deleted ${product.title} and its 2 reviews, and withdrew its 2 unsold items`,
    )
    expect(await reviewCounts(t.db, [product.id, other.id])).toEqual(new Map([[other.id, 1]]))

    // Only reviews: the summary names them alone.
    const sold = await makeStockedProduct(t.db, SECRET, ['S-1'])
    await review(sold.id)
    await deleteProductAudited(t.db, SECRET, sold.id, WHO)
    expect((await entriesFor(sold.id))[0]?.summary).toBe(`Deleted ${sold.title} and its 1 review`)
  })

  it('decides once when a delete and a new order race: the order is kept or refused, never orphaned', async () => {
    for (let round = 0; round < 5; round++) {
      const product = await makeProduct(t.db, { title: `Racing ${round}` })
      const [deleted, ordered] = await Promise.allSettled([
        deleteProductAudited(t.db, SECRET, product.id, WHO),
        makeOrder(t.db, product.id),
      ])
      expect(deleted.status).toBe('fulfilled')
      const outcome = deleted.status === 'fulfilled' ? deleted.value.status : null
      if (ordered.status === 'fulfilled') {
        // The order landed: either first (the product is kept) or not at all.
        expect(outcome).toBe('open-sales')
        expect(await getProductById(t.db, product.id)).not.toBeNull()
      } else {
        // Refused as a product that is gone, whichever came first (the buyer is told so).
        expect(ordered.reason).toMatchObject({ code: 'product-not-found' })
        expect(outcome).toBe('deleted')
      }
    }
  })

  it('records a stock import with its counts, and a revoked item', async () => {
    const product = await makeStockedProduct(t.db, SECRET, [])
    const summary = await importStockAudited(
      t.db,
      {
        productId: product.id,
        productTitle: product.title,
        content: 'key-1\nkey-2\nkey-1\n',
        format: 'lines',
        appSecret: SECRET,
        addedBy: 'user:owner-1',
      },
      WHO,
    )
    expect(summary).toMatchObject({ added: 2, duplicates: 1 })
    const [imported] = await entriesFor(product.id)
    expect(imported).toMatchObject({
      action: 'stock.import',
      summary: `Imported 2 stock items for ${product.title}`,
      changes: {
        added: { before: null, after: 2 },
        duplicates: { before: null, after: 1 },
        testItems: { before: null, after: false },
      },
    })

    const [item] = await listStockItems(t.db, product.id, { status: 'available' })
    const revoked = await revokeStockItemAudited(
      t.db,
      { itemId: item!.id, productId: product.id, productTitle: product.title },
      WHO,
    )
    expect(revoked).toEqual({ revoked: true })
    const [entry] = await entriesFor(item!.id)
    expect(entry).toMatchObject({
      action: 'stock.revoke',
      changes: { status: { before: 'available', after: 'revoked' } },
    })
    // A second revoke changes nothing and records nothing.
    expect(
      await revokeStockItemAudited(
        t.db,
        { itemId: item!.id, productId: product.id, productTitle: product.title },
        WHO,
      ),
    ).toEqual({ revoked: false, status: 'revoked' })
    expect(await entriesFor(item!.id)).toHaveLength(1)

    // The log's Kind filter: both are stock changes, though the import's target is the product.
    const stockIds = (await listAuditEntries(t.db, { kind: 'stock', pageSize: 500 })).entries.map(
      (e) => e.targetId,
    )
    expect(stockIds).toEqual(expect.arrayContaining([product.id, item!.id]))
    const productActions = (
      await listAuditEntries(t.db, { kind: 'product', pageSize: 500 })
    ).entries.map((e) => e.action)
    expect(productActions.length).toBeGreaterThan(0)
    expect(productActions.every((action) => action.startsWith('product.'))).toBe(true)
  })
})
