import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Request, RequestHandler, Response } from 'express'
import { IMAGE_MAX_BYTES, IMAGE_MESSAGES } from '~/lib/validation/product'
import { STOCK_IMPORT_MAX_BYTES } from '~/lib/validation/stock-import'

/**
 * The edge every request passes before React Router sees it (docs/architecture.md):
 *
 * - A Host header that is not a bare host[:port] (a path, `\`, `?`, `#`, `@`, spaces, an
 *   empty value, two Host headers) is answered 400 before anything else runs: the Express
 *   adapter cuts such a host at the first `/` while other code would not (docs/security.md).
 * - A body limit on the bytes actually received, chunked bodies included. A declared
 *   Content-Length over the limit is answered 413 at once, without reading; otherwise the body
 *   is held here until it is complete, and an over-long one is answered 413 and dropped as it
 *   arrives, so no action ever starts on it and memory stays bounded.
 * - NUL characters, which PostgreSQL refuses in text (an error, not a miss), are refused in
 *   the path (404: such a path names nothing), the query and form or JSON bodies (400).
 *   Multipart bodies carry binary files, so their text fields are checked by
 *   `readFormData` (app/lib/form-data.server.ts) instead.
 * - Bodies over DEFAULT_BODY_LIMIT (uploads, the stock import) draw on one budget for the
 *   whole process (BODY_BUDGET_BYTES): one that does not fit while others are held is answered
 *   503 with Retry-After, so parallel uploads cannot exhaust memory (docs/security.md). One
 *   that stalls or trickles is answered 408 and cut (BODY_TIMING), giving its room back.
 */
export const DEFAULT_BODY_LIMIT = 64 * 1024
/** Room above a route's own limit, so that route still answers with its own message. */
const ROUTE_CHECK_MARGIN = 3 * 1024 * 1024
/** Gateway callbacks and the gateway APIs take a handful of short fields. */
export const GATEWAY_BODY_LIMIT = 16 * 1024

const LIMITS: Array<[RegExp, number, string?]> = [
  // React Router's data requests add `.data` to the page's path.
  [/^\/admin\/api\/uploads(\.data)?$/, IMAGE_MAX_BYTES + ROUTE_CHECK_MARGIN],
  [
    /^\/admin\/products\/(add|edit\/[^/]+)(\.data)?$/,
    IMAGE_MAX_BYTES + ROUTE_CHECK_MARGIN,
    IMAGE_MESSAGES.tooLarge,
  ],
  // The profile photo is uploaded with the settings page's form.
  [
    /^\/dashboard\/settings(\.data)?$/,
    IMAGE_MAX_BYTES + ROUTE_CHECK_MARGIN,
    IMAGE_MESSAGES.tooLarge,
  ],
  [/^\/admin\/products\/[^/]+\/stock(\.data)?$/, STOCK_IMPORT_MAX_BYTES + ROUTE_CHECK_MARGIN],
  [/^\/api\/payments\/paytm\/callback(\.data)?$/, GATEWAY_BODY_LIMIT],
  [/^\/api\/payments\/razorpay\/callback(\.data)?$/, GATEWAY_BODY_LIMIT],
  [/^\/api\/paytm\//, GATEWAY_BODY_LIMIT],
]

export function bodyLimitFor(path: string): number {
  for (const [pattern, limit] of LIMITS) if (pattern.test(path)) return limit
  return DEFAULT_BODY_LIMIT
}

/**
 * Where the page's "Go back" leads: the form's own page for the routes listed above (their
 * patterns name only this shop's paths), the home page for any other path, which could be
 * anything a cross-site form posted to (`//other.example` would leave the shop).
 */
function backTo(path: string): string {
  const listed = LIMITS.some(([pattern]) => pattern.test(path))
  return listed ? path.replace(/\.data$/, '') : '/'
}

/** What a page whose form carries a file says of one too large (the route's own message). */
function tooLargeMessageFor(path: string): string {
  for (const [pattern, , message] of LIMITS)
    if (pattern.test(path)) return message ?? MESSAGES.tooLarge
  return MESSAGES.tooLarge
}

export const MESSAGES = {
  tooLarge: 'The request is too large.',
  busy: 'The server is receiving too many uploads at once. Please try again in a few seconds.',
  nulInPath: 'Page not found',
  nulInRequest: 'The request contains a character that is not allowed (a NUL byte).',
  tooSlow: 'The request took too long to arrive.',
  badHost: 'Bad Request',
} as const

/**
 * A Host header as browsers send it: a name (letters, digits, `-`, `_`, `.`) or an IPv6
 * literal in brackets, and maybe a port. Anything else (a path, `\`, `?`, `#`, `@`, spaces)
 * is what the Express adapter and other code building URLs from the header read differently.
 */
const HOST = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/

export function isValidHost(value: string): boolean {
  const match = HOST.exec(value)
  if (!match) return false
  if (match[1] !== undefined && Number(match[1]) > 65_535) return false
  // What the adapter does with it (`new URL`) must not throw: 999.1.1.1, [1::2::3].
  return URL.canParse(`http://${value}/`)
}

/**
 * Exactly one Host header, and a valid one. Node keeps only the first of several in
 * `req.headers`, so they are counted in the raw headers. An HTTP/1.1 request without one is
 * refused by Node itself (requireHostHeader); an HTTP/1.0 request may lack one and is given
 * `publicHost` (see refuseMisaddressed), or refused when there is none to give.
 */
function hostIsAcceptable(req: IncomingMessage, publicHost: string | undefined): boolean {
  let value: string | undefined
  const raw = req.rawHeaders
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string
    if (name.length !== 4 || name.toLowerCase() !== 'host') continue
    if (value !== undefined) return false
    value = raw[i + 1] as string
  }
  if (value !== undefined) return isValidHost(value)
  if (publicHost === undefined || req.httpVersionMajor !== 1 || req.httpVersionMinor !== 0)
    return false
  // Written where every later reader looks: the raw headers (this check when the guard runs it
  // again) and the parsed ones (Express, the page cache, the React Router adapter).
  raw.push('Host', publicHost)
  req.headers.host = publicHost
  return true
}

/**
 * Whether the request line names a path (`/...`, or `*` for OPTIONS), as a browser's or a
 * reverse proxy's does. A full URL there (`GET http://other.test/checkout/x`, the form sent to
 * forward proxies) is read as `/checkout/x` by Express but as `//other.test/checkout/x` by the
 * React Router adapter, which glues it to the host: two readings of one request again.
 */
function targetIsAPath(req: IncomingMessage): boolean {
  const target = req.url ?? ''
  return target.startsWith('/') || (target === '*' && req.method === 'OPTIONS')
}

/**
 * Answers 400 "Bad Request" to a request whose Host header is not a valid host[:port], or
 * whose request line names a full URL instead of a path, and returns true; returns false for
 * any other. The HTTP server calls it before anything else
 * (server/index.ts), the page cache's early answer included; requestGuard calls it again.
 *
 * An HTTP/1.0 request may come without a Host header (a load balancer's health check, an old
 * client). Everything after this reads a host (the Express adapter fails without one), so such
 * a request is given `publicHost`, the host of PUBLIC_URL, as if it had named the shop itself;
 * without a `publicHost` it is refused like a bad Host.
 */
export function refuseMisaddressed(
  req: IncomingMessage,
  res: ServerResponse,
  publicHost?: string,
): boolean {
  if (hostIsAcceptable(req, publicHost) && targetIsAPath(req)) return false
  if (!res.headersSent) {
    res.writeHead(400, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': Buffer.byteLength(MESSAGES.badHost),
      'Cache-Control': 'no-store',
      Connection: 'close',
    })
    res.end(MESSAGES.badHost)
  }
  return true
}

/** X-Forwarded-Host, where Express and the adapter read it (from a trusted proxy), likewise. */
function forwardedHostIsAcceptable(req: Request): boolean {
  const forwarded = req.headers['x-forwarded-host']
  if (forwarded === undefined) return true
  const trust = req.app.get('trust proxy fn') as (address: string | undefined, i: number) => boolean
  if (!trust(req.socket.remoteAddress, 0)) return true
  return String(forwarded)
    .split(',')
    .every((host) => isValidHost(host.trim()))
}

/**
 * Bytes of bodies over DEFAULT_BODY_LIMIT (only the routes in LIMITS allow one) that this
 * process holds at once: in the guard while the body arrives, then in the app until the answer
 * is sent. Room for 8 uploads of the largest size, so one always fits when no other is held.
 */
export const BODY_BUDGET_BYTES = 64 * 1024 * 1024
/** What a request refused for want of room is told to wait (Retry-After). */
export const BUSY_RETRY_AFTER_SECONDS = 5

/** How long a body that holds room in the budget may take to arrive. */
export interface BodyTiming {
  /** The longest pause without a byte of it. */
  idleMs: number
  /** The longest it may take in all, from when it first takes room. */
  wholeMs: number
}

/**
 * Room held by a client that stalls or trickles is room refused to real uploads, and Node's
 * own limit (requestTimeout) is 300 s. A phone on a weak uplink, about 512 kbit/s (a crowded
 * or distant 4G cell in India, or 3G), sends the largest body the guard takes, 8 MB, in about
 * 130 s: the whole body gets 180 s. A short loss of signal (a handover, a lift) pauses an
 * upload, and TCP's retries after a gap of up to about 15 s come within 30 s of its last byte.
 */
export const BODY_TIMING: BodyTiming = { idleMs: 30_000, wholeMs: 180_000 }

/** A count of bytes reserved against a fixed capacity (BODY_BUDGET_BYTES). */
export class BodyBudget {
  #used = 0
  constructor(readonly capacity: number) {}
  get used(): number {
    return this.#used
  }
  /** Reserves `bytes` if they fit and returns true; false (nothing reserved) if not. */
  take(bytes: number): boolean {
    if (this.#used + bytes > this.capacity) return false
    this.#used += bytes
    return true
  }
  give(bytes: number): void {
    this.#used = Math.max(0, this.#used - bytes)
  }
}

const ENCODED_NUL = /%00/i
const JSON_NUL = /\\u0000/i

function refuse(res: Response, status: number, message: string) {
  if (res.headersSent) return
  res.status(status).set('Cache-Control', 'no-store').type('text/plain').send(message)
}

/**
 * The answer to a body refused before it was whole: a line of text, or for a browser's own
 * form post (without JavaScript: a page is asked for, not React Router's `.data`) a short page
 * with the message and a way back.
 */
function answerRefusedBody(
  req: IncomingMessage,
  res: Response,
  path: string,
  status: 408 | 413 | 503,
) {
  if (res.headersSent) return
  if (status === 503) res.set('Retry-After', String(BUSY_RETRY_AFTER_SECONDS))
  const [title, line, text] =
    status === 503
      ? ['Busy', MESSAGES.busy, MESSAGES.busy]
      : status === 413
        ? ['Too large', MESSAGES.tooLarge, tooLargeMessageFor(path)]
        : ['Too slow', MESSAGES.tooSlow, MESSAGES.tooSlow]
  const page = !path.endsWith('.data') && String(req.headers.accept ?? '').includes('text/html')
  if (page)
    res
      .status(status)
      .set('Cache-Control', 'no-store')
      .type('html')
      .send(noticePage(title, text, backTo(path)))
  else refuse(res, status, line)
}

/**
 * Answers 413 (too large) or 503 (no room in the budget) while the client may still be
 * sending. Closing at once would make the client's kernel discard our answer with a reset, so
 * the rest of the body is read and dropped (never kept) for a few seconds, then the connection
 * is cut.
 */
const DISCARD_MS = 5_000
function refuseUnread(req: IncomingMessage, res: Response, path: string, status: 413 | 503) {
  answerRefusedBody(req, res, path, status)
  if (req.complete) return
  const cut = setTimeout(() => req.socket.destroy(), DISCARD_MS)
  cut.unref()
  req.once('end', () => clearTimeout(cut))
  req.once('close', () => clearTimeout(cut))
  req.resume()
}

/**
 * Answers 408 to a body that stopped arriving or arrives too slowly (BODY_TIMING) and closes
 * the connection: with `Connection: close` Node ends it once the answer is out, and a client
 * that does not take even that is cut after DISCARD_MS.
 */
function refuseSlow(req: IncomingMessage, res: Response, path: string) {
  if (res.headersSent) return void req.socket.destroy()
  res.set('Connection', 'close')
  answerRefusedBody(req, res, path, 408)
  setTimeout(() => req.socket.destroy(), DISCARD_MS).unref()
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The page of a form post refused at the edge: the message and a link back to the form. */
function noticePage(title: string, message: string, path: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1><p role="alert">${escapeHtml(message)}</p><p><a href="${escapeHtml(path)}">Go back</a></p></main></body></html>`
}

function hasNul(text: string): boolean {
  return text.includes('\0') || ENCODED_NUL.test(text)
}

function bodyHasNul(body: Buffer, contentType: string): boolean {
  if (contentType.startsWith('multipart/')) return false
  if (body.includes(0)) return true
  const text = body.toString('latin1')
  if (contentType.includes('json')) return JSON_NUL.test(text)
  if (contentType.startsWith('application/x-www-form-urlencoded')) return ENCODED_NUL.test(text)
  return false
}

function hasBody(req: IncomingMessage): boolean {
  return (
    req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0
  )
}

/**
 * The guard, with the budget its large bodies draw on and the time they may take to arrive
 * (the process's own: requestGuard).
 */
export function createRequestGuard(
  budget: BodyBudget,
  timing: BodyTiming = BODY_TIMING,
): RequestHandler {
  return (req, res, next) => {
    if (refuseMisaddressed(req, res)) return
    if (!forwardedHostIsAcceptable(req)) {
      refuse(res.set('Connection', 'close'), 400, MESSAGES.badHost)
      return
    }
    const url = req.originalUrl
    const queryStart = url.indexOf('?')
    const path = queryStart === -1 ? url : url.slice(0, queryStart)
    if (hasNul(path)) return refuse(res, 404, MESSAGES.nulInPath)
    if (queryStart !== -1 && hasNul(url.slice(queryStart)))
      return refuse(res, 400, MESSAGES.nulInRequest)
    if (!hasBody(req)) return next()

    const limit = bodyLimitFor(path)
    const declared = Number(req.headers['content-length'])
    if (Number.isFinite(declared) && declared > limit) return refuseUnread(req, res, path, 413)

    const chunks: Buffer[] = []
    let received = 0
    let refused = false

    // While a body holds room it must keep arriving (BODY_TIMING): a pause of idleMs without a
    // byte, or wholeMs in all, and it is answered 408, cut and its room given back at once.
    let idle: NodeJS.Timeout | undefined
    let whole: NodeJS.Timeout | undefined
    const stopClock = () => {
      clearTimeout(idle)
      clearTimeout(whole)
      idle = whole = undefined
    }
    const tooSlow = () => {
      refused = true
      chunks.length = 0
      release()
      refuseSlow(req, res, path)
    }
    const startClock = () => {
      idle = setTimeout(tooSlow, timing.idleMs).unref()
      whole = setTimeout(tooSlow, timing.wholeMs).unref()
    }

    // Room in the budget for a body over the default limit: the declared length at once (so an
    // upload that starts is never cut for want of room), a chunked body's as it grows. It is
    // given back when the answer is sent or the connection closes, and at once when the body
    // is refused (its bytes are dropped) or too slow.
    let reserved = 0
    const release = () => {
      stopClock()
      budget.give(reserved)
      reserved = 0
    }
    const reserve = (total: number): boolean => {
      if (total <= DEFAULT_BODY_LIMIT || total <= reserved) return true
      if (!budget.take(total - reserved)) return false
      if (reserved === 0) {
        res.once('close', release)
        startClock()
      }
      reserved = total
      return true
    }
    if (Number.isFinite(declared) && !reserve(declared)) return refuseUnread(req, res, path, 503)

    // Node's HTTP parser hands the body to the request stream through push(), one chunk at a
    // time and then null. Taking those calls over holds the body here until it is whole.
    const push = req.push.bind(req)
    const drop = (status: 413 | 503) => {
      refused = true
      chunks.length = 0
      release()
      refuseUnread(req, res, path, status)
    }
    req.push = (chunk: unknown, encoding?: BufferEncoding) => {
      if (refused) return chunk === null ? push(null) : true
      if (chunk === null) {
        req.push = push
        // Whole: the room stays held (until the answer), the clock stops.
        stopClock()
        const body = Buffer.concat(chunks)
        chunks.length = 0
        if (bodyHasNul(body, String(req.headers['content-type'] ?? '').toLowerCase())) {
          push(null)
          release()
          refuse(res, 400, MESSAGES.nulInRequest)
          return false
        }
        if (body.length) push(body)
        push(null)
        next()
        return false
      }
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, encoding)
      idle?.refresh()
      received += bytes.length
      if (received > limit) {
        drop(413)
        return true
      }
      if (!reserve(received)) {
        drop(503)
        return true
      }
      chunks.push(bytes)
      return true
    }
    // The client went away mid-body: nothing to answer, nothing to run, nothing to hold.
    req.once('close', () => {
      if (req.complete) return
      refused = true
      chunks.length = 0
      release()
    })
  }
}

/** The budget of this process's guard (BODY_BUDGET_BYTES). */
export const bodyBudget = new BodyBudget(BODY_BUDGET_BYTES)

export const requestGuard: RequestHandler = createRequestGuard(bodyBudget)

/**
 * Requests Node's HTTP parser refuses before any handler runs (an address or headers over
 * its 16 KB limit, broken framing) get a status with a message in words, not an empty answer.
 */
export function answerClientErrors(server: Server): void {
  const answered = new WeakSet<Duplex>()
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // The parser reports each further chunk of a refused request again; one answer is enough.
    if (answered.has(socket)) return
    answered.add(socket)
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
    const [status, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The address or the request headers are too long.']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, MESSAGES.tooSlow]
          : [400, 'The request could not be understood.']
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(message)}\r\nConnection: close\r\n\r\n${message}`,
    )
    // As for a 413: a client still sending its body would otherwise get a reset instead of
    // this answer, so the rest is read and dropped for a few seconds before the cut.
    socket.on('data', () => {})
    setTimeout(() => socket.destroy(), DISCARD_MS).unref()
  })
}
