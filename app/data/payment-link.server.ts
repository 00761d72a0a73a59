import { sql, type Selectable } from 'kysely'
import type { DB } from '~/lib/db.server'
import { isForeignKeyViolation } from './db-errors.server'
import { newId } from '~/lib/id.server'
import { SEARCH_MAX } from '~/lib/list-search'
import { paiseToDecimalText, parseRupeesToPaise } from '~/lib/money'
import { paginate, type Pagination } from '~/lib/paginate'
import { containsAny } from '~/lib/sql-contains'
import { newOrderId, OrderError, ORDER_MESSAGES, type CustomerDetails } from './order.server'
import type { PaymentLinkTable } from '../../db/schema'
import type { BusinessBuyer } from './customer-gst.server'

/**
 * Payment links: an admin asks a customer to pay a set amount
 * for a product by sending /payment/pay?order=...&amount=...&product=... The link's record is
 * the truth; the query only finds it, and an amount or product that differs from the record is
 * refused. Each payment attempt is an order of its own (Paytm wants a fresh ORDER_ID per
 * attempt); the first uses the link's order id. A link is paid once.
 */
/** A link as the app reads it: its row, and the URL the customer is sent. */
export type PaymentLink = Selectable<PaymentLinkTable> & { paymentUrl: string }

export const PAYMENT_LINK_MESSAGES = {
  incomplete: 'This payment link is incomplete. Please use the link exactly as you received it.',
  notFound: 'This payment link is not valid. Please check the link or contact us.',
  paid: 'This payment link has already been paid.',
  cancelled: ORDER_MESSAGES.linkClosed,
} as const

const linkColumns = [
  'id',
  'orderId',
  'amount',
  'customerName',
  'customerEmail',
  'customerPhone',
  'productId',
  'productName',
  'status',
  'createdBy',
  'createdAt',
  'updatedAt',
  'buyerBusinessName',
  'buyerGstin',
  'buyerAddress',
] as const

/** /payment/pay?order&amount&product. */
export function paymentLinkUrl(
  publicUrl: string,
  link: { orderId: string; amount: number; productId: string | null },
): string {
  const query = new URLSearchParams({
    order: link.orderId,
    amount: paiseToDecimalText(link.amount),
    product: link.productId ?? '',
  })
  return `${publicUrl}/payment/pay?${query.toString()}`
}

function toLink(row: Omit<PaymentLink, 'paymentUrl'>, publicUrl: string): PaymentLink {
  const amount = Number(row.amount)
  return { ...row, amount, paymentUrl: paymentLinkUrl(publicUrl, { ...row, amount }) }
}

export interface NewPaymentLink {
  productId: string
  /** Paise; the product's price when not given. */
  amount?: number
  customer: CustomerDetails
  createdBy: string | null
  /** The business its invoice is made out to (docs/delivery.md, "Business invoices"). */
  business?: BusinessBuyer | null
}

/**
 * Creates an active link with a new id, for the tests and their fixtures (tests/helpers/payments.ts)
 * that need a link as it is stored. The admin page makes its links with createPaymentLinkOnce
 * (through createPaymentLinkAudited), keyed by its form (docs/payments.md, "Payment links").
 */
export async function createPaymentLink(
  db: DB,
  input: NewPaymentLink,
  publicUrl: string,
  now = Date.now,
): Promise<PaymentLink> {
  const { link } = await createPaymentLinkOnce(db, { ...input, id: newId() }, publicUrl, now)
  return link
}

/** A link made by createPaymentLinkOnce, or the one its id had made before. */
export interface CreatePaymentLinkResult {
  link: PaymentLink
  /** The id was a link's already (the same form sent again): nothing new was written. */
  repeated: boolean
}

/**
 * Creates an active link with the given id, once: an id that is a link's already (the admin's
 * form sent twice, docs/admin.md "Payment links") writes nothing and answers that link, even when
 * both arrive at once (the insert skips a taken id, then finds the row that took it).
 */
export async function createPaymentLinkOnce(
  db: DB,
  input: NewPaymentLink & { id: string },
  publicUrl: string,
  now = Date.now,
): Promise<CreatePaymentLinkResult> {
  const made = await getPaymentLink(db, input.id, publicUrl)
  if (made) return { link: made, repeated: true }
  const product = await db
    .selectFrom('product')
    .select(['id', 'title', 'price'])
    .where('id', '=', input.productId)
    .executeTakeFirst()
  if (!product) throw new OrderError('product-not-found', ORDER_MESSAGES.productNotFound)
  const amount = input.amount ?? Number(product.price)
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new RangeError('A payment link needs a positive amount in paise')
  for (let attempt = 0; attempt < 25; attempt++) {
    const at = now()
    const orderId = newOrderId(at)
    // The first payment attempt will use this id as its order id, so it must not be an order's already.
    const taken = await db
      .selectFrom('order')
      .select('id')
      .where('id', '=', orderId)
      .executeTakeFirst()
    if (taken) continue
    const createdAt = new Date(at).toISOString()
    const row = await db
      .insertInto('paymentLink')
      .values({
        id: input.id,
        orderId,
        amount,
        customerName: input.customer.name,
        customerEmail: input.customer.email,
        customerPhone: input.customer.phone,
        productId: product.id,
        productName: product.title,
        status: 'active',
        createdBy: input.createdBy,
        createdAt,
        updatedAt: createdAt,
        buyerBusinessName: input.business?.businessName ?? null,
        buyerGstin: input.business?.gstin ?? null,
        buyerAddress: input.business?.address ?? null,
      })
      // A taken id or order id: neither is written twice (no conflict target, so both count).
      .onConflict((oc) => oc.doNothing())
      .returning(linkColumns)
      .executeTakeFirst()
      .catch(productGone)
    if (row) return { link: toLink(row, publicUrl), repeated: false }
    // Written meanwhile by the same form's other post (PostgreSQL waited for it to commit).
    const raced = await getPaymentLink(db, input.id, publicUrl)
    if (raced) return { link: raced, repeated: true }
  }
  throw new OrderError('id-exhausted', 'Could not allocate an order id')
}

/** The product was deleted between reading it and inserting the link that names it. */
function productGone(error: unknown): never {
  if (isForeignKeyViolation(error, 'payment_link_product_id_fkey'))
    throw new OrderError('product-not-found', ORDER_MESSAGES.productNotFound)
  throw error
}

export async function getPaymentLinkByOrderId(
  db: DB,
  orderId: string,
  publicUrl: string,
): Promise<PaymentLink | null> {
  const row = await db
    .selectFrom('paymentLink')
    .select(linkColumns)
    .where('orderId', '=', orderId)
    .executeTakeFirst()
  return row ? toLink(row, publicUrl) : null
}

export async function getPaymentLink(
  db: DB,
  id: string,
  publicUrl: string,
): Promise<PaymentLink | null> {
  const row = await db
    .selectFrom('paymentLink')
    .select(linkColumns)
    .where('id', '=', id)
    .executeTakeFirst()
  return row ? toLink(row, publicUrl) : null
}

/** The admin list's page size: the same as the orders, users and transactions lists. */
export const PAYMENT_LINKS_PAGE_SIZE = 20

export interface PaymentLinkFilter {
  /**
   * Contains, any case: the order id, the customer's name, e-mail or phone, and the product,
   * by the name the link was made for or by its product's name now (a product renamed since
   * still finds its links: the refusal to delete a product names its current title).
   */
  search?: string
  status?: PaymentLink['status'] | null
}

export interface PaymentLinkPage extends Pagination {
  items: PaymentLink[]
  /** Every link the filter matches, on all pages. */
  total: number
}

function filteredLinks(db: DB, filter: PaymentLinkFilter) {
  let query = db.selectFrom('paymentLink')
  const search = filter.search?.trim().slice(0, SEARCH_MAX)
  if (search) {
    query = query.where(
      containsAny(
        [
          sql`lower(payment_link.order_id)`,
          sql`lower(payment_link.customer_name)`,
          sql`lower(payment_link.customer_email)`,
          sql`payment_link.customer_phone`,
          sql`lower(payment_link.product_name)`,
          sql`(select lower(product.title) from product where product.id = payment_link.product_id)`,
        ],
        search,
      ),
    )
  }
  if (filter.status) query = query.where('paymentLink.status', '=', filter.status)
  return query
}

/**
 * A page of the admin's payment links, newest first (the id breaks ties, so paging is
 * stable), filtered in SQL like the other admin lists (app/data/order-admin.server.ts): one
 * count, then one page of rows. A page past the end shows the last one (paginate).
 */
export async function listPaymentLinks(
  db: DB,
  publicUrl: string,
  query: PaymentLinkFilter & { page?: number; pageSize?: number } = {},
): Promise<PaymentLinkPage> {
  const { count } = await filteredLinks(db, query)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  const total = Number(count)
  const pagination = paginate(total, query, { defaultSize: PAYMENT_LINKS_PAGE_SIZE, maxSize: 100 })
  const rows = await filteredLinks(db, query)
    .select(linkColumns)
    .orderBy('paymentLink.createdAt', 'desc')
    .orderBy('paymentLink.id', 'desc')
    .limit(pagination.pageSize)
    .offset(pagination.offset)
    .execute()
  return { items: rows.map((row) => toLink(row, publicUrl)), total, ...pagination }
}

export type LinkCheck =
  { ok: true; link: PaymentLink } | { ok: false; status: 400 | 404 | 409 | 410; message: string }

/**
 * Finds the link the query names and checks the query against it: the product and the amount
 * must be exactly the record's, and the link must still be active.
 */
export async function checkPaymentLink(
  db: DB,
  query: { order: string | null; amount: string | null; product: string | null },
  publicUrl: string,
): Promise<LinkCheck> {
  if (!query.order || !query.amount || !query.product)
    return { ok: false, status: 400, message: PAYMENT_LINK_MESSAGES.incomplete }
  const link = await getPaymentLinkByOrderId(db, query.order, publicUrl)
  // A link that exists but was altered is answered as one that does not: an order id that
  // merely exists tells a guesser nothing.
  if (!link || link.productId !== query.product || parseRupeesToPaise(query.amount) !== link.amount)
    return { ok: false, status: 404, message: PAYMENT_LINK_MESSAGES.notFound }
  if (link.status === 'paid') return { ok: false, status: 409, message: PAYMENT_LINK_MESSAGES.paid }
  if (link.status === 'cancelled')
    return { ok: false, status: 410, message: PAYMENT_LINK_MESSAGES.cancelled }
  return { ok: true, link }
}

export type CancelPaymentLinkResult =
  | { status: 'cancelled'; link: Omit<PaymentLink, 'paymentUrl'> }
  | { status: 'missing' }
  | { status: 'not-active'; current: PaymentLink['status'] }

/**
 * An admin withdraws a link (an admin action: the route checks canManageOrders): active ->
 * cancelled in one conditional update, so of two cancels at once (a double click, two admins)
 * only one changes it and the other learns the status it found. The link keeps its customer and
 * business, the record of what was offered. A payment its customer had already started at the
 * gateway still counts if it succeeds: marking the order paid marks the link paid too
 * (docs/payments.md).
 */
export async function cancelPaymentLink(
  db: DB,
  linkId: string,
  now = new Date(),
): Promise<CancelPaymentLinkResult> {
  const row = await db
    .updateTable('paymentLink')
    .set({ status: 'cancelled', updatedAt: now.toISOString() })
    .where('id', '=', linkId)
    .where('status', '=', 'active')
    .returning(linkColumns)
    .executeTakeFirst()
  if (row) return { status: 'cancelled', link: { ...row, amount: Number(row.amount) } }
  const current = await db
    .selectFrom('paymentLink')
    .select('status')
    .where('id', '=', linkId)
    .executeTakeFirst()
  return current ? { status: 'not-active', current: current.status } : { status: 'missing' }
}

/** "Asha Verma" -> "A*** V***": enough for the customer to recognise, nothing for anyone else. */
export function maskName(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .map((word) => `${[...word][0] ?? ''}***`)
    .join(' ')
}

/** "asha@example.in" -> "a***@example.in". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@')
  if (at < 1) return '***'
  return `${[...email][0]}***${email.slice(at)}`
}

/**
 * The payment links made out to `email` get `replacement`'s name and address and no phone (a
 * deleted account, app/data/user.server.ts); a link still open is cancelled, its receipts would
 * go to no one, and forgets the business it was made out to.
 */
export async function anonymisePaymentLinks(
  db: DB,
  email: string,
  replacement: { name: string; email: string },
  now = new Date(),
): Promise<void> {
  await db
    .updateTable('paymentLink')
    .set({
      customerName: replacement.name,
      customerEmail: replacement.email,
      customerPhone: '',
      status: sql<
        PaymentLink['status']
      >`case when status = 'active' then 'cancelled' else status end`,
      // A link never paid names no invoice: its business (maybe a proprietor's own name and
      // address) goes with it. A paid one keeps it, as its invoice does.
      buyerBusinessName: sql<
        string | null
      >`case when status = 'active' then null else buyer_business_name end`,
      buyerGstin: sql<string | null>`case when status = 'active' then null else buyer_gstin end`,
      buyerAddress: sql<
        string | null
      >`case when status = 'active' then null else buyer_address end`,
      updatedAt: now.toISOString(),
    })
    .where('customerEmail', '=', email)
    .execute()
}
