import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import type { RequestHandler, Response } from 'express'
import { IMAGE_MAX_BYTES, IMAGE_MESSAGES } from '~/lib/validation/product'
import { STOCK_IMPORT_MAX_BYTES } from '~/lib/validation/stock-import'

/**
 * The edge every request passes before React Router sees it (docs/architecture.md):
 *
 * - A body limit on the bytes actually received, chunked bodies included. A declared
 *   Content-Length over the limit is answered 413 at once, without reading; otherwise the body
 *   is held here until it is complete, and an over-long one is answered 413 and dropped as it
 *   arrives, so no action ever starts on it and memory stays bounded.
 * - NUL characters, which PostgreSQL refuses in text (an error, not a miss), are refused in
 *   the path (404: such a path names nothing), the query and form or JSON bodies (400).
 *   Multipart bodies carry binary files, so their text fields are checked by
 *   `readFormData` (app/lib/form-data.server.ts) instead.
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
  nulInPath: 'Page not found',
  nulInRequest: 'The request contains a character that is not allowed (a NUL byte).',
} as const

const ENCODED_NUL = /%00/i
const JSON_NUL = /\\u0000/i

function refuse(res: Response, status: number, message: string) {
  if (res.headersSent) return
  res.status(status).set('Cache-Control', 'no-store').type('text/plain').send(message)
}

/**
 * Answers 413 while the client may still be sending. Closing at once would make the client's
 * kernel discard our answer with a reset, so the rest of the body is read and dropped (never
 * kept) for a few seconds, then the connection is cut. A browser's own form post (without
 * JavaScript: a page is asked for, not React Router's `.data`) gets a short page with the
 * route's message and a way back, not a bare line of text.
 */
const DISCARD_MS = 5_000
function refuseTooLarge(req: IncomingMessage, res: Response, path: string) {
  const page = !path.endsWith('.data') && String(req.headers.accept ?? '').includes('text/html')
  if (page && !res.headersSent) {
    res
      .status(413)
      .set('Cache-Control', 'no-store')
      .type('html')
      .send(tooLargePage(tooLargeMessageFor(path), backTo(path)))
  } else refuse(res, 413, MESSAGES.tooLarge)
  if (req.complete) return
  const cut = setTimeout(() => req.socket.destroy(), DISCARD_MS)
  cut.unref()
  req.once('end', () => clearTimeout(cut))
  req.once('close', () => clearTimeout(cut))
  req.resume()
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The page of a form post refused for its size: the message and a link back to the form. */
function tooLargePage(message: string, path: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Too large</title></head><body><main><h1>Too large</h1><p role="alert">${escapeHtml(message)}</p><p><a href="${escapeHtml(path)}">Go back</a></p></main></body></html>`
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

export const requestGuard: RequestHandler = (req, res, next) => {
  const url = req.originalUrl
  const queryStart = url.indexOf('?')
  const path = queryStart === -1 ? url : url.slice(0, queryStart)
  if (hasNul(path)) return refuse(res, 404, MESSAGES.nulInPath)
  if (queryStart !== -1 && hasNul(url.slice(queryStart)))
    return refuse(res, 400, MESSAGES.nulInRequest)
  if (!hasBody(req)) return next()

  const limit = bodyLimitFor(path)
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) return refuseTooLarge(req, res, path)

  // Node's HTTP parser hands the body to the request stream through push(), one chunk at a
  // time and then null. Taking those calls over holds the body here until it is whole.
  const chunks: Buffer[] = []
  let received = 0
  let refused = false
  const push = req.push.bind(req)
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (refused) return chunk === null ? push(null) : true
    if (chunk === null) {
      req.push = push
      const body = Buffer.concat(chunks)
      chunks.length = 0
      if (bodyHasNul(body, String(req.headers['content-type'] ?? '').toLowerCase())) {
        push(null)
        refuse(res, 400, MESSAGES.nulInRequest)
        return false
      }
      if (body.length) push(body)
      push(null)
      next()
      return false
    }
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, encoding)
    received += bytes.length
    if (received > limit) {
      refused = true
      chunks.length = 0
      refuseTooLarge(req, res, path)
      return true
    }
    chunks.push(bytes)
    return true
  }
  // The client went away mid-body: nothing to answer, nothing to run.
  req.once('close', () => {
    refused = true
    chunks.length = 0
  })
}

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
          ? [408, 'The request took too long to arrive.']
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
