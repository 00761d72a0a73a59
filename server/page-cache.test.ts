import crypto from 'node:crypto'
import type { AddressInfo } from 'node:net'
import http from 'node:http'
import zlib from 'node:zlib'
import compression from 'compression'
import express from 'express'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  chooseEncoding,
  createPageCache,
  etagMatches,
  hashedPolicy,
  CHECKOUT_COOKIES,
  pageCacheKey,
  PageStore,
  withoutNonce,
  type CacheRequest,
  type PageEntry,
} from './page-cache'
import { createNonce, type SecurityLocals } from './security'

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0'

/** What the shop's security middleware does before a page renders: a fresh CSP nonce. */
const cspNonce: express.RequestHandler = (_req, res, next) => {
  const nonce = createNonce()
  ;(res.locals as SecurityLocals).cspNonce = nonce
  res.setHeader('Content-Security-Policy', `script-src 'nonce-${nonce}' 'strict-dynamic'`)
  next()
}

/**
 * Serves `listener` on a free local port for the tests of the describe block that calls this:
 * `url(path)` is an address there, and `get` fetches one as a browser taking Brotli and gzip.
 */
function serveDuringTests(listener: http.RequestListener) {
  const server = http.createServer(listener)
  let base = ''
  beforeAll(async () => {
    server.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const url = (path: string) => `${base}${path}`
  const get = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    fetch(url(path), {
      ...init,
      headers: { 'accept-encoding': 'br, gzip', 'user-agent': BROWSER, ...init.headers },
    })
  return { url, get }
}

const anonymous: CacheRequest = {
  method: 'GET',
  path: '/product/streamverse-premium-12-months',
  url: '/product/streamverse-premium-12-months',
  origin: 'http://shop.test',
  cookie: undefined,
  userAgent: BROWSER,
  authorization: undefined,
}

describe('which requests the page cache answers', () => {
  it('takes anonymous GET and HEAD requests for the public pages and their data', () => {
    for (const path of [
      '/',
      '/_root.data',
      '/product/x',
      '/product/x.data',
      '/sitemap.xml',
      '/robots.txt',
    ]) {
      expect(pageCacheKey({ ...anonymous, path, url: path }), path).not.toBeNull()
    }
    expect(pageCacheKey({ ...anonymous, method: 'HEAD' })).not.toBeNull()
  })

  it('refuses other methods and every other path', () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      expect(pageCacheKey({ ...anonymous, method }), method).toBeNull()
    }
    for (const path of [
      '/login',
      '/dashboard',
      '/admin',
      '/admin/products',
      '/checkout/x',
      '/orders/1',
      '/product/x/y',
      '/theme',
      '/images/a.webp',
      '/api/auth/session',
    ]) {
      expect(pageCacheKey({ ...anonymous, path, url: path }), path).toBeNull()
    }
  })

  it('refuses a session, a flash message, any unknown cookie and credentials', () => {
    for (const cookie of [
      'kb.session_token=abc',
      '__Secure-kb.session_token=abc',
      'theme=dark; kb.session_token=abc',
      'kb_flash=eyJ0eXBlIjoic3VjY2VzcyJ9',
      'kb_notice=x',
      'lang=hi; _ga=GA1.1',
      'kb_order_access=x',
      'flag',
    ]) {
      expect(pageCacheKey({ ...anonymous, cookie }), cookie).toBeNull()
    }
    expect(pageCacheKey({ ...anonymous, authorization: 'Basic eDp5' })).toBeNull()
  })

  it("ignores checkout's cookies, which no cacheable page reads", async () => {
    const { GATEWAY_COOKIE } = await import('~/routes/checkout/checkout.server')
    const { ORDER_ACCESS_COOKIE } = await import('~/services/order-access.server')
    expect([...CHECKOUT_COOKIES].sort()).toEqual([GATEWAY_COOKIE, ORDER_ACCESS_COOKIE].sort())
    const plain = pageCacheKey(anonymous)!.key
    for (const cookie of [
      'kb.gateway=razorpay',
      'kb.orders=ORD_1_1~abc',
      'kb.gateway=paytm; theme=dark',
    ])
      expect(pageCacheKey({ ...anonymous, cookie })?.key, cookie).toBe(
        cookie.includes('theme=dark')
          ? pageCacheKey({ ...anonymous, cookie: 'theme=dark' })!.key
          : plain,
      )
    // With a session beside them, still no cache.
    expect(
      pageCacheKey({ ...anonymous, cookie: 'kb.gateway=paytm; kb.session_token=x' }),
    ).toBeNull()
  })

  it('keeps the preference cookies apart and ignores values that change nothing', () => {
    const key = (cookie?: string) => pageCacheKey({ ...anonymous, cookie })?.key
    const keys = [
      key(),
      key('theme=dark'),
      key('theme=light'),
      key('lang=hi'),
      key('theme=dark; lang=hi'),
    ]
    expect(new Set(keys).size).toBe(keys.length)
    // An unknown theme or language renders as none at all.
    expect(key('theme=purple')).toBe(key())
    expect(key('lang=xx')).toBe(key())
    expect(key(' theme=dark ;lang=hi')).toBe(key('lang=hi; theme=dark'))
  })

  it('keys by URL with its query, host and crawler or browser', () => {
    const key = (changes: Partial<CacheRequest>) => pageCacheKey({ ...anonymous, ...changes })?.key
    const base = key({})
    expect(key({ url: `${anonymous.url}?reviews=2` })).not.toBe(base)
    expect(key({ origin: 'http://other.test' })).not.toBe(base)
    expect(key({ userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' })).not.toBe(base)
    // A query variant counts against its path.
    expect(pageCacheKey({ ...anonymous, url: `${anonymous.url}?a=1` })?.group).toBe(
      pageCacheKey(anonymous)?.group,
    )
  })
})

function entry(key: string, group: string, bytes: number, origin = 'https://shop.test'): PageEntry {
  const body = Buffer.alloc(0)
  return {
    key,
    group,
    origin,
    version: 1,
    storedAt: 0,
    headers: {},
    etag: 'W/"x"',
    bodies: { identity: body, br: body, gzip: body },
    bytes,
  }
}

describe('PageStore', () => {
  it('evicts the least recently used entries beyond its bytes and count', () => {
    const store = new PageStore({ maxBytes: 300, maxEntries: 10, maxVariantsPerPath: 10 })
    store.set(entry('a', 'a', 100))
    store.set(entry('b', 'b', 100))
    store.set(entry('c', 'c', 100))
    store.get('a')
    store.set(entry('d', 'd', 100))
    expect(store.get('b')).toBeUndefined()
    expect(store.get('a')).toBeDefined()
    expect(store.bytes).toBe(300)
    const counted = new PageStore({ maxBytes: 1e6, maxEntries: 2, maxVariantsPerPath: 10 })
    for (const key of ['a', 'b', 'c']) counted.set(entry(key, key, 1))
    expect(counted.size).toBe(2)
    expect(counted.get('a')).toBeUndefined()
  })

  it('keeps at most so many variants (query strings) of one path, the least used going first, and nothing too big', () => {
    const store = new PageStore({ maxBytes: 1000, maxEntries: 100, maxVariantsPerPath: 2 })
    expect(store.set(entry('/?q=1', '/', 10))).toBe(true)
    expect(store.set(entry('/?q=2', '/', 10))).toBe(true)
    store.get('/?q=1')
    // A third variant takes the place of the least recently used one of its path.
    expect(store.set(entry('/?q=3', '/', 10))).toBe(true)
    expect(store.get('/?q=2')).toBeUndefined()
    expect(store.get('/?q=1')).toBeDefined()
    // One-off variants (an ad's click id) never lock the plain page out.
    for (let i = 0; i < 5; i++) store.set(entry(`/?fbclid=${i}`, '/', 10))
    expect(store.set(entry('/', '/', 10))).toBe(true)
    expect(store.get('/')).toBeDefined()
    // Replacing a variant already kept is fine.
    expect(store.set(entry('/', '/', 10))).toBe(true)
    expect(store.set(entry('/p', '/p', 10))).toBe(true)
    expect(store.set(entry('/big', '/big', 1001))).toBe(false)
    expect(store.size).toBe(3)
    expect(store.bytes).toBe(30)
  })

  it("keeps the shop's own origin always, and pages for other Host headers from a few only", () => {
    const shop = 'https://shop.test'
    const store = new PageStore({
      maxBytes: 1e6,
      maxEntries: 100,
      maxVariantsPerPath: 64,
      primaryOrigin: shop,
      maxOtherOrigins: 2,
    })
    const at = (origin: string, path = '/') =>
      entry(`${origin}${path}`, `${origin}${path}`, 1, origin)
    expect(store.set(at('http://127.0.0.1:3000'))).toBe(true)
    expect(store.set(at('http://localhost:3000'))).toBe(true)
    // Random Host headers: answered, not kept, and the kept pages stay.
    for (let i = 0; i < 50; i++) expect(store.set(at(`http://junk-${i}.test`))).toBe(false)
    expect(store.size).toBe(2)
    // The shop's own origin (under either scheme: a proxy not trusted shows https as http) and
    // the origins already kept go on as before.
    expect(store.set(at(shop))).toBe(true)
    expect(store.set(at('http://shop.test'))).toBe(true)
    expect(store.set(at(shop, '/product/a'))).toBe(true)
    expect(store.set(at('http://localhost:3000', '/product/a'))).toBe(true)
    expect(store.size).toBe(6)
    // An origin whose pages have all gone gives its place to a new one.
    store.delete(store.get('http://127.0.0.1:3000/')!)
    expect(store.set(at('http://other.test'))).toBe(true)
    expect(store.set(at('http://junk-0.test'))).toBe(false)
    store.clear()
    expect(store.set(at('http://junk-0.test'))).toBe(true)
  })
})

describe('a cached page carries no nonce', () => {
  const nonce = 'AAAAAAAAAAAAAAAAAAAAAA=='
  const html = `<html><head><link rel="modulepreload" href="/a.js" nonce="${nonce}"/><script nonce="${nonce}">window.a=1</script><script type="application/ld+json">{"x":1}</script><script nonce="${nonce}" type="module" src="/b.js"></script></head></html>`

  it('drops the nonce attributes and hashes each inline script', () => {
    const result = withoutNonce(html, nonce)!
    expect(result.html).not.toContain(nonce)
    expect(result.html).toContain('<script>window.a=1</script>')
    // sha256 of "window.a=1" and of the JSON, not of the external script.
    const sha256 = (text: string) =>
      `'sha256-${crypto.createHash('sha256').update(text).digest('base64')}'`
    expect(result.scriptHashes).toEqual([sha256('window.a=1'), sha256('{"x":1}')])
    expect(
      hashedPolicy(
        `script-src 'nonce-${nonce}' 'strict-dynamic' 'self'`,
        nonce,
        result.scriptHashes,
      ),
    ).toBe(`script-src ${result.scriptHashes.join(' ')} 'strict-dynamic' 'self'`)
    expect(hashedPolicy(`script-src 'nonce-${nonce}' 'strict-dynamic'`, nonce, [])).toBe(
      "script-src 'strict-dynamic'",
    )
  })

  it('refuses a page whose nonce appears anywhere else', () => {
    expect(withoutNonce(`${html}<p>${nonce}</p>`, nonce)).toBeNull()
  })

  it('compares entity tags weakly, in lists and with *', () => {
    for (const [ifNoneMatch, matches] of [
      ['W/"abc"', true],
      ['"abc"', true],
      ['"x", W/"abc"', true],
      ['*', true],
      ['W/"abd"', false],
      [undefined, false],
    ] as const) {
      expect(etagMatches(ifNoneMatch, 'W/"abc"'), String(ifNoneMatch)).toBe(matches)
    }
  })
})

describe('the page cache middleware', () => {
  let renders = 0
  let version = 1
  let readDelay = 1
  let renderDelay = 0
  let versionChanges = 0
  let setCookie = false
  let status = 200
  const cache = createPageCache({
    maxBytes: 1024 * 1024,
    recheckMs: 0,
    // As a database answers: a little later.
    readVersion: async () => {
      // A read sees the database as it was when it began.
      const seen = version
      await new Promise((resolve) => setTimeout(resolve, readDelay))
      return seen
    },
    onVersionChange: () => versionChanges++,
  })

  const app = express()
  app.use(cspNonce)
  app.use(compression())
  app.all('*splat', cache.handler, async (req, res) => {
    renders++
    if (renderDelay) await new Promise((resolve) => setTimeout(resolve, renderDelay))
    const nonce = (res.locals as SecurityLocals).cspNonce
    if (setCookie) res.setHeader('Set-Cookie', 'kb_flash=x')
    res.status(status).type('html')
    res.write(`<html><script nonce="${nonce}">render(${renders})</script>`)
    res.end(`<p>${'page '.repeat(500)}${req.originalUrl}</p></html>`)
  })
  const { url, get } = serveDuringTests(app)
  beforeEach(() => {
    cache.store.clear()
    setCookie = false
    status = 200
  })

  it('renders once, then answers from memory with the same bytes and hashes', async () => {
    const before = renders
    const first = await get('/')
    const text = await first.text()
    const second = await get('/')
    expect(await second.text()).toBe(text)
    expect(renders).toBe(before + 1)
    expect(first.headers.get('x-page-cache')).toBe('miss')
    expect(second.headers.get('x-page-cache')).toBe('hit')
    expect(second.headers.get('content-security-policy')).toMatch(
      /^script-src 'sha256-[^']+' 'strict-dynamic'$/,
    )
    expect(second.headers.get('content-security-policy')).toBe(
      first.headers.get('content-security-policy'),
    )
    expect(second.headers.get('cache-control')).toBe(
      'public, max-age=0, s-maxage=10, stale-while-revalidate=60',
    )
    expect(second.headers.get('vary')).toBe('Cookie, Accept-Encoding')
    expect(text).not.toContain('nonce')
  })

  it('sends Brotli, gzip or plain bytes as the browser accepts, and HEAD without a body', async () => {
    await get('/')
    const raw = (encoding: string, method = 'GET') =>
      new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>(
        (resolve, reject) => {
          import('node:http').then(({ request }) => {
            const req = request(
              url('/'),
              { method, headers: { 'accept-encoding': encoding, 'user-agent': BROWSER } },
              (res) => {
                const chunks: Buffer[] = []
                res.on('data', (chunk: Buffer) => chunks.push(chunk))
                res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
              },
            )
            req.on('error', reject)
            req.end()
          }, reject)
        },
      )
    const renderedBefore = renders
    const br = await raw('gzip, deflate, br')
    const gz = await raw('gzip')
    const plain = await raw('identity')
    const head = await raw('br', 'HEAD')
    expect(renders).toBe(renderedBefore)
    expect(br.headers['content-encoding']).toBe('br')
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(plain.headers['content-encoding']).toBeUndefined()
    const html = plain.body.toString()
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(html)
    expect(zlib.gunzipSync(gz.body).toString()).toBe(html)
    expect(head.body.length).toBe(0)
    expect(head.headers['content-length']).toBe(String(br.body.length))
  })

  it('answers 304 to a matching If-None-Match', async () => {
    const etag = (await get('/')).headers.get('etag')!
    expect(etag).toMatch(/^W\/"/)
    const again = await get('/', { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect((await get('/', { headers: { 'if-none-match': 'W/"other"' } })).status).toBe(200)
  })

  it('renders again for every visitor when the version moved', async () => {
    const first = await (await get('/product/a')).text()
    const changes = versionChanges
    version++
    const renderedBefore = renders
    const second = await (await get('/product/a')).text()
    expect(renders).toBe(renderedBefore + 1)
    expect(second).not.toBe(first)
    expect(versionChanges).toBe(changes + 1)
  })

  it('sees a change saved before a request arrived, even while an older read is under way', async () => {
    const old = await (await get('/product/b')).text()
    readDelay = 40
    const early = get('/product/b').then((response) => response.text())
    await new Promise((resolve) => setTimeout(resolve, 10))
    version++
    const late = await (await get('/product/b')).text()
    expect(await early).toBe(old)
    expect(late).not.toBe(old)
    readDelay = 1
  })

  it('renders a page once for visitors who ask for it at the same time', async () => {
    renderDelay = 50
    const renderedBefore = renders
    const bodies = await Promise.all(
      Array.from({ length: 8 }, () => get('/product/together').then((response) => response.text())),
    )
    renderDelay = 0
    expect(renders).toBe(renderedBefore + 1)
    expect(new Set(bodies).size).toBe(1)
  })

  it('never keeps a response with Set-Cookie or a status other than 200', async () => {
    setCookie = true
    const renderedBefore = renders
    const flashed = await get('/')
    expect(flashed.headers.get('set-cookie')).toBe('kb_flash=x')
    expect(flashed.headers.get('cache-control')).toBeNull()
    expect(flashed.headers.get('content-security-policy')).toMatch(/'nonce-/)
    setCookie = false
    await get('/')
    expect(renders).toBe(renderedBefore + 2)
    status = 404
    await get('/product/missing')
    await get('/product/missing')
    expect(renders).toBe(renderedBefore + 4)
    expect(cache.store.size).toBe(1)
  })

  it('passes signed-in visitors and other pages to the app every time', async () => {
    const renderedBefore = renders
    await get('/', { headers: { cookie: 'kb.session_token=abc' } })
    await get('/', { headers: { cookie: 'kb.session_token=abc' } })
    await get('/login')
    await get('/login')
    expect(renders).toBe(renderedBefore + 4)
    expect(cache.store.size).toBe(0)
  })
})

describe('chooseEncoding', () => {
  it('takes Brotli, then gzip, as Accept-Encoding weighs them', () => {
    for (const [acceptEncoding, chosen] of [
      [undefined, 'identity'],
      ['', 'identity'],
      ['gzip, deflate, br', 'br'],
      ['BR;q=0.5, gzip', 'br'],
      ['gzip, br;q=0', 'gzip'],
      ['*', 'br'],
      ['*;q=0, gzip', 'gzip'],
      ['br;q=0, gzip;q=0', 'identity'],
      ['identity, deflate', 'identity'],
    ] as const) {
      expect(chooseEncoding(acceptEncoding), String(acceptEncoding)).toBe(chosen)
    }
  })
})

describe('answers before Express', () => {
  let clock = 1_000_000
  let throughExpress = 0
  let renders = 0
  const cache = createPageCache({
    maxBytes: 1024 * 1024,
    recheckMs: 250,
    readVersion: async () => 7,
    now: () => clock,
  })

  const app = express()
  app.use((_req, res, next) => {
    throughExpress++
    res.setHeader('X-Frame-Options', 'SAMEORIGIN')
    next()
  })
  app.use(cspNonce)
  app.use(compression())
  app.all('*splat', cache.handler, (_req, res) => {
    renders++
    const nonce = (res.locals as SecurityLocals).cspNonce
    res.status(200).type('html')
    res.end(`<html><script nonce="${nonce}">render()</script>${'page '.repeat(400)}</html>`)
  })
  const { url, get } = serveDuringTests((req, res) => {
    if (!cache.answerEarly(req, res)) app(req, res)
  })
  beforeEach(() => {
    cache.store.clear()
  })

  it('answers a kept page without Express, with the headers and bytes the render had', async () => {
    const first = await get('/')
    const firstText = await first.text()
    const [expressBefore, rendersBefore] = [throughExpress, renders]
    const hit = await get('/')
    expect(await hit.text()).toBe(firstText)
    expect([throughExpress, renders]).toEqual([expressBefore, rendersBefore])
    expect(hit.headers.get('x-page-cache')).toBe('hit')
    expect(hit.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    expect(hit.headers.get('content-encoding')).toBe('br')
    expect(hit.headers.get('content-security-policy')).toBe(
      first.headers.get('content-security-policy'),
    )
    expect(hit.headers.get('etag')).toBe(first.headers.get('etag'))

    const notModified = await get('/', { headers: { 'if-none-match': first.headers.get('etag')! } })
    expect(notModified.status).toBe(304)
    expect(throughExpress).toBe(expressBefore)
  })

  it('leaves to Express what only Express may decide, and a version read grown old', async () => {
    await get('/')
    const before = throughExpress
    // A proxy's protocol counts only when the proxy is trusted, which Express knows.
    await get('/', { headers: { 'x-forwarded-proto': 'https' } })
    // A body is the request guard's to judge (fetch sends none with a GET).
    await new Promise((resolve, reject) => {
      const request = http.request(
        url('/'),
        { method: 'GET', headers: { 'user-agent': BROWSER, 'content-length': '3' } },
        (response) => response.resume().on('end', resolve),
      )
      request.on('error', reject)
      request.end('abc')
    })
    await get('/', { headers: { cookie: 'kb.session_token=abc' } })
    expect(throughExpress).toBe(before + 3)

    // The version read grows old: Express's handler reads it again, then hits are early again.
    clock += 251
    expect((await get('/')).headers.get('x-page-cache')).toBe('hit')
    expect(throughExpress).toBe(before + 4)
    await get('/')
    expect(throughExpress).toBe(before + 4)

    // After a form post, the next page waits for a fresh read (docs/page-cache.md).
    await get('/', { method: 'POST', body: 'a=1' })
    await get('/')
    expect(throughExpress).toBe(before + 6)
    await get('/')
    expect(throughExpress).toBe(before + 6)
  })
})
