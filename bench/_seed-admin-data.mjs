// The back office's big-shop data set: 20,000 users and 100,000 orders over 50 products,
// inserted in batches of 500 rows (one statement each, inside one transaction per table), on
// SQLite or PostgreSQL. Used by bench/admin-pages.mjs; runnable on its own against a migrated
// database:
//
//   node bench/_seed-admin-data.mjs --sqlite /tmp/kb.db [--orders 100000] [--users 20000]
//   node bench/_seed-admin-data.mjs --database-url postgres://.../db
//
// Orders are spread over the last 180 days (about 16,700 in any 30 days) with a realistic mix:
// 72 % delivered, 4 % paid, 2 % awaiting stock, 6 % pending, 4 % expired, 8 % failed,
// 4 % refunded; 5 % are test-mode (simulator) orders. Users were active in the last 60 days.
// Everything is fictional and deterministic (a seeded generator), so runs compare.
import crypto from 'node:crypto'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { sql } from 'kysely'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const BATCH = 500
const DAY = 86_400_000

/** mulberry32: a small deterministic generator. */
function generator(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const STATUS_MIX = [
  ['delivered', 0.72],
  ['paid', 0.04],
  ['awaiting_stock', 0.02],
  ['pending', 0.06],
  ['expired', 0.04],
  ['failed', 0.08],
  ['refunded', 0.04],
]

function pickStatus(random) {
  let r = random()
  for (const [status, share] of STATUS_MIX) {
    if (r < share) return status
    r -= share
  }
  return 'delivered'
}

async function inBatches(db, table, rows) {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += BATCH)
      await trx
        .insertInto(table)
        .values(rows.slice(i, i + BATCH))
        .execute()
  })
}

/**
 * Seeds `db` (a migrated Kysely of the app, either engine). `engine` decides how better-auth's
 * flags are stored (0/1 on SQLite, booleans on PostgreSQL).
 */
export async function seedAdminData(
  db,
  { engine, orders = 100_000, users = 20_000, now = Date.now() },
) {
  const random = generator(20_261_123)
  const flag = (value) => (engine === 'postgres' ? value : value ? 1 : 0)
  const started = performance.now()

  const categories = await db.selectFrom('category').select('name').execute()
  const products = []
  for (let i = 0; i < 50; i++) {
    const created = new Date(now - 400 * DAY + i * DAY).toISOString()
    products.push({
      id: `bench-product-${String(i).padStart(2, '0')}`,
      title: `Bench Plan ${i + 1}`,
      slug: `bench-plan-${i + 1}`,
      description: 'A fictional plan for the back-office benchmark.',
      shortDescription: 'Benchmark plan',
      image: '',
      price: (199 + i * 100) * 100,
      originalPrice: (399 + i * 200) * 100,
      category: categories[i % categories.length]?.name ?? 'Streaming',
      createdAt: created,
      updatedAt: created,
    })
  }
  await inBatches(db, 'product', products)

  const userRows = []
  for (let i = 0; i < users; i++) {
    const created = new Date(now - Math.floor(random() * 365 * DAY)).toISOString()
    const active =
      random() < 0.8 ? new Date(now - Math.floor(random() * 60 * DAY)).toISOString() : null
    userRows.push({
      id: `bench-user-${i}`,
      name: `Bench User ${i}`,
      email: `bench.user.${i}@example.test`,
      emailVerified: flag(true),
      photo: null,
      role: i < 5 ? 'admin' : 'user',
      status: i % 50 === 0 ? 'suspended' : 'active',
      canCreateProducts: flag(i < 5),
      canManageOrders: flag(i < 5),
      canManageUsers: flag(i < 5),
      lastActiveAt: active,
      createdAt: created,
      updatedAt: created,
    })
  }
  await inBatches(db, 'user', userRows)

  const orderRows = []
  for (let i = 0; i < orders; i++) {
    const product = products[Math.floor(random() * products.length)]
    const at = now - Math.floor(random() * 180 * DAY)
    const created = new Date(at).toISOString()
    const status = pickStatus(random)
    const paidish = status !== 'pending' && status !== 'expired' && status !== 'failed'
    const userIndex = random() < 0.6 ? Math.floor(random() * users) : null
    orderRows.push({
      id: `ORD_${at}_${String(i).padStart(6, '0')}`,
      status,
      productId: product.id,
      productName: product.title,
      amount: product.price,
      customerName: userIndex === null ? `Guest Buyer ${i}` : `Bench User ${userIndex}`,
      customerEmail:
        userIndex === null ? `guest.${i}@example.test` : `bench.user.${userIndex}@example.test`,
      customerPhone: `98${String(10_000_000 + i).slice(-8)}`,
      userId: userIndex === null ? null : `bench-user-${userIndex}`,
      paymentLinkId: null,
      gateway: 'paytm',
      testMode: random() < 0.05 ? 1 : 0,
      gatewayTxnId: status === 'pending' ? null : `2026${String(i).padStart(12, '0')}`,
      bankTxnId: paidish ? `BANK${String(i).padStart(10, '0')}` : null,
      paymentMode: paidish ? 'UPI' : null,
      paidAmount: paidish ? product.price : null,
      gatewayStatus: paidish ? 'TXN_SUCCESS' : status === 'failed' ? 'TXN_FAILURE' : null,
      gatewayRespCode: null,
      gatewayRespMsg: null,
      accessTokenHash: crypto.createHash('sha256').update(`bench-${i}`).digest('hex'),
      lastStatusCheckAt: null,
      createdAt: created,
      updatedAt: created,
      paidAt: paidish ? created : null,
    })
  }
  await inBatches(db, 'order', orderRows)
  // Fresh statistics, as autovacuum would gather soon after such a load.
  await sql`analyze`.execute(db)
  return { products: products.length, users, orders, ms: Math.round(performance.now() - started) }
}

// As a command: seed the given database.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { register } = await import('tsx/esm/api')
  register({ tsconfig: path.join(root, 'tsconfig.json') })
  const load = (file) => import(pathToFileURL(path.join(root, file)).href)
  const { createDatabase } = await load('app/lib/db.server.ts')
  const { migrateToLatest } = await load('db/migrate.ts')
  const args = process.argv.slice(2)
  const option = (name, fallback) => {
    const index = args.indexOf(`--${name}`)
    return index >= 0 && args[index + 1] ? args[index + 1] : fallback
  }
  const url = option('database-url', null)
  const sqlitePath = option('sqlite', null)
  if (!url && !sqlitePath) {
    console.error('usage: node bench/_seed-admin-data.mjs --sqlite FILE | --database-url URL')
    process.exit(2)
  }
  const db = url ? createDatabase({ databaseUrl: url }) : createDatabase({ sqlitePath })
  await migrateToLatest(db)
  const result = await seedAdminData(db, {
    engine: url ? 'postgres' : 'sqlite',
    orders: Number(option('orders', '100000')),
    users: Number(option('users', '20000')),
  })
  console.log(result)
  await db.destroy()
}
