// Soak: flat memory under mixed load. The production build under `npm start`'s cluster
// (WEB_CONCURRENCY workers), for --minutes of browsing, sign-ins with signed-in pages, and
// checkouts through the built-in Paytm simulator (hosted by the cluster primary), while the
// resident memory (VmRSS) of the primary and of each worker is sampled every 10 s.
//
//   node bench/soak.mjs                         build into $BUILD_DIR (default build-bench), SQLite, 10 minutes
//   node bench/soak.mjs --no-build --minutes 2 --workers 2 --engine postgres   (TEST_DATABASE_URL or BENCH_DATABASE_URL)
//
// Fails when any request failed, a worker died, or a process's memory grew in the last half of
// the run (the last 5 minutes of 10) by more than LEAK_THRESHOLD_MB. Memory is compared as
// the mean of the window's first minute against the mean of its last minute: V8 grows its heap
// and gives it back in steps of several MB between collections, so one sample against another
// would call that sawtooth a leak, and an average of six samples does not. 15 MB is about 8 %
// of a worker's resident size here: a leak of 1 KB per request at these rates (tens of
// requests a second for five minutes) passes it, the sawtooth alone does not.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import autocannon from 'autocannon'
import {
  args,
  buildApp,
  checkoutChain,
  freePort,
  freshPostgresDatabase,
  loadAppModule,
  openShopDatabase,
  option,
  paytmCheckout,
  root,
  spawnLogged,
  stockUp,
  stop,
  waitFor,
} from './_shop.mjs'

const minutes = Number(option('minutes', '10'))
const workers = Number(option('workers', '2'))
const engine = option('engine', 'sqlite')
const buildDir = process.env.BUILD_DIR ?? 'build-bench'
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
if (engine === 'postgres' && !pgUrl) {
  console.error('--engine postgres needs TEST_DATABASE_URL or BENCH_DATABASE_URL')
  process.exit(2)
}

export const LEAK_THRESHOLD_MB = 15
const SAMPLE_MS = 10_000
const APP_SECRET = 'bench-secret-0123456789abcdef0123456789abcdef'
const PASSWORD = 'Soak-Password-2026!'
const USERS = 8
const round = (value) => Math.round(value * 10) / 10

/** Every request its own client address (the shop trusts X-Forwarded-For from loopback here). */
let addressCounter = 0
function nextAddress() {
  const n = ++addressCounter
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`
}

/** Customers with a password and a confirmed address, made through the app's own functions. */
async function createCustomers(shared) {
  const { createUser } = await loadAppModule('app/data/user.server.ts')
  const { setPasswordHash } = await loadAppModule('app/data/user-admin.server.ts')
  const { hashPassword } = await import('better-auth/crypto')
  const db = await openShopDatabase(shared)
  try {
    const hash = await hashPassword(PASSWORD)
    const emails = []
    for (let i = 0; i < USERS; i++) {
      const email = `soak.customer${i}@example.test`
      const user = await createUser(db, { email, name: `Soak Customer ${i}` })
      await setPasswordHash(db, user.id, hash)
      await db.updateTable('user').set({ emailVerified: 1 }).where('id', '=', user.id).execute()
      emails.push(email)
    }
    return emails
  } finally {
    await db.destroy()
  }
}

/** Resident memory in MB of a process (Linux /proc), or null once it is gone. */
function rssMb(pid) {
  try {
    const line = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
    return line ? round(Number(line[1]) / 1024) : null
  } catch {
    return null
  }
}

/** The pids whose parent is `pid` (the cluster's workers). */
/** The last memory report of a shop process (bench/_memory-probe.cjs), or null. */
function lastHeap(dir, pid) {
  try {
    const lines = fs
      .readFileSync(path.join(dir, `${pid}.jsonl`), 'utf8')
      .trim()
      .split('\n')
    return JSON.parse(lines.at(-1))
  } catch {
    return null
  }
}

function childrenOf(pid) {
  const children = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid)
        children.push(Number(entry))
    } catch {
      // Gone meanwhile.
    }
  }
  return children.sort((a, b) => a - b)
}

/** Anonymous visitors: home, category listings and product pages, every answer must be 200. */
function browsingRequests(slugs, categories) {
  const paths = [
    '/',
    ...categories.map((slug) => `/?category=${slug}`),
    ...slugs.map((slug) => `/product/${slug}`),
  ]
  let next = 0
  return [
    {
      method: 'GET',
      setupRequest: (req) => ({
        ...req,
        path: paths[next++ % paths.length],
        headers: { 'accept-encoding': 'gzip, br', 'x-forwarded-for': nextAddress() },
      }),
    },
  ]
}

/** Sign in, open the account pages, sign out; one customer after another, until `until`. */
async function signedInLoop(url, emails, until, failures) {
  const fail = (what) => {
    failures.count++
    if (failures.samples.length < 5) failures.samples.push(what)
  }
  let signIns = 0
  for (let i = 0; Date.now() < until; i++) {
    const email = emails[i % emails.length]
    const address = nextAddress()
    try {
      const login = await fetch(`${url}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: url,
          'x-forwarded-for': address,
        },
        body: new URLSearchParams({ email, password: PASSWORD, redirectTo: '/dashboard' }),
      })
      await login.arrayBuffer()
      const cookie = login.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ')
      if (login.status !== 302 || !cookie.includes('session_token')) {
        fail(`sign-in: HTTP ${login.status}`)
        continue
      }
      signIns++
      for (const page of ['/dashboard', '/dashboard/orders', '/dashboard/wishlist', '/']) {
        const answer = await fetch(`${url}${page}`, {
          headers: { cookie, 'x-forwarded-for': address },
        })
        const body = await answer.text()
        if (answer.status !== 200 || (page !== '/' && !body.includes('Soak Customer')))
          fail(`${page} signed in: HTTP ${answer.status}`)
      }
      const logout = await fetch(`${url}/logout`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, origin: url, 'x-forwarded-for': address },
      })
      await logout.arrayBuffer()
      if (logout.status >= 400) fail(`sign-out: HTTP ${logout.status}`)
    } catch (error) {
      fail(`signed-in loop: ${error.message}`)
    }
  }
  return signIns
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length

async function main() {
  if (!args.includes('--no-build')) buildApp(buildDir)
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const shared = {
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'kb-bench-soak-')),
    memoryDir: fs.mkdtempSync(path.join(os.tmpdir(), 'kb-bench-soak-memory-')),
    databaseUrl:
      engine === 'postgres' ? await freshPostgresDatabase(pgUrl, 'kb_bench_soak') : undefined,
  }
  const shop = spawnLogged(process.execPath, [path.join(root, 'server.js')], {
    BUILD_DIR: buildDir,
    NODE_ENV: 'production',
    WEB_CONCURRENCY: String(workers),
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: shared.dataDir,
    APP_SECRET,
    SEED_DEMO: '1',
    // The bench's clients each send an X-Forwarded-For address through loopback.
    TRUST_PROXY: 'loopback',
    // Each process reports its heap (bench/_memory-probe.cjs); BENCH_SHOP_NODE_OPTIONS, e.g.
    // "--heapsnapshot-signal=SIGUSR2", reaches the workers too.
    NODE_OPTIONS: [
      `--import ${pathToFileURL(path.join(root, 'bench/_memory-probe.mjs')).href}`,
      process.env.BENCH_SHOP_NODE_OPTIONS ?? '',
    ].join(' '),
    BENCH_MEMORY_DIR: shared.memoryDir,
    ...(shared.databaseUrl ? { DATABASE_URL: shared.databaseUrl } : {}),
  })
  try {
    await waitFor(`${url}/healthz`, shop.child, shop.output, 'The shop')
    const deadline = Date.now() + 60_000
    while (!shop.output().includes('KeyBazaar is running at')) {
      if (Date.now() > deadline) throw new Error(`The workers did not start:\n${shop.output()}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const durationS = minutes * 60
    // Up to 20 checkouts a second for the whole run, each delivering one item.
    await stockUp(shared, {
      items: Math.max(2000, durationS * 20),
      appSecret: APP_SECRET,
      // The built-in simulator's orders are test-mode orders: they take test items.
      testItems: true,
    })
    const emails = await createCustomers(shared)
    const db = await openShopDatabase(shared)
    const slugs = (await db.selectFrom('product').select('slug').execute()).map((r) => r.slug)
    const categories = (await db.selectFrom('category').select('slug').execute()).map((r) => r.slug)
    await db.destroy()

    const primary = shop.child.pid
    const samples = []
    const sample = () => {
      const at = Math.round((Date.now() - started) / 1000)
      const row = { at, primary: rssMb(primary), workers: {}, heaps: {} }
      for (const pid of childrenOf(primary)) {
        row.workers[pid] = rssMb(pid)
        row.heaps[pid] = lastHeap(shared.memoryDir, pid)
      }
      samples.push(row)
      const ws = Object.entries(row.workers)
        .map(([pid, mb]) => {
          const heap = row.heaps[pid]
          return heap
            ? `${pid}: ${mb} MB (heap ${heap.heapTotal}, live ${heap.heapUsed})`
            : `${pid}: ${mb} MB`
        })
        .join(', ')
      console.log(`  ${String(at).padStart(4)} s  primary ${row.primary} MB  workers ${ws}`)
    }
    console.log(
      `Soak on ${engine}: ${workers} workers, ${minutes} min of browsing (4 connections), checkouts (2) and sign-ins (1 loop)`,
    )
    const loadBefore = os.loadavg()
    const started = Date.now()
    sample()
    const sampler = setInterval(sample, SAMPLE_MS)
    const checkoutFailures = { count: 0, completed: 0, byStep: {}, samples: [] }
    const signedInFailures = { count: 0, samples: [] }
    const [browsing, checkouts, signIns] = await Promise.all([
      autocannon({
        url,
        connections: 4,
        duration: durationS,
        requests: browsingRequests(slugs, categories),
      }),
      autocannon({
        url,
        connections: 2,
        duration: durationS,
        requests: checkoutChain(checkoutFailures, {
          // The built-in simulator's pages are on the shop's own origin.
          gateway: paytmCheckout({
            path: (address, base = url) => {
              const target = new URL(address, base)
              return `${target.pathname}${target.search}`
            },
            pageUrl: (page) => `${url}${page}`,
          }),
          gatewayPrefix: '/__simulator/paytm',
          flow: 'browser',
          // As soak has always sent it: React Router's revalidation after the form.
          revalidate: true,
        }),
      }),
      signedInLoop(url, emails, started + durationS * 1000, signedInFailures),
    ])
    clearInterval(sampler)
    sample()
    const loadAfter = os.loadavg()

    // Each process's memory: first minute of the last half against its last minute.
    const windowStart = (durationS / 2) * 1000
    const inWindow = samples.filter((row) => row.at * 1000 >= windowStart)
    const headRows = inWindow.filter((row) => row.at * 1000 < windowStart + 60_000)
    const tailRows = inWindow.filter((row) => row.at >= durationS - 60)
    const pids = [
      ['primary', primary],
      ...Object.keys(samples[0].workers).map((pid) => [`worker ${pid}`, Number(pid)]),
    ]
    const rssOf = (row, pid) => (pid === primary ? row.primary : row.workers[pid])
    const growth = pids.map(([name, pid]) => {
      const head = mean(headRows.map((row) => rssOf(row, pid) ?? NaN))
      const tail = mean(tailRows.map((row) => rssOf(row, pid) ?? NaN))
      // Sampled for the workers only (the primary serves no pages).
      const heapOf = (rows) => {
        const heap = mean(rows.map((row) => row.heaps?.[pid]?.heapTotal ?? NaN))
        return Number.isFinite(heap) ? round(heap) : null
      }
      return {
        name,
        start: rssOf(samples[0], pid),
        head: round(head),
        tail: round(tail),
        heapHead: heapOf(headRows),
        heapTail: heapOf(tailRows),
      }
    })
    const sameWorkers =
      JSON.stringify(Object.keys(samples.at(-1).workers)) ===
      JSON.stringify(Object.keys(samples[0].workers))
    const replaced = (shop.output().match(/\[cluster\] worker \d+/g) ?? []).length
    const browsingErrors = browsing.errors + browsing.timeouts + browsing.non2xx
    const checkoutErrors = checkouts.errors + checkouts.timeouts + checkoutFailures.count
    const errors = browsingErrors + checkoutErrors + signedInFailures.count + replaced

    console.log(
      '\n| Process | RSS at start | Mean RSS, first minute of last half | Mean RSS, last minute | Growth | V8 heap committed, same minutes |',
    )
    console.log('|---|---|---|---|---|---|')
    for (const row of growth)
      console.log(
        `| ${row.name} | ${row.start} MB | ${row.head} MB | ${row.tail} MB | ${round(row.tail - row.head)} MB | ${row.heapHead === null ? '-' : `${row.heapHead} → ${row.heapTail} MB`} |`,
      )
    console.log(
      `\nRequests: browsing ${browsing.requests.total} (${browsingErrors} errors, p99 ${browsing.latency.p99} ms), ` +
        `checkouts completed ${checkoutFailures.completed} (${checkoutErrors} errors, ${checkouts.requests.total} requests), ` +
        `sign-ins ${signIns} (${signedInFailures.count} errors), workers replaced ${replaced}`,
    )
    console.log(
      `Load average before ${loadBefore.map(round).join(', ')}, after ${loadAfter.map(round).join(', ')}`,
    )
    if (checkoutFailures.samples.length) console.log('  checkout failures:', checkoutFailures)
    if (signedInFailures.samples.length) console.log('  signed-in failures:', signedInFailures)

    const leaking = growth.filter((row) => !(row.tail - row.head <= LEAK_THRESHOLD_MB))
    const ok = errors === 0 && sameWorkers && leaking.length === 0
    if (!ok)
      console.log(
        `FAILED: ${errors} errors${sameWorkers ? '' : ', the workers changed'}${leaking.length ? `, grew more than ${LEAK_THRESHOLD_MB} MB: ${leaking.map((row) => row.name).join(', ')}` : ''}`,
      )
    fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true })
    fs.writeFileSync(
      path.join(root, 'bench/results/soak.json'),
      `${JSON.stringify({ engine, workers, minutes, at: new Date().toISOString(), growth, errors, samples }, null, 2)}\n`,
    )
    return ok
  } finally {
    await stop(shop.child)
    fs.rmSync(shared.dataDir, { recursive: true, force: true })
    fs.rmSync(shared.memoryDir, { recursive: true, force: true })
  }
}

process.exit((await main()) ? 0 : 1)
