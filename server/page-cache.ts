import crypto from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import type { Request, RequestHandler, Response } from 'express'
import { isbot } from 'isbot'
import { LANGUAGE_COOKIE, languageFromCookieHeader } from '~/lib/preferences'
import { THEME_COOKIE, themeFromCookieHeader } from '~/lib/theme'
import type { MaintenanceLocals } from './maintenance'
import type { SecurityLocals } from './security'

/*
 * Anonymous pages from memory (docs/page-cache.md). A visitor without a session gets the home
 * page, a product page, the sitemap and robots.txt (and their .data requests) from a copy this
 * process rendered for the same URL, theme and language, already compressed. Every process
 * asks the database for the page cache version (raised by triggers on every change a page
 * shows) before it answers from its copies, and drops them all when the version moved.
 */

/** The storefront's public pages and their loader data; nothing else is ever kept. */
const CACHEABLE_PATH = /^\/(?:|_root\.data|product\/[^/]+?(?:\.data)?|sitemap\.xml|robots\.txt)$/

/** The cookies a public page may depend on; any other cookie means "not for the cache". */
const PREFERENCE_COOKIES = new Set([THEME_COOKIE, LANGUAGE_COOKIE])

/**
 * Cookies of checkout that no cacheable page reads: the way to pay last chosen (`kb.gateway`,
 * app/routes/checkout/checkout.server.ts) and the buyer's order tokens (`kb.orders`,
 * app/services/order-access.server.ts). A returning buyer gets the cached pages as anyone else;
 * a cacheable page that came to read one of them would have to leave this list.
 */
export const CHECKOUT_COOKIES = new Set(['kb.gateway', 'kb.orders'])

/** Each entry is a safety net for anything time-dependent: no copy is older than this. */
export const PAGE_CACHE_MAX_AGE_MS = 60_000

/** What a shared cache (a CDN, nginx) may do with an anonymous page: keep it briefly. */
export const PUBLIC_PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=10, stale-while-revalidate=60'
export const PUBLIC_PAGE_VARY = 'Cookie, Accept-Encoding'

/** No page is that big; a bigger response is sent but not kept. */
const MAX_BODY_BYTES = 2 * 1024 * 1024

export interface CacheRequest {
  method: string
  /** The path without the query. */
  path: string
  /** Path and query, as the visitor sent them. */
  url: string
  /** protocol://host, as the app sees it (a proxy's X-Forwarded-* only when trusted). */
  origin: string
  cookie: string | undefined
  userAgent: string | undefined
  authorization: string | undefined
}

/** The key that tells apart everything that changes a public page's bytes, or null when the
 * request must not be answered from (or stored in) the cache. */
export function pageCacheKey(
  request: CacheRequest,
): { key: string; group: string; origin: string } | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null
  if (!CACHEABLE_PATH.test(request.path)) return null
  if (request.authorization) return null
  const cookie = request.cookie ?? ''
  for (const part of cookie.split(';')) {
    const separator = part.indexOf('=')
    const name = (separator === -1 ? part : part.slice(0, separator)).trim()
    if (name && !PREFERENCE_COOKIES.has(name) && !CHECKOUT_COOKIES.has(name)) return null
  }
  const theme = themeFromCookieHeader(cookie) ?? '-'
  const language = languageFromCookieHeader(cookie) ?? '-'
  // Crawlers get the page rendered all at once, browsers a stream (app/entry.server.tsx).
  const reader = request.userAgent && isbot(request.userAgent) ? 'bot' : 'browser'
  const group = `${request.origin}${request.path}`
  return {
    key: [reader, request.origin, request.url, theme, language].join('\n'),
    group,
    origin: request.origin,
  }
}

export type Encoding = 'br' | 'gzip' | 'identity'

export interface PageEntry {
  key: string
  group: string
  /** protocol://host the page was rendered for (CacheRequest.origin). */
  origin: string
  version: number
  storedAt: number
  /** The response's headers, CSP with hashes instead of the nonce. */
  headers: Record<string, string>
  etag: string
  bodies: Record<Encoding, Buffer>
  bytes: number
}

/**
 * Entries by key, least recently used first, bounded in bytes, count, query variants and
 * origins. The Host header is the sender's to choose, so pages rendered for hosts other than
 * the shop's own (PUBLIC_URL's origin, always kept) may come from at most `maxOtherOrigins` of
 * them at a time, first come: requests naming random hosts cannot push the shop's pages out
 * (they are answered, rendered each time, and not kept).
 */
export class PageStore {
  private entries = new Map<string, PageEntry>()
  private groups = new Map<string, number>()
  private origins = new Map<string, number>()
  bytes = 0

  constructor(
    private limits: {
      maxBytes: number
      maxEntries: number
      maxVariantsPerPath: number
      primaryOrigin?: string
      maxOtherOrigins?: number
    },
  ) {}

  get size(): number {
    return this.entries.size
  }

  get(key: string): PageEntry | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry
  }

  /**
   * False when the entry is not kept (too big). A path with its full count of variants gives up
   * its least recently used one: one-off query strings (an ad's click id) cannot hold a page's
   * variants for good, while its visited ones keep their place.
   */
  set(entry: PageEntry): boolean {
    if (entry.bytes > this.limits.maxBytes) return false
    if (!this.admits(entry.origin)) return false
    const existing = this.entries.get(entry.key)
    if (existing) this.delete(existing)
    else if ((this.groups.get(entry.group) ?? 0) >= this.limits.maxVariantsPerPath) {
      for (const older of this.entries.values()) {
        if (older.group !== entry.group) continue
        this.delete(older)
        break
      }
    }
    this.entries.set(entry.key, entry)
    this.groups.set(entry.group, (this.groups.get(entry.group) ?? 0) + 1)
    this.origins.set(entry.origin, (this.origins.get(entry.origin) ?? 0) + 1)
    this.bytes += entry.bytes
    for (const oldest of this.entries.values()) {
      if (this.bytes <= this.limits.maxBytes && this.entries.size <= this.limits.maxEntries) break
      this.delete(oldest)
    }
    return true
  }

  delete(entry: PageEntry): void {
    if (this.entries.get(entry.key) !== entry) return
    this.entries.delete(entry.key)
    this.bytes -= entry.bytes
    const left = (this.groups.get(entry.group) ?? 1) - 1
    if (left > 0) this.groups.set(entry.group, left)
    else this.groups.delete(entry.group)
    const fromOrigin = (this.origins.get(entry.origin) ?? 1) - 1
    if (fromOrigin > 0) this.origins.set(entry.origin, fromOrigin)
    else this.origins.delete(entry.origin)
  }

  clear(): void {
    this.entries.clear()
    this.groups.clear()
    this.origins.clear()
    this.bytes = 0
  }

  /**
   * Whether a page rendered for `origin` may be kept (see the class comment). The shop's own
   * host counts under either scheme: behind a proxy that is not trusted (no TRUST_PROXY) the
   * app sees its https visitors as http.
   */
  private admits(origin: string): boolean {
    const { maxOtherOrigins = Infinity } = this.limits
    if (this.isOwn(origin) || this.origins.has(origin)) return true
    let others = 0
    for (const kept of this.origins.keys()) if (!this.isOwn(kept)) others++
    return others < maxOtherOrigins
  }

  private isOwn(origin: string): boolean {
    const own = this.limits.primaryOrigin
    if (!own) return false
    const host = (value: string) => value.slice(value.indexOf('://') + 3)
    return origin === own || host(origin) === host(own)
  }
}

const INLINE_SCRIPT = /<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi

/**
 * The page without this response's nonce, and the CSP hash sources of its inline scripts: a
 * cached page is served to many visitors, so it carries no nonce at all; its policy names the
 * exact scripts instead (with 'strict-dynamic' as before, they load the rest). Null when the
 * nonce is still somewhere in the page (not an attribute we know how to remove): not cached.
 */
export function withoutNonce(
  html: string,
  nonce: string,
): { html: string; scriptHashes: string[] } | null {
  const stripped = html.split(` nonce="${nonce}"`).join('')
  if (stripped.includes(nonce)) return null
  const hashes = new Set<string>()
  for (const match of stripped.matchAll(INLINE_SCRIPT)) {
    const digest = crypto
      .createHash('sha256')
      .update(match[1] ?? '')
      .digest('base64')
    hashes.add(`'sha256-${digest}'`)
  }
  return { html: stripped, scriptHashes: [...hashes] }
}

/** The response's policy with the hashes in place of its nonce source. */
export function hashedPolicy(policy: string, nonce: string, scriptHashes: string[]): string {
  const replacement = scriptHashes.join(' ')
  return policy.split(`'nonce-${nonce}'${replacement ? '' : ' '}`).join(replacement)
}

/** Whether an If-None-Match header names this entity tag (weak comparison, RFC 9110). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false
  if (ifNoneMatch.trim() === '*') return true
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag))
}

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

/** Headers that belong to one transfer, never stored with a page. */
const TRANSFER_HEADERS = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'etag',
  'vary',
])

export interface PageCacheOptions {
  maxBytes: number
  maxEntries?: number
  maxVariantsPerPath?: number
  /** The shop's own origin (PUBLIC_URL's): its pages are always kept (PageStore). */
  publicOrigin?: string
  /** How many other origins' pages may be kept at a time (default 3). */
  maxOtherOrigins?: number
  /**
   * A version read that started at most this long before a request still counts as fresh for
   * it; 0 means each request waits for a read that started after it arrived (shared by all
   * requests that arrive meanwhile).
   */
  recheckMs: number
  readVersion: () => Promise<number>
  /** Called when the version moved (other in-memory copies of the data to drop). */
  onVersionChange?: () => void
  brotliQuality?: number
  now?: () => number
}

export interface PageCache {
  handler: RequestHandler
  /**
   * For the HTTP server itself, before Express: answers a request whose page is kept and whose
   * version was read recently enough, and returns true; returns false (Express then takes the
   * request, and the handler above decides) for anything else. Nothing in front of the handler
   * changes a kept page's answer: the stored headers include the security headers, the body
   * is compressed already, and a request the request guard would refuse (a body, a NUL in the
   * URL) was never stored under its URL or is left to Express here.
   */
  answerEarly: (req: IncomingMessage, res: ServerResponse) => boolean
  store: PageStore
}

/**
 * The request as the cache sees it, from the bare HTTP request. Null when only Express can tell
 * its origin (a proxy's X-Forwarded-Proto, which counts only when the proxy is trusted).
 */
function earlyCacheRequest(req: IncomingMessage): CacheRequest | null {
  const headers = req.headers
  if (headers['x-forwarded-proto'] !== undefined) return null
  const url = req.url ?? '/'
  const queryStart = url.indexOf('?')
  const encrypted = (req.socket as TLSSocket).encrypted === true
  return {
    method: req.method ?? 'GET',
    path: queryStart === -1 ? url : url.slice(0, queryStart),
    url,
    origin: `${encrypted ? 'https' : 'http'}://${headers.host ?? ''}`,
    cookie: headers.cookie,
    userAgent: headers['user-agent'],
    authorization: headers.authorization,
  }
}

function cacheRequestOf(req: Request): CacheRequest {
  return {
    method: req.method,
    path: req.path,
    url: req.originalUrl,
    origin: `${req.protocol}://${req.get('host') ?? ''}`,
    cookie: req.get('cookie'),
    userAgent: req.get('user-agent'),
    authorization: req.get('authorization'),
  }
}

/** The weight Accept-Encoding gives a content coding (RFC 9110 12.5.3): 0 when refused. */
function encodingWeight(acceptEncoding: string, coding: string): number {
  let wildcard: number | undefined
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';')
    const token = name.trim().toLowerCase()
    if (token !== coding && token !== '*') continue
    const q = params.map((param) => param.trim()).find((param) => /^q=/i.test(param))
    const weight = q === undefined ? 1 : Number(q.slice(2))
    const value = Number.isFinite(weight) ? weight : 0
    if (token === coding) return value
    wildcard = value
  }
  return wildcard ?? 0
}

/** Brotli when the browser takes it (the smallest), else gzip, else the plain bytes. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity'
  if (encodingWeight(acceptEncoding, 'br') > 0) return 'br'
  return encodingWeight(acceptEncoding, 'gzip') > 0 ? 'gzip' : 'identity'
}

function sendEntry(
  req: IncomingMessage,
  res: ServerResponse,
  entry: PageEntry,
  from: 'hit' | 'miss',
): void {
  const encoding = chooseEncoding(req.headers['accept-encoding'])
  for (const [name, value] of Object.entries(entry.headers)) res.setHeader(name, value)
  res.setHeader('ETag', entry.etag)
  res.setHeader('Vary', PUBLIC_PAGE_VARY)
  // For operators and tests: from memory, or rendered just now (and kept).
  res.setHeader('X-Page-Cache', from)
  if (etagMatches(req.headers['if-none-match'], entry.etag)) {
    for (const name of ['content-type', 'content-security-policy']) res.removeHeader(name)
    res.statusCode = 304
    res.end()
    return
  }
  const body = entry.bodies[encoding]
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding)
  res.setHeader('Content-Length', String(body.length))
  res.statusCode = 200
  if (req.method === 'HEAD') res.end()
  else res.end(body)
}

export function createPageCache(options: PageCacheOptions): PageCache {
  const now = options.now ?? Date.now
  const store = new PageStore({
    maxBytes: options.maxBytes,
    maxEntries: options.maxEntries ?? 2000,
    maxVariantsPerPath: options.maxVariantsPerPath ?? 64,
    primaryOrigin: options.publicOrigin,
    maxOtherOrigins: options.maxOtherOrigins ?? 3,
  })
  const brotliParams = {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: options.brotliQuality ?? 11 },
  }

  // The last version read that finished, and the one under way.
  let known: { version: number; startedAt: number } | null = null
  let current: { promise: Promise<number | null>; startedAt: number } | null = null
  let queued: Promise<number | null> | null = null

  function read(): Promise<number | null> {
    const startedAt = now()
    const promise = options.readVersion().then(
      (version) => {
        if (known && known.version !== version) {
          store.clear()
          options.onVersionChange?.()
        }
        if (!known || startedAt >= known.startedAt) known = { version, startedAt }
        return version
      },
      // The database did not answer: no page from the cache until it does.
      () => null,
    )
    current = { promise, startedAt }
    void promise.then(() => {
      if (current?.promise === promise) current = null
    })
    return promise
  }

  /** The version as of at most recheckMs before `arrival`; null when it cannot be read. */
  function versionFor(arrival: number): Promise<number | null> | number {
    const fresh = (startedAt: number) =>
      options.recheckMs > 0 ? startedAt >= arrival - options.recheckMs : startedAt > arrival
    if (known && fresh(known.startedAt)) return known.version
    if (current && fresh(current.startedAt)) return current.promise
    if (!current) return read()
    // A read is under way but began too early for this request: the next one, once it ends.
    queued ??= current.promise.then(() => {
      queued = null
      return read()
    })
    return queued
  }

  /** After a form post in this process, the next request reads the version afresh. */
  function forgetVersionAge(): void {
    if (known) known = { version: known.version, startedAt: -Infinity }
  }

  /**
   * Pages being rendered to be kept, by key: the requests for the same page that arrive
   * meanwhile wait for that one render instead of rendering it again (a spike right after a
   * change would otherwise render the page once per waiting visitor).
   */
  const rendering = new Map<string, Promise<void>>()

  const usable = (entry: PageEntry | undefined, version: number): entry is PageEntry =>
    entry !== undefined &&
    entry.version === version &&
    now() - entry.storedAt < PAGE_CACHE_MAX_AGE_MS

  function capture(
    req: Request,
    res: Response,
    target: { key: string; group: string; origin: string },
    version: number,
  ): void {
    let release!: () => void
    const settled = new Promise<void>((resolve) => {
      release = () => {
        if (rendering.get(target.key) === settled) rendering.delete(target.key)
        resolve()
      }
    })
    rendering.set(target.key, settled)
    res.once('close', release)
    const chunks: Buffer[] = []
    let size = 0
    let overflow = false
    const write = res.write.bind(res) as (chunk: unknown, ...args: unknown[]) => boolean
    const end = res.end.bind(res) as (...args: unknown[]) => Response
    const flushable = res as Response & { flush?: () => void }
    const flush = flushable.flush
    const collect = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : Buffer.from(chunk as Uint8Array)
      size += buffer.length
      if (size > MAX_BODY_BYTES) overflow = true
      chunks.push(buffer)
    }
    // The page is held until it is complete: it leaves once, with its hashes in the policy.
    if (typeof flush === 'function') flushable.flush = () => {}
    res.write = ((chunk: unknown, encoding?: unknown) => {
      collect(chunk, encoding)
      return true
    }) as typeof res.write
    res.end = ((chunk?: unknown, encoding?: unknown) => {
      collect(chunk, encoding)
      res.write = write as typeof res.write
      res.end = end as typeof res.end
      if (typeof flush === 'function') flushable.flush = flush
      finish().catch((error: unknown) => {
        console.error('[page-cache]', error)
        if (!res.headersSent) res.status(500)
        if (!res.writableEnded) end()
      })
      return res
    }) as typeof res.end

    const passThrough = () => {
      release()
      const body = Buffer.concat(chunks)
      if (body.length) write(body)
      end()
    }

    async function finish(): Promise<void> {
      const nonce = (res.locals as SecurityLocals).cspNonce
      const policy = res.getHeader('Content-Security-Policy')
      const cacheControl = String(res.getHeader('Cache-Control') ?? '')
      const storable =
        !overflow &&
        res.statusCode === 200 &&
        !res.headersSent &&
        !res.hasHeader('Set-Cookie') &&
        !res.hasHeader('Content-Encoding') &&
        (res.locals as MaintenanceLocals).maintenance === undefined &&
        !/\b(?:private|no-store|no-cache)\b/.test(cacheControl) &&
        typeof policy === 'string' &&
        typeof nonce === 'string'
      if (!storable) return passThrough()
      const prepared = withoutNonce(Buffer.concat(chunks).toString('utf8'), nonce)
      if (!prepared) return passThrough()
      const identity = Buffer.from(prepared.html, 'utf8')
      const [br, gz] = await Promise.all([brotli(identity, brotliParams), gzip(identity)])
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(res.getHeaders())) {
        if (TRANSFER_HEADERS.has(name) || value === undefined) continue
        headers[name] = Array.isArray(value) ? value.join(', ') : String(value)
      }
      headers['content-security-policy'] = hashedPolicy(policy, nonce, prepared.scriptHashes)
      if (!/\bpublic\b/.test(cacheControl)) headers['cache-control'] = PUBLIC_PAGE_CACHE_CONTROL
      const digest = crypto.createHash('sha256').update(identity).digest('base64url').slice(0, 27)
      const entry: PageEntry = {
        ...target,
        version,
        storedAt: now(),
        headers,
        etag: `W/"${digest}"`,
        bodies: { identity, br, gzip: gz },
        bytes: identity.length + br.length + gz.length + 2048,
      }
      // Kept only when nothing changed while it was rendered.
      if (known?.version === version) store.set(entry)
      release()
      res.write = write as typeof res.write
      res.end = end as typeof res.end
      sendEntry(req, res, entry, 'miss')
    }
  }

  const handler: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.once('finish', forgetVersionAge)
      return next()
    }
    const target = pageCacheKey(cacheRequestOf(req))
    if (!target) return next()
    const arrival = now()
    const answer = async () => {
      const version = await versionFor(arrival)
      if (version === null) return next()
      let entry = store.get(target.key)
      const underWay = usable(entry, version) ? undefined : rendering.get(target.key)
      if (underWay) {
        await underWay
        entry = store.get(target.key)
        // Not kept (a Set-Cookie, a 404, a change meanwhile): this request renders its own.
        return usable(entry, version) ? sendEntry(req, res, entry, 'hit') : next()
      }
      if (usable(entry, version)) return sendEntry(req, res, entry, 'hit')
      if (entry) store.delete(entry)
      // HEAD renders no body: nothing to keep.
      if (req.method === 'GET') capture(req, res, target, version)
      next()
    }
    answer().catch(next)
  }

  const answerEarly = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false
    if (req.headers['transfer-encoding'] !== undefined || req.headers['content-length'])
      return false
    if (options.recheckMs <= 0 || !known || known.startedAt < now() - options.recheckMs)
      return false
    const request = earlyCacheRequest(req)
    const target = request && pageCacheKey(request)
    if (!target) return false
    const entry = store.get(target.key)
    if (!usable(entry, known.version)) return false
    sendEntry(req, res, entry, 'hit')
    return true
  }

  return { handler, answerEarly, store }
}
