import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { phonePeHosts, type PhonePeConfig } from '../../app/lib/payments/phonepe.server'
import {
  createPhonePeSimulator,
  PHONEPE_SIMULATOR_DEFAULTS,
  type PhonePeSimulatorOptions,
} from './simulator'

/** Runs the PhonePe simulator in-process on a free port, for tests. */
export interface RunningPhonePeSimulator {
  url: string
  clientId: string
  clientSecret: string
  clientVersion: string
  webhookUsername: string
  webhookPassword: string
  close(): Promise<void>
}

export async function startPhonePeSimulator(
  options: Partial<Omit<PhonePeSimulatorOptions, 'publicUrl'>> = {},
): Promise<RunningPhonePeSimulator> {
  const keys = { ...PHONEPE_SIMULATOR_DEFAULTS, ...options }
  let publicUrl = ''
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => simulator(req, res)
  const server = http.createServer(handler)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  publicUrl = `http://127.0.0.1:${port}`
  const simulator = createPhonePeSimulator({ control: true, ...keys, publicUrl })
  return {
    url: publicUrl,
    clientId: keys.clientId,
    clientSecret: keys.clientSecret,
    clientVersion: keys.clientVersion,
    webhookUsername: keys.webhookUsername,
    webhookPassword: keys.webhookPassword,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** The shop's PhonePe settings for talking to a simulator started by startPhonePeSimulator. */
export function phonePeConfigFor(sim: RunningPhonePeSimulator): PhonePeConfig {
  return {
    clientId: sim.clientId,
    clientSecret: sim.clientSecret,
    clientVersion: sim.clientVersion,
    webhookUsername: sim.webhookUsername,
    webhookPassword: sim.webhookPassword,
    ...phonePeHosts('sandbox', sim.url),
  }
}

export async function phonePeControl(
  sim: { url: string },
  path: string,
  body: unknown = {},
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${sim.url}/__control/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: await res.json() }
}

/**
 * Acts as the buyer's browser on the simulator's payment page: presses one of its buttons and
 * returns where PhonePe sends the buyer back (the merchant's redirectUrl).
 */
export async function simulatePhonePePayment(
  redirectUrl: string,
  outcome: 'success' | 'failure' | 'pending',
): Promise<string> {
  const page = await fetch(redirectUrl)
  if (!page.ok) throw new Error(`payment page: HTTP ${page.status}`)
  const answer = await fetch(`${redirectUrl}/respond`, {
    method: 'POST',
    body: new URLSearchParams({ outcome }),
    redirect: 'manual',
  })
  if (answer.status !== 303) throw new Error(`respond: HTTP ${answer.status}`)
  return answer.headers.get('location') ?? ''
}
