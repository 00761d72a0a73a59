// Stock import: 10,000 lines with 100 duplicates into a fresh database through
// importStock (app/services/fulfilment.server.ts), the function the admin stock page calls.
//
//   node bench/stock-import.mjs                       SQLite (and PostgreSQL when BENCH_DATABASE_URL,
//                                                     DATABASE_URL or TEST_DATABASE_URL is a postgres:// URL)
//   node bench/stock-import.mjs --engine postgres     one engine only (sqlite | postgres)
//   node bench/stock-import.mjs --lines 10000 --duplicates 100 --runs 3
//
// Each run uses a fresh database (a new SQLite file, or a new PostgreSQL schema dropped
// afterwards) with one product sold from stock, and times:
//   1. the import: every line parsed, fingerprinted (HMAC), encrypted (AES-256-GCM) and
//      inserted in one transaction, in batches of 500; the duplicates reported, not added;
//   2. the same lines again: every one is now a duplicate of an item in the database.
// The app's TypeScript is loaded with tsx, as `npm run db:*` does: no build needed.
//
// Budget: the right figures (9,900 added, 100 duplicates; then 0 added, 10,000 duplicates) and
// each import under 5 s on 2 cores. Figures go to bench/results/stock-import.json and stdout.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { benchEngines, loadAppModule, option, root } from './_shop.mjs'

const LINES = Number(option('lines', '10000'))
const DUPLICATES = Number(option('duplicates', '100'))
const RUNS = Number(option('runs', '3'))
export const BUDGET = { importMs: 5_000 }

const { pgUrl, engines } = benchEngines(['BENCH_DATABASE_URL', 'DATABASE_URL', 'TEST_DATABASE_URL'])

// One loader for every module, so they share one copy of Kysely (the engine checks use instanceof).
const { createDatabase } = await loadAppModule('app/lib/db.server.ts')
const { migrateToLatest } = await loadAppModule('db/migrate.ts')
const { makeStockedProduct } = await loadAppModule('tests/factories.ts')
const { stockCounts } = await loadAppModule('app/data/stock.server.ts')
const { importStock } = await loadAppModule('app/services/fulfilment.server.ts')

/** `lines` lines: unique fictional accounts, with `duplicates` of them repeated further down. */
function content(lines, duplicates) {
  const unique = lines - duplicates
  const out = Array.from(
    { length: unique },
    (_, i) =>
      `bench-user-${String(i).padStart(6, '0')}@example.test / Bench-Pass-${crypto.randomBytes(6).toString('hex')}`,
  )
  // Each duplicate repeats an earlier line, spread over the file (what a merged export looks like).
  for (let i = 0; i < duplicates; i++) {
    const at = Math.floor(((i + 1) * out.length) / (duplicates + 1))
    out.splice(at + 1, 0, out[Math.floor((i * unique) / duplicates)])
  }
  return out.join('\n')
}

async function freshDatabase(engine) {
  if (engine === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-bench-stock-'))
    const db = createDatabase({ sqlitePath: path.join(dir, 'bench.db') })
    return {
      db,
      dispose: async () => (await db.destroy(), fs.rmSync(dir, { recursive: true, force: true })),
    }
  }
  const schema = `kb_bench_stock_${crypto.randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: pgUrl })
  await admin.connect()
  await admin.query(`create schema ${schema}`)
  await admin.end()
  const db = createDatabase({ databaseUrl: pgUrl, pgSchema: schema })
  return {
    db,
    dispose: async () => {
      await db.destroy()
      const cleanup = new pg.Client({ connectionString: pgUrl })
      await cleanup.connect()
      await cleanup.query(`drop schema if exists ${schema} cascade`)
      await cleanup.end()
    },
  }
}

async function run(engine, appSecret) {
  const { db, dispose } = await freshDatabase(engine)
  try {
    await migrateToLatest(db)
    // Sold from stock, with no items yet (tests/factories.ts).
    const product = await makeStockedProduct(db, appSecret, [], {
      title: 'Bench Stock Product',
      slug: 'bench-stock-product',
      description: 'Bench',
      shortDescription: 'Bench',
      price: 49_900,
      originalPrice: 99_900,
      category: 'Software',
    })
    const text = content(LINES, DUPLICATES)
    const input = { productId: product.id, content: text, format: 'lines', appSecret }

    let started = performance.now()
    const first = await importStock(db, input)
    const firstMs = performance.now() - started
    started = performance.now()
    const again = await importStock(db, input)
    const againMs = performance.now() - started
    const counts = await stockCounts(db, product.id)
    return { first, firstMs, again, againMs, available: counts.available }
  } finally {
    await dispose()
  }
}

const round = (ms) => Math.round(ms)
const results = []
let failed = false
const appSecret = crypto.randomBytes(32).toString('hex')
console.log(
  `Stock import: ${LINES.toLocaleString('en-IN')} lines with ${DUPLICATES} duplicates, ${RUNS} runs per engine (load avg ${os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')})`,
)
for (const engine of engines) {
  for (let n = 1; n <= RUNS; n++) {
    const result = await run(engine, appSecret)
    const right =
      result.first.added === LINES - DUPLICATES &&
      result.first.duplicates === DUPLICATES &&
      result.first.invalid === 0 &&
      result.again.added === 0 &&
      result.again.duplicates === LINES &&
      result.available === LINES - DUPLICATES
    const fast = result.firstMs < BUDGET.importMs && result.againMs < BUDGET.importMs
    if (!right || !fast) failed = true
    results.push({
      engine,
      run: n,
      ...result,
      firstMs: round(result.firstMs),
      againMs: round(result.againMs),
    })
    console.log(
      `${engine.padEnd(8)} run ${n}: ${result.first.added} added, ${result.first.duplicates} duplicates reported in ${round(result.firstMs)} ms; ` +
        `again: ${result.again.added} added, ${result.again.duplicates} duplicates in ${round(result.againMs)} ms` +
        `${right ? '' : '  WRONG FIGURES'}${fast ? '' : '  OVER BUDGET'}`,
    )
  }
}

fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true })
fs.writeFileSync(
  path.join(root, 'bench/results/stock-import.json'),
  JSON.stringify(
    {
      date: new Date().toISOString(),
      lines: LINES,
      duplicates: DUPLICATES,
      budget: BUDGET,
      loadavg: os.loadavg(),
      results,
    },
    null,
    2,
  ),
)
console.log(failed ? 'stock-import: over budget or wrong figures' : 'stock-import: within budget')
process.exit(failed ? 1 : 0)
