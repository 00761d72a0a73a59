import { startApp, type RunningApp } from '../helpers/app'
import { signUpConfirmed } from '../helpers/mailbox'
import { expect, test } from '@playwright/test'

const PRODUCT_PATH = '/product/streamverse-premium-12-months'

let app: RunningApp
test.beforeAll(async () => {
  app = await startApp({ env: { QUERY_COUNT_HEADER: '1' } })
})
test.afterAll(async () => {
  await app?.dispose()
})

async function queriesFor(path: string, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(app.url + path, { headers })
  expect(response.status).toBe(200)
  await response.text()
  const count = response.headers.get('x-query-count')
  expect(count).toMatch(/^\d+$/)
  return Number(count)
}

test.describe('database queries per page', () => {
  test('an anonymous product page costs at most two queries once the shop is warm', async () => {
    // The first requests fill the process's shop-wide copies (settings, gateways, catalogue,
    // stock and ratings), which live a second (app/lib/read-cache.server.ts): on a busy machine
    // one request may come after they expired and read them again, so the best of three counts.
    await queriesFor(PRODUCT_PATH)
    await queriesFor(PRODUCT_PATH)
    const counts = [
      await queriesFor(PRODUCT_PATH),
      await queriesFor(PRODUCT_PATH),
      await queriesFor(PRODUCT_PATH),
    ]
    expect(Math.min(...counts)).toBeLessThanOrEqual(2)
  })

  test("a signed-in visitor's product page too: their hearts, votes and orders to review in one", async () => {
    const cookie = await signUpConfirmed(app.url, app, {
      name: 'Counted Buyer',
      email: 'counted.buyer@example.test',
      password: 'counted-secret-12',
    })
    const signedIn = async () => {
      const response = await fetch(app.url + PRODUCT_PATH, { headers: { cookie } })
      expect(response.status).toBe(200)
      expect(await response.text()).toContain('Counted Buyer')
      return Number(response.headers.get('x-query-count'))
    }
    await signedIn()
    await signedIn()
    const counts = [await signedIn(), await signedIn(), await signedIn()]
    expect(Math.min(...counts)).toBeLessThanOrEqual(2)
  })
})

test.describe('session reads', () => {
  test('signed-in pages reuse the session read, and a sign-out ends it at once', async () => {
    const cookie = await signUpConfirmed(app.url, app, {
      name: 'Cached Session',
      email: 'cached.session@example.test',
      password: 'cached-secret-12',
    })
    const dashboard = async () => {
      const response = await fetch(`${app.url}/dashboard`, { headers: { cookie } })
      expect(response.status).toBe(200)
      expect(await response.text()).toContain('Cached Session')
      return Number(response.headers.get('x-query-count'))
    }
    await dashboard()
    // Once the copies have expired, a page reads the session again; right after, it does not.
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const expired = await dashboard()
    const reused = await dashboard()
    expect(reused).toBeLessThan(expired)

    const signedOut = await fetch(`${app.url}/logout`, {
      method: 'POST',
      headers: { cookie, origin: app.url },
      redirect: 'manual',
    })
    expect(signedOut.status).toBe(302)
    // The old cookie no longer signs anyone in, without waiting for the copy to expire.
    const after = await fetch(`${app.url}/dashboard`, { headers: { cookie }, redirect: 'manual' })
    expect(after.status).toBe(302)
    expect(after.headers.get('location')).toMatch(/^\/login/)
  })
})
