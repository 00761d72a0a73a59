import crypto from 'node:crypto'
import {
  countOpenSales,
  createProductChecked,
  deleteProduct,
  duplicateProduct,
  getProductById,
  getProductDelivery,
  lockProduct,
  productOwnFields,
  updateProduct,
  type Product,
  type ProductInput,
} from '~/data/product.server'
import {
  keepSharedSecretForBuyers,
  replacesSharedSecret,
  revokeStockItem,
  setProductDelivery,
  withdrawUnsoldItems,
  type ImportStockInput,
  type RevokeResult,
} from '~/data/stock.server'
import type { DB } from '~/lib/db.server'
import type { StockImportSummary } from '~/lib/validation/stock-import'
import type { ProductDeliveryMode } from '~/lib/validation/product'
import { recordAdminChange, type AuditActor } from './audit.server'
import { importStock } from './fulfilment.server'

/**
 * The back office's changes to products and their stock, each recorded in the audit log
 * (docs/audit.md) with the product's fields before and after.
 */

/** Who made the change, as the audit log records it. */
export interface AdminWho {
  actor: AuditActor
  ip: string | null
}

export interface ProductDeliveryInput {
  mode: ProductDeliveryMode
  /** A new secret, null to clear it, undefined to keep what is saved. */
  sharedSecret?: string | null
}

/** The fields of a product the audit log compares (the derived discount and times are left out). */
export function productAuditFields(
  product: Product,
  delivery?: ProductDeliveryInput,
): Record<string, unknown> {
  const fields = productOwnFields(product)
  return delivery ? { ...fields, deliveryMode: delivery.mode } : fields
}

/** The secret as setProductDelivery saves it: undefined keeps it, blank text clears it. */
function nextSecret(delivery: ProductDeliveryInput): string | null | undefined {
  return delivery.sharedSecret === undefined ? undefined : delivery.sharedSecret?.trim() || null
}

/**
 * The shared secret as the audit entry compares it, never the secret itself: `saved` for the one
 * there before, `new` for one saved by this change, null for none, and nothing at all when it
 * stays as it was (left empty, or typed again unchanged). The field's name looks secret, so
 * diffForAudit stores both sides masked: a first secret reads as set (empty to ••••), a
 * replaced one as changed (•••• to ••••), a cleared one as cleared (•••• to empty), as
 * docs/audit.md says.
 */
function secretAudit(
  had: boolean,
  next: string | null | undefined,
  replaced: boolean,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const unchanged = { before: {}, after: {} }
  if (next === undefined) return unchanged
  if (!had) return next === null ? unchanged : { before: {}, after: { sharedSecret: 'new' } }
  if (!replaced) return unchanged
  return {
    before: { sharedSecret: 'saved' },
    after: { sharedSecret: next === null ? null : 'new' },
  }
}

/** Adds a product with its delivery, and the audit entry, together or not at all. */
export async function createProductAudited(
  db: DB,
  input: { product: ProductInput; delivery: ProductDeliveryInput; appSecret: string },
  who: AdminWho,
): Promise<Product> {
  return db.transaction().execute(async (trx) => {
    const created = await createProductChecked(trx, input.product)
    await setProductDelivery(trx, input.appSecret, created.id, input.delivery)
    await recordAdminChange(trx, {
      ...who,
      action: 'product.create',
      target: { type: 'product', id: created.id },
      summary: `Created ${created.title}`,
      before: null,
      after: {
        ...productAuditFields(created, input.delivery),
        ...secretAudit(false, nextSecret(input.delivery), false).after,
      },
    })
    return created
  })
}

/** How the product is delivered, as the edit page shows it (never the secret itself). */
export interface ShownDelivery {
  mode: ProductDeliveryMode
  hasSharedSecret: boolean
}

/**
 * What the Edit Product form shows of a product, as a short fingerprint: the page posts it with
 * the form, and a save made from a page showing other values is refused (updateProductAudited).
 * Only the fields the form edits count: not `updatedAt` or anything another part of the shop may
 * move, so nothing but an edit makes an open form stale. The shared secret counts only as set or
 * not: the form never shows it, and an empty secret field keeps whatever is saved.
 */
export function productEditVersion(product: Product, delivery: ShownDelivery): string {
  return crypto
    .createHash('sha256')
    .update(
      JSON.stringify([
        product.title,
        product.slug,
        product.description,
        product.shortDescription,
        product.category,
        product.tags,
        product.price,
        product.originalPrice,
        product.image,
        product.buyNowLink,
        product.metaTitle,
        product.metaDescription,
        product.keywords,
        product.inStock,
        product.featured,
        product.features,
        product.validity,
        product.deliveryTime,
        delivery.mode,
        delivery.hasSharedSecret,
      ]),
    )
    .digest('base64url')
    .slice(0, 16)
}

export type UpdateProductResult =
  /** Saved; `before` is the product as it was stored just before (its image may need removing). */
  | { status: 'saved'; product: Product; before: Product }
  | { status: 'missing' }
  /** Changed since the form's page was loaded: nothing was saved. */
  | { status: 'stale' }
  /**
   * The product was there and held, but the database changed no row when asked to save it (a
   * trigger or rule refusing the write without an error): nothing was saved.
   */
  | { status: 'failed' }

/** Rolls back a save the database took without saving it (see 'failed' above). */
class NotSaved extends Error {}

/**
 * Saves an edited product with its delivery, and the audit entry with the fields that changed.
 * The product is read again here, its row held for the transaction (lockProduct), and the save
 * goes ahead only if it still matches `version`, the productEditVersion of the page the form
 * came from: a save over another admin's change is refused (nothing written, no entry) rather
 * than silently undoing it. The entry's "before" is that row, the product as it really was.
 * A shared secret cleared or replaced stays with the buyers it was delivered to: each delivered
 * order first gets its own copy (keepSharedSecretForBuyers), and only later buyers get the new
 * one (docs/admin.md, "The form"). A save the database takes without changing the row is
 * rolled back whole and answered 'failed'; an error is thrown as it is.
 */
export async function updateProductAudited(
  db: DB,
  input: {
    id: string
    version: string
    product: ProductInput
    delivery: ProductDeliveryInput
    appSecret: string
  },
  who: AdminWho,
): Promise<UpdateProductResult> {
  const save = db.transaction().execute(async (trx): Promise<UpdateProductResult> => {
    if (!(await lockProduct(trx, input.id, { for: 'edit' }))) return { status: 'missing' }
    const before = await getProductById(trx, input.id)
    const beforeDelivery = await getProductDelivery(trx, input.id)
    if (!before || !beforeDelivery) return { status: 'missing' }
    if (input.version !== productEditVersion(before, beforeDelivery)) return { status: 'stale' }
    const replaced = await replacesSharedSecret(
      trx,
      input.appSecret,
      before.id,
      input.delivery.sharedSecret,
    )
    if (replaced) await keepSharedSecretForBuyers(trx, input.appSecret, before.id)
    // The row is held (lockProduct): a save that changes no row was refused by the database.
    const saved = await updateProduct(trx, before.id, input.product)
    if (!saved || !(await setProductDelivery(trx, input.appSecret, saved.id, input.delivery)))
      throw new NotSaved()
    const secret = secretAudit(beforeDelivery.hasSharedSecret, nextSecret(input.delivery), replaced)
    await recordAdminChange(trx, {
      ...who,
      action: 'product.update',
      target: { type: 'product', id: saved.id },
      summary: `Updated ${saved.title}`,
      before: { ...productAuditFields(before, { mode: beforeDelivery.mode }), ...secret.before },
      after: { ...productAuditFields(saved, input.delivery), ...secret.after },
    })
    return { status: 'saved', product: saved, before }
  })
  return save.catch((error: unknown) => {
    if (error instanceof NotSaved) return { status: 'failed' }
    throw error
  })
}

/**
 * Copies a product (duplicateProduct: its fields, delivery mode and shared secret, never its
 * stock) and records the copy as created, naming its source; null when the source is gone. The
 * copy is made first, in its own statements (two admins copying at once retry on the slug), and
 * its entry right after.
 */
export async function duplicateProductAudited(
  db: DB,
  input: { source: Product; image: string; appSecret: string },
  who: AdminWho,
): Promise<Product | null> {
  const { source } = input
  const copy = await duplicateProduct(db, source.id, {
    image: input.image,
    appSecret: input.appSecret,
  })
  if (!copy) return null
  // The copy exists now: an entry that cannot be written is logged, never reported as a failed
  // duplicate that the admin would repeat (a second copy).
  await recordCopy(db, source, copy, who).catch((error: unknown) =>
    console.error(
      `[admin] ${copy.id} copied from ${source.id}, but its audit entry was not written:`,
      error,
    ),
  )
  return copy
}

async function recordCopy(db: DB, source: Product, copy: Product, who: AdminWho): Promise<void> {
  const delivery = await getProductDelivery(db, copy.id)
  await recordAdminChange(db, {
    ...who,
    action: 'product.create',
    target: { type: 'product', id: copy.id },
    summary: `Created ${copy.title} as a copy of ${source.title}`,
    before: null,
    after: {
      ...productAuditFields(copy, delivery ? { mode: delivery.mode } : undefined),
      ...(delivery?.hasSharedSecret ? { sharedSecret: 'copied' } : {}),
      copiedFrom: source.id,
    },
  })
}

/**
 * How many reviews each product has, hidden ones included: what deleting it deletes with it (the
 * review's foreign key cascades, db/migrations/0100_product_reviews.ts), which the delete
 * question and the audit entry name. One count grouped by product, read from
 * review_product_created_idx (its first column is the product); a product without reviews is
 * left out.
 */
export async function reviewCounts(
  db: DB,
  productIds: readonly string[],
): Promise<Map<string, number>> {
  if (productIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('review')
    .select((eb) => ['productId', eb.fn.countAll<number | string>().as('count')])
    .where('productId', 'in', productIds)
    .groupBy('productId')
    .execute()
  return new Map(rows.map((row) => [row.productId, Number(row.count)]))
}

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString('en-IN')} ${count === 1 ? one : many}`

/** The delete's audit summary: the product, the reviews deleted with it, the stock withdrawn. */
function deletedSummary(title: string, reviews: number, withdrawn: number): string {
  return [
    `Deleted ${title}`,
    reviews ? ` and its ${plural(reviews, 'review', 'reviews')}` : '',
    withdrawn
      ? `${reviews ? ',' : ''} and withdrew its ${plural(withdrawn, 'unsold item', 'unsold items')}`
      : '',
  ].join('')
}

export type DeleteProductResult =
  | {
      status: 'deleted'
      product: Pick<Product, 'id' | 'title' | 'image'>
      withdrawn: number
      /** Its reviews, deleted with it. */
      reviews: number
    }
  | { status: 'missing' }
  /** Real orders of it not finished yet, and payment links of it not yet paid. */
  | { status: 'open-sales'; title: string; orders: number; paymentLinks: number }

/**
 * Deletes a product and records what it was. A product with real orders not finished yet, or
 * payment links not yet paid, is kept: its buyers are owed a delivery (or a refund), or may still
 * pay, and both need the product. Its unsold stock is withdrawn with it, and the audit entry says
 * how many items, and how many reviews went with it (reviewCounts); a shared secret it delivered
 * stays with each buyer's order.
 */
export async function deleteProductAudited(
  db: DB,
  appSecret: string,
  id: string,
  who: AdminWho,
): Promise<DeleteProductResult> {
  return db.transaction().execute(async (trx): Promise<DeleteProductResult> => {
    if (!(await lockProduct(trx, id))) return { status: 'missing' }
    const product = await getProductById(trx, id)
    if (!product) return { status: 'missing' }
    const open = await countOpenSales(trx, id)
    if (open.orders > 0 || open.paymentLinks > 0)
      return { status: 'open-sales', title: product.title, ...open }
    const withdrawn = await withdrawUnsoldItems(trx, {
      productId: id,
      reason: `Withdrawn with the deleted product ${product.title}`,
    })
    // Its buyers keep a shared account delivered to them (the order page shows it).
    await keepSharedSecretForBuyers(trx, appSecret, id)
    // Counted with the row held: a review being written for it waits (its foreign key).
    const reviews = (await reviewCounts(trx, [id])).get(id) ?? 0
    const deleted = await deleteProduct(trx, id)
    if (!deleted) return { status: 'missing' }
    await recordAdminChange(trx, {
      ...who,
      action: 'product.delete',
      target: { type: 'product', id },
      summary: deletedSummary(product.title, reviews, withdrawn.real),
      before: productAuditFields(product),
      after: null,
    })
    return { status: 'deleted', product: deleted, withdrawn: withdrawn.real, reviews }
  })
}

/**
 * Imports stock (app/services/fulfilment.server.ts) and records the counts in the import's own
 * transaction, after the waiting orders were filled: the entry exists exactly when the items do,
 * and an entry that cannot be written adds nothing (so "nothing was added" is then true).
 */
export async function importStockAudited(
  db: DB,
  input: ImportStockInput & { productTitle: string },
  who: AdminWho,
): Promise<StockImportSummary> {
  const { productTitle, ...importInput } = input
  return importStock(
    db,
    importInput,
    async (trx, { added, duplicates, elsewhere, invalid, filled }) => {
      await recordAdminChange(trx, {
        ...who,
        action: 'stock.import',
        target: { type: 'product', id: input.productId },
        summary: `Imported ${added} stock ${added === 1 ? 'item' : 'items'} for ${productTitle}`,
        before: null,
        after: {
          added,
          duplicates,
          // Items other products hold (docs/delivery.md, "One product per item").
          elsewhere,
          invalid,
          filled,
          testItems: importInput.testItems ?? false,
        },
      })
    },
  )
}

/** Withdraws one unsold item and records it; a sold or missing item changes nothing. */
export async function revokeStockItemAudited(
  db: DB,
  input: { itemId: string; productId: string; productTitle: string; reason?: string },
  who: AdminWho,
): Promise<RevokeResult> {
  return db.transaction().execute(async (trx) => {
    const result = await revokeStockItem(trx, input)
    if (result.revoked) {
      await recordAdminChange(trx, {
        ...who,
        action: 'stock.revoke',
        target: { type: 'stock_item', id: input.itemId },
        summary: `Revoked a stock item of ${input.productTitle}`,
        before: { status: 'available', productId: input.productId },
        after: { status: 'revoked', productId: input.productId },
      })
    }
    return result
  })
}
