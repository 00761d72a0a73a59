import type { DB } from '~/lib/db.server'
import { createOrder, getOrder } from '~/data/order.server'
import { createProduct, getProductBySlug } from '~/data/product.server'
import { fillUnsavedSiteSettings, getMarker, setMarker } from '~/data/settings.server'
import { createUser, findUserByEmail } from '~/data/user.server'
import { withdrawPendingJobs } from '~/lib/jobs.server'
import { ORDER_MAIL_JOB } from '~/services/notifications/order-mail.server'
import { importStock, markOrderPaid } from '~/services/fulfilment.server'
import { saveReview } from '~/services/reviews.server'
import { discountPercent } from '~/lib/money'
import { slugify } from '~/lib/slug'
import type { Storage } from '~/lib/storage.server'
import { renderArtwork } from './artwork'
import { DEMO_PRODUCTS } from './demo-products'
import { DEMO_REVIEWS } from './demo-reviews'

export const DEMO_SEED_MARKER = 'marker.demoSeededAt'

export interface SeedResult {
  created: number
  skipped: number
}

/**
 * Adds the demo catalogue. Idempotent: a product whose slug exists is left as it is
 * (the owner may have edited it); a missing image file is drawn again.
 */
export async function seedDemo(
  db: DB,
  storage: Storage,
  // Demo stock items are encrypted with APP_SECRET, so the caller passes it.
  appSecret: string,
  now: Date = new Date(),
): Promise<SeedResult> {
  let created = 0
  let skipped = 0
  // Oldest first, one second apart, so "newest first" lists keep the catalogue's order.
  const start = now.getTime() - DEMO_PRODUCTS.length * 1000
  for (const [index, demo] of DEMO_PRODUCTS.entries()) {
    const slug = slugify(demo.title)
    const imageKey = `products/demo_${slug}.webp`
    if (!(await storage.exists(imageKey))) {
      await storage.put(imageKey, await renderArtwork(demo.glyph, demo.hue), 'image/webp')
    }
    if (await getProductBySlug(db, slug)) {
      skipped++
      continue
    }
    const product = await createProduct(
      db,
      {
        title: demo.title,
        slug,
        description: demo.description,
        shortDescription: demo.shortDescription,
        image: imageKey,
        price: demo.price * 100,
        originalPrice: demo.originalPrice * 100,
        category: demo.category,
        featured: demo.featured ?? false,
        inStock: demo.inStock ?? true,
        buyNowLink: null,
        tags: demo.tags,
        validity: demo.validity,
        deliveryTime: demo.deliveryTime,
        features: demo.features,
        metaTitle: `${demo.title} at ${discountPercent(demo.price, demo.originalPrice)}% off`,
        metaDescription: demo.shortDescription,
        keywords: [...demo.tags, demo.category.toLowerCase()],
      },
      new Date(start + (DEMO_PRODUCTS.length - index) * 1000),
    )
    // Demo products deliver from stock, so a first test purchase shows instant delivery.
    await db
      .updateTable('product')
      .set({ deliveryMode: 'stock' })
      .where('id', '=', product.id)
      .execute()
    created++
  }
  await seedDemoStock(db, appSecret)
  await seedDemoReviews(db, now)
  if (!(await getMarker(db, DEMO_SEED_MARKER))) {
    // The demo's contact details fill only settings never saved: `npm run db:seed` on a shop the
    // owner set up keeps its name and contacts, as it keeps its products (README.md).
    await fillUnsavedSiteSettings(db, {
      siteName: 'KeyBazaar',
      contactEmail: 'support@keybazaar.example',
      phoneNumber: '+91 98765 43210',
      whatsappNumber: '919876543210',
    })
  }
  await setMarker(db, DEMO_SEED_MARKER, now.toISOString())
  return { created, skipped }
}

export const DEMO_STOCK_PER_PRODUCT = 20

/**
 * Gives every demo product sold from stock a few clearly fictional items, so a first test
 * purchase through the simulator delivers something. Idempotent: the stock's de-duplication
 * skips items already there (sold or revoked ones included).
 */
export async function seedDemoStock(db: DB, appSecret: string): Promise<number> {
  const slugs = DEMO_PRODUCTS.map((demo) => slugify(demo.title))
  const products = await db
    .selectFrom('product')
    .select(['id', 'slug'])
    .where('slug', 'in', slugs)
    .where('deliveryMode', '=', 'stock')
    .execute()
  let added = 0
  for (const product of products) {
    const first = slugs.indexOf(product.slug) * 10 + 1
    const content = Array.from({ length: DEMO_STOCK_PER_PRODUCT }, (_, i) => {
      const n = String(first + i).padStart(3, '0')
      return `demo-user-${n}@example.test / Demo-Pass-${n}`
    }).join('\n')
    // Fictional items are test items: sold only while payments go through the simulator.
    added += (
      await importStock(db, {
        productId: product.id,
        content,
        format: 'lines',
        appSecret,
        testItems: true,
      })
    ).added
  }
  return added
}

/** A fictional buyer's address: example.test is reserved and never receives mail. */
export function demoBuyerEmail(name: string): string {
  return `${slugify(name).replace(/-/g, '.')}.demo-buyer@example.test`
}

/**
 * The demo reviews: each fictional buyer buys their product (a test-mode order paid and
 * delivered from the demo's test stock, as a simulator purchase is) and reviews it through
 * saveReview, the service behind the order page's review form. Idempotent: a buyer who already
 * exists has been seeded before. Their order mails are withdrawn from the outbox.
 */
export async function seedDemoReviews(db: DB, now: Date = new Date()): Promise<number> {
  let written = 0
  for (const demo of DEMO_REVIEWS) {
    const email = demoBuyerEmail(demo.buyer)
    if (await findUserByEmail(db, email)) continue
    const product = await getProductBySlug(db, demo.product)
    if (!product) continue
    const reviewedAt = new Date(now.getTime() - demo.daysAgo * 86_400_000)
    const boughtAt = new Date(reviewedAt.getTime() - 2 * 60 * 60 * 1000)
    const buyer = await createUser(db, { name: demo.buyer, email }, boughtAt)
    const { order } = await createOrder(
      db,
      {
        productId: product.id,
        customer: { name: demo.buyer, email, phone: '9000000000' },
        userId: buyer.id,
        testMode: true,
        actor: 'seed',
      },
      { now: () => boughtAt.getTime() },
    ).catch(() => ({ order: null }))
    // Out of demo stock (sold through the simulator): no purchase, so no review.
    if (!order) continue
    await markOrderPaid(
      db,
      order.id,
      {
        txnId: `DEMO-${order.id}`,
        bankTxnId: null,
        paymentMode: 'UPI',
        paidAmount: order.amount,
        status: 'TXN_SUCCESS',
        respCode: '01',
        respMsg: 'Txn Success',
      },
      { message: 'Demo purchase by a fictional buyer' },
      boughtAt,
    )
    await withdrawPendingJobs(db, ORDER_MAIL_JOB, 'orderId', order.id)
    if ((await getOrder(db, order.id))?.status !== 'delivered') continue
    // Written whatever the gateways: like every review of a test-mode order, it is shown only
    // while the shop has no live gateway (docs/reviews.md).
    const saved = await saveReview(
      db,
      { id: buyer.id, email: buyer.email, emailVerified: false },
      order.id,
      { rating: demo.rating, title: demo.title, body: demo.body },
      reviewedAt,
      async () => false,
    )
    if (saved.ok) written++
  }
  return written
}

/**
 * First start: seed when asked (SEED_DEMO=1), or by default on an empty SQLite
 * database that was never seeded. SEED_DEMO=0 never seeds.
 */
export async function shouldSeedOnStart(
  db: DB,
  options: { seedDemo: boolean | undefined; engine: 'sqlite' | 'postgres' },
): Promise<boolean> {
  if (options.seedDemo === false) return false
  if (await getMarker(db, DEMO_SEED_MARKER)) return false
  const anyProduct = await db.selectFrom('product').select('id').limit(1).executeTakeFirst()
  if (anyProduct) return false
  return options.seedDemo === true || options.engine === 'sqlite'
}
