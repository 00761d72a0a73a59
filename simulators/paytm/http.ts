import crypto from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * Just enough HTTP for the simulator, on node:http primitives, so it runs the same inside the
 * app's express server and on its own http.createServer.
 */

/** Requests to a payment gateway are small; anything bigger is refused before it is buffered. */
const MAX_BODY_BYTES = 64 * 1024

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export type RequestBody =
  /** The bytes as sent, decoded as UTF-8. */
  | { kind: 'text'; text: string }
  /** A body some middleware already parsed (e.g. express.json mounted before us). */
  | { kind: 'parsed'; value: unknown }

export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
}

export async function readBody(req: IncomingMessage): Promise<RequestBody> {
  const preParsed = (req as IncomingMessage & { body?: unknown }).body
  if (req.readableEnded && preParsed !== undefined) return { kind: 'parsed', value: preParsed }
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > MAX_BODY_BYTES) throw new HttpError(413, 'Request body too large')
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'Request body too large')
    chunks.push(chunk)
  }
  return { kind: 'text', text: Buffer.concat(chunks).toString('utf8') }
}

/**
 * A urlencoded form as one value per name. A repeated name makes the whole form unusable
 * (null): which copy was signed would be a guess.
 */
export function parseForm(body: RequestBody): Record<string, string> | null {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>
  if (body.kind === 'parsed') {
    if (typeof body.value !== 'object' || body.value === null) return null
    for (const [name, value] of Object.entries(body.value)) {
      if (typeof value !== 'string') return null
      fields[name] = value
    }
    return fields
  }
  for (const [name, value] of new URLSearchParams(body.text)) {
    if (Object.hasOwn(fields, name)) return null
    fields[name] = value
  }
  return fields
}

export function parseJson(body: RequestBody): { value: unknown; text: string | null } | null {
  if (body.kind === 'parsed') return { value: body.value, text: null }
  try {
    return { value: JSON.parse(body.text) as unknown, text: body.text }
  } catch {
    return null
  }
}

/** Index just past the JSON string that opens at `i`. */
function skipString(json: string, i: number): number {
  i++
  while (i < json.length && json[i] !== '"') i += json[i] === '\\' ? 2 : 1
  return i + 1
}

/** Index just past the JSON value that starts at `i`. */
function skipValue(json: string, i: number): number {
  const first = json[i]
  if (first === '"') return skipString(json, i)
  if (first === '{' || first === '[') {
    let depth = 0
    while (i < json.length) {
      const ch = json[i]
      if (ch === '"') {
        i = skipString(json, i)
        continue
      }
      if (ch === '{' || ch === '[') depth++
      else if (ch === '}' || ch === ']') depth--
      i++
      if (depth === 0) return i
    }
    return i
  }
  while (i < json.length && !/[\s,}\]]/.test(json[i]!)) i++
  return i
}

function skipSpace(json: string, i: number): number {
  while (i < json.length && /\s/.test(json[i]!)) i++
  return i
}

/**
 * The exact source text of a top-level member of a JSON object (e.g. "body" of a v3 request),
 * because Paytm signs the body string as sent, not as we would re-serialise it. Expects text
 * that JSON.parse already accepted; returns null when the member is absent or repeated (JSON.parse
 * keeps the last copy, so which one was signed would be ambiguous).
 */
export function rawJsonMember(json: string, member: string): string | null {
  let i = skipSpace(json, 0)
  if (json[i] !== '{') return null
  i++
  let found: string | null = null
  while (i < json.length) {
    i = skipSpace(json, i)
    if (json[i] !== '"') return null
    const keyEnd = skipString(json, i)
    const key = JSON.parse(json.slice(i, keyEnd)) as string
    i = skipSpace(json, keyEnd)
    if (json[i] !== ':') return null
    const valueStart = skipSpace(json, i + 1)
    const valueEnd = skipValue(json, valueStart)
    if (key === member) {
      if (found !== null) return null
      found = json.slice(valueStart, valueEnd)
    }
    i = skipSpace(json, valueEnd)
    if (json[i] === '}') return found
    if (json[i] !== ',') return null
    i++
  }
  return null
}

export function securityHeaders(res: ServerResponse, nonce?: string): void {
  res.setHeader('Cache-Control', 'no-store')
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('Referrer-Policy', 'no-referrer')
  // The pages run one inline script (the auto-submit) and one inline style, both by nonce.
  const scripts = nonce ? `'nonce-${nonce}'` : "'none'"
  const styles = nonce ? `'nonce-${nonce}'` : "'none'"
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none'; script-src ${scripts}; style-src ${styles}; base-uri 'none'; frame-ancestors 'none'`,
  )
}

export function newNonce(): string {
  return crypto.randomBytes(16).toString('base64')
}

/** Sends `body` as JSON; a string is taken to be JSON text already and sent as is. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  securityHeaders(res)
  res.statusCode = status
  res.setHeader('Content-Type', 'application/json; charset=utf-8')
  res.setHeader('Content-Length', Buffer.byteLength(text))
  res.end(text)
}

export function sendHtml(res: ServerResponse, status: number, html: string, nonce: string): void {
  securityHeaders(res, nonce)
  res.statusCode = status
  res.setHeader('Content-Type', 'text/html; charset=utf-8')
  res.setHeader('Content-Length', Buffer.byteLength(html))
  res.end(html)
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  securityHeaders(res)
  res.statusCode = status
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
  res.setHeader('Content-Type', 'text/plain; charset=utf-8')
  res.setHeader('Content-Length', Buffer.byteLength(text))
  res.end(text)
}
