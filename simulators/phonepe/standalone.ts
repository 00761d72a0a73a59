import http from 'node:http'
import process from 'node:process'
import { createPhonePeSimulator, PHONEPE_SIMULATOR_DEFAULTS } from './simulator'

/**
 * The PhonePe simulator on its own port: `npm run simulator:phonepe`. Point the shop at it with
 * PHONEPE_HOST=http://127.0.0.1:4300 and the same PHONEPE_CLIENT_ID, PHONEPE_CLIENT_SECRET,
 * PHONEPE_CLIENT_VERSION, PHONEPE_WEBHOOK_USERNAME and PHONEPE_WEBHOOK_PASSWORD as
 * SIM_PHONEPE_CLIENT_ID, SIM_PHONEPE_CLIENT_SECRET, SIM_PHONEPE_CLIENT_VERSION,
 * SIM_PHONEPE_WEBHOOK_USERNAME and SIM_PHONEPE_WEBHOOK_PASSWORD (defaults in simulator.ts);
 * SIM_WEBHOOK_URL is the shop's /api/payments/phonepe/webhook, SIM_PUBLIC_URL the address
 * browsers reach this simulator at (default http://SIM_HOST:SIM_PORT).
 */
function fail(message: string): never {
  console.error(`PhonePe simulator cannot start: ${message}`)
  process.exit(1)
}

const port = Number(process.env.SIM_PORT || 4300)
if (!Number.isInteger(port) || port < 0 || port > 65535) fail('SIM_PORT must be a port number')
const host = process.env.SIM_HOST || '127.0.0.1'
const defaults = PHONEPE_SIMULATOR_DEFAULTS
const clientId = process.env.SIM_PHONEPE_CLIENT_ID || defaults.clientId
const server = http.createServer(
  createPhonePeSimulator({
    clientId,
    clientSecret: process.env.SIM_PHONEPE_CLIENT_SECRET || defaults.clientSecret,
    clientVersion: process.env.SIM_PHONEPE_CLIENT_VERSION || defaults.clientVersion,
    webhookUsername: process.env.SIM_PHONEPE_WEBHOOK_USERNAME || defaults.webhookUsername,
    webhookPassword: process.env.SIM_PHONEPE_WEBHOOK_PASSWORD || defaults.webhookPassword,
    publicUrl: process.env.SIM_PUBLIC_URL || `http://${host}:${port}`,
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
  console.log(
    `PhonePe simulator (test mode, no real money) at http://${host}:${port} for client ${clientId}`,
  )
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0))
    server.closeAllConnections()
  })
}
