import http from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  createRazorpaySimulator,
  RAZORPAY_SIMULATOR_DEFAULTS,
  type RazorpaySimulatorOptions,
} from './simulator'

/** Runs the Razorpay simulator in-process on a free port, for tests and benchmarks. */
export interface RunningRazorpaySimulator {
  url: string
  keyId: string
  keySecret: string
  webhookSecret: string
  close(): Promise<void>
}

export async function startRazorpaySimulator(
  options: Partial<RazorpaySimulatorOptions> = {},
): Promise<RunningRazorpaySimulator> {
  const keys = { ...RAZORPAY_SIMULATOR_DEFAULTS, ...options }
  const server = http.createServer(createRazorpaySimulator({ control: true, ...keys }))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    keyId: keys.keyId,
    keySecret: keys.keySecret,
    webhookSecret: keys.webhookSecret,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function readHidden(html: string): { action: string; fields: Record<string, string> } {
  const unescape = (v: string) =>
    v
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&')
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1] ?? ''
  const fields: Record<string, string> = {}
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
    fields[unescape(m[1]!)] = unescape(m[2]!)
  return { action: unescape(action), fields }
}

/**
 * Acts as the buyer's browser: opens the simulator's payment page for a Razorpay order (as
 * checkout.js would) and presses one of its buttons; returns the form posted back to the shop.
 */
export async function simulateRazorpayPayment(
  sim: { url: string; keyId: string },
  razorpayOrderId: string,
  callbackUrl: string,
  outcome: 'success' | 'failure' | 'pending',
): Promise<{ action: string; fields: Record<string, string> }> {
  const page = await fetch(`${sim.url}/v1/checkout/pay`, {
    method: 'POST',
    body: new URLSearchParams({
      key: sim.keyId,
      order_id: razorpayOrderId,
      callback_url: callbackUrl,
    }),
  })
  if (!page.ok) throw new Error(`payment page: HTTP ${page.status}`)
  const form = readHidden(await page.text())
  const answer = await fetch(`${sim.url}/v1/checkout/respond`, {
    method: 'POST',
    body: new URLSearchParams({ ...form.fields, outcome }),
  })
  if (!answer.ok) throw new Error(`respond: HTTP ${answer.status}`)
  return readHidden(await answer.text())
}

export async function razorpayControl(
  sim: { url: string },
  path: string,
  body: unknown,
): Promise<unknown> {
  const res = await fetch(`${sim.url}/__control/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return res.json()
}
