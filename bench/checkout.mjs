// Checkout throughput: autocannon drives whole purchases against the production
// build, with Paytm configured by the environment and the simulator running standalone.
//
//   node bench/checkout.mjs                      build into $BUILD_DIR (default build-bench), run SQLite
//                                                (and PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set)
//   node bench/checkout.mjs --no-build           reuse the existing $BUILD_DIR
//   node bench/checkout.mjs --engine postgres    one engine only (sqlite | postgres)
//   node bench/checkout.mjs --duration 10 --connections 8 --processes 1
//   node bench/checkout.mjs --flow server        the shop's payment steps only (see below)
//
// One checkout (--flow browser, the default) is what a buyer's browser with JavaScript sends, in
// order, on one connection (autocannon's request chain):
//   1. POST /checkout/{slug}.data            the payment form, submitted by its fetcher: the shop creates the
//                                            order at the database price and answers with the signed form
//   2. GET  /checkout/{slug}.data?_routes=root   React Router's revalidation after the submission
//   3. POST {gateway}/theia/processTransaction   the auto-submitted form at Paytm (the simulator checks the checksum)
//   4. POST {gateway}/theia/simulator/respond    'Simulate success': the simulator answers with the signed callback form
//   5. POST /api/payments/paytm/callback     the signed callback; the shop verifies it, asks the status API
//                                            (server to server, to the simulator) and marks the order paid: 303
//   6. GET  /payment/callback?ORDERID=...    the result page (a full server-rendered document), which must
//                                            say 'Payment Successful!' with the amount
// --flow server leaves out 2 and asks for the result page's data (/payment/callback.data, what
// the page's polling requests) instead of the document: order creation, signed callback and
// status check, without the storefront's document shell (header, footer, session) around them.
// autocannon speaks to one origin, so a small pass-through proxy in this process puts the
// simulator's buyer-facing pages under /__gateway/ next to the shop (as a load balancer would
// front both). The shop's own status API calls go straight to the simulator.
//
// Budget (2 cores): >= 100 completed checkouts per second for 30 s, zero errors, p99 < 250 ms,
// on SQLite and on PostgreSQL. Figures go to bench/results/checkout.json and stdout.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import autocannon from 'autocannon'
import pg from 'pg'
import { register } from 'tsx/esm/api'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`)
  return index >= 0 && args[index + 1] ? args[index + 1] : fallback
}
const build = !args.includes('--no-build')
const duration = Number(option('duration', '30'))
const connections = Number(option('connections', '10'))
// One Node.js process per core is how a 2-core server runs the shop (the design keeps no state in
// process memory); the proxy below spreads requests over them.
const processes = Number(option('processes', '2'))
// browser: every request a buyer's browser makes (React Router's revalidation after the form,
// and the result page as a full server-rendered document). server: the issue's three shop steps
// (order creation, signed callback, status check: the result page's data request, as its polling
// asks), without the document shell around them.
const flow = option('flow', 'browser')
// The product is sold from stock and the demo gives it 20 items: enough for the whole run are
// imported first (--stock), as the admin's stock page does it, so every checkout delivers one.
const stockItems = Number(option('stock', '15000'))
if (!['browser', 'server'].includes(flow)) {
  console.error('--flow is browser or server')
  process.exit(2)
}
const buildDir = process.env.BUILD_DIR ?? 'build-bench'
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
const engines = option('engine', null)
  ? [option('engine', null)]
  : pgUrl
    ? ['sqlite', 'postgres']
    : ['sqlite']

export const BUDGET = { checkoutsPerSecond: 100, errors: 0, p99Ms: 250 }

const APP_SECRET = 'bench-secret-0123456789abcdef0123456789abcdef'
const SIM = { mid: 'SIMMID12345678901234', key: 'aB3#kL9@xY2&mN5!' }
const PRODUCT_SLUG = 'streamverse-premium-12-months'
const GATEWAY_PREFIX = '/__gateway'

const round = (value) => Math.round(value * 10) / 10

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

async function waitFor(url, child, output, what) {
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited:\n${output()}`)
    const ok = await fetch(url)
      .then((r) => r.ok)
      .catch(() => false)
    if (ok) return
    if (Date.now() > deadline) throw new Error(`${what} did not start:\n${output()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

function spawnLogged(command, commandArgs, env) {
  let output = ''
  const child = spawn(command, commandArgs, {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  return { child, output: () => output }
}

function stop(child) {
  if (child.exitCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

async function startSimulator() {
  const port = await freePort()
  const { child, output } = spawnLogged(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'simulators/paytm/standalone.ts')],
    {
      SIM_PORT: String(port),
      SIM_PAYTM_MID: SIM.mid,
      SIM_PAYTM_KEY: SIM.key,
    },
  )
  const url = `http://127.0.0.1:${port}`
  await waitFor(`${url}/__control/health`, child, output, 'The Paytm simulator')
  return { url, child }
}

async function freshPostgresDatabase() {
  const name = 'kb_bench_checkout'
  const admin = new pg.Client({ connectionString: pgUrl })
  await admin.connect()
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(pgUrl)
  url.pathname = `/${name}`
  return url.href
}

async function startShop(simulatorUrl, shared) {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const env = {
    BUILD_DIR: buildDir,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    // Every process answers for the same shop (one public address, behind the proxy).
    PUBLIC_URL: shared.publicUrl,
    DATA_DIR: shared.dataDir,
    APP_SECRET,
    SEED_DEMO: '1',
    PAYTM_HOST: simulatorUrl,
    PAYTM_MID: SIM.mid,
    PAYTM_MERCHANT_KEY: SIM.key,
    PAYTM_WEBSITE: 'WEBSTAGING',
    // The bench's buyers each send an X-Forwarded-For address through loopback.
    TRUST_PROXY: 'loopback',
    ...(shared.databaseUrl ? { DATABASE_URL: shared.databaseUrl } : {}),
  }
  // BENCH_SHOP_NODE_OPTIONS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", to see where the shop spends its time.
  const nodeOptions = process.env.BENCH_SHOP_NODE_OPTIONS
    ? process.env.BENCH_SHOP_NODE_OPTIONS.split(' ')
    : []
  const { child, output } = spawnLogged(
    process.execPath,
    [...nodeOptions, path.join(root, 'server.js')],
    env,
  )
  await waitFor(`${url}/healthz`, child, output, 'The shop')
  return { url, port, child, output }
}

/** The pass-through proxy: /__gateway/* to the simulator, everything else to the shops in turn. */
function startEdge(simulator) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
  const simulatorTarget = new URL(simulator.url)
  const shops = []
  let next = 0
  const server = http.createServer((req, res) => {
    const toGateway = req.url.startsWith(`${GATEWAY_PREFIX}/`)
    const target = toGateway ? simulatorTarget : shops[next++ % shops.length]
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      // Like any load balancer, retry once when a kept-alive connection was closed by the
      // upstream just as it was reused (nothing was answered yet, so nothing was done twice).
      const send = (retry) => {
        const upstream = http.request(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: toGateway ? req.url.slice(GATEWAY_PREFIX.length) : req.url,
            headers: { ...req.headers, host: target.host },
            agent,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(res)
          },
        )
        upstream.on('error', (error) => {
          if (retry && !res.headersSent && upstream.reusedSocket && error.code === 'ECONNRESET')
            return send(false)
          if (!res.headersSent) res.writeHead(502)
          res.end()
        })
        upstream.end(body)
      }
      send(true)
    })
  })
  server.keepAliveTimeout = 65_000
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${server.address().port}`,
        addShop: (shop) => shops.push(new URL(shop.url)),
      }),
    ),
  )
}

function unescapeHtml(value) {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/** The hidden inputs of the first form posting to a URL containing `marker`. */
function formFields(html, marker) {
  const form = new RegExp(`<form[^>]*action="([^"]*${marker}[^"]*)"[^>]*>([\\s\\S]*?)</form>`).exec(
    html,
  )
  if (!form) return null
  const fields = {}
  for (const input of form[2].matchAll(
    /<input type="hidden" name="([^"]*)" value="([^"]*)"\/?>/g,
  )) {
    fields[unescapeHtml(input[1])] = unescapeHtml(input[2])
  }
  return { action: unescapeHtml(form[1]), fields }
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

/** React Router's single-fetch answer (turbo-stream): enough of it for plain objects and text. */
function decodeTurboStream(text) {
  try {
    const values = JSON.parse(text.split('\n')[0])
    const hydrate = (index) => {
      if (index < 0) return undefined
      const value = values[index]
      if (Array.isArray(value)) return value.map(hydrate)
      if (value && typeof value === 'object') {
        return Object.fromEntries(
          Object.entries(value).map(([key, at]) => [values[Number(key.slice(1))], hydrate(at)]),
        )
      }
      return value
    }
    return hydrate(0)
  } catch {
    return null
  }
}

/** The requests of one checkout (six in the browser flow, five in the server flow); each checks its answer. */
function checkoutChain(failures) {
  const fail = (step, status, context) => {
    failures.count++
    failures.byStep[step] = (failures.byStep[step] ?? 0) + 1
    context.failed = true
    if (failures.samples.length < 5) failures.samples.push(`${step}: HTTP ${status}`)
  }
  let sequence = 0
  const revalidation = {
    method: 'GET',
    setupRequest: (req, context) =>
      context.failed
        ? null
        : {
            ...req,
            path: `/checkout/${PRODUCT_SLUG}.data?_routes=root`,
            headers: { cookie: context.cookie },
          },
    onResponse: (status, _body, context) => {
      if (status !== 200) fail('revalidate', status, context)
    },
  }
  const resultPath = (orderId) =>
    flow === 'browser'
      ? `/payment/callback?ORDERID=${orderId}`
      : `/payment/callback.data?ORDERID=${orderId}&_routes=routes%2Fpayment%2Fcallback`
  const paidShown = (body) => {
    if (flow === 'browser') return body.includes('Payment Successful!') && body.includes('₹1,499')
    const page = decodeTurboStream(body)?.['routes/payment/callback']?.data
    return page?.state === 'success' && page.details?.amount === '₹1,499'
  }
  return [
    {
      method: 'POST',
      path: `/checkout/${PRODUCT_SLUG}.data`,
      headers: FORM,
      setupRequest: (req) => {
        sequence++
        return {
          ...req,
          // Every checkout is a buyer of its own (the shop throttles checkouts per address and
          // per e-mail); the shop trusts X-Forwarded-For from loopback, where the bench runs.
          headers: {
            ...FORM,
            'x-forwarded-for': `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`,
          },
          body: new URLSearchParams({
            name: 'Bench Buyer',
            email: `buyer${sequence}@bench.test`,
            phone: '9876543210',
          }).toString(),
        }
      },
      onResponse: (status, body, context, headers) => {
        const answer = status === 200 ? decodeTurboStream(body)?.data : null
        if (!answer?.ok || answer.payment?.fields?.TXN_AMOUNT !== '1499.00')
          return fail('create order', status, context)
        context.payment = answer.payment.fields
        context.cookie = String(headers['set-cookie'] ?? '').split(';')[0]
      },
    },
    ...(flow === 'browser' ? [revalidation] : []),
    {
      method: 'POST',
      path: `${GATEWAY_PREFIX}/theia/processTransaction`,
      headers: FORM,
      setupRequest: (req, context) =>
        context.failed ? null : { ...req, body: new URLSearchParams(context.payment).toString() },
      onResponse: (status, body, context) => {
        if (status !== 200 || !body.includes('Simulate success'))
          fail('gateway page', status, context)
      },
    },
    {
      method: 'POST',
      path: `${GATEWAY_PREFIX}/theia/simulator/respond`,
      headers: FORM,
      setupRequest: (req, context) =>
        context.failed
          ? null
          : {
              ...req,
              body: new URLSearchParams({
                MID: context.payment.MID,
                ORDER_ID: context.payment.ORDER_ID,
                PAYMENTMODE: 'UPI',
                outcome: 'success',
              }).toString(),
            },
      onResponse: (status, body, context) => {
        const callback = status === 200 ? formFields(body, '/api/payments/paytm/callback') : null
        if (!callback || callback.fields.STATUS !== 'TXN_SUCCESS')
          return fail('gateway answer', status, context)
        context.callback = callback.fields
      },
    },
    {
      method: 'POST',
      path: '/api/payments/paytm/callback',
      headers: FORM,
      setupRequest: (req, context) =>
        context.failed ? null : { ...req, body: new URLSearchParams(context.callback).toString() },
      onResponse: (status, _body, context, headers) => {
        if (
          status !== 303 ||
          headers.location !== `/payment/callback?ORDERID=${context.payment.ORDER_ID}`
        )
          fail('callback', status, context)
      },
    },
    {
      method: 'GET',
      setupRequest: (req, context) =>
        context.failed
          ? null
          : {
              ...req,
              path: resultPath(context.payment.ORDER_ID),
              headers: { cookie: context.cookie },
            },
      onResponse: (status, body, context) => {
        if (status !== 200 || !paidShown(body)) return fail('result page', status, context)
        failures.completed++
      },
    },
  ]
}

async function runOnce(engine) {
  const simulator = await startSimulator()
  const edge = await startEdge(simulator)
  const shared = {
    publicUrl: edge.url,
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'kb-bench-checkout-')),
    databaseUrl: engine === 'postgres' ? await freshPostgresDatabase() : undefined,
  }
  const shops = []
  try {
    // One after the other: the first migrates and seeds, the others find it done.
    for (let i = 0; i < processes; i++) {
      const shop = await startShop(simulator.url, shared)
      shops.push(shop)
      edge.addShop(shop)
    }
    const stocked = await stockUp(shared)
    // Warm up (JIT, connection pools, the first SSR of each page): 5 s, not counted.
    const warm = { count: 0, completed: 0, byStep: {}, samples: [] }
    await autocannon({ url: edge.url, connections, duration: 5, requests: checkoutChain(warm) })
    const failures = { count: 0, completed: 0, byStep: {}, samples: [] }
    const loadBefore = os.loadavg()[0]
    const shopCpu = () => shops.reduce((sum, shop) => sum + (cpuSeconds(shop.child) ?? 0), 0)
    const before = {
      shop: shopCpu(),
      simulator: cpuSeconds(simulator.child),
      bench: process.cpuUsage(),
    }
    const result = await autocannon({
      url: edge.url,
      connections,
      duration,
      requests: checkoutChain(failures),
    })
    const benchCpu = process.cpuUsage(before.bench)
    const cpu = {
      shop: round(shopCpu() - before.shop),
      simulator: round(cpuSeconds(simulator.child) - before.simulator),
      benchAndProxy: round((benchCpu.user + benchCpu.system) / 1e6),
      available: duration * os.availableParallelism(),
    }
    const paid = await countPaid(engine, shared)
    if (failures.count > 0) {
      for (const shop of shops) {
        const problems = shop
          .output()
          .split('\n')
          .filter((line) => /error|fail/i.test(line))
        if (problems.length)
          console.log(`  shop :${shop.port} logged:\n    ${problems.slice(0, 8).join('\n    ')}`)
      }
    }
    return {
      engine,
      duration,
      connections,
      processes,
      flow,
      requests: result.requests.total,
      checkoutsPerSecond: Math.round((failures.completed / duration) * 10) / 10,
      completedCheckouts: failures.completed,
      paidOrdersInDatabase: paid.paid,
      deliveredOrders: paid.delivered,
      stockItemsImported: stocked,
      errors: result.errors + result.timeouts + failures.count,
      failures: { byStep: failures.byStep, samples: failures.samples },
      latencyMs: {
        p50: result.latency.p50,
        p90: result.latency.p90,
        p99: result.latency.p99,
        max: result.latency.max,
      },
      requestsPerSecond: result.requests.average,
      cpuSeconds: cpu,
      // Other work on the same cores (builds, test runs) shows here; compare quiet runs only.
      loadAverage: { before: round(loadBefore), after: round(os.loadavg()[0]) },
    }
  } finally {
    edge.server.close()
    edge.server.closeAllConnections()
    for (const shop of shops) await stop(shop.child)
    await stop(simulator.child)
    fs.rmSync(shared.dataDir, { recursive: true, force: true })
  }
}

/**
 * Imports `stockItems` fictional items for the bench's product through importStock, in the
 * shop's own database (its TypeScript loaded with tsx, as the stock-import bench does).
 */
async function stockUp(shared) {
  register({ tsconfig: path.join(root, 'tsconfig.json') })
  const load = (file) => import(pathToFileURL(path.join(root, file)).href)
  const { createDatabase } = await load('app/lib/db.server.ts')
  const { importStock } = await load('app/services/fulfilment.server.ts')
  const db = shared.databaseUrl
    ? createDatabase({ databaseUrl: shared.databaseUrl })
    : createDatabase({ sqlitePath: path.join(shared.dataDir, 'keybazaar.db') })
  try {
    const product = await db
      .selectFrom('product')
      .select('id')
      .where('slug', '=', PRODUCT_SLUG)
      .executeTakeFirstOrThrow()
    const content = Array.from(
      { length: stockItems },
      (_, i) => `bench-buyer-${String(i).padStart(6, '0')}@example.test / Bench-Pass-${i}`,
    ).join('\n')
    const summary = await importStock(db, {
      productId: product.id,
      content,
      format: 'lines',
      appSecret: APP_SECRET,
    })
    return summary.added
  } finally {
    await db.destroy()
  }
}

/** CPU seconds a child process has used so far (Linux), to show where the machine's time went. */
function cpuSeconds(child) {
  try {
    const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return null
  }
}

/**
 * Paid orders as the database has them (paid, delivered from stock or waiting for stock: every
 * completed checkout must be one), and how many of them were delivered.
 */
async function countPaid(engine, shared) {
  const query = `select count(*) as paid, coalesce(sum(case when status = 'delivered' then 1 else 0 end), 0) as delivered
    from "order" where status in ('paid', 'delivered', 'awaiting_stock')`
  let row
  if (engine === 'postgres') {
    const client = new pg.Client({ connectionString: shared.databaseUrl })
    await client.connect()
    row = (await client.query(query)).rows[0]
    await client.end()
  } else {
    const { default: SQLite } = await import('better-sqlite3')
    const db = new SQLite(path.join(shared.dataDir, 'keybazaar.db'), { readonly: true })
    row = db.prepare(query).get()
    db.close()
  }
  return { paid: Number(row.paid), delivered: Number(row.delivered) }
}

if (build) {
  console.log(`Building into ${buildDir}/ ...`)
  const built = spawnSync('npx', ['react-router', 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BUILD_DIR: buildDir },
  })
  if (built.status !== 0) process.exit(1)
}

const results = []
for (const engine of engines) {
  console.log(
    `\nCheckout bench on ${engine}: ${processes} shop process(es), ${connections} connections, ${duration} s (after a 5 s warm-up) ...`,
  )
  results.push(await runOnce(engine))
}

let withinBudget = true
console.log(
  '\n| Engine | Shop processes | Checkouts/s | Completed | Paid in DB | Delivered | Errors | p50 | p90 | p99 | max | Requests/s | CPU s: shop / simulator / bench+proxy (of available) | Load avg |',
)
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
for (const r of results) {
  console.log(
    `| ${r.engine} | ${r.processes} | ${r.checkoutsPerSecond} | ${r.completedCheckouts} | ${r.paidOrdersInDatabase} | ${r.deliveredOrders} | ${r.errors} | ${r.latencyMs.p50} ms | ${r.latencyMs.p90} ms | ${r.latencyMs.p99} ms | ${r.latencyMs.max} ms | ${Math.round(r.requestsPerSecond)} | ${r.cpuSeconds.shop} / ${r.cpuSeconds.simulator} / ${r.cpuSeconds.benchAndProxy} (${r.cpuSeconds.available}) | ${r.loadAverage.before} → ${r.loadAverage.after} |`,
  )
  const ok =
    r.checkoutsPerSecond >= BUDGET.checkoutsPerSecond &&
    r.errors <= BUDGET.errors &&
    r.latencyMs.p99 < BUDGET.p99Ms &&
    // Every paid order got its item (the run imported more than it can sell).
    r.deliveredOrders === r.paidOrdersInDatabase
  if (!ok) {
    withinBudget = false
    console.log(
      `  ${r.engine}: over budget (>= ${BUDGET.checkoutsPerSecond}/s, ${BUDGET.errors} errors, p99 < ${BUDGET.p99Ms} ms, every paid order delivered)`,
      r.failures,
    )
  }
}
fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true })
fs.writeFileSync(
  path.join(root, 'bench/results/checkout.json'),
  `${JSON.stringify({ budget: BUDGET, at: new Date().toISOString(), results }, null, 2)}\n`,
)
process.exit(withinBudget ? 0 : 1)
