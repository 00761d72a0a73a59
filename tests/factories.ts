import crypto from 'node:crypto'
import path from 'node:path'
import {
  createOrder,
  getOrder,
  type CustomerDetails,
  type NewOrder,
  type Order,
} from '~/data/order.server'
import { createProduct, type Product, type ProductInput } from '~/data/product.server'
import { newRefundId, type OrderRefundStatus } from '~/data/refund.server'
import { setProductDelivery } from '~/data/stock.server'
import { importStock, markOrderPaid } from '~/services/fulfilment.server'
import {
  ALL_PERMISSIONS,
  createUser,
  getUserProfile,
  setUserPermissions,
  type Permissions,
  type UserProfile,
} from '~/data/user.server'
import { createDatabase, type DB } from '~/lib/db.server'

/**
 * The one place tests build shop data: users, products, stocked products, orders and paid
 * orders, each through the app's own data functions (so a row is what the shop itself would
 * write), with defaults that make every call unique. Unit and data tests pass their test
 * database (tests/helpers/db.ts, either engine); browser tests open the running app's
 * database with openAppDatabase.
 */

/** A customer's checkout details. */
export const BUYER = { name: 'Asha Verma', email: 'asha@example.in', phone: '9876543210' } as const

/** Keeps names, slugs, e-mails and transaction ids apart across calls and test files. */
const unique = () => crypto.randomBytes(4).toString('hex')

// ---------------------------------------------------------------------------------------
// Users (profiles without a password; a browser test signs up through the app instead)

export async function makeCustomer(
  db: DB,
  overrides: { name?: string; email?: string } = {},
): Promise<UserProfile> {
  const id = unique()
  return createUser(db, {
    name: overrides.name ?? `Customer ${id}`,
    email: overrides.email ?? `customer.${id}@example.test`,
  })
}

/** An admin with every permission, or only those given. */
export async function makeAdmin(
  db: DB,
  overrides: { name?: string; email?: string; permissions?: Partial<Permissions> } = {},
): Promise<UserProfile> {
  const id = unique()
  const admin = await createUser(db, {
    name: overrides.name ?? `Admin ${id}`,
    email: overrides.email ?? `admin.${id}@example.test`,
    admin: true,
  })
  if (!overrides.permissions) return admin
  await setUserPermissions(db, admin.id, { ...ALL_PERMISSIONS, ...overrides.permissions })
  return (await getUserProfile(db, admin.id))!
}

// ---------------------------------------------------------------------------------------
// Products

/** What the product form would post: a product in stock at ₹1,499 unless told otherwise. */
export function productInput(overrides: Partial<ProductInput> = {}): ProductInput {
  const id = unique()
  return {
    title: `Test Subscription ${id}`,
    slug: `test-subscription-${id}`,
    description: 'A subscription for tests',
    shortDescription: 'For tests',
    image: '',
    price: 149_900,
    originalPrice: 299_900,
    category: 'Streaming',
    featured: false,
    inStock: true,
    buyNowLink: null,
    tags: [],
    validity: '12 months',
    deliveryTime: 'Instant delivery',
    features: [],
    metaTitle: '',
    metaDescription: '',
    keywords: [],
    ...overrides,
  }
}

/** A product in stock at ₹1,499, delivered by hand (new products' default), unless told otherwise. */
export async function makeProduct(db: DB, overrides: Partial<ProductInput> = {}): Promise<Product> {
  return createProduct(db, productInput(overrides))
}

/** A demo product's picture, for a product a browser test edits (the product form requires an image). */
export async function demoProductImage(db: DB): Promise<string> {
  const { image } = await db
    .selectFrom('product')
    .select('image')
    .where('image', 'like', 'products/demo_%')
    .executeTakeFirstOrThrow()
  return image
}

/** A product sold from stock, holding these items (accounts or keys, one per entry). */
export async function makeStockedProduct(
  db: DB,
  appSecret: string,
  items: readonly string[],
  overrides: Partial<ProductInput> = {},
): Promise<Product> {
  const product = await makeProduct(db, overrides)
  await setProductDelivery(db, appSecret, product.id, { mode: 'stock' })
  if (items.length) {
    await importStock(db, {
      productId: product.id,
      content: items.join('\n'),
      format: 'lines',
      appSecret,
    })
  }
  return product
}

// ---------------------------------------------------------------------------------------
// Orders

/** A pending order, priced from the product as checkout prices it. */
export async function makeOrder(
  db: DB,
  productId: string,
  overrides: Partial<Omit<NewOrder, 'productId'>> & { customer?: CustomerDetails } = {},
): Promise<Order> {
  return (await createOrder(db, { customer: BUYER, ...overrides, productId })).order
}

/**
 * Confirms an order's payment through markOrderPaid, as a verified gateway callback confirms
 * it: delivery runs with it (from stock, or waiting for stock, or by hand).
 */
export async function payOrder(db: DB, order: Pick<Order, 'id' | 'amount'>): Promise<Order> {
  await markOrderPaid(
    db,
    order.id,
    {
      txnId: `TXN-${unique()}-${order.id}`,
      bankTxnId: null,
      paymentMode: 'UPI',
      paidAmount: order.amount,
      status: 'TXN_SUCCESS',
      respCode: '01',
      respMsg: 'Txn Success',
    },
    { message: 'paid in test' },
  )
  return (await getOrder(db, order.id))!
}

/** A new order, paid (see payOrder). */
export async function makePaidOrder(
  db: DB,
  productId: string,
  overrides: Partial<Omit<NewOrder, 'productId'>> & { customer?: CustomerDetails } = {},
): Promise<Order> {
  return payOrder(db, await makeOrder(db, productId, overrides))
}

/** The ids of the product's orders: none, after a checkout that was refused kept nothing. */
export async function orderIdsOf(db: DB, productId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('order')
    .select('id')
    .where('productId', '=', productId)
    .execute()
  return rows.map((row) => row.id)
}

// ---------------------------------------------------------------------------------------
// Browser tests

/**
 * The database of a shop started by startApp (tests/helpers/app.ts): its DATABASE_URL when
 * it runs on PostgreSQL, else the SQLite file in its data directory. The caller destroys it.
 */
export function openAppDatabase(app: { dataDir: string }, env: { DATABASE_URL?: string } = {}): DB {
  return env.DATABASE_URL
    ? createDatabase({ databaseUrl: env.DATABASE_URL, maxConnections: 4 })
    : createDatabase({ sqlitePath: path.join(app.dataDir, 'keybazaar.db') })
}

/**
 * A refund row of an order as the refund flow leaves it (app/services/payment/refunds.server.ts):
 * asked at `at`, processed then when `status` is processed, and `stopped` when KeyBazaar gave up
 * asking the gateway about it.
 */
export async function makeRefund(
  db: DB,
  orderId: string,
  refund: {
    amount: number
    status: OrderRefundStatus
    at: string
    stopped?: boolean
    requestedBy?: string
  },
): Promise<void> {
  await db
    .insertInto('orderRefund')
    .values({
      id: newRefundId(),
      orderId,
      gateway: 'paytm',
      amount: refund.amount,
      status: refund.status,
      requestedBy: refund.requestedBy ?? 'user:owner',
      createdAt: refund.at,
      updatedAt: refund.at,
      processedAt: refund.status === 'processed' ? refund.at : null,
      checksStoppedAt: refund.stopped ? refund.at : null,
    })
    .execute()
}
