// What the benchmarks share: their command-line options, starting the built shop as a child
// process, reading its pages, and whole checkouts as autocannon's request chains
// (bench/checkout.mjs drives many in parallel through each gateway's simulator; bench/soak.mjs
// mixes Paytm ones with browsing and sign-ins).
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import pg from 'pg'
import { register } from 'tsx/esm/api'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export const args = process.argv.slice(2)
/** The value after `--name` on the command line, or `fallback`. */
export const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`)
  return index >= 0 && args[index + 1] ? args[index + 1] : fallback
}

/**
 * The PostgreSQL URL (the first of the environment `variables` that holds a postgres:// URL)
 * and the engines to run: `--engine`, else SQLite, and PostgreSQL too when there is a URL.
 * Exits when `--engine postgres` has no URL.
 */
export function benchEngines(variables) {
  const pgUrl = variables
    .map((name) => process.env[name])
    .find((url) => url?.startsWith('postgres'))
  const engines = option('engine', null)
    ? [option('engine', null)]
    : pgUrl
      ? ['sqlite', 'postgres']
      : ['sqlite']
  if (engines.includes('postgres') && !pgUrl) {
    const names = `${variables.slice(0, -1).join(', ')} or ${variables.at(-1)}`
    console.error(`--engine postgres needs ${names}`)
    process.exit(2)
  }
  return { pgUrl, engines }
}

/** Builds the app into `buildDir` (`npx react-router build`); exits when the build fails. */
export function buildApp(buildDir) {
  console.log(`Building into ${buildDir}/ ...`)
  const built = spawnSync('npx', ['react-router', 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BUILD_DIR: buildDir },
  })
  if (built.status !== 0) process.exit(1)
}

/** A new, empty PostgreSQL database `name` on the server of `pgUrl` (dropped first if it exists). */
export async function freshPostgresDatabase(pgUrl, name) {
  const admin = new pg.Client({ connectionString: pgUrl })
  await admin.connect()
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(pgUrl)
  url.pathname = `/${name}`
  return url.href
}

/** The product every bench buys: the demo catalogue's, sold from stock at ₹1,499. */
export const PRODUCT_SLUG = 'streamverse-premium-12-months'

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/**
 * Waits up to a minute for `url` to answer 200 (any answer with `anyAnswer`), polling every
 * `intervalMs`; fails with the child's output when it exits first.
 */
export async function waitFor(
  url,
  child,
  output,
  what,
  { anyAnswer = false, intervalMs = 100 } = {},
) {
  // A fresh PostgreSQL database is migrated and seeded first: over a minute on a busy machine.
  const deadline = Date.now() + 180_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited:\n${output()}`)
    const ok = await fetch(url)
      .then((r) => anyAnswer || r.ok)
      .catch(() => false)
    if (ok) return
    if (Date.now() > deadline) throw new Error(`${what} did not start:\n${output()}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

export function spawnLogged(command, commandArgs, env) {
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

export function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
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
export function formFields(html, marker) {
  const form = new RegExp(`<form[^>]*action="([^"]*${marker}[^"]*)"[^>]*>([\\s\\S]*?)</form>`).exec(
    html,
  )
  if (!form) return null
  const fields = {}
  for (const input of form[2].matchAll(
    /<input type="hidden" name="([^"]*)" value="([^"]*)"\s*\/?>/g,
  )) {
    fields[unescapeHtml(input[1])] = unescapeHtml(input[2])
  }
  return { action: unescapeHtml(form[1]), fields }
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

/** React Router's single-fetch answer (turbo-stream): enough of it for plain objects and text. */
export function decodeTurboStream(text) {
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

export const resultPagePath = (orderId) => `/payment/callback?ORDERID=${orderId}`

/**
 * One request of a checkout: `path` and `body` read the checkout's context (what earlier
 * answers gave), `check` looks at the answer and returns false (an error) or keeps what the
 * next request needs in the context.
 */
export function step(name, { method = 'POST', path, body, headers, check }) {
  return { name, method, path, body, headers, check }
}

/** The gateway's signed form posted to the shop; it must answer 303 to the order's result page. */
export const returnToShop = (name) =>
  step(name, {
    path: (context) => context.back.path,
    body: (context) => context.back.fields,
    check: (status, _body, context, headers) =>
      status === 303 && headers.location === resultPagePath(context.orderId),
  })

/**
 * A Paytm checkout as the buyer's browser goes through it: what the shop's checkout answer must
 * hold (`started`) and the requests between that answer and the result page (`steps`).
 * `route.path(url, base)` is where a URL the shop or the gateway's page gives the browser goes,
 * as a path on the bench's one origin (`base`: the address of the page it came from, for
 * relative form actions); `route.pageUrl(path)` is the address of a gateway page the bench
 * requested at `path`.
 */
export function paytmCheckout(route) {
  return {
    // The signed processTransaction form, auto-submitted by the browser.
    started: (payment) =>
      payment?.kind === 'form' && payment.fields.TXN_AMOUNT === '1499.00'
        ? { path: route.path(payment.action), fields: payment.fields }
        : null,
    steps: [
      step('gateway page', {
        path: (context) => context.start.path,
        body: (context) => context.start.fields,
        check: (status, body, context) => {
          // The page's buttons post its transaction, with the page's secret, back to the simulator.
          const form = status === 200 ? formFields(body, '/theia/simulator/respond') : null
          if (!form?.fields.PAGE_SECRET || !body.includes('Simulate success')) return false
          const page = route.pageUrl(context.start.path)
          context.form = { path: route.path(form.action, page), fields: form.fields }
        },
      }),
      step('gateway answer', {
        path: (context) => context.form.path,
        body: (context) => ({ ...context.form.fields, PAYMENTMODE: 'UPI', outcome: 'success' }),
        check: (status, body, context) => {
          const back = status === 200 ? formFields(body, '/api/payments/paytm/callback') : null
          if (back?.fields.STATUS !== 'TXN_SUCCESS') return false
          context.back = { path: route.path(back.action), fields: back.fields }
        },
      }),
      returnToShop('callback'),
    ],
  }
}

/**
 * The requests of one whole checkout as autocannon's request chain; each checks its answer and
 * counts into `failures`. `gateway` ({ started, steps }, e.g. paytmCheckout) gives the gateway's
 * part. Options: `flow` browser (the result page as a full document) or server (its data, as
 * the page's polling asks); `revalidate`, React Router's revalidation after the submission (the
 * checkout form asks for none since it sets defaultShouldRevalidate={false}; older builds did);
 * `gatewayId`, sent with the form when the shop offers several gateways; `gatewayPrefix`, where
 * the gateway's pages are on the bench's origin (the order's cookie does not go there); `trace`,
 * an array that gets every request's start and end (monotonic clock, µs).
 */
export function checkoutChain(
  failures,
  {
    gateway,
    gatewayId,
    gatewayPrefix,
    flow = 'browser',
    revalidate = false,
    productSlug = PRODUCT_SLUG,
    trace,
  },
) {
  let sequence = 0
  const paidShown = (body) => {
    if (flow === 'browser') return body.includes('Payment Successful!') && body.includes('₹1,499')
    const page = decodeTurboStream(body)?.['routes/payment/callback']?.data
    return page?.state === 'success' && page.details?.amount === '₹1,499'
  }
  const steps = [
    step('create order', {
      path: () => `/checkout/${productSlug}.data`,
      body: (context) => {
        sequence++
        // Every checkout is a buyer of its own (the shop throttles checkouts per address and
        // per e-mail); the shop trusts X-Forwarded-For from loopback, where the bench runs.
        context.forwardedFor = `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`
        return {
          name: 'Bench Buyer',
          email: `buyer${sequence}@bench.test`,
          phone: '9876543210',
          ...(gatewayId ? { gateway: gatewayId } : {}),
        }
      },
      headers: (context) => ({ 'x-forwarded-for': context.forwardedFor }),
      check: (status, body, context, headers) => {
        const answer = status === 200 ? decodeTurboStream(body)?.data : null
        context.start = answer?.ok ? gateway.started(answer.payment) : null
        if (!context.start) return false
        context.orderId = answer.orderId
        context.cookie = String(headers['set-cookie'] ?? '').split(';')[0]
      },
    }),
    ...(flow === 'browser' && revalidate
      ? [
          step('revalidate', {
            method: 'GET',
            path: () => `/checkout/${productSlug}.data?_routes=root`,
            check: (status) => status === 200,
          }),
        ]
      : []),
    ...gateway.steps,
    step('result page', {
      method: 'GET',
      path: (context) =>
        flow === 'browser'
          ? resultPagePath(context.orderId)
          : `/payment/callback.data?ORDERID=${context.orderId}&_routes=routes%2Fpayment%2Fcallback`,
      check: (status, body) => status === 200 && paidShown(body),
    }),
  ]
  const fail = (name, status, context) => {
    failures.count++
    failures.byStep[name] = (failures.byStep[name] ?? 0) + 1
    context.failed = true
    if (failures.samples.length < 5) failures.samples.push(`${name}: HTTP ${status}`)
  }
  const now = () => Number(process.hrtime.bigint() / 1000n)
  return steps.map((s, index) => ({
    method: s.method,
    // autocannon needs a path for every request; setupRequest sets the real one.
    path: '/',
    setupRequest: (req, context) => {
      if (context.failed && index > 0) return null
      const body = s.body ? new URLSearchParams(s.body(context)).toString() : undefined
      const path = s.path(context)
      if (trace) context.startedAt = now()
      return {
        ...req,
        method: s.method,
        path,
        headers: {
          ...(body ? FORM : {}),
          // The order's cookie (SameSite=Lax) goes with the shop's own GETs, as in a browser.
          ...(s.method === 'GET' && context.cookie && !path.startsWith(gatewayPrefix)
            ? { cookie: context.cookie }
            : {}),
          ...s.headers?.(context),
        },
        body,
      }
    },
    onResponse: (status, body, context, headers) => {
      if (trace) trace.push([s.name, context.startedAt, now()])
      if (s.check(status, body, context, headers) === false) return fail(s.name, status, context)
      if (index === steps.length - 1) failures.completed++
    },
  }))
}

/** Loads one of the shop's TypeScript modules (tsx), for set-up done through the app's own code. */
let tsxRegistered = false
export function loadAppModule(file) {
  if (!tsxRegistered) register({ tsconfig: path.join(root, 'tsconfig.json') })
  tsxRegistered = true
  return import(pathToFileURL(path.join(root, file)).href)
}

/** The shop's database, as the server at `shared` (dataDir, databaseUrl) opens it. */
export async function openShopDatabase(shared) {
  const { createDatabase } = await loadAppModule('app/lib/db.server.ts')
  return shared.databaseUrl
    ? createDatabase({ databaseUrl: shared.databaseUrl })
    : createDatabase({ sqlitePath: path.join(shared.dataDir, 'keybazaar.db') })
}

/**
 * Imports `items` fictional items (test items, for the test mode's orders, with `testItems`) for the bench's product through importStock, in the
 * shop's own database (its TypeScript loaded with tsx, as the stock-import bench does).
 */
export async function stockUp(
  shared,
  { items, appSecret, testItems = false, productSlug = PRODUCT_SLUG },
) {
  const { importStock } = await loadAppModule('app/services/fulfilment.server.ts')
  const db = await openShopDatabase(shared)
  try {
    const product = await db
      .selectFrom('product')
      .select('id')
      .where('slug', '=', productSlug)
      .executeTakeFirstOrThrow()
    const content = Array.from(
      { length: items },
      (_, i) => `bench-buyer-${String(i).padStart(6, '0')}@example.test / Bench-Pass-${i}`,
    ).join('\n')
    const summary = await importStock(db, {
      productId: product.id,
      content,
      format: 'lines',
      appSecret,
      testItems,
    })
    return summary.added
  } finally {
    await db.destroy()
  }
}

/** CPU seconds a child process has used so far (Linux), to show where the machine's time went. */
export function cpuSeconds(child) {
  try {
    const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return null
  }
}
