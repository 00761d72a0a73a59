// Server time of the back office's big pages with 100,000 orders and 20,000 users:
// /admin/dashboard (each period), /admin/transactions and /admin/users, on SQLite and, when
// BENCH_DATABASE_URL or TEST_DATABASE_URL is a postgres:// URL, on PostgreSQL (a fresh
// database, dropped afterwards).
//
//   npm run build && node bench/admin-pages.mjs            both engines (PostgreSQL when a URL is set)
//   node bench/admin-pages.mjs --engine sqlite --runs 20 --orders 100000 --users 20000
//
// Each engine: a fresh database, migrated and seeded by bench/_seed-admin-data.mjs; the
// production server (the build in $BUILD_DIR, default build/) started on it as tests do
// (tests/helpers/app.ts); the owner signed up (ADMIN_EMAILS) for a session; then for each
// page 3 warm-up requests and `--runs` timed ones, one at a time, of the page's loader data
// (`.data`, what the browser fetches when navigating) and of the whole server-rendered document.
// Reported: median and p95 wall time as the client sees it on loopback, and the server
// process's CPU time per request (from /proc, which contention from other processes on the
// machine does not inflate). Budget: the dashboard's loader data under 150 ms (median) for every
// period on both engines. Figures go to bench/results/admin-pages.json and stdout.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { benchEngines, loadAppModule, option, root } from './_shop.mjs'
import { seedAdminData } from './_seed-admin-data.mjs'

const RUNS = Number(option('runs', '20'))
const ORDERS = Number(option('orders', '100000'))
const USERS = Number(option('users', '20000'))
export const BUDGET = { dashboardLoaderMs: 150 }

const { pgUrl, engines } = benchEngines(['BENCH_DATABASE_URL', 'TEST_DATABASE_URL'])
const buildDir = process.env.BUILD_DIR ?? 'build'
if (!fs.existsSync(path.join(root, buildDir, 'server'))) {
  console.error(`No build in ${buildDir}/: run npm run build first (or set BUILD_DIR)`)
  process.exit(2)
}

const { createDatabase } = await loadAppModule('app/lib/db.server.ts')
const { migrateToLatest } = await loadAppModule('db/migrate.ts')
const { startApp } = await loadAppModule('tests/helpers/app.ts')
const { signUpConfirmed } = await loadAppModule('tests/helpers/mailbox.ts')

const OWNER = {
  name: 'Bench Owner',
  email: 'bench.owner@example.test',
  password: 'bench-secret-12',
}
const PAGES = [
  ['dashboard today', '/admin/dashboard?period=today'],
  ['dashboard 7 days', '/admin/dashboard?period=7d'],
  ['dashboard 30 days', '/admin/dashboard?period=30d'],
  ['transactions', '/admin/transactions'],
  ['users', '/admin/users'],
]

const CLOCK_TICK_MS = 10 // USER_HZ is 100 on Linux
function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}
const p95 = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]
}

async function timed(url, cookie, pid) {
  let status = 0
  const wall = []
  const cpuBefore = cpuMs(pid)
  for (let i = 0; i < 3 + RUNS; i++) {
    const started = performance.now()
    const response = await fetch(url, { headers: { cookie } })
    await response.arrayBuffer()
    status = response.status
    if (i >= 3) wall.push(performance.now() - started)
  }
  const cpu = (cpuMs(pid) - cpuBefore) / (3 + RUNS)
  return { status, medianMs: median(wall), p95Ms: p95(wall), cpuMsPerRequest: cpu }
}

async function prepare(engine) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-bench-admin-'))
  if (engine === 'sqlite') {
    const db = createDatabase({ sqlitePath: path.join(dataDir, 'keybazaar.db') })
    return { dataDir, db, env: {}, drop: async () => {} }
  }
  const name = `kb_bench_admin_${crypto.randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: pgUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(pgUrl)
  url.pathname = `/${name}`
  const db = createDatabase({ databaseUrl: url.toString() })
  return {
    dataDir,
    db,
    env: { DATABASE_URL: url.toString() },
    async drop() {
      const client = new pg.Client({ connectionString: pgUrl })
      await client.connect()
      await client.query(`drop database if exists ${name} with (force)`)
      await client.end()
    },
  }
}

const results = { date: new Date().toISOString(), loadAverage: os.loadavg(), engines: {} }
let failed = false
for (const engine of engines) {
  const target = await prepare(engine)
  try {
    await migrateToLatest(target.db)
    const seeded = await seedAdminData(target.db, { engine, orders: ORDERS, users: USERS })
    await target.db.destroy()
    console.log(`${engine}: seeded`, seeded)
    const app = await startApp({
      dataDir: target.dataDir,
      env: {
        ...target.env,
        APP_SECRET: crypto.randomBytes(32).toString('hex'),
        ADMIN_EMAILS: OWNER.email,
        SEED_DEMO: '0',
        TRUST_PROXY: 'loopback',
      },
    })
    try {
      const cookie = await signUpConfirmed(app.url, app, OWNER)
      const pages = {}
      for (const [label, page] of PAGES) {
        const [pathname, query] = page.split('?')
        const data = await timed(
          `${app.url}${pathname}.data${query ? `?${query}` : ''}`,
          cookie,
          app.process.pid,
        )
        const document = await timed(`${app.url}${page}`, cookie, app.process.pid)
        pages[label] = { url: page, data, document }
        const fmt = (r) =>
          `${r.status} median ${r.medianMs.toFixed(1)} ms, p95 ${r.p95Ms.toFixed(1)} ms, CPU ${r.cpuMsPerRequest.toFixed(1)} ms`
        console.log(`${engine} ${label.padEnd(18)} data: ${fmt(data)} | document: ${fmt(document)}`)
        if (label.startsWith('dashboard') && data.medianMs >= BUDGET.dashboardLoaderMs)
          failed = true
      }
      results.engines[engine] = { seeded, pages }
    } finally {
      await app.stop()
    }
  } finally {
    await target.drop()
    fs.rmSync(target.dataDir, { recursive: true, force: true })
  }
}
results.loadAverageAfter = os.loadavg()
fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true })
fs.writeFileSync(
  path.join(root, 'bench/results/admin-pages.json'),
  JSON.stringify(results, null, 2),
)
console.log(
  `load average ${results.loadAverage.map((n) => n.toFixed(2)).join(' ')} -> ${results.loadAverageAfter.map((n) => n.toFixed(2)).join(' ')}`,
)
console.log(failed ? 'OVER BUDGET: a dashboard loader took 150 ms or more' : 'within budget')
process.exit(failed ? 1 : 0)
