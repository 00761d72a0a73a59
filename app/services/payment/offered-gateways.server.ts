import { readGatewayRecords } from '~/data/gateway.server'
import {
  getProductById,
  productAvailability,
  sharedProductIds,
  stockLeftByProduct,
  type ItemsCounted,
} from '~/data/product.server'
import type { DB } from '~/lib/db.server'
import type { Env } from '~/lib/env.server'
import { readCache } from '~/lib/read-cache.server'
import type { StockKinds } from '~/lib/stock-status'
import { resolvePaytmSetup } from './config.server'
import { resolveRazorpaySetup } from './razorpay-config.server'
import { resolvePhonePeSetup } from './phonepe-config.server'
import { isSandbox, type GatewaySetup } from './gateway-setup.server'

/**
 * The gateways a buyer may pay through right now, in the order checkout offers them
 * (docs/payments.md, "Choosing how to pay"). Only their configuration is read here, none of the
 * payment flows (gateways.server.ts starts a payment), so pages and the stock services may ask
 * without depending on them.
 */
export const CHECKOUT_GATEWAYS = ['razorpay', 'phonepe', 'paytm'] as const
export type CheckoutGatewayId = (typeof CHECKOUT_GATEWAYS)[number]

export interface CheckoutGateway {
  id: CheckoutGatewayId
  /** What the buyer picks. */
  label: string
  /** True for a built-in simulator or the gateway's own test environment: no real money moves. */
  testMode: boolean
  /** The gateway's own test environment (staging, sandbox, test keys), not the simulator. */
  sandbox: boolean
}

const LABELS: Record<CheckoutGatewayId, string> = {
  razorpay: 'UPI, cards, netbanking — Razorpay',
  phonepe: 'UPI, cards, netbanking — PhonePe',
  paytm: 'UPI, cards, wallet — Paytm',
}

/** Gateways checkout may use, in the shop's order of the Gateways page. */
export async function checkoutGateways(db: DB, env: Env): Promise<CheckoutGateway[]> {
  // One read of the records serves the order and all three setups.
  const rows = await readGatewayRecords(db)
  const [paytm, razorpay, phonepe] = await Promise.all([
    resolvePaytmSetup(db, env, rows),
    resolveRazorpaySetup(db, env, rows),
    resolvePhonePeSetup(db, env, rows),
  ])
  const setups: Partial<
    Record<CheckoutGatewayId, Pick<GatewaySetup<unknown>, 'source' | 'testMode'>>
  > = {}
  if (paytm) setups.paytm = paytm
  if (razorpay) setups.razorpay = razorpay
  if (phonepe) setups.phonepe = phonepe
  const order: CheckoutGatewayId[] = []
  for (const row of rows)
    if (
      (CHECKOUT_GATEWAYS as readonly string[]).includes(row.type) &&
      !order.includes(row.type as CheckoutGatewayId)
    )
      order.push(row.type as CheckoutGatewayId)
  // A gateway configured only by the environment (or Paytm's simulator) comes after the records.
  for (const id of ['paytm', 'razorpay', 'phonepe'] as const)
    if (!order.includes(id)) order.push(id)
  return order
    .filter((id) => setups[id])
    .map((id) => ({
      id,
      label: LABELS[id],
      testMode: setups[id]!.testMode,
      sandbox: isSandbox(setups[id]!),
    }))
}

// Per environment (a test may run several shops), for up to a second like the catalogue.
const offered = readCache<Env, CheckoutGateway[]>(['paymentGateway', 'siteSetting'])

/** checkoutGateways, shared by the pages for up to a second. */
function offeredNow(db: DB, env: Env): Promise<CheckoutGateway[]> {
  return offered.get(db, env, () => checkoutGateways(db, env))
}

/**
 * Whether test items can be sold through `gateways` (checkoutGateways): an order paid through a
 * built-in simulator is delivered from test items only, a real one from real items only. True
 * while some gateway is a simulator, and while none is offered at all (nothing sells then, and
 * the stock shown stays as it was; checkout says it cannot take payments).
 */
export function sellsTestItems(gateways: readonly CheckoutGateway[]): boolean {
  return gateways.length === 0 || gateways.some((gateway) => gateway.testMode)
}

/**
 * Which items `gateways` can sell (stockLeftByProduct's `testItems`): test items alone while
 * every gateway is a simulator, real items alone while none is, both while the two kinds sit
 * side by side (each product is offered the gateways that can sell it) and while none is offered
 * (as sellsTestItems).
 */
export function itemsSoldThrough(gateways: readonly CheckoutGateway[]): ItemsCounted {
  if (gateways.length === 0) return true
  const kinds = kindsOf(gateways)
  return kinds.test ? (kinds.real ? true : 'only') : false
}

/**
 * itemsSoldThrough what checkout offers now: the items the storefront counts as stock. A live
 * shop whose product holds only the demo's test items shows it out of stock, and a shop in test
 * mode one that holds only real items, instead of taking buyers to a checkout that refuses them
 * (docs/delivery.md).
 */
export async function testItemsOnSale(db: DB, env: Env): Promise<ItemsCounted> {
  return itemsSoldThrough(await offeredNow(db, env))
}

/**
 * itemsSoldThrough as the admin's stock figures name it: 'test' in test mode, 'real' with live
 * gateways only, 'both' otherwise (app/lib/stock-status.ts).
 */
export function stockKindsSoldThrough(gateways: readonly CheckoutGateway[]): StockKinds {
  const items = itemsSoldThrough(gateways)
  return items === 'only' ? 'test' : items ? 'both' : 'real'
}

/** stockKindsSoldThrough what checkout offers now. */
export async function stockKindsOnSale(db: DB, env: Env): Promise<StockKinds> {
  return stockKindsSoldThrough(await offeredNow(db, env))
}

/**
 * Whether checkout offers a live gateway: one that takes real money, neither a built-in
 * simulator nor a gateway's own test environment (staging, sandbox, test keys). Reviews of
 * test-mode orders are shown only while it answers false (docs/reviews.md). Shared by the pages
 * for up to a second; a gateway saved on the Gateways page also moves the page cache's version
 * (docs/page-cache.md), so no page keeps the old answer.
 */
export async function liveGatewayActive(db: DB, env: Env): Promise<boolean> {
  return (await offeredNow(db, env)).some((gateway) => !gateway.testMode)
}

/**
 * Whether the whole shop is in test mode: checkout offers gateways and every one is a
 * simulator. Only then do test items bring a back-in-stock mail, a promise to buyers that a
 * simulator switched on beside real gateways must not make (docs/delivery.md).
 */
export async function testModeOnly(db: DB, env: Env): Promise<boolean> {
  const gateways = await offeredNow(db, env)
  return gateways.length > 0 && gateways.every((gateway) => gateway.testMode)
}

/**
 * Whether a test-mode order of `gateway` went to that gateway's own test environment (staging,
 * sandbox, test keys) rather than its built-in simulator, as the shop is set up now: what the
 * order's test-mode banner names.
 */
export async function paidInTestEnvironment(db: DB, env: Env, gateway: string): Promise<boolean> {
  return (await offeredNow(db, env)).some((offered) => offered.id === gateway && offered.sandbox)
}

type Sellable = { id: string; inStock: boolean; buyNowLink: string | null }

/** Which kinds of gateway are among `gateways`: real ones, built-in simulators, or both. */
function kindsOf(gateways: readonly CheckoutGateway[]): { real: boolean; test: boolean } {
  return {
    real: gateways.some((gateway) => !gateway.testMode),
    test: gateways.some((gateway) => gateway.testMode),
  }
}

/**
 * For each of `products`, whether a gateway of each kind in `kinds` could take an order for it
 * now: a real one for a product switched on with a real item left (or not sold from stock), a
 * simulator for a product switched on with a test item left (or not sold from stock) and not
 * shared with buyers, as order creation decides (app/data/order.server.ts). A kind not asked
 * about is false.
 */
async function sellingKinds(
  db: DB,
  kinds: { real: boolean; test: boolean },
  products: readonly Sellable[],
): Promise<Map<string, { real: boolean; test: boolean }>> {
  const ids = products.map((product) => product.id)
  const left = (testItems: ItemsCounted) => stockLeftByProduct(db, ids, { upTo: 1, testItems })
  const [realLeft, testLeft, shared] = await Promise.all([
    kinds.real ? left(false) : null,
    kinds.test ? left('only') : null,
    kinds.test ? sharedProductIds(db, ids) : new Set<string>(),
  ])
  const sells = (product: Sellable, stockLeft: ReadonlyMap<string, number> | null) =>
    stockLeft !== null && productAvailability(product, stockLeft, { viaCheckout: true }).inStock
  return new Map(
    products.map((product) => [
      product.id,
      {
        real: sells(product, realLeft),
        test: !shared.has(product.id) && sells(product, testLeft),
      },
    ]),
  )
}

/**
 * The ids among `products` that checkout can take an order for now, through at least one of
 * the gateways it offers (sellingKinds). Checkout decides again when the order is written; this
 * is for pages that should not offer a product only to have it refused (payment links, the pay
 * page, the result page's retry link).
 */
export async function sellableNow(
  db: DB,
  env: Env,
  products: readonly Sellable[],
): Promise<Set<string>> {
  if (products.length === 0) return new Set()
  const gateways = await offeredNow(db, env)
  // With no gateway offered nothing sells; the answer is then the storefront's, either kind
  // of item counted (docs/payments.md, "Payment links").
  const kinds = gateways.length === 0 ? { real: true, test: true } : kindsOf(gateways)
  const selling = await sellingKinds(db, kinds, products)
  return new Set(
    products
      .filter((product) => {
        const kind = selling.get(product.id)!
        return kind.real || kind.test
      })
      .map((product) => product.id),
  )
}

/**
 * The gateways among `gateways` (checkoutGateways) that can sell `product` now: with a real
 * gateway beside a simulator, a product holding only test items is offered through the
 * simulator alone, and one holding only real items (or a shared account) through the real
 * gateway alone, so the buyer is not sent to a gateway whose order would be refused. All of
 * them when none can: checkout then says why (out of stock, or not sold in test mode).
 */
export async function gatewaysFor(
  db: DB,
  gateways: CheckoutGateway[],
  productId: string,
): Promise<CheckoutGateway[]> {
  const kinds = kindsOf(gateways)
  if (!kinds.real || !kinds.test) return gateways
  const product = await getProductById(db, productId)
  if (!product) return gateways
  const kind = (await sellingKinds(db, kinds, [product])).get(product.id)!
  const able = gateways.filter((gateway) => (gateway.testMode ? kind.test : kind.real))
  return able.length > 0 ? able : gateways
}
