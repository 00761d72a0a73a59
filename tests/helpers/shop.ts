import crypto from 'node:crypto'
import fs from 'node:fs'
import pg from 'pg'
import { setProductDelivery } from '~/data/stock.server'
import { importStock } from '~/services/fulfilment.server'
import type { DB } from '~/lib/db.server'
import { simulatePayment, startPaytmSimulator, type HtmlForm } from '../../simulators/paytm/testing'
import { startApp, type RunningApp, type StartAppOptions } from './app'
import { makeProduct, openAppDatabase } from '../factories'

/**
 * A shop on the production build with Paytm configured by the environment and the simulator
 * running in the test process (so it outlives a crash of the shop), on SQLite or on a fresh
 * PostgreSQL database. The test opens the shop's own database to set up stock and to check
 * what the shop did.
 */
export type ShopEngine = 'sqlite' | 'postgres'

/** The engines the shop specs run on: SQLite, and PostgreSQL too when TEST_DATABASE_URL is set. */
export const SHOP_ENGINES: ShopEngine[] = process.env.TEST_DATABASE_URL
  ? ['sqlite', 'postgres']
  : ['sqlite']

export const SHOP_SECRET = 'e2e-delivery-secret-0123456789abcdef0123456789'

export interface Shop {
  app: RunningApp
  db: DB
  engine: ShopEngine
  /** The app's environment, to restart it on the same data. */
  env: Record<string, string>
  close(): Promise<void>
}

/** A new, empty PostgreSQL database next to TEST_DATABASE_URL's; dropped by the returned function. */
export async function freshPostgresDatabase(
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set')
  const name = `${prefix}_${crypto.randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl })
      await client.connect()
      await client.query(`drop database if exists ${name} with (force)`)
      await client.end()
    },
  }
}

/** Starts the shop and its Paytm simulator; close() stops both and removes the shop's data. */
export async function startShop(engine: ShopEngine, options: StartAppOptions = {}): Promise<Shop> {
  const sim = await startPaytmSimulator()
  const database = engine === 'postgres' ? await freshPostgresDatabase('kb_e2e_shop') : null
  const env: Record<string, string> = {
    APP_SECRET: SHOP_SECRET,
    PAYTM_HOST: sim.url,
    PAYTM_MID: sim.mid,
    PAYTM_MERCHANT_KEY: sim.merchantKey,
    PAYTM_WEBSITE: 'WEBSTAGING',
    SEED_DEMO: '0',
    // Buyers come through loopback with an address each (payAtGateway's X-Forwarded-For).
    TRUST_PROXY: 'loopback',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...(options.env as Record<string, string> | undefined),
  }
  const app = await startApp({ ...options, env })
  const db = openAppDatabase(app, { DATABASE_URL: database?.url })
  const shop: Shop = {
    app,
    db,
    engine,
    env,
    async close() {
      // The app may have been restarted on the same data directory (shop.app is the latest one).
      await shop.app.dispose()
      fs.rmSync(app.dataDir, { recursive: true, force: true })
      await db.destroy()
      await database?.drop()
      await sim.close()
    },
  }
  return shop
}

/** A `stock` product with `items` fictional items (item-001 ...). */
export async function stockedProduct(
  db: DB,
  items: number,
  price = 49_900,
): Promise<{ id: string; slug: string }> {
  const product = await makeProduct(db, { price, originalPrice: price * 2 })
  await setProductDelivery(db, SHOP_SECRET, product.id, { mode: 'stock' })
  if (items > 0) await addItems(db, product.id, 1, items)
  return { id: product.id, slug: product.slug }
}

/** Adds items number `from` to `to` (inclusive) to a product. */
export async function addItems(db: DB, productId: string, from: number, to: number) {
  const lines = Array.from(
    { length: to - from + 1 },
    (_, i) => `KEY-${String(from + i).padStart(4, '0')}-${productId.slice(0, 6)}`,
  )
  return importStock(db, {
    productId,
    content: lines.join('\n'),
    format: 'lines',
    appSecret: SHOP_SECRET,
  })
}

/** The signed form the checkout page sends the browser to the gateway with (server-rendered, no JS). */
export function paymentForm(html: string): { action: string; fields: Record<string, string> } {
  const form = /<form[^>]*action="([^"]*\/theia\/processTransaction)"[^>]*>([\s\S]*?)<\/form>/.exec(
    html,
  )
  if (!form) throw new Error('No payment form in the page')
  const fields: Record<string, string> = {}
  for (const input of form[2]!.matchAll(
    /<input type="hidden" name="([^"]*)" value="([^"]*)"\/?>/g,
  )) {
    fields[input[1]!] = input[2]!.replace(/&amp;/g, '&')
  }
  return { action: form[1]!.replace(/&amp;/g, '&'), fields }
}

/**
 * One buyer: the checkout form posted without JavaScript (the shop creates the order and signs
 * the gateway form), then 'Simulate success' at the gateway. Returns the order id and the signed
 * callback form the buyer's browser would post back to the shop; the gateway now holds the
 * payment as successful whether or not the shop ever hears about it.
 */
export async function payAtGateway(
  shopUrl: string,
  slug: string,
  buyer: number,
): Promise<{ orderId: string; callback: HtmlForm }> {
  const response = await fetch(`${shopUrl}/checkout/${slug}`, {
    method: 'POST',
    // Each buyer from an address of their own, as the shop (trusting loopback's X-Forwarded-For) throttles checkouts per address.
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-Forwarded-For': `10.0.${(buyer >> 8) & 255}.${buyer & 255}`,
    },
    body: new URLSearchParams({
      name: `Buyer ${buyer}`,
      email: `buyer${buyer}@example.test`,
      phone: `98${String(buyer).padStart(8, '0')}`,
    }),
  })
  if (!response.ok) throw new Error(`checkout answered ${response.status}`)
  const form = paymentForm(await response.text())
  const callback = await simulatePayment(
    { action: new URL(form.action, shopUrl).href, fields: form.fields },
    'success',
  )
  return { orderId: form.fields.ORDER_ID!, callback }
}

/**
 * Buyers 0 to count - 1 pay at the gateway (payAtGateway), ten at a time: the checkout is not
 * what these tests measure.
 */
export async function payAtGatewayTenAtATime(
  shopUrl: string,
  slug: string,
  count: number,
): Promise<Array<Awaited<ReturnType<typeof payAtGateway>>>> {
  const purchases: Array<Awaited<ReturnType<typeof payAtGateway>>> = []
  for (let start = 0; start < count; start += 10) {
    purchases.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(10, count - start) }, (_, i) =>
          payAtGateway(shopUrl, slug, start + i),
        ),
      )),
    )
  }
  return purchases
}

/** Posts a signed callback to the shop as the buyer's browser would; resolves to the HTTP status (0: no answer). */
export async function postCallback(shopUrl: string, callback: HtmlForm): Promise<number> {
  try {
    const response = await fetch(`${shopUrl}/api/payments/paytm/callback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(callback.fields),
      redirect: 'manual',
    })
    await response.arrayBuffer()
    return response.status
  } catch {
    return 0
  }
}

export interface DeliveryState {
  statuses: Record<string, string>
  /** order id -> its live (held or delivered) stock item ids */
  liveItems: Map<string, string[]>
  /** item id -> how many orders it went to, over every status */
  itemOrders: Map<string, number>
  /** order id -> number of 'delivered' timeline events */
  deliveredEvents: Map<string, number>
}

export async function deliveryState(db: DB, orderIds: readonly string[]): Promise<DeliveryState> {
  const orders = await db
    .selectFrom('order')
    .select(['id', 'status'])
    .where('id', 'in', orderIds)
    .execute()
  const items = await db
    .selectFrom('stockItem')
    .select(['id', 'orderId', 'status'])
    .where('orderId', 'in', orderIds)
    .execute()
  const events = await db
    .selectFrom('orderEvent')
    .select('orderId')
    .where('orderId', 'in', orderIds)
    .where('type', '=', 'delivered')
    .execute()
  const liveItems = new Map<string, string[]>()
  const itemOrders = new Map<string, number>()
  for (const item of items) {
    itemOrders.set(item.id, (itemOrders.get(item.id) ?? 0) + 1)
    if (item.status === 'held' || item.status === 'delivered')
      liveItems.set(item.orderId!, [...(liveItems.get(item.orderId!) ?? []), item.id])
  }
  const deliveredEvents = new Map<string, number>()
  for (const event of events)
    deliveredEvents.set(event.orderId, (deliveredEvents.get(event.orderId) ?? 0) + 1)
  return {
    statuses: Object.fromEntries(orders.map((o) => [o.id, o.status])),
    liveItems,
    itemOrders,
    deliveredEvents,
  }
}

export function countBy(values: Iterable<string>): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1
  return counts
}
