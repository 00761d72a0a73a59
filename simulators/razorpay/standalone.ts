import http from 'node:http'
import process from 'node:process'
import { createRazorpaySimulator, RAZORPAY_SIMULATOR_DEFAULTS } from './simulator'

/**
 * The Razorpay simulator on its own port: `npm run simulator:razorpay`. Point the shop at it
 * with RAZORPAY_HOST=http://127.0.0.1:4200 and the same RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and
 * RAZORPAY_WEBHOOK_SECRET as SIM_RAZORPAY_KEY_ID, SIM_RAZORPAY_KEY_SECRET and
 * SIM_RAZORPAY_WEBHOOK_SECRET; SIM_WEBHOOK_URL is the shop's /api/payments/razorpay/webhook.
 */
function fail(message: string): never {
  console.error(`Razorpay simulator cannot start: ${message}`)
  process.exit(1)
}

const port = Number(process.env.SIM_PORT || 4200)
if (!Number.isInteger(port) || port < 0 || port > 65535) fail('SIM_PORT must be a port number')
const host = process.env.SIM_HOST || '127.0.0.1'
const keyId = process.env.SIM_RAZORPAY_KEY_ID || RAZORPAY_SIMULATOR_DEFAULTS.keyId
const server = http.createServer(
  createRazorpaySimulator({
    keyId,
    keySecret: process.env.SIM_RAZORPAY_KEY_SECRET || RAZORPAY_SIMULATOR_DEFAULTS.keySecret,
    webhookSecret:
      process.env.SIM_RAZORPAY_WEBHOOK_SECRET || RAZORPAY_SIMULATOR_DEFAULTS.webhookSecret,
    webhookUrl: process.env.SIM_WEBHOOK_URL || undefined,
    control: process.env.SIM_CONTROL === '1',
  }),
)
server.keepAliveTimeout = 65_000
server.once('error', (error: NodeJS.ErrnoException) =>
  fail(
    error.code === 'EADDRINUSE' ? `port ${port} is already in use (set SIM_PORT)` : error.message,
  ),
)
server.listen(port, host, () => {
  const address = server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  console.log(
    `Razorpay simulator (test mode, no real money) at http://${host}:${actualPort} for key ${keyId}`,
  )
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0))
    server.closeAllConnections()
  })
}
