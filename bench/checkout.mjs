// Checkout throughput: autocannon drives whole purchases against the production build, with a
// gateway configured by the environment and its simulator running standalone.
//
//   node bench/checkout.mjs                      build into $BUILD_DIR (default build-bench), run SQLite
//                                                (and PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set)
//   node bench/checkout.mjs --no-build           reuse the existing $BUILD_DIR
//   node bench/checkout.mjs --engine postgres    one engine only (sqlite | postgres)
//   node bench/checkout.mjs --gateway razorpay   paytm (default) | razorpay | phonepe
//   node bench/checkout.mjs --duration 10 --connections 8 --processes 1
//   node bench/checkout.mjs --flow server        the shop's payment steps only (see below)
//   node bench/checkout.mjs --trace FILE         each request's start and end, for bench/checkout-profile.mjs
//   node bench/checkout.mjs --database NAME      PostgreSQL database to make afresh (default kb_bench_checkout)
//
// One checkout (--flow browser, the default) is what a buyer's browser with JavaScript sends, in
// order, on one connection (autocannon's request chain):
//   1. POST /checkout/{slug}.data            the payment form, submitted by its fetcher: the shop creates the
//                                            order at the database price and starts the payment at the gateway
//   2. GET  /checkout/{slug}.data?_routes=root   React Router's revalidation after the submission, only
//                                            with --revalidate: the form has not asked for it since
//                                            it sets defaultShouldRevalidate={false}; builds before
//                                            that (main at ab76d10) are measured with --revalidate
//   then the gateway's own steps (GATEWAYS below), each answer checked:
//     paytm     POST theia/processTransaction (the signed form) -> POST theia/simulator/respond ('Simulate
//               success', answered with the signed callback form) -> POST /api/payments/paytm/callback (the
//               shop verifies the checksum and asks the status API): 303
//     razorpay  (the shop created the order through the Orders API) GET v1/checkout.js -> POST v1/checkout/pay
//               (what checkout.js posts) -> POST v1/checkout/respond ('Simulate success', answered with the
//               form carrying razorpay_signature) -> POST /api/payments/razorpay/callback (the shop checks
//               the signature and fetches the payment): 303
//     phonepe   (the shop got a token and created the payment, checkout/v2/pay) GET the redirect page ->
//               POST its 'Simulate success' (303 back to the shop) -> GET /api/payments/phonepe/return (the
//               shop asks the status API): 303
//   last, GET /payment/callback?ORDERID=...  the result page (a full server-rendered document), which must
//                                            say 'Payment Successful!' with the amount
// --flow server never sends 2 and asks for the result page's data (/payment/callback.data, what
// the page's polling requests) instead of the document: order creation, signed callback and
// status check, without the storefront's document shell (header, footer, session) around them.
// autocannon speaks to one origin, so a small pass-through proxy in this process puts the
// simulator's buyer-facing pages under /__gateway/ next to the shop (as a load balancer would
// front both). The shop's own calls to the gateway's API go straight to the simulator. After the
// run the bench counts paid and delivered orders in the database, and reports the CPU time of the
// shop, the simulator and the bench per completed checkout.
//
// Budget (2 cores): >= 100 completed checkouts per second for 30 s, zero errors, p99 < 250 ms,
// on SQLite and on PostgreSQL. Figures go to bench/results/checkout.json and stdout.
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import {
  args,
  buildApp,
  checkoutChain,
  cpuSeconds,
  formFields,
  freePort,
  freshPostgresDatabase,
  loadAppModule,
  option,
  paytmCheckout,
  resultPagePath,
  returnToShop,
  root,
  spawnLogged,
  step,
  stockUp,
  stop,
  waitFor,
} from './_shop.mjs'

// The simulators' credentials (their TypeScript, loaded with tsx).
const { RAZORPAY_SIMULATOR_DEFAULTS } = await loadAppModule('simulators/razorpay/simulator.ts')
const { PHONEPE_SIMULATOR_DEFAULTS } = await loadAppModule('simulators/phonepe/simulator.ts')

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
const revalidate = args.includes('--revalidate')
// Which gateway's standalone simulator the purchases go through.
const gatewayId = option('gateway', 'paytm')
// --trace FILE: each request's start and end, for bench/checkout-profile.mjs (one connection).
const traceFile = option('trace', null)
const trace = traceFile ? [] : null
if (!['paytm', 'razorpay', 'phonepe'].includes(gatewayId)) {
  console.error('--gateway is paytm, razorpay or phonepe')
  process.exit(2)
}
const buildDir = process.env.BUILD_DIR ?? 'build-bench'
// The PostgreSQL database the run makes afresh (dropped first): one per engineer on a shared server.
const databaseName = option('database', 'kb_bench_checkout')
if (!/^[a-z_][a-z0-9_]*$/.test(databaseName)) {
  console.error('--database is a plain lower-case name')
  process.exit(2)
}
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
const engines = option('engine', null)
  ? [option('engine', null)]
  : pgUrl
    ? ['sqlite', 'postgres']
    : ['sqlite']

export const BUDGET = { checkoutsPerSecond: 100, errors: 0, p99Ms: 250 }

const APP_SECRET = 'bench-secret-0123456789abcdef0123456789abcdef'
// The simulators' credentials: Paytm's are the bench's own, Razorpay's and PhonePe's their defaults.
const SIM = {
  paytm: { mid: 'SIMMID12345678901234', key: 'aB3#kL9@xY2&mN5!' },
  razorpay: RAZORPAY_SIMULATOR_DEFAULTS,
  phonepe: PHONEPE_SIMULATOR_DEFAULTS,
}
const GATEWAY_PREFIX = '/__gateway'

/** The simulator's and the bench's edge addresses in the current run. */
const urls = { simulator: '', edge: '' }

const round = (value) => Math.round(value * 10) / 10

async function startSimulator() {
  const port = await freePort()
  const { child, output } = spawnLogged(
    process.execPath,
    ['--import', 'tsx', path.join(root, `simulators/${gatewayId}/standalone.ts`)],
    { SIM_PORT: String(port), ...GATEWAYS[gatewayId].simulatorEnv() },
  )
  const url = `http://127.0.0.1:${port}`
  const { healthPath } = GATEWAYS[gatewayId]
  await waitFor(`${url}${healthPath ?? '/'}`, child, output, `The ${gatewayId} simulator`, {
    anyAnswer: !healthPath,
  })
  return { url, child }
}

async function startShop(simulatorUrl, shared) {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const env = {
    BUILD_DIR: buildDir,
    NODE_ENV: 'production',
    // One process per shop: the bench starts --processes of them itself.
    WEB_CONCURRENCY: '1',
    HOST: '127.0.0.1',
    PORT: String(port),
    // Every process answers for the same shop (one public address, behind the proxy).
    PUBLIC_URL: shared.publicUrl,
    DATA_DIR: shared.dataDir,
    APP_SECRET,
    SEED_DEMO: '1',
    ...GATEWAYS[gatewayId].shopEnv(simulatorUrl),
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
function startEdge() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
  const shops = []
  let next = 0
  const server = http.createServer((req, res) => {
    const toGateway = req.url.startsWith(`${GATEWAY_PREFIX}/`)
    const target = toGateway ? new URL(urls.simulator) : shops[next++ % shops.length]
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

/**
 * Where a URL the shop or a gateway page gives the browser goes, as a path on the bench's one
 * origin: the simulator's own address (where the shop points the browser) maps to /__gateway/.
 * `base` is the address of the page the URL came from, for relative form actions.
 */
function edgePath(url, base) {
  const target = new URL(url, base)
  const simulator = new URL(urls.simulator)
  if (target.origin === simulator.origin)
    return `${GATEWAY_PREFIX}${target.pathname}${target.search}`
  return `${target.pathname}${target.search}`
}

/** The simulator's address of a page the bench requested under /__gateway/. */
const gatewayPageUrl = (edge) => `${urls.simulator}${edge.slice(GATEWAY_PREFIX.length)}`

/**
 * The gateways: each one's simulator (simulators/<gateway>/standalone.ts), the shop's settings
 * pointing at it, what the shop's checkout answer must hold, and the requests a buyer's
 * browser sends between that answer and the result page.
 */
const GATEWAYS = {
  paytm: {
    simulatorEnv: () => ({ SIM_PAYTM_MID: SIM.paytm.mid, SIM_PAYTM_KEY: SIM.paytm.key }),
    healthPath: '/__control/health',
    shopEnv: (simulatorUrl) => ({
      PAYTM_HOST: simulatorUrl,
      PAYTM_MID: SIM.paytm.mid,
      PAYTM_MERCHANT_KEY: SIM.paytm.key,
      PAYTM_WEBSITE: 'WEBSTAGING',
    }),
    ...paytmCheckout({ path: edgePath, pageUrl: gatewayPageUrl }),
  },
  razorpay: {
    simulatorEnv: () => ({}),
    healthPath: '/v1/checkout.js',
    // Keys, secret and webhook secret: the simulator's defaults (simulators/razorpay/simulator.ts).
    shopEnv: (simulatorUrl) => ({
      RAZORPAY_HOST: simulatorUrl,
      RAZORPAY_KEY_ID: SIM.razorpay.keyId,
      RAZORPAY_KEY_SECRET: SIM.razorpay.keySecret,
      RAZORPAY_WEBHOOK_SECRET: SIM.razorpay.webhookSecret,
    }),
    // The shop created the Razorpay order (Orders API) and answers with Checkout's options.
    started: (payment) =>
      payment?.kind === 'razorpay' && payment.options.amount === 149900
        ? { path: edgePath(payment.script), options: payment.options }
        : null,
    steps: [
      step('gateway script', {
        method: 'GET',
        path: (context) => context.start.path,
        check: (status, body) => status === 200 && body.includes('Razorpay'),
      }),
      // What the simulator's checkout.js posts when Checkout opens (the buyer's browser).
      step('gateway page', {
        path: () => `${GATEWAY_PREFIX}/v1/checkout/pay`,
        body: ({ start: { options } }) => ({
          key: options.key,
          order_id: options.order_id,
          callback_url: options.callback_url,
          name: options.name,
          description: options.description,
          'prefill[email]': options.prefill.email,
        }),
        check: (status, body, context) => {
          const form = status === 200 ? formFields(body, 'respond') : null
          if (!form?.fields.page_secret || !body.includes('Simulate success')) return false
          const page = gatewayPageUrl(`${GATEWAY_PREFIX}/v1/checkout/pay`)
          context.form = { path: edgePath(form.action, page), fields: form.fields }
        },
      }),
      step('gateway answer', {
        path: (context) => context.form.path,
        body: (context) => ({ ...context.form.fields, outcome: 'success' }),
        check: (status, body, context) => {
          const back = status === 200 ? formFields(body, '/api/payments/razorpay/callback') : null
          if (!back?.fields.razorpay_signature) return false
          context.back = { path: edgePath(back.action), fields: back.fields }
        },
      }),
      returnToShop('callback'),
    ],
  },
  phonepe: {
    // The buyer reaches the simulator through the bench's edge, so its pages link there.
    simulatorEnv: () => ({ SIM_PUBLIC_URL: `${urls.edge}${GATEWAY_PREFIX}` }),
    healthPath: null,
    // Client id, secret, version and webhook credentials: the simulator's defaults.
    shopEnv: (simulatorUrl) => ({
      PHONEPE_HOST: simulatorUrl,
      PHONEPE_CLIENT_ID: SIM.phonepe.clientId,
      PHONEPE_CLIENT_SECRET: SIM.phonepe.clientSecret,
      PHONEPE_CLIENT_VERSION: SIM.phonepe.clientVersion,
      PHONEPE_WEBHOOK_USERNAME: SIM.phonepe.webhookUsername,
      PHONEPE_WEBHOOK_PASSWORD: SIM.phonepe.webhookPassword,
    }),
    // The shop got a token and created the payment (checkout/v2/pay): the buyer is redirected.
    started: (payment) =>
      payment?.kind === 'redirect' ? { path: edgePath(payment.url, urls.edge) } : null,
    steps: [
      step('gateway page', {
        method: 'GET',
        path: (context) => context.start.path,
        check: (status, body, context) => {
          const form = status === 200 ? formFields(body, '/respond') : null
          if (!form || !body.includes('Simulate success') || !body.includes('₹1,499')) return false
          context.form = { path: edgePath(form.action, urls.edge) }
        },
      }),
      step('gateway answer', {
        path: (context) => context.form.path,
        body: () => ({ outcome: 'success' }),
        check: (status, _body, context, headers) => {
          if (status !== 303 || !headers.location) return false
          context.back = { path: edgePath(headers.location, urls.edge) }
        },
      }),
      // PhonePe sends the buyer back with a plain GET; the shop asks the status API.
      step('return', {
        method: 'GET',
        path: (context) => context.back.path,
        check: (status, _body, context, headers) =>
          status === 303 && headers.location === resultPagePath(context.orderId),
      }),
    ],
  },
}

/**
 * The requests of one checkout through the chosen gateway (see the top of this file); each
 * checks its answer. With `trace`, every request's start and end (monotonic clock, µs) is
 * recorded for bench/checkout-profile.mjs.
 */
const purchases = (failures, trace) =>
  checkoutChain(failures, {
    gateway: GATEWAYS[gatewayId],
    gatewayId,
    gatewayPrefix: GATEWAY_PREFIX,
    flow,
    revalidate,
    trace,
  })

async function runOnce(engine) {
  // The edge first: PhonePe's simulator links its pages through it.
  const edge = await startEdge()
  urls.edge = edge.url
  const simulator = await startSimulator()
  urls.simulator = simulator.url
  const shared = {
    publicUrl: edge.url,
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'kb-bench-checkout-')),
    databaseUrl:
      engine === 'postgres' ? await freshPostgresDatabase(pgUrl, databaseName) : undefined,
  }
  const shops = []
  try {
    // One after the other: the first migrates and seeds, the others find it done.
    for (let i = 0; i < processes; i++) {
      const shop = await startShop(simulator.url, shared)
      shops.push(shop)
      edge.addShop(shop)
    }
    const stocked = await stockUp(shared, { items: stockItems, appSecret: APP_SECRET })
    // What the shop spends with no traffic at all (the job runner's polling, timers), per second:
    // at a few checkouts per second on a busy machine it weighs on the figure per checkout.
    const idleStart = shopCpuSeconds(shops)
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000))
    const idlePerSecond = (shopCpuSeconds(shops) - idleStart) / IDLE_SECONDS
    // Warm up (JIT, connection pools, the first SSR of each page): 5 s, not counted.
    const warm = { count: 0, completed: 0, byStep: {}, samples: [] }
    await autocannon({
      url: edge.url,
      connections,
      duration: 5,
      requests: purchases(warm),
    })
    const failures = { count: 0, completed: 0, byStep: {}, samples: [] }
    const loadBefore = os.loadavg()[0]
    const shopCpu = () => shopCpuSeconds(shops)
    const before = {
      shop: shopCpu(),
      simulator: cpuSeconds(simulator.child),
      bench: process.cpuUsage(),
    }
    const result = await autocannon({
      url: edge.url,
      connections,
      duration,
      requests: purchases(failures, trace),
    })
    if (trace) fs.writeFileSync(traceFile, JSON.stringify({ gateway: gatewayId, flow, trace }))
    const benchCpu = process.cpuUsage(before.bench)
    const cpu = {
      shop: round(shopCpu() - before.shop),
      simulator: round(cpuSeconds(simulator.child) - before.simulator),
      benchAndProxy: round((benchCpu.user + benchCpu.system) / 1e6),
      available: duration * os.availableParallelism(),
    }
    // CPU milliseconds per completed checkout: what a checkout costs, whatever else ran.
    const perCheckout = (seconds) =>
      failures.completed ? round((seconds * 1000) / failures.completed) : null
    const cpuMsPerCheckout = {
      shop: perCheckout(cpu.shop),
      // The same without the idle cost (idle CPU per second times the run's length).
      shopBeyondIdle: perCheckout(Math.max(0, cpu.shop - idlePerSecond * duration)),
      simulator: perCheckout(cpu.simulator),
      benchAndProxy: perCheckout(cpu.benchAndProxy),
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
      gateway: gatewayId,
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
      cpuSeconds: { ...cpu, shopIdlePerSecond: Math.round(idlePerSecond * 1000) / 1000 },
      cpuMsPerCheckout,
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

const IDLE_SECONDS = 5

const shopCpuSeconds = (shops) =>
  shops.reduce((sum, shop) => sum + (cpuSeconds(shop.child) ?? 0), 0)

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

if (build) buildApp(buildDir)

const results = []
for (const engine of engines) {
  console.log(
    `\nCheckout bench on ${engine} through ${gatewayId} (${flow} flow): ${processes} shop process(es), ${connections} connections, ${duration} s (after a 5 s warm-up) ...`,
  )
  results.push(await runOnce(engine))
}

let withinBudget = true
console.log(
  '\n| Engine | Gateway | Flow | Shop processes | Checkouts/s | Completed | Paid in DB | Delivered | Errors | p50 | p90 | p99 | max | Requests/s | CPU s: shop / simulator / bench+proxy (of available) | CPU ms per checkout: shop (beyond idle) / simulator / bench+proxy | Load avg |',
)
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
for (const r of results) {
  console.log(
    `| ${r.engine} | ${r.gateway} | ${r.flow} | ${r.processes} | ${r.checkoutsPerSecond} | ${r.completedCheckouts} | ${r.paidOrdersInDatabase} | ${r.deliveredOrders} | ${r.errors} | ${r.latencyMs.p50} ms | ${r.latencyMs.p90} ms | ${r.latencyMs.p99} ms | ${r.latencyMs.max} ms | ${Math.round(r.requestsPerSecond)} | ${r.cpuSeconds.shop} / ${r.cpuSeconds.simulator} / ${r.cpuSeconds.benchAndProxy} (${r.cpuSeconds.available}) | ${r.cpuMsPerCheckout.shop} (${r.cpuMsPerCheckout.shopBeyondIdle}) / ${r.cpuMsPerCheckout.simulator} / ${r.cpuMsPerCheckout.benchAndProxy} | ${r.loadAverage.before} → ${r.loadAverage.after} |`,
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
