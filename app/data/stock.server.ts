import { sql, type Insertable, type Transaction } from 'kysely'
import {
  decryptSecret,
  encryptSecret,
  keyedHash,
  STOCK_FINGERPRINT_PURPOSE,
  STOCK_SECRETS_PURPOSE,
} from '~/lib/crypto.server'
import { engineOf, type DB } from '~/lib/db.server'
import { newId } from '~/lib/id.server'
import { enqueueOrderMail } from '~/lib/mail.server'
import { appendOrderEvent } from './order-event.server'
import { escapeHtml, notifyShop } from './shop-mail.server'
import { getSiteSettings } from './settings.server'
import type { Database, DeliveryMode, StockItemStatus, StockItemTable } from '../../db/schema'

/**
 * The stock of credentials and keys a product sells (issue 7; docs/delivery.md).
 *
 * - Items are encrypted at rest with AES-256-GCM under a key derived from APP_SECRET for stock
 *   only (STOCK_SECRETS_PURPOSE), each bound to its row id: the database alone reveals nothing.
 * - Duplicates are found without decrypting: every item carries an HMAC fingerprint (key also
 *   derived from APP_SECRET) and (product_id, secret_hash) is unique, so the database refuses a
 *   duplicate even when two imports run at once.
 * - allocateStockItem hands one available item to an order in the caller's transaction with a
 *   single conditional UPDATE: on PostgreSQL its subquery locks the row FOR UPDATE SKIP LOCKED,
 *   on SQLite the statement runs under the single write lock. Either way an item can only leave
 *   `available` once, so it is never sold twice.
 */
export type { DeliveryMode, StockItemStatus }

/** One item as the buyer sees it: a line (a licence key) or named fields (email, password, note). */
export type StockSecret =
  | { kind: 'text'; text: string }
  | { kind: 'fields'; fields: Array<{ name: string; value: string }> }

export type StockFormat = 'lines' | 'csv'

export interface StockImportSummary {
  added: number
  duplicates: number
  invalid: number
  /** Line numbers (1-based) of the first few duplicates and invalid lines, for the admin. */
  duplicateLines: number[]
  invalidLines: number[]
  /** Orders waiting for stock that the new items filled. */
  filled: number
}

export interface StockCounts {
  available: number
  held: number
  delivered: number
  revoked: number
}

/** An import the admin must fix as a whole; `message` is fit to show. */
export class StockImportError extends Error {
  override name = 'StockImportError'
}

export const MAX_IMPORT_ITEMS = 50_000
export const MAX_ITEM_LENGTH = 4_000
const REPORTED_LINES = 20
// 500 rows x 8 parameters stays far below SQLite's and PostgreSQL's parameter limits.
const INSERT_CHUNK = 500
/** Columns that describe an item rather than identify it: a new note does not make a new account. */
const NOTE_COLUMNS = new Set(['note', 'notes', 'comment', 'comments', 'remark', 'remarks'])
// Control characters other than tab mean a binary file or a broken paste, not a credential.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f]/

// ---------------------------------------------------------------------------------------------
// Parsing

interface ParsedItem {
  line: number
  secret: StockSecret
}

interface ParsedInput {
  items: ParsedItem[]
  invalidLines: number[]
}

/** .csv files have a header row naming the columns; anything else is one item per line. */
export function detectStockFormat(fileName: string | null | undefined): StockFormat {
  return fileName && /\.csv$/i.test(fileName) ? 'csv' : 'lines'
}

function splitLines(content: string): string[] {
  return content.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/)
}

function validText(text: string): boolean {
  return text.length <= MAX_ITEM_LENGTH && !CONTROL_CHARACTERS.test(text)
}

/** RFC 4180 records with the line each starts on (quoted fields may span lines). */
function parseCsvRecords(content: string): Array<{ line: number; cells: string[] }> {
  const text = content.replace(/^\uFEFF/, '')
  const records: Array<{ line: number; cells: string[] }> = []
  let cells: string[] = []
  let cell = ''
  let quoted = false
  let line = 1
  let recordLine = 1
  const endRecord = () => {
    cells.push(cell)
    records.push({ line: recordLine, cells })
    cells = []
    cell = ''
  }
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          cell += '"'
          i++
        } else quoted = false
      } else {
        if (char === '\n') line++
        cell += char
      }
    } else if (char === '"' && cell.trim() === '') {
      cell = ''
      quoted = true
    } else if (char === ',') {
      cells.push(cell)
      cell = ''
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++
      endRecord()
      line++
      recordLine = line
    } else cell += char
  }
  if (cell !== '' || cells.length > 0) endRecord()
  return records
}

/** Turns pasted or uploaded text into items; empty lines are skipped, bad ones reported. */
export function parseStockInput(content: string, format: StockFormat): ParsedInput {
  const items: ParsedItem[] = []
  const invalidLines: number[] = []
  if (format === 'lines') {
    splitLines(content).forEach((raw, index) => {
      const text = raw.trim()
      if (text === '') return
      if (validText(text)) items.push({ line: index + 1, secret: { kind: 'text', text } })
      else invalidLines.push(index + 1)
    })
    return { items, invalidLines }
  }
  const records = parseCsvRecords(content).filter((record) => record.cells.some((cell) => cell.trim() !== ''))
  const [header, ...rows] = records
  if (!header) return { items, invalidLines }
  const names = header.cells.map((cell) => cell.trim().toLowerCase())
  if (names.some((name) => name === '' || name.length > 40) || new Set(names).size !== names.length) {
    throw new StockImportError('The first line of a CSV file must name each column once, such as email,password,note')
  }
  if (names.every((name) => NOTE_COLUMNS.has(name))) {
    throw new StockImportError('The CSV file needs at least one column besides notes, such as email,password')
  }
  for (const row of rows) {
    const values = row.cells.map((cell) => cell.trim())
    const identifying = names.some((name, index) => !NOTE_COLUMNS.has(name) && (values[index] ?? '') !== '')
    if (values.length !== names.length || !identifying || !values.every(validText)) {
      invalidLines.push(row.line)
      continue
    }
    items.push({
      line: row.line,
      secret: { kind: 'fields', fields: names.map((name, index) => ({ name, value: values[index] ?? '' })) },
    })
  }
  return { items, invalidLines }
}

/** What makes two items the same, per product (notes excluded). */
function fingerprint(appSecret: string, productId: string, secret: StockSecret): string {
  const identity =
    secret.kind === 'text'
      ? ['text', secret.text]
      : ['fields', ...secret.fields.filter((field) => !NOTE_COLUMNS.has(field.name)).map((field) => [field.name, field.value])]
  return keyedHash(appSecret, STOCK_FINGERPRINT_PURPOSE, JSON.stringify([productId, identity]))
}

const itemContext = (itemId: string) => `stock_item:${itemId}`
const sharedContext = (productId: string) => `product:${productId}:sharedSecret`

function encryptItem(appSecret: string, itemId: string, secret: StockSecret): string {
  return encryptSecret(JSON.stringify(secret), appSecret, itemContext(itemId), STOCK_SECRETS_PURPOSE)
}

function decryptItem(appSecret: string, itemId: string, stored: string): StockSecret {
  return JSON.parse(decryptSecret(stored, appSecret, itemContext(itemId), STOCK_SECRETS_PURPOSE)) as StockSecret
}

// ---------------------------------------------------------------------------------------------
// Import, counts, revoke

export interface ImportStockInput {
  productId: string
  content: string
  format: StockFormat
  appSecret: string
  /** user:{id} of the admin, or system. */
  addedBy?: string
  now?: Date
}

/**
 * Adds the items in `content` to a product: one transaction, batched inserts. Duplicates (in
 * the batch or already stocked) are skipped and counted; then waiting orders are filled.
 */
export async function importStock(db: DB, input: ImportStockInput): Promise<StockImportSummary> {
  const now = (input.now ?? new Date()).toISOString()
  const parsed = parseStockInput(input.content, input.format)
  if (parsed.items.length > MAX_IMPORT_ITEMS) {
    throw new StockImportError(`At most ${MAX_IMPORT_ITEMS.toLocaleString('en-IN')} items can be added at once; split the file`)
  }
  const product = await db.selectFrom('product').select('id').where('id', '=', input.productId).executeTakeFirst()
  if (!product) throw new StockImportError('Product not found')

  const duplicateLines: number[] = []
  const seen = new Set<string>()
  const rows: Array<{ line: number; row: Insertable<StockItemTable> }> = []
  for (const item of parsed.items) {
    const hash = fingerprint(input.appSecret, input.productId, item.secret)
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
        secretCiphertext: encryptItem(input.appSecret, id, item.secret),
        secretHash: hash,
        status: 'available',
        orderId: null,
        addedBy: input.addedBy ?? 'system',
        revokedReason: null,
        createdAt: now,
        updatedAt: now,
        deliveredAt: null,
        revokedAt: null,
      },
    })
  }

  let added = 0
  await db.transaction().execute(async (trx) => {
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
  })

  const filled = added > 0 ? await fillAwaitingOrders(db, input.productId, { now: input.now }) : 0
  duplicateLines.sort((a, b) => a - b)
  return {
    added,
    duplicates: duplicateLines.length,
    invalid: parsed.invalidLines.length,
    duplicateLines: duplicateLines.slice(0, REPORTED_LINES),
    invalidLines: parsed.invalidLines.slice(0, REPORTED_LINES),
    filled,
  }
}

/** How many items of a product are in each state. */
export async function stockCounts(db: DB, productId: string): Promise<StockCounts> {
  const rows = await db
    .selectFrom('stockItem')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('count')])
    .where('productId', '=', productId)
    .groupBy('status')
    .execute()
  const counts: StockCounts = { available: 0, held: 0, delivered: 0, revoked: 0 }
  for (const row of rows) counts[row.status] = Number(row.count)
  return counts
}

export interface StockItemSummary {
  id: string
  status: StockItemStatus
  orderId: string | null
  addedBy: string
  revokedReason: string | null
  createdAt: string
  deliveredAt: string | null
  revokedAt: string | null
}

/** A page of a product's items, newest first, without their secrets. */
export async function listStockItems(
  db: DB,
  productId: string,
  options: { status?: StockItemStatus; limit?: number; offset?: number } = {},
): Promise<StockItemSummary[]> {
  let query = db
    .selectFrom('stockItem')
    .select(['id', 'status', 'orderId', 'addedBy', 'revokedReason', 'createdAt', 'deliveredAt', 'revokedAt'])
    .where('productId', '=', productId)
  if (options.status) query = query.where('status', '=', options.status)
  return query
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit ?? 50)
    .offset(options.offset ?? 0)
    .execute()
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
    .set({ status: 'revoked', revokedAt: at, updatedAt: at, revokedReason: input.reason?.slice(0, 500) ?? null })
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
 * Gives the oldest available item of the product to the order, inside the caller's
 * transaction; null when none is left. One statement decides: the item's status changes only
 * if it is still available, so two concurrent calls never get the same item.
 */
export async function allocateStockItem(
  trx: Transaction<Database> | DB,
  input: { orderId: string; productId: string; now?: Date },
): Promise<AllocatedItem | null> {
  const at = (input.now ?? new Date()).toISOString()
  const oldest = trx
    .selectFrom('stockItem')
    .select('id')
    .where('productId', '=', input.productId)
    .where('status', '=', 'available')
    .orderBy('createdAt')
    .orderBy('id')
    .limit(1)
  const row = await trx
    .updateTable('stockItem')
    .set({ status: 'delivered', orderId: input.orderId, deliveredAt: at, updatedAt: at })
    // On PostgreSQL a row another transaction is taking is skipped, not waited for.
    .where('id', '=', engineOf(trx) === 'postgres' ? oldest.forUpdate().skipLocked() : oldest)
    .where('status', '=', 'available')
    .returning(['id', 'productId', 'orderId', 'deliveredAt'])
    .executeTakeFirst()
  if (!row?.productId || !row.orderId || !row.deliveredAt) return null
  return { id: row.id, productId: row.productId, orderId: row.orderId, deliveredAt: row.deliveredAt }
}

async function moveOrder(
  trx: Transaction<Database>,
  orderId: string,
  from: 'paid' | 'awaiting_stock',
  to: 'delivered' | 'awaiting_stock',
  event: { type: string; message: string; data?: unknown },
  at: string,
): Promise<boolean> {
  const updated = await trx
    .updateTable('order')
    .set({ status: to, updatedAt: at })
    .where('id', '=', orderId)
    .where('status', '=', from)
    .returning('id')
    .executeTakeFirst()
  if (!updated) return false
  await appendOrderEvent(trx, orderId, { ...event, from, to }, at)
  return true
}

export type FulfilResult =
  | { status: 'delivered'; stockItemId: string | null }
  | { status: 'awaiting_stock' }
  /** Manual products (and shared ones without a secret) stay paid for an admin to fulfil. */
  | { status: 'paid' }
  /** The order is not paid (or is gone): nothing done. */
  | { status: 'skipped' }

/**
 * Delivers a just-paid order, in the transaction that marked it paid: one stock item
 * (paid -> delivered, or paid -> awaiting_stock when none is left), the shared secret
 * (paid -> delivered), or nothing for manual products.
 */
export async function fulfilPaidOrder(
  trx: Transaction<Database>,
  input: { orderId: string; now?: Date },
): Promise<FulfilResult> {
  const at = (input.now ?? new Date()).toISOString()
  const order = await trx
    .selectFrom('order')
    .leftJoin('product', 'product.id', 'order.productId')
    .select(['order.status', 'order.productId', 'product.deliveryMode', 'product.sharedSecret'])
    .where('order.id', '=', input.orderId)
    .executeTakeFirst()
  if (!order || order.status !== 'paid' || !order.productId || !order.deliveryMode) return { status: 'skipped' }
  if (order.deliveryMode === 'manual' || (order.deliveryMode === 'shared' && !order.sharedSecret)) {
    // The buyer hears that the payment arrived and the shop delivers by hand.
    await enqueueOrderMail(trx, { orderId: input.orderId, kind: 'paid' })
    return { status: 'paid' }
  }
  if (order.deliveryMode === 'shared') {
    const moved = await moveOrder(trx, input.orderId, 'paid', 'delivered', { type: 'delivered', message: 'Shared account delivered' }, at)
    if (moved) await enqueueOrderMail(trx, { orderId: input.orderId, kind: 'delivered' })
    return moved ? { status: 'delivered', stockItemId: null } : { status: 'skipped' }
  }
  const item = await allocateStockItem(trx, { orderId: input.orderId, productId: order.productId, now: input.now })
  if (!item) {
    const moved = await moveOrder(
      trx,
      input.orderId,
      'paid',
      'awaiting_stock',
      { type: 'awaiting_stock', message: 'Out of stock: the order will be delivered when stock is added' },
      at,
    )
    if (moved) {
      await notifyOutOfStock(trx, order.productId)
      await enqueueOrderMail(trx, { orderId: input.orderId, kind: 'awaiting_stock' })
    }
    return moved ? { status: 'awaiting_stock' } : { status: 'skipped' }
  }
  const moved = await moveOrder(
    trx,
    input.orderId,
    'paid',
    'delivered',
    { type: 'delivered', message: 'Delivered from stock', data: { stockItemId: item.id } },
    at,
  )
  // The order changed under us (cannot happen inside the paying transaction): undo the allocation.
  if (!moved) throw new Error(`Order ${input.orderId} changed while its stock item was allocated`)
  await enqueueOrderMail(trx, { orderId: input.orderId, kind: 'delivered' })
  await notifyLowStock(trx, order.productId)
  return { status: 'delivered', stockItemId: item.id }
}

/**
 * Makes the sales of one product count their stock one after another: the count that decides an
 * alert must see every earlier sale. On PostgreSQL two transactions committing at the same moment
 * each see only their own sale, so both could take themselves for the first waiting order (30
 * concurrent sales sent up to 20 out-of-stock mails) or step over the low-stock threshold without
 * either landing on it. The row lock is held to the commit; NO KEY UPDATE leaves inserts that
 * reference the product (new orders) unblocked. SQLite runs one writing transaction at a time.
 */
async function countInTurn(trx: Transaction<Database>, productId: string): Promise<void> {
  if (engineOf(trx) !== 'postgres') return
  await trx.selectFrom('product').select('id').where('id', '=', productId).forNoKeyUpdate().execute()
}

/**
 * Tells the shop (its contact address and every admin) that paid orders wait for stock. Only
 * the first waiting order of a product sends it, so a flash sale on an empty product sends one
 * mail, not one per order; the mail is queued in the paying transaction (the outbox).
 */
async function notifyOutOfStock(trx: Transaction<Database>, productId: string): Promise<void> {
  await countInTurn(trx, productId)
  // Is this the only one? Two rows answer that, however many orders wait.
  const waiting = await trx
    .selectFrom('order')
    .select('id')
    .where('productId', '=', productId)
    .where('status', '=', 'awaiting_stock')
    .limit(2)
    .execute()
  if (waiting.length !== 1) return
  const product = await trx.selectFrom('product').select('title').where('id', '=', productId).executeTakeFirst()
  const title = product?.title ?? productId
  await notifyShop(trx, {
    subject: `Out of stock: ${title} has paid orders waiting`,
    text: `A paid order for "${title}" is waiting because the product is out of stock.\n\nAdd stock items to the product in the admin; waiting orders are delivered automatically, oldest first.\n`,
    html: `<p>A paid order for <strong>${escapeHtml(title)}</strong> is waiting because the product is out of stock.</p><p>Add stock items to the product in the admin; waiting orders are delivered automatically, oldest first.</p>`,
  })
}

/**
 * Tells the shop when a sale leaves a product with exactly `lowStockThreshold` items (site
 * setting; 0 turns it off): once per crossing, not on every sale below it.
 */
async function notifyLowStock(trx: Transaction<Database>, productId: string): Promise<void> {
  const { lowStockThreshold } = await getSiteSettings(trx)
  if (lowStockThreshold <= 0) return
  await countInTurn(trx, productId)
  // Exactly the threshold? One row more than it answers that, however much stock there is.
  const left = await trx
    .selectFrom('stockItem')
    .select('id')
    .where('productId', '=', productId)
    .where('status', '=', 'available')
    .limit(lowStockThreshold + 1)
    .execute()
  if (left.length !== lowStockThreshold) return
  const product = await trx.selectFrom('product').select('title').where('id', '=', productId).executeTakeFirst()
  const title = product?.title ?? productId
  const items = lowStockThreshold === 1 ? '1 item' : `${lowStockThreshold} items`
  await notifyShop(trx, {
    subject: `Low stock: ${items} left of ${title}`,
    text: `"${title}" has ${items} left in stock.\n\nAdd stock items in the admin (Products > Stock) before it runs out; paid orders would then wait for stock.\n`,
    html: `<p><strong>${escapeHtml(title)}</strong> has ${items} left in stock.</p><p>Add stock items in the admin (Products &gt; Stock) before it runs out; paid orders would then wait for stock.</p>`,
  })
}

const FILL_BATCH = 100

/**
 * Fills the product's orders waiting for stock, oldest first, until stock or orders run out.
 * Returns how many were delivered. Safe to run concurrently (and repeatedly): orders are
 * claimed with a write first, and each allocation is atomic.
 */
export async function fillAwaitingOrders(db: DB, productId: string, options: { now?: Date } = {}): Promise<number> {
  let filled = 0
  for (;;) {
    const at = (options.now ?? new Date()).toISOString()
    const result = await db.transaction().execute(async (trx) => {
      const waiting = trx
        .selectFrom('order')
        .select('id')
        .where('productId', '=', productId)
        .where('status', '=', 'awaiting_stock')
        .orderBy('createdAt')
        .orderBy('id')
        .limit(FILL_BATCH)
      // A no-op write claims the orders: it takes SQLite's write lock at once, and on
      // PostgreSQL locks the rows so two fillers do not deliver one order twice.
      const claimed = await trx
        .updateTable('order')
        .set((eb) => ({ updatedAt: eb.ref('updatedAt') }))
        .where('id', 'in', engineOf(trx) === 'postgres' ? waiting.forUpdate().skipLocked() : waiting)
        .where('status', '=', 'awaiting_stock')
        .returning(['id', 'createdAt'])
        .execute()
      claimed.sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1))
      let delivered = 0
      for (const order of claimed) {
        const item = await allocateStockItem(trx, { orderId: order.id, productId, now: options.now })
        if (!item) return { delivered, more: false }
        await moveOrder(
          trx,
          order.id,
          'awaiting_stock',
          'delivered',
          { type: 'delivered', message: 'Delivered from stock added later', data: { stockItemId: item.id } },
          at,
        )
        await enqueueOrderMail(trx, { orderId: order.id, kind: 'delivered' })
        delivered++
      }
      return { delivered, more: claimed.length === FILL_BATCH }
    })
    filled += result.delivered
    if (!result.more) return filled
  }
}

// ---------------------------------------------------------------------------------------------
// Reading secrets (the order page) and the shared secret

/** The secret delivered for an order (its live stock item, or the product's shared secret). */
export async function getDeliveredSecret(db: DB, appSecret: string, orderId: string): Promise<StockSecret | null> {
  const item = await db
    .selectFrom('stockItem')
    .select(['id', 'secretCiphertext'])
    .where('orderId', '=', orderId)
    .where('status', 'in', ['held', 'delivered'])
    .executeTakeFirst()
  if (item) return decryptItem(appSecret, item.id, item.secretCiphertext)
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
  return { kind: 'text', text: decryptSecret(shared.sharedSecret, appSecret, sharedContext(shared.id), STOCK_SECRETS_PURPOSE) }
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
  const order = await db.selectFrom('order').select('status').where('id', '=', orderId).executeTakeFirst()
  if (order?.status !== 'delivered') return null
  const secret = await getDeliveredSecret(db, appSecret, orderId)
  if (!secret) return null
  await appendOrderEvent(
    db,
    orderId,
    { type: 'secret_revealed', message: `Delivered item revealed (${by.via.replace('_', ' ')})`, data: { ip: by.ip, via: by.via }, actor: by.actor },
    now,
  )
  return secret
}

/** A secret as plain text lines (e-mails, copy to clipboard). */
export function secretAsText(secret: StockSecret): string {
  return secret.kind === 'text' ? secret.text : secret.fields.map((field) => `${field.name}: ${field.value}`).join('\n')
}

/** One item's secret, for an admin who opens it (the caller checks the permission and logs it). */
export async function revealStockItem(db: DB, appSecret: string, itemId: string): Promise<StockSecret | null> {
  const item = await db.selectFrom('stockItem').select(['id', 'secretCiphertext']).where('id', '=', itemId).executeTakeFirst()
  return item ? decryptItem(appSecret, item.id, item.secretCiphertext) : null
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
  const secret = delivery.sharedSecret === undefined ? undefined : delivery.sharedSecret?.trim() || null
  const result = await db
    .updateTable('product')
    .set({
      deliveryMode: delivery.mode,
      ...(secret === undefined
        ? {}
        : { sharedSecret: secret === null ? null : encryptSecret(secret, appSecret, sharedContext(productId), STOCK_SECRETS_PURPOSE) }),
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
    .where(sql<boolean>`exists (select 1 from stock_item where stock_item.product_id = "order".product_id and stock_item.status = 'available')`)
    .execute()
  return rows.flatMap((row) => (row.productId ? [row.productId] : []))
}

/** The periodic safety net: fills every product's waiting orders from available stock. */
export async function fillAllAwaitingOrders(db: DB): Promise<number> {
  let filled = 0
  for (const productId of await productsWithAwaitingOrders(db)) filled += await fillAwaitingOrders(db, productId)
  return filled
}

// ---------------------------------------------------------------------------------------------
// Items an admin delivers by hand (app/data/order-admin.server.ts)

export const MANUAL_SECRET_MESSAGES = {
  empty: 'Enter the account details or licence key to deliver.',
  tooLong: `Please keep the details under ${MAX_ITEM_LENGTH.toLocaleString('en-IN')} characters.`,
  invalid: 'The details contain control characters; paste them as plain text.',
} as const

/** "Email: a@b.in": a name (no slashes, so "https://..." stays text), a colon, a value. */
const FIELD_LINE = /^([A-Za-z][A-Za-z0-9 _.()-]{0,39}?)\s*:(?!\/\/)\s*(\S.*)$/

/**
 * What an admin types to deliver an order by hand: when every line is "name: value"
 * (Email: ..., Password: ...) the item has named fields, like a CSV stock item; anything
 * else is kept as text, line by line. Empty lines are dropped.
 */
export function parseManualSecret(input: string): { ok: true; secret: StockSecret } | { ok: false; error: string } {
  const lines = splitLines(input)
    .map((line) => line.trim())
    .filter(Boolean)
  const text = lines.join('\n')
  if (text === '') return { ok: false, error: MANUAL_SECRET_MESSAGES.empty }
  if (text.length > MAX_ITEM_LENGTH) return { ok: false, error: MANUAL_SECRET_MESSAGES.tooLong }
  if (CONTROL_CHARACTERS.test(text)) return { ok: false, error: MANUAL_SECRET_MESSAGES.invalid }
  const matches = lines.map((line) => FIELD_LINE.exec(line))
  if (matches.every((match) => match !== null)) {
    return {
      ok: true,
      secret: { kind: 'fields', fields: matches.map((match) => ({ name: match[1]!.trim(), value: match[2]!.trim() })) },
    }
  }
  return { ok: true, secret: { kind: 'text', text } }
}

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
  input: { orderId: string; productId: string | null; secret: StockSecret; addedBy: string; now?: Date },
): Promise<{ id: string }> {
  const at = (input.now ?? new Date()).toISOString()
  const id = newId()
  await trx
    .insertInto('stockItem')
    .values({
      id,
      productId: input.productId,
      secretCiphertext: encryptItem(appSecret, id, input.secret),
      secretHash: keyedHash(appSecret, STOCK_FINGERPRINT_PURPOSE, JSON.stringify(['manual', input.orderId, id])),
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

/**
 * An item as the admin list shows it: its first characters only (at most 4, and never more
 * than a third of it), so the admin can tell items apart but the page never holds a secret.
 */
export function maskStockSecret(secret: StockSecret): string {
  const identifying =
    secret.kind === 'text'
      ? secret.text
      : (secret.fields.find((field) => !NOTE_COLUMNS.has(field.name) && field.value)?.value ?? '')
  const shown = identifying.slice(0, Math.min(4, Math.floor(identifying.length / 3)))
  if (secret.kind === 'text') return `${shown}${MASK}`
  return `${shown}${MASK} (${secret.fields.map((field) => field.name).join(', ')})`
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
  const pageSize = Math.min(Math.max(Math.trunc(options.pageSize ?? STOCK_PAGE_SIZE), 1), 200)
  let counted = db
    .selectFrom('stockItem')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('productId', '=', productId)
  if (options.status) counted = counted.where('status', '=', options.status)
  const total = Number((await counted.executeTakeFirstOrThrow()).count)
  const pageCount = Math.max(1, Math.ceil(total / pageSize))
  const page = Math.min(Math.max(Math.trunc(options.page ?? 1) || 1, 1), pageCount)

  let query = db
    .selectFrom('stockItem')
    .select(['id', 'status', 'orderId', 'addedBy', 'revokedReason', 'createdAt', 'deliveredAt', 'revokedAt', 'secretCiphertext'])
    .where('productId', '=', productId)
  if (options.status) query = query.where('status', '=', options.status)
  const rows = await query
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute()

  const userIds = [...new Set(rows.flatMap((row) => (row.addedBy.startsWith('user:') ? [row.addedBy.slice(5)] : [])))]
  const users = userIds.length
    ? await db.selectFrom('user').select(['id', 'email']).where('id', 'in', userIds).execute()
    : []
  const emails = new Map(users.map((user) => [`user:${user.id}`, user.email]))

  const items = rows.map(({ secretCiphertext, ...row }) => {
    let preview: string
    try {
      preview = maskStockSecret(decryptItem(appSecret, row.id, secretCiphertext))
    } catch {
      preview = 'Unreadable (encrypted with another APP_SECRET)'
    }
    return { ...row, preview, addedByLabel: emails.get(row.addedBy) ?? row.addedBy }
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
  const source = await db.selectFrom('product').select(['deliveryMode', 'sharedSecret']).where('id', '=', fromId).executeTakeFirst()
  if (!source) return null
  if (source.deliveryMode !== 'shared' || !source.sharedSecret) {
    await setProductDelivery(db, appSecret ?? '', toId, { mode: source.deliveryMode }, now)
    return source.deliveryMode
  }
  let secret: string | null = null
  if (appSecret) {
    try {
      secret = decryptSecret(source.sharedSecret, appSecret, sharedContext(fromId), STOCK_SECRETS_PURPOSE)
    } catch {
      secret = null
    }
  }
  const mode: DeliveryMode = secret === null ? 'manual' : 'shared'
  await setProductDelivery(db, appSecret ?? '', toId, secret === null ? { mode } : { mode, sharedSecret: secret }, now)
  return mode
}
