// Where a checkout's CPU goes: splits a CPU profile of the shop by request (the windows
// `bench/checkout.mjs --trace` recorded) and by kind of work (what the sampled stack runs).
//
//   rm -rf /tmp/prof && BENCH_SHOP_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof" \
//     node bench/checkout.mjs --no-build --engine sqlite --processes 1 --connections 1 \
//       --duration 20 --trace /tmp/prof/trace.json
//   node bench/checkout-profile.mjs /tmp/prof/*.cpuprofile /tmp/prof/trace.json
//
// With one shop process and one connection, at most one request is in the shop at a time, so a
// sample taken inside a request's window (from the bench sending it to the answer's end) is that
// request's work; V8's profile clock and the bench's process.hrtime are both the monotonic clock.
// Samples outside every window are the shop's background work (the job runner: mail, checks).
// Figures are milliseconds of shop CPU per completed checkout (the traced result pages).
import fs from 'node:fs'

const [profileFile, traceFile] = process.argv.slice(2)
if (!profileFile || !traceFile) {
  console.error('usage: node bench/checkout-profile.mjs PROFILE.cpuprofile TRACE.json')
  process.exit(2)
}
const profile = JSON.parse(fs.readFileSync(profileFile, 'utf8'))
const { trace } = JSON.parse(fs.readFileSync(traceFile, 'utf8'))

/**
 * Kinds of work. A sample belongs to the first kind whose test matches: `anywhere` kinds look at
 * the whole stack (what the work is for), the others at the frames from the leaf up (what runs).
 */
const FETCHING =
  /^(fetch|fetchOrderStatus|httpNetworkFetch|httpNetworkOrDBFetch|mainFetch|schemeFetch|httpFetch)$/
const KINDS = [
  ['garbage collection', 'leaf', (f) => f.functionName === '(garbage collector)'],
  [
    'mail (render, transport, outbox file)',
    'anywhere',
    (f) => /nodemailer|renderOrderMail|sendMail/.test(f.key),
  ],
  ['outgoing HTTP (gateway API)', 'anywhere', (f) => FETCHING.test(f.functionName)],
  [
    'database driver (SQLite, pg)',
    'leaf',
    (f) => /better-sqlite3|sqlite-driver|[\\/]pg[\\/]|pg-protocol|pg-pool/.test(f.url),
  ],
  ['query building (Kysely)', 'leaf', (f) => /kysely/.test(f.url)],
  ['crypto (HMAC, AES, SHA)', 'leaf', (f) => /crypto/.test(f.url)],
  ['React rendering', 'leaf', (f) => /react-dom|react\.production|lucide/.test(f.url)],
  ['validation (zod)', 'leaf', (f) => /[\\/]zod[\\/]/.test(f.url)],
  ['React Router', 'leaf', (f) => /react-router/.test(f.url)],
  ['better-auth (session)', 'leaf', (f) => /better-auth|better-call/.test(f.url)],
  ['Request/Response objects (undici)', 'leaf', (f) => /undici|web\/fetch/.test(f.url)],
  ['compression', 'leaf', (f) => /compression|zlib/.test(f.url)],
  [
    'HTTP server (Express, sockets, streams)',
    'leaf',
    (f) => /express|_http_|net|stream|router/.test(f.url),
  ],
  ['app code (build)', 'leaf', (f) => /[\\/]server[\\/](index|assets)/.test(f.url)],
]

const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
const parents = new Map()
for (const node of profile.nodes)
  for (const child of node.children ?? []) parents.set(child, node.id)
const frame = (node) => {
  const { functionName, url } = node.callFrame
  return { functionName, url, key: `${functionName} ${url}` }
}
const kindCache = new Map()
function kindOf(id) {
  if (kindCache.has(id)) return kindCache.get(id)
  let kind = 'other (Node.js internals)'
  const leaf = nodes.get(id).callFrame.functionName
  if (leaf === '(idle)' || leaf === '(program)') kind = leaf
  else {
    const stack = []
    for (let at = id; at !== undefined; at = parents.get(at)) stack.push(frame(nodes.get(at)))
    const found =
      KINDS.find(([, scope, test]) => scope === 'anywhere' && stack.some(test)) ??
      stack.map((f) => KINDS.find(([, scope, test]) => scope === 'leaf' && test(f))).find(Boolean)
    if (found) kind = found[0]
  }
  kindCache.set(id, kind)
  return kind
}

const windows = trace
  .map(([step, start, end]) => ({ step, start, end }))
  .sort((a, b) => a.start - b.start)
const checkouts = trace.filter(([step]) => step === 'result page').length
let time = profile.startTime
let w = 0
const byStep = new Map()
const byKind = new Map()
const byStepKind = new Map()
const add = (map, key, value) => map.set(key, (map.get(key) ?? 0) + value)
for (let i = 0; i < profile.samples.length; i++) {
  time += profile.timeDeltas[i]
  const id = profile.samples[i]
  const kind = kindOf(id)
  if (kind === '(idle)' || kind === '(program)') continue
  if (time < windows[0].start || time > windows[windows.length - 1].end) continue
  while (w < windows.length - 1 && windows[w].end < time) w++
  const inside = windows[w].start <= time && time <= windows[w].end
  // A sample's weight is the interval it stands for (the next delta).
  const weight = (profile.timeDeltas[i + 1] ?? 0) / 1000
  const step = inside ? windows[w].step : 'between requests (background jobs)'
  add(byStep, step, weight)
  add(byKind, kind, weight)
  add(byStepKind, `${step}\u0000${kind}`, weight)
}

const perCheckout = (ms) => (ms / checkouts).toFixed(2).padStart(6)
const total = [...byStep.values()].reduce((a, b) => a + b, 0)
console.log(`${checkouts} checkouts traced; shop CPU ${perCheckout(total)} ms per checkout\n`)
console.log('By request (ms per checkout), with its main kinds of work:')
for (const [step, ms] of [...byStep].sort((a, b) => b[1] - a[1])) {
  const kinds = [...byStepKind]
    .filter(([key]) => key.startsWith(`${step}\u0000`))
    .sort((a, b) => b[1] - a[1])
    .filter(([, value]) => value / checkouts >= 0.2)
    .map(([key, value]) => `${key.split('\u0000')[1]} ${(value / checkouts).toFixed(2)}`)
  console.log(`${perCheckout(ms)}  ${step.padEnd(36)} ${kinds.join('; ')}`)
}
console.log('\nBy kind of work (ms per checkout):')
for (const [kind, ms] of [...byKind].sort((a, b) => b[1] - a[1]))
  console.log(`${perCheckout(ms)}  ${kind}`)

// DETAIL="result page": the functions that request spends its own time in.
if (process.env.DETAIL) {
  const self = new Map()
  time = profile.startTime
  w = 0
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i]
    const kind = kindOf(profile.samples[i])
    if (kind === '(idle)' || kind === '(program)') continue
    if (time < windows[0].start || time > windows[windows.length - 1].end) continue
    while (w < windows.length - 1 && windows[w].end < time) w++
    if (!(
      windows[w].start <= time &&
      time <= windows[w].end &&
      windows[w].step === process.env.DETAIL
    ))
      continue
    const { functionName, url, lineNumber } = nodes.get(profile.samples[i]).callFrame
    add(
      self,
      `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber} [${kind}]`,
      (profile.timeDeltas[i + 1] ?? 0) / 1000,
    )
  }
  console.log(`\nSelf time in "${process.env.DETAIL}" (ms per checkout):`)
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.log(`${perCheckout(ms)}  ${name}`)
}
