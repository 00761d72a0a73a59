// Storefront under load, beside nginx serving the same bytes.
//
//   npm run bench storefront-load                 build into $BUILD_DIR (default build-bench), measure
//   node bench/storefront-load.mjs --no-build     reuse the existing $BUILD_DIR
//   node bench/storefront-load.mjs --duration 15 --connections 50
//
// The production server (server.js, demo catalogue on SQLite in a temporary DATA_DIR, one
// process: WEB_CONCURRENCY=1) runs pinned to core 0 (`taskset -c 0`). A demo customer signs up
// and confirms by the mailed link for a session cookie. For each page below, the app's answer is
// saved to a temporary folder and nginx (one worker, also pinned to core 0, a config written
// beside the files) serves those bytes with the same Content-Type. autocannon runs pinned to
// core 1 with `--connections` for `--duration` seconds per URL, against the app, then nginx.
// Neither side is asked to compress (autocannon sends no Accept-Encoding, the saved HTML is
// what the app sends uncompressed), so both send the same uncompressed HTML.
//
// Reported per page: req/s, p50 and p99 latency, errors and non-2xx answers, for the app and
// nginx, and the ratio app/nginx; the app's own CPU milliseconds per request (from /proc, which
// other processes' load does not inflate); the load average before and after. Budgets (exit code 1 and
// the misses printed): anonymous home and product page >= 0.25x nginx with p99 < 50 ms; the
// signed-in product page and /dashboard >= 0.05x nginx with p99 < 250 ms; no errors or non-2xx
// answers anywhere. Figures go to bench/results/storefront-load.json and stdout.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  args,
  cpuSeconds,
  freePort,
  loadAppModule,
  option,
  root,
  spawnLogged,
  stop,
  waitFor,
} from './_shop.mjs'

const build = !args.includes('--no-build')
const duration = Number(option('duration', '15'))
const connections = Number(option('connections', '50'))
const buildDir = process.env.BUILD_DIR ?? 'build-bench'
const APP_CORE = '0'
const LOAD_CORE = '1'
const PRODUCT_PATH = '/product/streamverse-premium-12-months'
const CUSTOMER = {
  name: 'Bench Customer',
  email: 'bench.customer@example.test',
  password: 'bench-secret-12',
}

export const BUDGET = {
  anonymous: { ratio: 0.25, p99Ms: 50 },
  signedIn: { ratio: 0.05, p99Ms: 250 },
}
const PAGES = [
  { label: 'home', path: '/', signedIn: false },
  { label: 'product', path: PRODUCT_PATH, signedIn: false },
  { label: 'product, signed in', path: PRODUCT_PATH, signedIn: true },
  { label: 'dashboard, signed in', path: '/dashboard', signedIn: true },
]

const round = (value) => Math.round(value * 10) / 10
const loadAverage = () => os.loadavg().map((n) => n.toFixed(2))

function run(command, commandArgs, env = {}) {
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  })
  if (result.status !== 0) throw new Error(`${command} ${commandArgs.join(' ')} failed`)
}

function nginxBinary() {
  const found = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((file) => fs.existsSync(file))
  if (found) return found
  console.log('nginx is not installed: apt-get install nginx')
  run('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], {
    DEBIAN_FRONTEND: 'noninteractive',
  })
  return nginxBinary()
}

const spawnPinned = (core, command, commandArgs, env) =>
  spawnLogged('taskset', ['-c', core, command, ...commandArgs], env)

/** CPU time (user + system) a process has used, from /proc: other processes' load does not count. */
const cpuMs = (child) => cpuSeconds(child) * 1000

/** autocannon on core 1, as its command line: the JSON summary. */
function autocannon(url, cookie) {
  const result = spawnSync(
    'taskset',
    [
      '-c',
      LOAD_CORE,
      process.execPath,
      path.join(root, 'node_modules/autocannon/autocannon.js'),
      '--connections',
      String(connections),
      '--duration',
      String(duration),
      '--json',
      ...(cookie ? ['--headers', `cookie=${cookie}`] : []),
      url,
    ],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
  if (result.status !== 0) throw new Error(`autocannon failed:\n${result.stderr}`)
  const summary = JSON.parse(result.stdout)
  return {
    requestsPerSecond: round(summary.requests.average),
    p50Ms: summary.latency.p50,
    p99Ms: summary.latency.p99,
    errors: summary.errors + summary.timeouts,
    non2xx: summary.non2xx,
    bytesPerRequest: Math.round(summary.throughput.total / Math.max(1, summary.requests.total)),
    requests: summary.requests.total,
  }
}

function nginxConfig(dir, port, files) {
  const locations = files
    .map(
      ({ servedAt, file, contentType }) => `    location = ${servedAt} {
      default_type "${contentType}";
      alias ${file};
    }`,
    )
    .join('\n')
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:${port};
${locations}
  }
}
`
}

if (build) {
  console.log(`Building into ${buildDir}/ ...`)
  run(process.execPath, [path.join(root, 'node_modules/@react-router/dev/bin.js'), 'build'], {
    BUILD_DIR: buildDir,
    NODE_ENV: 'production',
  })
}
if (!fs.existsSync(path.join(root, buildDir, 'server/index.js'))) {
  console.error(`No build in ${buildDir}/: run without --no-build, or set BUILD_DIR`)
  process.exit(2)
}
const nginx = nginxBinary()

const { signUpConfirmed } = await loadAppModule('tests/helpers/mailbox.ts')

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-bench-storefront-'))
const dataDir = path.join(work, 'data')
const htmlDir = path.join(work, 'html')
fs.mkdirSync(dataDir)
fs.mkdirSync(htmlDir)
// nginx started as root runs its worker as an unprivileged user, which must reach the files.
fs.chmodSync(work, 0o755)
fs.chmodSync(htmlDir, 0o755)
const appPort = await freePort()
const nginxPort = await freePort()
const appUrl = `http://127.0.0.1:${appPort}`
const nginxUrl = `http://127.0.0.1:${nginxPort}`

const results = {
  date: new Date().toISOString(),
  build: buildDir,
  duration,
  connections,
  loadAverageBefore: loadAverage(),
  pages: [],
}
const app = spawnPinned(APP_CORE, process.execPath, [path.join(root, 'server.js')], {
  BUILD_DIR: buildDir,
  NODE_ENV: 'production',
  WEB_CONCURRENCY: '1',
  HOST: '127.0.0.1',
  PORT: String(appPort),
  PUBLIC_URL: appUrl,
  DATA_DIR: dataDir,
  APP_SECRET: 'bench-secret-0123456789abcdef0123456789abcdef',
})
let server
const misses = []
try {
  await waitFor(`${appUrl}/healthz`, app.child, app.output, 'The shop', { intervalMs: 200 })
  const cookie = await signUpConfirmed(appUrl, { dataDir }, CUSTOMER)

  const files = []
  for (const [index, page] of PAGES.entries()) {
    const headers = { 'Accept-Encoding': 'identity', ...(page.signedIn ? { cookie } : {}) }
    // A few requests first, so the image variants and the first-use caches exist.
    for (let i = 0; i < 5; i++) await (await fetch(appUrl + page.path, { headers })).arrayBuffer()
    const response = await fetch(appUrl + page.path, { headers, redirect: 'manual' })
    const body = Buffer.from(await response.arrayBuffer())
    if (response.status !== 200) throw new Error(`${page.path} answered ${response.status}`)
    if (page.signedIn && !body.includes(CUSTOMER.name))
      throw new Error(`${page.path} does not show the signed-in customer`)
    const file = path.join(htmlDir, `page-${index}.html`)
    fs.writeFileSync(file, body)
    page.servedAt = `/page-${index}`
    page.bytes = body.length
    files.push({ servedAt: page.servedAt, file, contentType: response.headers.get('content-type') })
  }

  const confPath = path.join(work, 'nginx.conf')
  fs.writeFileSync(confPath, nginxConfig(work, nginxPort, files))
  server = spawnPinned(APP_CORE, nginx, ['-p', work, '-c', confPath, '-e', 'stderr'], {})
  await waitFor(`${nginxUrl}${files[0].servedAt}`, server.child, server.output, 'nginx', {
    intervalMs: 200,
  })
  for (const page of PAGES) {
    const saved = await (await fetch(nginxUrl + page.servedAt)).arrayBuffer()
    if (saved.byteLength !== page.bytes) throw new Error(`nginx sends other bytes for ${page.path}`)
  }

  console.log(
    `${duration} s per URL, ${connections} connections; app and nginx on core ${APP_CORE}, autocannon on core ${LOAD_CORE}`,
  )
  for (const page of PAGES) {
    const cpuBefore = cpuMs(app.child)
    const shop = autocannon(appUrl + page.path, page.signedIn ? cookie : null)
    // The shop's own CPU per answered request: comparable between runs on a busy machine.
    shop.cpuMsPerRequest = round((cpuMs(app.child) - cpuBefore) / Math.max(1, shop.requests))
    const reference = autocannon(nginxUrl + page.servedAt, null)
    const ratio = Math.round((shop.requestsPerSecond / reference.requestsPerSecond) * 1000) / 1000
    const budget = page.signedIn ? BUDGET.signedIn : BUDGET.anonymous
    const row = {
      label: page.label,
      url: page.path,
      bytes: page.bytes,
      shop,
      nginx: reference,
      ratio,
    }
    results.pages.push(row)
    console.log(
      `${page.label.padEnd(22)} ${String(page.bytes).padStart(7)} B | shop ${shop.requestsPerSecond} req/s, p50 ${shop.p50Ms} ms, p99 ${shop.p99Ms} ms, CPU ${shop.cpuMsPerRequest} ms/req` +
        ` | nginx ${reference.requestsPerSecond} req/s, p50 ${reference.p50Ms} ms, p99 ${reference.p99Ms} ms | ${ratio}x`,
    )
    if (ratio < budget.ratio)
      misses.push(`${page.label}: ${ratio}x nginx (budget ${budget.ratio}x)`)
    if (shop.p99Ms >= budget.p99Ms)
      misses.push(`${page.label}: p99 ${shop.p99Ms} ms (budget < ${budget.p99Ms} ms)`)
    if (shop.errors || shop.non2xx)
      misses.push(`${page.label}: ${shop.errors} errors, ${shop.non2xx} non-2xx answers`)
  }
} finally {
  if (server) await stop(server.child)
  await stop(app.child)
  fs.rmSync(work, { recursive: true, force: true })
}

results.loadAverageAfter = loadAverage()
results.misses = misses
fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true })
fs.writeFileSync(
  path.join(root, 'bench/results/storefront-load.json'),
  JSON.stringify(results, null, 2),
)
console.log(
  `load average ${results.loadAverageBefore.join(' ')} -> ${results.loadAverageAfter.join(' ')}`,
)
if (misses.length) {
  console.log(`OVER BUDGET:\n  ${misses.join('\n  ')}`)
  process.exit(1)
}
console.log('within budget')
