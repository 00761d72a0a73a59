import http from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  PAYTM_SIMULATOR_DEFAULT_KEY,
  PAYTM_SIMULATOR_DEFAULT_MID,
  createPaytmSimulator,
  type PaytmSimulatorOptions,
} from './simulator'

/**
 * Helpers for tests and benchmarks that run the simulator in-process and act as the buyer's
 * browser against it (the simulator is driven over real HTTP, never called directly).
 */

export interface RunningPaytmSimulator {
  /** Base URL to use as the Paytm host, e.g. http://127.0.0.1:40123 (plus basePath, if any). */
  url: string
  mid: string
  merchantKey: string
  close(): Promise<void>
}

export async function startPaytmSimulator(
  options: Partial<PaytmSimulatorOptions> & { mid?: string; merchantKey?: string } = {},
): Promise<RunningPaytmSimulator> {
  const mid = options.mid ?? PAYTM_SIMULATOR_DEFAULT_MID
  const merchantKey = options.merchantKey ?? PAYTM_SIMULATOR_DEFAULT_KEY
  const server = http.createServer(
    createPaytmSimulator({
      resolveMerchantKey: (candidate) => (candidate === mid ? merchantKey : undefined),
      ...options,
    }),
  )
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const base = options.basePath ? `/${options.basePath.replace(/^\/+|\/+$/g, '')}` : ''
  return {
    url: `http://127.0.0.1:${port}${base}`,
    mid,
    merchantKey,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

export interface HtmlForm {
  action: string
  /** Hidden inputs, in document order. */
  fields: Record<string, string>
}

function unescapeHtml(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/** The first form of a simulator page: its action and hidden fields (what a browser would post). */
export function readForm(html: string): HtmlForm {
  const form = /<form\b[^>]*\baction="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html)
  if (!form) throw new Error('The page has no form')
  const fields: Record<string, string> = {}
  for (const input of form[2]!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[unescapeHtml(input[1]!)] = unescapeHtml(input[2]!)
  }
  return { action: unescapeHtml(form[1]!), fields }
}

async function postForm(url: string, fields: Record<string, string>): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  })
  if (!response.ok) throw new Error(`${url} answered ${response.status}`)
  return response.text()
}

/**
 * What a buyer does in a browser: post the signed form to processTransaction, press one of the
 * simulator's buttons, and return the callback form the browser would then post to the shop.
 */
export async function simulatePayment(
  form: { action: string; fields: Readonly<Record<string, string | undefined>> },
  outcome: 'success' | 'failure' | 'pending',
  paymentMode: 'UPI' | 'CC' | 'NB' | 'PPI' = 'UPI',
): Promise<HtmlForm> {
  const fields = Object.fromEntries(
    Object.entries(form.fields).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  )
  const paymentPage = await postForm(form.action, fields)
  const buttons = readForm(paymentPage)
  if (!paymentPage.includes('Simulate success')) return buttons // a refusal: already the callback form
  const origin = new URL(form.action).origin
  const callbackPage = await postForm(new URL(buttons.action, origin).href, {
    ...buttons.fields,
    PAYMENTMODE: paymentMode,
    outcome,
  })
  return readForm(callbackPage)
}
