import type { DB } from '~/lib/db.server'
import { discountPercent } from '~/lib/money'
import type { MailKind } from '~/lib/unsubscribe-link.server'
import { productAvailability, stockLeftByProduct, type ItemsCounted } from './product.server'

/**
 * Customers' wishlists: one row per user and product (db/migrations/0085_wishlist.ts). Every
 * query names the user, so a user only ever reads or changes their own list.
 *
 * Back in stock: `awaiting_restock` is set while a wished-for product is seen out of stock
 * (on adding it, or by `takeRestockedWishes`), and cleared when it is seen in stock again;
 * that clearing is what sends one mail, so each return to stock mails once.
 */
export interface WishlistEntry {
  productId: string
  slug: string
  title: string
  image: string
  category: string
  price: number
  originalPrice: number
  discount: number
  inStock: boolean
  buyNowLink: string | null
  notifyRestock: boolean
  addedAt: string
}

/**
 * Availability of the given products, as the storefront shows it (inStock switch and stock).
 * `testItems`: which items count as stock (testItemsOnSale,
 * app/services/payment/offered-gateways.server.ts), as in every function below that takes it.
 */
async function availabilityOf(
  db: DB,
  productIds: readonly string[],
  testItems: ItemsCounted,
): Promise<Map<string, boolean>> {
  if (productIds.length === 0) return new Map()
  const [products, stockLeft] = await Promise.all([
    db
      .selectFrom('product')
      .select(['id', 'inStock', 'buyNowLink'])
      .where('id', 'in', productIds)
      .execute(),
    stockLeftByProduct(db, productIds, { upTo: 1, testItems }),
  ])
  return new Map(
    products.map((row) => [
      row.id,
      productAvailability(
        { id: row.id, inStock: Boolean(row.inStock), buyNowLink: row.buyNowLink },
        stockLeft,
      ).inStock,
    ]),
  )
}

export type AddWishResult = 'added' | 'already' | 'no-product'

/** Adds a product to the user's wishlist; adding it again changes nothing. */
export async function addToWishlist(
  db: DB,
  userId: string,
  productId: string,
  options: { testItems: ItemsCounted; now?: Date },
): Promise<AddWishResult> {
  const now = options.now ?? new Date()
  const inStock = (await availabilityOf(db, [productId], options.testItems)).get(productId)
  if (inStock === undefined) return 'no-product'
  const result = await db
    .insertInto('wishlistItem')
    .values({
      userId,
      productId,
      awaitingRestock: inStock ? 0 : 1,
      createdAt: now.toISOString(),
    })
    .onConflict((oc) => oc.columns(['userId', 'productId']).doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0 ? 'added' : 'already'
}

/** Removes a product from the user's wishlist; true when it was there. */
export async function removeFromWishlist(
  db: DB,
  userId: string,
  productId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('wishlistItem')
    .where('userId', '=', userId)
    .where('productId', '=', productId)
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

/** Which of the given products (all when omitted) are on the user's wishlist. */
export async function wishlistProductIds(
  db: DB,
  userId: string,
  productIds?: readonly string[],
): Promise<string[]> {
  if (productIds && productIds.length === 0) return []
  let query = db.selectFrom('wishlistItem').select('productId').where('userId', '=', userId)
  if (productIds) query = query.where('productId', 'in', productIds)
  return (await query.execute()).map((row) => row.productId)
}

/** The user's wishlist, most recently added first. */
export async function listWishlist(
  db: DB,
  userId: string,
  options: { testItems: ItemsCounted },
): Promise<WishlistEntry[]> {
  const rows = await db
    .selectFrom('wishlistItem')
    .innerJoin('product', 'product.id', 'wishlistItem.productId')
    .select([
      'product.id as productId',
      'product.slug',
      'product.title',
      'product.image',
      'product.category',
      'product.price',
      'product.originalPrice',
      'product.buyNowLink',
      'wishlistItem.notifyRestock',
      'wishlistItem.createdAt as addedAt',
    ])
    .where('wishlistItem.userId', '=', userId)
    .orderBy('wishlistItem.createdAt', 'desc')
    .orderBy('product.title')
    .execute()
  const available = await availabilityOf(
    db,
    rows.map((row) => row.productId),
    options.testItems,
  )
  return rows.map((row) => ({
    productId: row.productId,
    slug: row.slug,
    title: row.title,
    image: row.image,
    category: row.category,
    price: Number(row.price),
    originalPrice: Number(row.originalPrice),
    discount: discountPercent(Number(row.price), Number(row.originalPrice)),
    inStock: available.get(row.productId) ?? false,
    buyNowLink: row.buyNowLink,
    notifyRestock: Boolean(row.notifyRestock),
    addedAt: row.addedAt,
  }))
}

/** Turns the back-in-stock mail for one wished-for product on or off; false when not listed. */
export async function setRestockNotice(
  db: DB,
  userId: string,
  productId: string,
  on: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable('wishlistItem')
    .set({ notifyRestock: on ? 1 : 0 })
    .where('userId', '=', userId)
    .where('productId', '=', productId)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/** The opt-out that stops back-in-stock mails (MAIL_KINDS in app/lib/unsubscribe-link.server.ts). */
const OFFERS: MailKind = 'offers'

export interface RestockedWish {
  userId: string
  email: string
  name: string
  productId: string
  title: string
  slug: string
  price: number
}

/**
 * Looks at every wished-for product (or the given ones): marks the rows of products now out of
 * stock as waiting, and for products back in stock clears the waiting rows, calling `notify`
 * for each one whose owner wants the mail (an active account whose address did not
 * unsubscribe). Each row is claimed by its own conditional update, so two processes running
 * this at once never mail twice. Pass a transaction and queue the mail in it (the outbox).
 */
export async function takeRestockedWishes(
  db: DB,
  notify: (wish: RestockedWish) => Promise<unknown>,
  options: { testItems: ItemsCounted; productIds?: readonly string[]; now?: Date },
): Promise<number> {
  const now = (options.now ?? new Date()).toISOString()
  let wished = db.selectFrom('wishlistItem').select('productId').distinct()
  if (options.productIds) {
    if (options.productIds.length === 0) return 0
    wished = wished.where('productId', 'in', options.productIds)
  }
  const productIds = (await wished.execute()).map((row) => row.productId)
  if (productIds.length === 0) return 0
  const available = await availabilityOf(db, productIds, options.testItems)
  const outIds = productIds.filter((id) => available.get(id) === false)
  const inIds = productIds.filter((id) => available.get(id) === true)
  if (outIds.length) {
    await db
      .updateTable('wishlistItem')
      .set({ awaitingRestock: 1 })
      .where('productId', 'in', outIds)
      .where('awaitingRestock', '=', 0)
      .execute()
  }
  if (inIds.length === 0) return 0
  const waiting = await db
    .selectFrom('wishlistItem')
    .innerJoin('user', 'user.id', 'wishlistItem.userId')
    .innerJoin('product', 'product.id', 'wishlistItem.productId')
    // The account-wide switch (/dashboard/settings, user_preference) turns these mails off too,
    // and so does the unsubscribe link of such a mail (mail_opt_out, docs/notifications.md).
    .leftJoin('userPreference', 'userPreference.userId', 'wishlistItem.userId')
    .leftJoin('mailOptOut', (join) =>
      join.onRef('mailOptOut.email', '=', 'user.email').on('mailOptOut.kind', '=', OFFERS),
    )
    .select([
      'wishlistItem.userId',
      'wishlistItem.productId',
      'wishlistItem.notifyRestock',
      'userPreference.notifications',
      'mailOptOut.email as optedOut',
      'user.email',
      'user.name',
      'user.status',
      'product.title',
      'product.slug',
      'product.price',
    ])
    .where('wishlistItem.productId', 'in', inIds)
    .where('wishlistItem.awaitingRestock', '=', 1)
    .execute()
  let mailed = 0
  for (const row of waiting) {
    const wants =
      Boolean(row.notifyRestock) &&
      (row.notifications === null || Number(row.notifications) === 1) &&
      row.optedOut === null &&
      (row.status ?? 'active') === 'active'
    const claimed = await db
      .updateTable('wishlistItem')
      .set({ awaitingRestock: 0, ...(wants ? { restockMailedAt: now } : {}) })
      .where('userId', '=', row.userId)
      .where('productId', '=', row.productId)
      .where('awaitingRestock', '=', 1)
      .executeTakeFirst()
    if (Number(claimed.numUpdatedRows) === 0 || !wants) continue
    await notify({
      userId: row.userId,
      email: row.email,
      name: row.name,
      productId: row.productId,
      title: row.title,
      slug: row.slug,
      price: Number(row.price),
    })
    mailed++
  }
  return mailed
}
