import http from 'node:http'
import process from 'node:process'
import {
  PAYTM_SIMULATOR_DEFAULT_KEY,
  PAYTM_SIMULATOR_DEFAULT_MID,
  createPaytmSimulator,
} from './simulator'

/**
 * The Paytm simulator on its own port: `npm run simulator:paytm`.
 * Point the app at it with PAYTM_HOST=http://127.0.0.1:4100 and the same PAYTM_MID and
 * PAYTM_MERCHANT_KEY as SIM_PAYTM_MID and SIM_PAYTM_KEY.
 */

function fail(message: string): never {
  console.error(`Paytm simulator cannot start: ${message}`)
  process.exit(1)
}

const port = Number(process.env.SIM_PORT || 4100)
if (!Number.isInteger(port) || port < 0 || port > 65535) fail('SIM_PORT must be a port number')
const host = process.env.SIM_HOST || '127.0.0.1'
const mid = process.env.SIM_PAYTM_MID || PAYTM_SIMULATOR_DEFAULT_MID
const key = process.env.SIM_PAYTM_KEY || PAYTM_SIMULATOR_DEFAULT_KEY
if (Buffer.byteLength(key, 'utf8') !== 16)
  fail('SIM_PAYTM_KEY must be 16 bytes, like a Paytm merchant key')
const settle = process.env.SIM_SETTLE_PENDING_MS
const settlePendingAfterMs = settle ? Number(settle) : undefined
if (settlePendingAfterMs !== undefined && !(settlePendingAfterMs >= 0)) {
  fail('SIM_SETTLE_PENDING_MS must be a number of milliseconds')
}

const server = http.createServer(
  createPaytmSimulator({
    resolveMerchantKey: (candidate) => (candidate === mid ? key : undefined),
    settlePendingAfterMs,
  }),
)
// Benchmarks open many short connections; keep-alive lets them be reused.
server.keepAliveTimeout = 65_000

server.once('error', (error: NodeJS.ErrnoException) =>
  fail(
    error.code === 'EADDRINUSE' ? `port ${port} is already in use (set SIM_PORT)` : error.message,
  ),
)
server.listen(port, host, () => {
  const address = server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  const shownHost = host.includes(':') ? `[${host}]` : host
  console.log(
    `Paytm simulator (test mode, no real money) at http://${shownHost}:${actualPort} for MID ${mid}`,
  )
})

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0))
    server.closeAllConnections()
  })
}
