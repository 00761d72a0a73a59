import http from 'node:http'
import type { DB } from '~/lib/db.server'
import { updateProduct, type Product } from '~/data/product.server'
import { makeProduct, openAppDatabase } from '../factories'
import { startApp, type RunningApp } from '../helpers/app'
import { expect, test } from '../helpers/csp'
import { signUpConfirmed } from '../helpers/mailbox'
import { freshPostgresDatabase, SHOP_SECRET } from '../helpers/shop'

/*
 * The page cache (docs/page-cache.md) against the production build: anonymous pages from
 * memory, never a personal page to anyone else, and a change seen by every process.
 */

const PRODUCT = '/product/streamverse-premium-12-months'
const BROWSER = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0',
  'accept-encoding': 'br, gzip',
}

const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { headers: { ...BROWSER, ...headers }, redirect: 'manual' })

test.describe('anonymous pages from memory', () => {
  test('a second anonymous visit is answered from memory, and 304 for a matching If-None-Match', async ({
    app,
  }) => {
    const first = await get(`${app.url}${PRODUCT}?from=etag-test`)
    const body = await first.text()
    const second = await get(`${app.url}${PRODUCT}?from=etag-test`)
    expect(second.headers.get('x-page-cache')).toBe('hit')
    expect(await second.text()).toBe(body)
    expect(second.headers.get('cache-control')).toBe(
      'public, max-age=0, s-maxage=10, stale-while-revalidate=60',
    )
    expect(second.headers.get('vary')).toBe('Cookie, Accept-Encoding')
    const etag = second.headers.get('etag')
    expect(etag).toBeTruthy()
    const notModified = await get(`${app.url}${PRODUCT}?from=etag-test`, { 'if-none-match': etag! })
    expect(notModified.status).toBe(304)
    expect(await notModified.text()).toBe('')
  })

  test('HEAD, Brotli, gzip and plain answers from the same copy', async ({ app }) => {
    await get(`${app.url}/`)
    for (const encoding of ['br', 'gzip', 'identity']) {
      const response = await get(`${app.url}/`, { 'accept-encoding': encoding })
      expect(response.headers.get('x-page-cache')).toBe('hit')
      expect(response.headers.get('content-encoding') ?? 'identity').toBe(encoding)
      expect(await response.text()).toContain('</html>')
    }
    const head = await fetch(`${app.url}/`, { method: 'HEAD', headers: BROWSER })
    expect(head.status).toBe(200)
    expect(head.headers.get('x-page-cache')).toBe('hit')
  })

  test('a cached page carries no nonce, and it hydrates and works without CSP violations', async ({
    app,
    page,
  }) => {
    const url = `${app.url}/?from=csp-test`
    const first = await get(url)
    const html = await first.text()
    const again = await get(url)
    expect(again.headers.get('x-page-cache')).toBe('hit')
    // No nonce anywhere: neither this visitor's nor the first visitor's.
    for (const response of [first, again]) {
      expect(response.headers.get('content-security-policy')).not.toContain("'nonce-")
      expect(response.headers.get('content-security-policy')).toMatch(
        /script-src 'sha256-[^']+'.* 'strict-dynamic'/,
      )
    }
    expect(html).not.toMatch(/\snonce=/)
    // A personal page still gets a fresh nonce of its own.
    const login = await get(`${app.url}/login`)
    expect(login.headers.get('content-security-policy')).toMatch(/'nonce-[^']+'/)

    // The browser's visit is answered from memory, hydrates and filters the catalogue client-side.
    // (Headless Chromium counts as a crawler, which gets a copy of its own: its second visit.)
    await page.goto('/?from=csp-test')
    const response = await page.goto('/?from=csp-test')
    expect(await response!.headerValue('x-page-cache')).toBe('hit')
    await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
    await page.getByLabel('Search services').fill('zzzz-no-such-product')
    await expect(page.getByText('No services match your filters.')).toBeVisible()
  })

  test('signed-in pages are never shared, with anonymous visitors or between users', async ({
    app,
  }) => {
    const asha = await signUpConfirmed(app.url, app, {
      name: 'Ashacache Verma',
      email: 'asha.cache@example.test',
      password: 'correct horse battery staple',
    })
    const ravi = await signUpConfirmed(app.url, app, {
      name: 'Ravicache Iyer',
      email: 'ravi.cache@example.test',
      password: 'correct horse battery staple',
    })
    // Anonymous first: the copy kept must not reach a signed-in visitor...
    const url = `${app.url}${PRODUCT}?from=session-test`
    expect(await (await get(url)).text()).not.toContain('Ashacache')
    expect((await get(url)).headers.get('x-page-cache')).toBe('hit')
    const signedIn = await get(url, { cookie: asha })
    expect(signedIn.headers.get('x-page-cache')).toBeNull()
    expect(signedIn.headers.get('cache-control')).toBe('private, no-store')
    expect(signedIn.headers.get('content-security-policy')).toMatch(/'nonce-/)
    expect(await signedIn.text()).toContain('Ashacache')
    // ...and a signed-in visitor's page never reaches anyone else.
    const fresh = `${app.url}/?from=signed-in-first`
    expect(await (await get(fresh, { cookie: asha })).text()).toContain('Ashacache')
    const otherUser = await (await get(fresh, { cookie: ravi })).text()
    expect(otherUser).toContain('Ravicache')
    expect(otherUser).not.toContain('Ashacache')
    const anonymous = await get(fresh)
    expect(anonymous.headers.get('x-page-cache')).toBe('miss')
    const anonymousHtml = await anonymous.text()
    expect(anonymousHtml).not.toContain('Ashacache')
    expect(anonymousHtml).not.toContain('Ravicache')
    // A preference cookie beside the session changes nothing.
    const withTheme = await get(fresh, { cookie: `theme=dark; ${ravi}` })
    expect(await withTheme.text()).toContain('Ravicache')
  })

  test('a visitor with a flash message or any unknown cookie is neither served nor stored', async ({
    app,
  }) => {
    const url = `${app.url}/?from=flash-test`
    // A one-time message (app/lib/flash.server.ts) or another cookie the shop does not know.
    for (const cookie of [
      'kb_flash=eyJ0eXBlIjoic3VjY2VzcyJ9.sig',
      'kb_notice=x',
      'something=else',
    ]) {
      const response = await get(url, { cookie })
      expect(response.headers.get('x-page-cache')).toBeNull()
      expect(response.headers.get('etag')).toBeNull()
    }
    // Nothing was kept from them: the first plain visit renders.
    expect((await get(url)).headers.get('x-page-cache')).toBe('miss')
    // Theme and language are kept apart.
    expect((await get(url, { cookie: 'theme=dark' })).headers.get('x-page-cache')).toBe('miss')
    const dark = await get(url, { cookie: 'theme=dark' })
    expect(dark.headers.get('x-page-cache')).toBe('hit')
    expect(await dark.text()).toMatch(/<html[^>]*class="[^"]*\bdark\b/)
    // A returning buyer's checkout cookies change nothing a cached page shows: served from it.
    const buyer = await get(url, { cookie: 'kb.gateway=razorpay; kb.orders=ORD_1_1~token' })
    expect(buyer.headers.get('x-page-cache')).toBe('hit')
  })
})

test("pages for made-up Host headers are answered but cannot crowd out the shop's own", async ({
  app,
}) => {
  const ours = `${app.url}/?from=host-test`
  await get(ours)
  expect((await get(ours)).headers.get('x-page-cache')).toBe('hit')
  const { port } = new URL(app.url)
  // node:http, since fetch will not send a Host header of its choosing.
  const visit = (host: string) =>
    new Promise<{ status: number; cache: string | undefined }>((resolve, reject) => {
      const request = http.get(
        { host: '127.0.0.1', port, path: '/?from=host-test', headers: { ...BROWSER, host } },
        (response) => {
          response.resume()
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              cache: response.headers['x-page-cache'] as string | undefined,
            }),
          )
        },
      )
      request.on('error', reject)
    })
  let kept = 0
  for (let i = 0; i < 6; i++) {
    const host = `junk-${i}-${Date.now()}.example:${port}`
    expect((await visit(host)).status).toBe(200)
    if ((await visit(host)).cache === 'hit') kept++
  }
  // At most 3 origins besides the shop's own are kept (docs/page-cache.md).
  expect(kept).toBeLessThanOrEqual(3)
  expect((await get(ours)).headers.get('x-page-cache')).toBe('hit')
})

const engines = ['sqlite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])] as const

for (const engine of engines) {
  test.describe(`a change seen by every process (${engine})`, () => {
    let first: RunningApp
    let second: RunningApp
    let db: DB
    let drop: (() => Promise<void>) | undefined
    let product: Product

    test.beforeAll(async () => {
      const database =
        engine === 'postgres' ? await freshPostgresDatabase('kb_e2e_cache') : undefined
      drop = database?.drop
      const env = {
        APP_SECRET: SHOP_SECRET,
        SEED_DEMO: '0',
        ...(database ? { DATABASE_URL: database.url } : {}),
      }
      first = await startApp({ env })
      second = await startApp({ env, dataDir: first.dataDir })
      db = openAppDatabase(first, { DATABASE_URL: database?.url })
      product = await makeProduct(db, { price: 149_900 })
    })
    test.afterAll(async () => {
      await second?.stop()
      await first?.dispose()
      await db?.destroy()
      await drop?.()
    })

    test('a price change shows on both processes within a second', async () => {
      const urls = [first, second].map((app) => `${app.url}/product/${product.slug}`)
      for (const url of urls) {
        expect(await (await get(url)).text()).toContain('1,499')
        const cached = await get(url)
        expect(cached.headers.get('x-page-cache')).toBe('hit')
        expect(await cached.text()).toContain('1,499')
      }
      // As the admin's product form saves it (here from a third process, the test's).
      const { id, ...input } = product
      await updateProduct(db, id, { ...input, price: 123_400 })
      const changedAt = Date.now()
      // When each process first answered with the new price, counted from when that request
      // was sent (a busy machine takes a while to render the new page; that is not staleness).
      const seenAfter = await Promise.all(
        urls.map(async (url) => {
          while (Date.now() - changedAt < 10_000) {
            const sentAt = Date.now()
            if ((await (await get(url)).text()).includes('1,234')) return sentAt - changedAt
            await new Promise((resolve) => setTimeout(resolve, 25))
          }
          return Infinity
        }),
      )
      for (const delay of seenAfter) expect(delay).toBeLessThan(1_000)
      // And the new page is kept again.
      expect((await get(urls[1]!)).headers.get('x-page-cache')).toBe('hit')
    })
  })
}
