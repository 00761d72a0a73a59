import crypto from 'node:crypto'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import process from 'node:process'
import { escapeHtml } from '../app/lib/html'
import { HttpError, newNonce, sendHtml, sendText } from './paytm/http'

/**
 * What the gateway simulators (Paytm, Razorpay, PhonePe) share: the handler shape the shop's
 * server mounts, random ids, the payment page's frame and styles, and running one on its own
 * port (`npm run simulator:<gateway>`).
 */

export type NodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => void

/**
 * A simulator's request handler as the shop's server mounts it: what `handle` does not answer
 * goes to `next` (or 404 on its own port); an HttpError is answered with its status, anything
 * else thrown goes to `next` (or 500).
 */
export function nodeHandler(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>,
): NodeHandler {
  return (req, res, next) => {
    handle(req, res)
      .then((handled) => {
        if (handled) return
        if (next) next()
        else sendText(res, 404, 'Not found')
      })
      .catch((err: unknown) => {
        if (err instanceof HttpError) sendText(res, err.status, err.message)
        else if (next) next(err)
        else sendText(res, 500, 'Simulator error')
      })
  }
}

/** `length` characters picked at random from `alphabet`. */
export function randomFrom(alphabet: string, length: number): string {
  return [...crypto.randomBytes(length)].map((b) => alphabet[b % alphabet.length]).join('')
}

/**
 * Posts a webhook's JSON `body` to `url` with the gateway's own `headers`, in the background,
 * trying up to three times (half a second, then a second apart) until the shop answers 2xx.
 */
export function sendWebhook(
  fetchImpl: typeof fetch,
  url: string,
  headers: Record<string, string>,
  body: string,
): void {
  const send = async (attempt: number): Promise<void> => {
    try {
      const res = await fetchImpl(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body,
        signal: AbortSignal.timeout(10_000),
      })
      if (res.ok || attempt >= 3) return
    } catch {
      if (attempt >= 3) return
    }
    setTimeout(() => void send(attempt + 1), 500 * attempt)
  }
  void send(1)
}

/** A gateway's colours: the CSS custom properties of its page, in light and in dark mode. */
export interface PageTheme {
  light: string
  dark: string
}

function pageStyles(theme: PageTheme): string {
  return `
:root { color-scheme: light dark; ${theme.light} }
@media (prefers-color-scheme: dark) { :root { ${theme.dark} } }
* { box-sizing: border-box; }
body { margin:0; font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; background:var(--bg); color:var(--text); }
.banner { margin:0; padding:.6rem 1rem; text-align:center; font-weight:600; background:var(--banner-bg); color:var(--banner-text); }
main { max-width:28rem; margin:1.5rem auto; padding:0 1rem; }
.card { background:var(--card); border:1px solid var(--border); border-radius:.75rem; padding:1.25rem; }
h1 { font-size:1.25rem; margin:0 0 1rem; }
dl { display:grid; grid-template-columns:auto 1fr; gap:.35rem 1rem; margin:0 0 1.25rem; }
dt { color:var(--muted); } dd { margin:0; text-align:right; overflow-wrap:anywhere; }
.actions { display:grid; gap:.6rem; }
button { font:inherit; font-weight:600; min-height:44px; padding:.6rem 1rem; border-radius:.5rem; border:1px solid var(--border);
  background:transparent; color:var(--text); cursor:pointer; }
button.primary { background:var(--accent); border-color:var(--accent); color:var(--accent-text); }
button.danger { color:var(--bad); border-color:currentColor; }
button:focus-visible { outline:3px solid var(--focus); outline-offset:2px; }
.bad { color:var(--bad); }
`
}

/** A simulator's page: its test-mode banner above a card holding `content`. */
function simulatorPage(
  theme: PageTheme,
  banner: string,
  title: string,
  nonce: string,
  content: string,
): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style nonce="${nonce}">${pageStyles(theme)}</style></head>
<body><p class="banner" role="note">${escapeHtml(banner)}</p><main><div class="card">
${content}
</div></main></body></html>`
}

/**
 * The page sender of a gateway's simulator: `send(res, status, title, content)` answers with
 * its page (`theme` and `banner`) under a fresh CSP nonce; `content` may be built from that
 * nonce, for a page with an inline script.
 */
export function simulatorPages(theme: PageTheme, banner: string) {
  return (
    res: ServerResponse,
    status: number,
    title: string,
    content: string | ((nonce: string) => string),
  ): void => {
    const nonce = newNonce()
    const body = typeof content === 'string' ? content : content(nonce)
    sendHtml(res, status, simulatorPage(theme, banner, title, nonce, body), nonce)
  }
}

/** What a payment page's buttons post as `outcome`. */
const PAYMENT_OUTCOMES = ['success', 'failure', 'pending'] as const
export type PaymentOutcome = (typeof PAYMENT_OUTCOMES)[number]

export function isPaymentOutcome(value: string | undefined): value is PaymentOutcome {
  return PAYMENT_OUTCOMES.includes(value as PaymentOutcome)
}

/** A payment page's three buttons, each posting its `outcome`; `pendingLabel` names the third. */
export function outcomeButtons(pendingLabel = 'Simulate pending'): string {
  return `<div class="actions">
<button type="submit" name="outcome" value="success" class="primary">Simulate success</button>
<button type="submit" name="outcome" value="failure" class="danger">Simulate failure</button>
<button type="submit" name="outcome" value="pending">${escapeHtml(pendingLabel)}</button>
</div>`
}

/** Stops a standalone simulator that cannot start, saying why. */
export function standaloneFailure(name: string): (message: string) => never {
  return (message) => {
    console.error(`${name} simulator cannot start: ${message}`)
    process.exit(1)
  }
}

/** SIM_PORT (or the gateway's usual port) and SIM_HOST (127.0.0.1 unless set). */
export function standaloneAddress(
  name: string,
  defaultPort: number,
): { port: number; host: string } {
  const port = Number(process.env.SIM_PORT || defaultPort)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    standaloneFailure(name)('SIM_PORT must be a port number')
  return { port, host: process.env.SIM_HOST || '127.0.0.1' }
}

/**
 * A standalone simulator's settings from the environment: each of `defaults` from
 * SIM_<GATEWAY>_<NAME> (keyId from SIM_RAZORPAY_KEY_ID, say) when set, the shop's webhook
 * address from SIM_WEBHOOK_URL and the test controls on with SIM_CONTROL=1.
 */
export function standaloneSettings<T extends Record<string, string>>(
  gateway: string,
  defaults: T,
): { [K in keyof T]: string } & { webhookUrl: string | undefined; control: boolean } {
  const credentials = Object.fromEntries(
    Object.entries(defaults).map(([name, fallback]) => {
      const variable = `SIM_${gateway}_${name.replace(/[A-Z]/g, '_$&')}`.toUpperCase()
      return [name, process.env[variable] || fallback]
    }),
  ) as { [K in keyof T]: string }
  return {
    ...credentials,
    webhookUrl: process.env.SIM_WEBHOOK_URL || undefined,
    control: process.env.SIM_CONTROL === '1',
  }
}

/**
 * Serves a simulator on its own port until SIGINT or SIGTERM; `describe` gets the address it
 * listens at for the start-up line.
 */
export function serveStandalone(
  name: string,
  handler: NodeHandler,
  address: { port: number; host: string },
  describe: (url: string) => string,
): void {
  const fail = standaloneFailure(name)
  const { port, host } = address
  const server = http.createServer(handler)
  // Benchmarks open many short connections; keep-alive lets them be reused.
  server.keepAliveTimeout = 65_000
  server.once('error', (error: NodeJS.ErrnoException) =>
    fail(
      error.code === 'EADDRINUSE' ? `port ${port} is already in use (set SIM_PORT)` : error.message,
    ),
  )
  server.listen(port, host, () => {
    const bound = server.address()
    const actualPort = typeof bound === 'object' && bound ? bound.port : port
    const shownHost = host.includes(':') ? `[${host}]` : host
    console.log(describe(`http://${shownHost}:${actualPort}`))
  })
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.close(() => process.exit(0))
      server.closeAllConnections()
    })
  }
}
