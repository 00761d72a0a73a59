// The shop's CPU per call to a gateway's server-to-server API: Node's global fetch against
// gatewayFetch (app/lib/payments/http.server.ts), the client the payment code uses.
//
//   node bench/gateway-http.mjs                 3 rounds of 3,000 calls each, taking turns to go first
//   node bench/gateway-http.mjs --calls 5000 --rounds 5
//
// A child process answers every call as Paytm's status API would (a JSON document of about
// 700 bytes), so only the client's CPU is counted here: process.cpuUsage() around the calls,
// one at a time over one kept-alive connection, each with the JSON body, headers and
// AbortSignal.timeout the payment code sends. The app's TypeScript is loaded with tsx.
//
// Budget: gatewayFetch at most two thirds of the CPU per call of fetch, over all rounds together
// (the socket writes and reads, which both make, are about half of what fetch costs). Figures go to
// bench/results/gateway-http.json and stdout.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadAppModule, option, root } from './_shop.mjs'

const CALLS = Number(option('calls', '3000'))
const ROUNDS = Number(option('rounds', '3'))
const WARM_UP = 3000
const BUDGET_SHARE = 2 / 3
const CLIENT_CORE = '0'
const SERVER_CORE = '1'

const SERVER = `
const http = require('node:http')
const answer = JSON.stringify({
  head: { responseTimestamp: '1700000000000', version: 'v1', signature: 'x'.repeat(108) },
  body: {
    resultInfo: { resultStatus: 'TXN_SUCCESS', resultCode: '01', resultMsg: 'Txn Success' },
    txnId: '20261127111212800110168' + '0'.repeat(10), bankTxnId: '77700000000000',
    orderId: 'ORD_1795813316681_23', txnAmount: '499.00', txnType: 'SALE', gatewayName: 'HDFC',
    bankName: 'HDFC Bank', mid: 'KEYBAZ00000000000000', paymentMode: 'UPI', refundAmt: '0.00',
    txnDate: '2026-11-27 21:00:00.0', authRefId: '50112233445566',
  },
})
const server = http.createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    res.setHeader('Content-Type', 'application/json')
    res.end(answer)
  })
})
server.listen(0, '127.0.0.1', () => console.log(server.address().port))
`

async function main() {
  const { gatewayFetch } = await loadAppModule('app/lib/payments/http.server.ts')
  // The client on one core and the answering server on the other (taskset, util-linux):
  // unpinned, a whole run sometimes came out a third dearer for one client.
  spawnSync('taskset', ['-a', '-cp', CLIENT_CORE, String(process.pid)], { stdio: 'ignore' })
  const child = spawn('taskset', ['-c', SERVER_CORE, process.execPath, '-e', SERVER], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim())))
    child.once('exit', (code) => reject(new Error(`answering server exited (${code})`)))
  })
  const url = `http://127.0.0.1:${port}/v3/order/status`
  const body = JSON.stringify({
    body: { mid: 'KEYBAZ00000000000000', orderId: 'ORD_1795813316681_23' },
    head: { signature: 'y'.repeat(108) },
  })
  const call = async (client) => {
    const response = await client(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(10_000),
    })
    const answer = JSON.parse(await response.text())
    if (!response.ok || answer.body.resultInfo.resultStatus !== 'TXN_SUCCESS')
      throw new Error(`unexpected answer ${response.status}`)
  }
  const measure = async (client) => {
    for (let i = 0; i < WARM_UP; i++) await call(client)
    const cpu = process.cpuUsage()
    const started = performance.now()
    for (let i = 0; i < CALLS; i++) await call(client)
    const used = process.cpuUsage(cpu)
    return {
      cpuMsPerCall: Number(((used.user + used.system) / 1000 / CALLS).toFixed(3)),
      wallMsPerCall: Number(((performance.now() - started) / CALLS).toFixed(3)),
    }
  }

  const loadBefore = os.loadavg()[0].toFixed(2)
  const rounds = []
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      // Each goes first in every other round: the one measured second may collect the
      // other's garbage.
      let fetchFigures, gatewayFigures
      if (round % 2) {
        fetchFigures = await measure(globalThis.fetch)
        gatewayFigures = await measure(gatewayFetch)
      } else {
        gatewayFigures = await measure(gatewayFetch)
        fetchFigures = await measure(globalThis.fetch)
      }
      rounds.push({ round, fetch: fetchFigures, gatewayFetch: gatewayFigures })
      console.log(
        `round ${round}: fetch ${fetchFigures.cpuMsPerCall} ms CPU (${fetchFigures.wallMsPerCall} ms wall) per call, gatewayFetch ${gatewayFigures.cpuMsPerCall} ms CPU (${gatewayFigures.wallMsPerCall} ms wall)`,
      )
    }
  } finally {
    child.kill()
  }
  const loadAverage = { before: loadBefore, after: os.loadavg()[0].toFixed(2) }
  // All rounds together: one round can be slowed by the machine alone.
  const total = (client) => rounds.reduce((sum, r) => sum + r[client].cpuMsPerCall, 0)
  const share = Number((total('gatewayFetch') / total('fetch')).toFixed(2))
  const withinBudget = share <= BUDGET_SHARE
  console.log(`gatewayFetch used ${Math.round(share * 100)} % of fetch's CPU over all rounds`)
  console.log(`load average ${loadAverage.before} -> ${loadAverage.after}`)
  const results = path.join(root, 'bench/results')
  fs.mkdirSync(results, { recursive: true })
  fs.writeFileSync(
    path.join(results, 'gateway-http.json'),
    `${JSON.stringify({ date: new Date().toISOString(), calls: CALLS, rounds, share, loadAverage, withinBudget }, null, 2)}\n`,
  )
  if (!withinBudget) {
    console.error(
      'gateway-http: over budget (gatewayFetch at most two thirds of the CPU of fetch per call)',
    )
    process.exitCode = 1
  } else console.log('gateway-http: within budget')
}

await main()
