import { sql, type Insertable, type Transaction } from 'kysely'
import { SecretDecryptionError } from '~/lib/crypto.server'
import { engineOf, toFlag, type DB } from '~/lib/db.server'
import { newId } from '~/lib/id.server'
import {
  decryptSharedSecret,
  decryptStockItem,
  encryptSharedSecret,
  encryptStockItem,
  manualItemFingerprint,
  legacyStockFingerprints,
  shopStockFingerprint,
  stockFingerprint,
} from '~/lib/stock-crypto.server'
import {
  MAX_IMPORT_ITEMS,
  NOTE_COLUMNS,
  StockImportError,
  type StockFormat,
  type StockSecret,
} from '~/lib/stock-parse'
import { parseStockInput } from '~/lib/stock-import.server'
import { PRODUCT_MESSAGES } from '~/lib/validation/product'
import { paginate } from '~/lib/paginate'
import type { ItemsByKind } from '~/lib/stock-status'
import { DELETED_PRODUCT, type StockImportSummary } from '~/lib/validation/stock-import'
import { isForeignKeyViolation } from './db-errors.server'
import { appendOrderEvent } from './order-event.server'
import type { Database, DeliveryMode, StockItemStatus, StockItemTable } from '../../db/schema'

/**
 * The stock of credentials and keys a product sells (docs/delivery.md).
 *
 * - Items are encrypted at rest with AES-256-GCM under a key derived from APP_SECRET for stock
 *   only (STOCK_SECRETS_PURPOSE), each bound to its row id: the database alone reveals nothing.
 * - Duplicates are found without decrypting: every item carries an HMAC fingerprint (key also
 *   derived from APP_SECRET) and (product_id, secret_hash) is unique, so the database refuses a
 *   duplicate even when two imports run at once.
 * - An item another product holds is not imported either (shop_hash, the fingerprint without
 *   the product; docs/delivery.md "One product per item"): each item goes to one buyer.
 * - allocateStockItem hands one available item to an order in the caller's transaction with a
 *   single conditional UPDATE: on PostgreSQL its subquery locks the row FOR UPDATE SKIP LOCKED,
 *   on SQLite the statement runs under the single write lock. Either way an item can only leave
 *   `available` once, so it is never sold twice.
 *
 * Parsing is app/lib/stock-import.server.ts, encryption app/lib/stock-crypto.server.ts, and what a paid
 * order goes through (delivery, waiting for stock, the shop's alerts) app/services/fulfilment.server.ts.
 */
export type { DeliveryMode, StockItemStatus, StockSecret }

export interface StockCounts {
  available: number
  held: number
  delivered: number
  revoked: number
  /**
   * The available items by kind: real ones sell through a real payment gateway, test ones only
   * for test-mode payments (docs/delivery.md, "Test mode"), so only the real ones are ready to
   * sell once a live gateway takes payments.
   */
  availableByKind: ItemsByKind
}

const REPORTED_LINES = 20
// 500 rows x 8 parameters stays far below SQLite's and PostgreSQL's parameter limits.
const INSERT_CHUNK = 500

// ---------------------------------------------------------------------------------------------
// Import, counts, revoke

export interface ImportStockInput {
  productId: string
  content: string
  format: StockFormat
  appSecret: string
  /** user:{id} of the admin, or system. */
  addedBy?: string
  /**
   * Test items, sold only for test-mode (simulator) payments: the demo seed's fictional items,
   * or an import the admin marked so. Real items (the default) are never sold in test mode.
   */
  testItems?: boolean
  now?: Date
}

/**
 * The lines of `items` that the product already holds under a fingerprint of their fields in
 * another order (stored before fingerprints took fields in name order; legacyStockFingerprints).
 */
async function storedLegacyItems(
  db: DB,
  input: Pick<ImportStockInput, 'appSecret' | 'productId'>,
  items: ReadonlyArray<{ line: number; secret: StockSecret }>,
): Promise<Set<number>> {
  const lineOf = new Map<string, number>()
  for (const item of items)
    for (const hash of legacyStockFingerprints(input.appSecret, input.productId, item.secret))
      lineOf.set(hash, item.line)
  const found = new Set<number>()
  const hashes = [...lineOf.keys()]
  for (let start = 0; start < hashes.length; start += INSERT_CHUNK) {
    const rows = await db
      .selectFrom('stockItem')
      .select('secretHash')
      .where('productId', '=', input.productId)
      .where('secretHash', 'in', hashes.slice(start, start + INSERT_CHUNK))
      .execute()
    for (const row of rows) found.add(lineOf.get(row.secretHash)!)
  }
  return found
}

/** What an import added and skipped (duplicates, other products' items, lines not an item). */
export interface ImportCounts {
  added: number
  duplicates: number
  /** Items another product holds (docs/delivery.md, "One product per item"). */
  elsewhere: number
  invalid: number
}

/** Products named in an import's summary for the items other products hold. */
const NAMED_PRODUCTS = 5
/**
 * Imports take this PostgreSQL advisory lock (for their transaction) before they look for their
 * items in other products, so two imports of the same key into two products cannot both pass
 * the check. SQLite needs none: its transactions begin IMMEDIATE, one writer at a time.
 */
const STOCK_IMPORT_LOCK = 7_302_220

interface OtherHolder {
  productId: string | null
  title: string | null
  testItem: number
}

/**
 * The rows of `rows` that another product already holds (docs/delivery.md, "One product per
 * item"), taken out of `rows`, with the products holding them. An item the importing product
 * holds itself is left in: it is a plain duplicate, and the insert counts it so. A test import
 * is compared with real items only: the demo seed gives neighbouring products some of the same
 * fictional test items, and a test item goes only to simulated payments.
 */
async function takeItemsOfOtherProducts(
  trx: Transaction<Database>,
  input: Pick<ImportStockInput, 'productId' | 'testItems'>,
  rows: Array<{ line: number; row: Insertable<StockItemTable> }>,
): Promise<{ lines: number[]; products: Map<string, string> }> {
  const holders = new Map<string, OtherHolder[]>()
  const hashes = [...new Set(rows.map((entry) => entry.row.shopHash!))]
  for (let start = 0; start < hashes.length; start += INSERT_CHUNK) {
    const found = await trx
      .selectFrom('stockItem')
      .leftJoin('product', 'product.id', 'stockItem.productId')
      .select(['stockItem.shopHash', 'stockItem.productId', 'stockItem.testItem', 'product.title'])
      .where('stockItem.shopHash', 'in', hashes.slice(start, start + INSERT_CHUNK))
      .execute()
    for (const { shopHash, ...holder } of found) {
      const list = holders.get(shopHash!) ?? []
      list.push(holder)
      holders.set(shopHash!, list)
    }
  }
  const lines: number[] = []
  // Product id (or '' for a deleted product) -> its title, in the order first met.
  const products = new Map<string, string>()
  if (!holders.size) return { lines, products }
  const kept = rows.filter((entry) => {
    const list = holders.get(entry.row.shopHash!)
    if (!list || list.some((holder) => holder.productId === input.productId)) return true
    const others = input.testItems ? list.filter((holder) => !Number(holder.testItem)) : list
    if (!others.length) return true
    lines.push(entry.line)
    for (const holder of others)
      if (!products.has(holder.productId ?? ''))
        products.set(
          holder.productId ?? '',
          holder.productId ? (holder.title ?? '') : DELETED_PRODUCT,
        )
    return false
  })
  rows.splice(0, rows.length, ...kept)
  return { lines, products }
}

/**
 * Adds the items in `content` to a product: one transaction, batched inserts. Duplicates (in
 * the batch or already stocked) are skipped and counted. `fill` runs last in the same
 * transaction with the number added and skipped, and says how many waiting orders it served
 * (importStock in app/services/fulfilment.server.ts delivers them there).
 */
export async function addStockItems(
  db: DB,
  input: ImportStockInput,
  fill: (trx: Transaction<Database>, counts: ImportCounts) => Promise<number> = async () => 0,
): Promise<StockImportSummary> {
  const now = (input.now ?? new Date()).toISOString()
  const parsed = parseStockInput(input.content, input.format)
  if (parsed.items.length > MAX_IMPORT_ITEMS) {
    throw new StockImportError(
      `At most ${MAX_IMPORT_ITEMS.toLocaleString('en-IN')} items can be added at once; split the file`,
    )
  }
  const product = await db
    .selectFrom('product')
    .select('id')
    .where('id', '=', input.productId)
    .executeTakeFirst()
  if (!product) throw new StockImportError(PRODUCT_MESSAGES.notFound)

  const duplicateLines: number[] = []
  const seen = new Set<string>()
  const rows: Array<{ line: number; row: Insertable<StockItemTable> }> = []
  for (const item of parsed.items) {
    const hash = stockFingerprint(input.appSecret, input.productId, item.secret)
    if (seen.has(hash)) {
      duplicateLines.push(item.line)
      continue
    }
    seen.add(hash)
    const id = newId()
    rows.push({
      line: item.line,
      row: {
        id,
        productId: input.productId,
        secretCiphertext: encryptStockItem(input.appSecret, id, item.secret),
        secretHash: hash,
        shopHash: shopStockFingerprint(input.appSecret, item.secret),
        status: 'available',
        orderId: null,
        addedBy: input.addedBy ?? 'system',
        testItem: toFlag(input.testItems ?? false),
        revokedReason: null,
        createdAt: now,
        updatedAt: now,
        deliveredAt: null,
        revokedAt: null,
      },
    })
  }

  // Items stored before CSV fields were fingerprinted in name order carry their file's order.
  const stored = await storedLegacyItems(db, input, parsed.items)
  if (stored.size) {
    for (let i = rows.length - 1; i >= 0; i--) {
      if (!stored.has(rows[i]!.line)) continue
      duplicateLines.push(rows[i]!.line)
      rows.splice(i, 1)
    }
  }

  let added = 0
  let elsewhere: { lines: number[]; products: Map<string, string> } = {
    lines: [],
    products: new Map(),
  }
  const filled = await db
    .transaction()
    .execute(async (trx) => {
      if (engineOf(trx) === 'postgres')
        await sql`select pg_advisory_xact_lock(${STOCK_IMPORT_LOCK})`.execute(trx)
      // Read under the lock (or SQLite's write lock): an import committed meanwhile is seen.
      elsewhere = await takeItemsOfOtherProducts(trx, input, rows)
      for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
        const chunk = rows.slice(start, start + INSERT_CHUNK)
        // Items already in stock are skipped by the unique index, also against a concurrent import.
        const inserted = await trx
          .insertInto('stockItem')
          .values(chunk.map((entry) => entry.row))
          .onConflict((oc) => oc.columns(['productId', 'secretHash']).doNothing())
          .returning('id')
          .execute()
        added += inserted.length
        if (inserted.length < chunk.length) {
          const ids = new Set(inserted.map((row) => row.id))
          for (const entry of chunk) if (!ids.has(entry.row.id)) duplicateLines.push(entry.line)
        }
      }
      return fill(trx, {
        added,
        duplicates: duplicateLines.length,
        elsewhere: elsewhere.lines.length,
        invalid: parsed.invalidLines.length,
      })
    })
    .catch((error: unknown) => {
      // The product was deleted since it was read above.
      if (isForeignKeyViolation(error, 'stock_item_product_id_fkey'))
        throw new StockImportError(PRODUCT_MESSAGES.notFound)
      throw error
    })

  duplicateLines.sort((a, b) => a - b)
  return {
    added,
    filled,
    duplicates: duplicateLines.length,
    invalid: parsed.invalidLines.length,
    duplicateLines: duplicateLines.slice(0, REPORTED_LINES),
    invalidLines: parsed.invalidLines.slice(0, REPORTED_LINES),
    elsewhere: elsewhere.lines.length,
    elsewhereLines: elsewhere.lines.sort((a, b) => a - b).slice(0, REPORTED_LINES),
    elsewhereProducts: [...elsewhere.products.values()].slice(0, NAMED_PRODUCTS),
    elsewhereProductCount: elsewhere.products.size,
  }
}

/**
 * Gives the items stocked before shop-wide fingerprints (`shop_hash` null) theirs, `batchSize`
 * rows per transaction (docs/delivery.md, "One product per item"). Run at start-up before
 * requests are served (server/prepare.ts): it needs APP_SECRET to decrypt them. Idempotent and
 * safe beside another process doing the same (a row is only set while still null, to the same
 * value). Hand-delivered items (their fingerprint is manualItemFingerprint) keep none, and items
 * that cannot be decrypted (stored under another APP_SECRET) stay null: they are read again at
 * each start, and counted in `unreadable`.
 */
export async function fillShopFingerprints(
  db: DB,
  appSecret: string,
  { batchSize = INSERT_CHUNK }: { batchSize?: number } = {},
): Promise<{ filled: number; manual: number; unreadable: number }> {
  const result = { filled: 0, manual: 0, unreadable: 0 }
  for (let after = ''; ;) {
    const rows = await db
      .selectFrom('stockItem')
      .select(['id', 'orderId', 'secretHash', 'secretCiphertext'])
      .where('shopHash', 'is', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(batchSize)
      .execute()
    if (!rows.length) return result
    after = rows.at(-1)!.id
    const hashes: Array<{ id: string; shopHash: string }> = []
    for (const row of rows) {
      if (row.orderId && row.secretHash === manualItemFingerprint(appSecret, row.orderId, row.id)) {
        result.manual++
        continue
      }
      try {
        const secret = decryptStockItem(appSecret, row.id, row.secretCiphertext)
        hashes.push({ id: row.id, shopHash: shopStockFingerprint(appSecret, secret) })
      } catch (error) {
        if (!(error instanceof SecretDecryptionError) && !(error instanceof SyntaxError))
          throw error
        result.unreadable++
      }
    }
    if (!hashes.length) continue
    await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('stockItem')
        .set({
          shopHash: sql<string>`case id ${sql.join(
            hashes.map(({ id, shopHash }) => sql`when ${id} then ${shopHash}`),
            sql` `,
          )} end`,
        })
        .where(
          'id',
          'in',
          hashes.map((entry) => entry.id),
        )
        .where('shopHash', 'is', null)
        .executeTakeFirst()
      result.filled += Number(updated.numUpdatedRows)
    })
  }
}

/**
 * Whether the product is sold only for real payments, so that test mode (the simulator) cannot
 * sell it: a shared secret is always real, and a stock product whose available items are all
 * real has nothing a simulated payment may get. (A stock product with no item left at all is
 * simply out of stock.) createOrder applies the same rule when the order is written.
 */
export async function soldOnlyForRealPayments(db: DB, productId: string): Promise<boolean> {
  const product = await db
    .selectFrom('product')
    .select((eb) => [
      'deliveryMode',
      eb
        .selectFrom('stockItem')
        .select((inner) => inner.fn.max('stockItem.testItem').as('anyTest'))
        .whereRef('stockItem.productId', '=', 'product.id')
        .where('stockItem.status', '=', 'available')
        .as('anyTest'),
      eb
        .exists(
          eb
            .selectFrom('stockItem')
            .select('stockItem.id')
            .whereRef('stockItem.productId', '=', 'product.id')
            .where('stockItem.status', '=', 'available'),
        )
        .as('anyAvailable'),
    ])
    .where('id', '=', productId)
    .executeTakeFirst()
  if (!product) return false
  if (product.deliveryMode === 'shared') return true
  return (
    product.deliveryMode === 'stock' && Boolean(product.anyAvailable) && !Number(product.anyTest)
  )
}

/** Available items of a product: real ones (for real payments) and test ones (for test mode). */
export async function availableItemsByKind(db: DB, productId: string): Promise<ItemsByKind> {
  const rows = await db
    .selectFrom('stockItem')
    .select((eb) => ['testItem', eb.fn.countAll<number>().as('count')])
    .where('productId', '=', productId)
    .where('status', '=', 'available')
    .groupBy('testItem')
    .execute()
  const count = (test: number) =>
    Number(rows.find((row) => Number(row.testItem) === test)?.count ?? 0)
  return { real: count(0), test: count(1) }
}

/** How many items of a product are in each state, the available ones by kind (one query). */
export async function stockCounts(db: DB, productId: string): Promise<StockCounts> {
  const rows = await db
    .selectFrom('stockItem')
    .select((eb) => ['status', 'testItem', eb.fn.countAll<number | string>().as('count')])
    .where('productId', '=', productId)
    .groupBy(['status', 'testItem'])
    .execute()
  const counts: StockCounts = {
    available: 0,
    held: 0,
    delivered: 0,
    revoked: 0,
    availableByKind: { real: 0, test: 0 },
  }
  for (const row of rows) {
    const count = Number(row.count)
    counts[row.status] += count
    if (row.status === 'available') counts.availableByKind[row.testItem ? 'test' : 'real'] += count
  }
  return counts
}

export interface StockItemSummary {
  id: string
  status: StockItemStatus
  /** Sold only for test-mode payments (docs/delivery.md, "Test mode"). */
  testItem: boolean
  orderId: string | null
  addedBy: string
  revokedReason: string | null
  createdAt: string
  deliveredAt: string | null
  revokedAt: string | null
}

/**
 * A product's items (of one status when given), newest first, with a StockItemSummary's columns:
 * the query both item lists below page through.
 */
function newestItems(db: DB, productId: string, status: StockItemStatus | undefined) {
  let query = db
    .selectFrom('stockItem')
    .select([
      'id',
      'status',
      'testItem',
      'orderId',
      'addedBy',
      'revokedReason',
      'createdAt',
      'deliveredAt',
      'revokedAt',
    ])
    .where('productId', '=', productId)
  if (status) query = query.where('status', '=', status)
  return query.orderBy('createdAt', 'desc').orderBy('id', 'desc')
}

/** A page of a product's items, newest first, without their secrets. */
export async function listStockItems(
  db: DB,
  productId: string,
  options: { status?: StockItemStatus; limit?: number; offset?: number } = {},
): Promise<StockItemSummary[]> {
  const rows = await newestItems(db, productId, options.status)
    .limit(options.limit ?? 50)
    .offset(options.offset ?? 0)
    .execute()
  return rows.map((row) => ({ ...row, testItem: Boolean(row.testItem) }))
}

/**
 * Withdraws every unsold item of a product (available -> revoked, with the reason), as its
 * deletion does: the items would otherwise be left with no product, out of every list.
 * Returns how many real and test items were withdrawn.
 */
export async function withdrawUnsoldItems(
  db: DB,
  input: { productId: string; reason: string; now?: Date },
): Promise<ItemsByKind> {
  const at = (input.now ?? new Date()).toISOString()
  const rows = await db
    .updateTable('stockItem')
    .set({ status: 'revoked', revokedAt: at, updatedAt: at, revokedReason: input.reason })
    .where('productId', '=', input.productId)
    .where('status', '=', 'available')
    .returning('testItem')
    .execute()
  const test = rows.filter((row) => Boolean(row.testItem)).length
  return { real: rows.length - test, test }
}

export type RevokeResult = { revoked: true } | { revoked: false; status: StockItemStatus | null }

/** Withdraws an unsold item (available -> revoked); a sold or missing item is left alone. */
export async function revokeStockItem(
  db: DB,
  input: { itemId: string; productId: string; reason?: string; now?: Date },
): Promise<RevokeResult> {
  const at = (input.now ?? new Date()).toISOString()
  const updated = await db
    .updateTable('stockItem')
    .set({
      status: 'revoked',
      revokedAt: at,
      updatedAt: at,
      revokedReason: input.reason?.slice(0, 500) ?? null,
    })
    .where('id', '=', input.itemId)
    .where('productId', '=', input.productId)
    .where('status', '=', 'available')
    .returning('id')
    .executeTakeFirst()
  if (updated) return { revoked: true }
  const current = await db
    .selectFrom('stockItem')
    .select('status')
    .where('id', '=', input.itemId)
    .where('productId', '=', input.productId)
    .executeTakeFirst()
  return { revoked: false, status: current?.status ?? null }
}

// ---------------------------------------------------------------------------------------------
// Allocation

export interface AllocatedItem {
  id: string
  productId: string
  orderId: string
  deliveredAt: string
}

/**
 * The id of the oldest available item of one product and kind (allocation's choice). The index
 * stock_item_allocation_idx holds exactly this order, so the answer is its first entry however
 * much stock there is (db/migrations/0125_stock_allocation_index.ts). On PostgreSQL a row another
 * transaction is taking is skipped, not waited for.
 */
export function oldestAvailableItem(
  db: Transaction<Database> | DB,
  productId: string,
  testItems: boolean,
) {
  const oldest = db
    .selectFrom('stockItem')
    .select('id')
    .where('productId', '=', productId)
    .where('testItem', '=', toFlag(testItems))
    .where('status', '=', 'available')
    .orderBy('createdAt')
    .orderBy('id')
    .limit(1)
  return engineOf(db) === 'postgres' ? oldest.forUpdate().skipLocked() : oldest
}

/**
 * Gives the oldest available item of the product to the order, inside the caller's
 * transaction; null when none is left. One statement decides: the item's status changes only
 * if it is still available, so two concurrent calls never get the same item. `testItems` is the
 * order's test mode: a simulated payment gets only test items, a real one only real items.
 */
export async function allocateStockItem(
  trx: Transaction<Database> | DB,
  input: { orderId: string; productId: string; testItems: boolean; now?: Date },
): Promise<AllocatedItem | null> {
  const at = (input.now ?? new Date()).toISOString()
  const row = await trx
    .updateTable('stockItem')
    .set({ status: 'delivered', orderId: input.orderId, deliveredAt: at, updatedAt: at })
    .where('id', '=', oldestAvailableItem(trx, input.productId, input.testItems))
    .where('status', '=', 'available')
    .returning(['id', 'productId', 'orderId', 'deliveredAt'])
    .executeTakeFirst()
  if (!row?.productId || !row.orderId || !row.deliveredAt) return null
  return {
    id: row.id,
    productId: row.productId,
    orderId: row.orderId,
    deliveredAt: row.deliveredAt,
  }
}

// ---------------------------------------------------------------------------------------------
// Reading secrets (the order page) and the shared secret

/** The secret delivered for an order (its live stock item, or the product's shared secret). */
export async function getDeliveredSecret(
  db: DB,
  appSecret: string,
  orderId: string,
): Promise<StockSecret | null> {
  const item = await db
    .selectFrom('stockItem')
    .select(['id', 'secretCiphertext'])
    .where('orderId', '=', orderId)
    .where('status', 'in', ['held', 'delivered'])
    .executeTakeFirst()
  if (item) return decryptStockItem(appSecret, item.id, item.secretCiphertext)
  const shared = await db
    .selectFrom('order')
    .innerJoin('product', 'product.id', 'order.productId')
    .select(['product.id', 'product.sharedSecret'])
    .where('order.id', '=', orderId)
    .where('order.status', '=', 'delivered')
    // Not limited to products still in `shared` mode: switching a product to another mode
    // later must not take the secret away from the buyers it was delivered to.
    .executeTakeFirst()
  if (!shared?.sharedSecret) return null
  return { kind: 'text', text: decryptSharedSecret(appSecret, shared.id, shared.sharedSecret) }
}

/**
 * The buyer opens the delivered secret (order page, payment result page): each reveal is logged
 * in the order's timeline with the time, the IP and who asked. Only a delivered order shows it.
 */
export async function revealOrderSecret(
  db: DB,
  appSecret: string,
  orderId: string,
  by: { actor: string; ip: string; via: 'order_page' | 'result_page' | 'admin' },
  now = new Date(),
): Promise<StockSecret | null> {
  const order = await db
    .selectFrom('order')
    .select('status')
    .where('id', '=', orderId)
    .executeTakeFirst()
  if (order?.status !== 'delivered') return null
  const secret = await getDeliveredSecret(db, appSecret, orderId)
  if (!secret) return null
  await appendOrderEvent(
    db,
    orderId,
    {
      type: 'secret_revealed',
      message: `Delivered item revealed (${by.via.replace('_', ' ')})`,
      data: { ip: by.ip, via: by.via },
      actor: by.actor,
    },
    now,
  )
  return secret
}

/** A secret as plain text lines (e-mails, copy to clipboard). */
export function secretAsText(secret: StockSecret): string {
  return secret.kind === 'text'
    ? secret.text
    : secret.fields.map((field) => `${field.name}: ${field.value}`).join('\n')
}

/** One item's secret, for an admin who opens it (the caller checks the permission and logs it). */
export async function revealStockItem(
  db: DB,
  appSecret: string,
  itemId: string,
): Promise<StockSecret | null> {
  const item = await db
    .selectFrom('stockItem')
    .select(['id', 'secretCiphertext'])
    .where('id', '=', itemId)
    .executeTakeFirst()
  return item ? decryptStockItem(appSecret, item.id, item.secretCiphertext) : null
}

/**
 * Sets how a product is delivered and, for `shared`, its secret (encrypted; null clears it).
 * Editing the shared secret changes what every buyer of the product sees.
 */
export async function setProductDelivery(
  db: DB,
  appSecret: string,
  productId: string,
  delivery: { mode: DeliveryMode; sharedSecret?: string | null },
  now = new Date(),
): Promise<boolean> {
  const secret =
    delivery.sharedSecret === undefined ? undefined : delivery.sharedSecret?.trim() || null
  const result = await db
    .updateTable('product')
    .set({
      deliveryMode: delivery.mode,
      ...(secret === undefined
        ? {}
        : {
            sharedSecret:
              secret === null ? null : encryptSharedSecret(appSecret, productId, secret),
          }),
      updatedAt: now.toISOString(),
    })
    .where('id', '=', productId)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/**
 * Products with orders waiting although items are available: on PostgreSQL an allocation skips
 * an item another transaction holds, and if that one rolls back the item stays unsold. A
 * periodic fillAwaitingOrders over these is the safety net.
 */
export async function productsWithAwaitingOrders(db: DB): Promise<string[]> {
  const rows = await db
    .selectFrom('order')
    .select('productId')
    .distinct()
    .where('status', '=', 'awaiting_stock')
    .where('productId', 'is not', null)
    .where(
      sql<boolean>`exists (select 1 from stock_item where stock_item.product_id = "order".product_id and stock_item.status = 'available')`,
    )
    .execute()
  return rows.flatMap((row) => (row.productId ? [row.productId] : []))
}

/**
 * Whether saving `next` as the product's shared secret (undefined: kept; null or blank: cleared)
 * takes away the secret its past buyers were delivered: it clears the saved secret, or replaces it
 * with another text (setProductDelivery trims it the same way). Typing it again unchanged takes
 * nothing away; a secret saved under another APP_SECRET, which nobody can read, is replaced by
 * any text.
 */
export async function replacesSharedSecret(
  db: DB,
  appSecret: string,
  productId: string,
  next: string | null | undefined,
): Promise<boolean> {
  if (next === undefined) return false
  const row = await db
    .selectFrom('product')
    .select('sharedSecret')
    .where('id', '=', productId)
    .executeTakeFirst()
  if (!row?.sharedSecret) return false
  const text = next?.trim() || null
  if (text === null) return true
  try {
    return text !== decryptSharedSecret(appSecret, productId, row.sharedSecret)
  } catch (error) {
    if (error instanceof SecretDecryptionError) return true
    throw error
  }
}

/**
 * Before a product is deleted: the buyers it delivered its shared secret to keep it. Each
 * delivered order of the product with no live item of its own gets one holding the secret,
 * bound to no product (the product row and its secret go), so getDeliveredSecret still finds it.
 * Call it in the deleting transaction, with the product locked. Returns how many were kept.
 */
export async function keepSharedSecretForBuyers(
  trx: Transaction<Database>,
  appSecret: string,
  productId: string,
  now = new Date(),
): Promise<number> {
  const product = await trx
    .selectFrom('product')
    .select(['id', 'sharedSecret'])
    .where('id', '=', productId)
    .executeTakeFirst()
  if (!product?.sharedSecret) return 0
  let text: string
  try {
    text = decryptSharedSecret(appSecret, product.id, product.sharedSecret)
  } catch (error) {
    // Saved under another APP_SECRET: no buyer could read it, so there is nothing to keep, and
    // the edit or delete that replaces it goes ahead.
    if (error instanceof SecretDecryptionError) return 0
    throw error
  }
  const secret: StockSecret = { kind: 'text', text }
  const orders = await trx
    .selectFrom('order')
    .select(['order.id', 'order.paidAt', 'order.testMode'])
    .where('order.productId', '=', productId)
    .where('order.status', '=', 'delivered')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('stockItem')
            .select('stockItem.id')
            .whereRef('stockItem.orderId', '=', 'order.id')
            .where('stockItem.status', 'in', ['held', 'delivered']),
        ),
      ),
    )
    .execute()
  const at = now.toISOString()
  for (let start = 0; start < orders.length; start += INSERT_CHUNK) {
    const rows = orders.slice(start, start + INSERT_CHUNK).map((order) => {
      const id = newId()
      return {
        id,
        productId: null,
        secretCiphertext: encryptStockItem(appSecret, id, secret),
        secretHash: manualItemFingerprint(appSecret, order.id, id),
        status: 'delivered' as const,
        orderId: order.id,
        addedBy: 'system',
        revokedReason: null,
        createdAt: at,
        updatedAt: at,
        deliveredAt: order.paidAt ?? at,
        revokedAt: null,
        testItem: order.testMode,
      }
    })
    await trx.insertInto('stockItem').values(rows).execute()
  }
  return orders.length
}

// ---------------------------------------------------------------------------------------------
// Items an admin delivers by hand (app/data/order-admin.server.ts)

/**
 * Stores a secret an admin delivers by hand as the order's live item (status delivered),
 * encrypted like stock. Call it in the caller's transaction after revoking the order's live
 * item, if any (one live item per order). Its fingerprint is made of the order and the new
 * item's id, not of the text: manual items are never sold from stock, and the same details
 * delivered to two orders (or twice to one) must not collide on the (product, hash) index.
 */
export async function insertManualOrderItem(
  trx: Transaction<Database>,
  appSecret: string,
  input: {
    orderId: string
    productId: string | null
    secret: StockSecret
    addedBy: string
    now?: Date
  },
): Promise<{ id: string }> {
  const at = (input.now ?? new Date()).toISOString()
  const id = newId()
  await trx
    .insertInto('stockItem')
    .values({
      id,
      productId: input.productId,
      secretCiphertext: encryptStockItem(appSecret, id, input.secret),
      secretHash: manualItemFingerprint(appSecret, input.orderId, id),
      status: 'delivered',
      orderId: input.orderId,
      addedBy: input.addedBy,
      revokedReason: null,
      createdAt: at,
      updatedAt: at,
      deliveredAt: at,
      revokedAt: null,
    })
    .execute()
  return { id }
}

// ---------------------------------------------------------------------------------------------
// The admin stock page (app/routes/admin/products/stock.tsx) and copying a product's delivery

/** Stock items per page of the admin stock page. */
export const STOCK_PAGE_SIZE = 50
const MASK = '••••••'
/** Values shorter than this are shown as the mask alone. */
const MASK_MIN_LENGTH = 8
/** Where an account line's login ends and its password begins ("login / password", "login:password"). */
const LOGIN_END = /[\s:|;,]/
/** CSV columns never shown in part, whatever their place. */
const SECRET_COLUMN = /pass|pwd|pin|secret|otp|cvv|token/i

/**
 * A value with its middle masked: up to the first 3 and the last 4 characters, never more than
 * a third of it (the last ones first: serial numbers and keys differ at their end), and nothing
 * of a value under 8 characters. `QA-KEY-0001` is `••••••001`, `ABCDE-FGHIJ-KLMNO-PQRST`
 * `ABC••••••QRST`, `KEY-01` `••••••`.
 */
export function maskValue(value: string): string {
  const chars = Array.from(value)
  if (chars.length < MASK_MIN_LENGTH) return MASK
  const shown = Math.floor(chars.length / 3)
  const tail = Math.min(4, shown)
  const head = Math.min(3, shown - tail)
  return `${chars.slice(0, head).join('')}${MASK}${tail > 0 ? chars.slice(-tail).join('') : ''}`
}

/** maskValue of a login; of an e-mail address, its part before the @ (the domain masked). */
function maskLogin(login: string): string {
  const at = login.lastIndexOf('@')
  return at > 0 ? `${maskValue(login.slice(0, at))}@${MASK}` : maskValue(login)
}

/**
 * An item as the admin list shows it, enough to tell items apart and to find one the owner
 * knows, never enough to use it (docs/delivery.md, "The admin's side"): a key as maskValue; an
 * account line ("login / password", "login:password") as its login masked and the rest hidden
 * whole; a CSV item as its first column that is neither a note nor a password, masked, with the
 * column names.
 */
export function maskStockSecret(secret: StockSecret): string {
  if (secret.kind === 'text') {
    const end = secret.text.search(LOGIN_END)
    return end > 0
      ? `${maskLogin(secret.text.slice(0, end))} / ${MASK}`
      : end === 0
        ? MASK
        : maskLogin(secret.text)
  }
  const identifying = secret.fields.find(
    (field) => !NOTE_COLUMNS.has(field.name) && !SECRET_COLUMN.test(field.name) && field.value,
  )
  const names = secret.fields.map((field) => field.name).join(', ')
  return `${identifying ? maskLogin(identifying.value) : MASK} (${names})`
}

export interface AdminStockItem extends StockItemSummary {
  /** maskStockSecret of the item, or a note that it cannot be read (APP_SECRET changed). */
  preview: string
  /** Who added it: an admin's e-mail, "system" (demo seed, imports by scripts) or the raw id. */
  addedByLabel: string
}

export interface AdminStockPage {
  items: AdminStockItem[]
  /** Items matching the filter. */
  total: number
  page: number
  pageCount: number
  pageSize: number
}

/** A page of a product's items, newest first, masked; `page` is 1-based and clamped. */
export async function listStockItemsPage(
  db: DB,
  appSecret: string,
  productId: string,
  options: { status?: StockItemStatus; page?: number; pageSize?: number } = {},
): Promise<AdminStockPage> {
  let counted = db
    .selectFrom('stockItem')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('productId', '=', productId)
  if (options.status) counted = counted.where('status', '=', options.status)
  const total = Number((await counted.executeTakeFirstOrThrow()).count)
  const { page, pageSize, pageCount, offset } = paginate(total, options, {
    defaultSize: STOCK_PAGE_SIZE,
    maxSize: 200,
  })

  const rows = await newestItems(db, productId, options.status)
    .select('secretCiphertext')
    .limit(pageSize)
    .offset(offset)
    .execute()

  const userIds = [
    ...new Set(
      rows.flatMap((row) => (row.addedBy.startsWith('user:') ? [row.addedBy.slice(5)] : [])),
    ),
  ]
  const users = userIds.length
    ? await db.selectFrom('user').select(['id', 'email']).where('id', 'in', userIds).execute()
    : []
  const emails = new Map(users.map((user) => [`user:${user.id}`, user.email]))

  const items = rows.map(({ secretCiphertext, ...row }) => {
    let preview: string
    try {
      preview = maskStockSecret(decryptStockItem(appSecret, row.id, secretCiphertext))
    } catch {
      preview = 'Unreadable (encrypted with another APP_SECRET)'
    }
    return {
      ...row,
      testItem: Boolean(row.testItem),
      preview,
      addedByLabel: emails.get(row.addedBy) ?? row.addedBy,
    }
  })
  return { items, total, page, pageCount, pageSize }
}

/** Paid orders of the product waiting for stock (they are filled, oldest first, by imports). */
export async function countAwaitingOrders(db: DB, productId: string): Promise<number> {
  const row = await db
    .selectFrom('order')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('productId', '=', productId)
    .where('status', '=', 'awaiting_stock')
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/**
 * Gives a product (a fresh copy) the delivery mode of another. The shared secret is bound to
 * its product's id, so it is decrypted and encrypted again for the copy; without the app
 * secret, or when the stored one cannot be read, a shared copy becomes `manual` (it then waits
 * for an admin rather than deliver nothing). Stock items are never copied: each belongs to one
 * product, and the same key sold under two products would be sold twice.
 */
export async function copyProductDelivery(
  db: DB,
  appSecret: string | null,
  fromId: string,
  toId: string,
  now = new Date(),
): Promise<DeliveryMode | null> {
  const source = await db
    .selectFrom('product')
    .select(['deliveryMode', 'sharedSecret'])
    .where('id', '=', fromId)
    .executeTakeFirst()
  if (!source) return null
  if (source.deliveryMode !== 'shared' || !source.sharedSecret) {
    await setProductDelivery(db, appSecret ?? '', toId, { mode: source.deliveryMode }, now)
    return source.deliveryMode
  }
  let secret: string | null = null
  if (appSecret) {
    try {
      secret = decryptSharedSecret(appSecret, fromId, source.sharedSecret)
    } catch {
      secret = null
    }
  }
  const mode: DeliveryMode = secret === null ? 'manual' : 'shared'
  await setProductDelivery(
    db,
    appSecret ?? '',
    toId,
    secret === null ? { mode } : { mode, sharedSecret: secret },
    now,
  )
  return mode
}
