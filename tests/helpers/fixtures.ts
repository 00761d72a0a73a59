import crypto from 'node:crypto'
import { test as base, expect, type Page } from '@playwright/test'
import { startApp, type RunningApp } from './app'

/**
 * `app`: one production server per Playwright worker, on a free port with its own
 * temporary data directory and the demo catalogue. `baseURL` points at it.
 */
export const test = base.extend<object, { app: RunningApp }>({
  app: [
    // eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring form
    async ({}, use) => {
      // The test runner stands where a reverse proxy would (TRUST_PROXY, docs/security.md), so
      // each test can be a client of its own (below) and the shop's per-address abuse limits
      // count each test apart, as they count real visitors apart.
      const app = await startApp({ env: { TRUST_PROXY: 'loopback' } })
      await use(app)
      await app.dispose()
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ app }, use) => {
    await use(app.url)
  },
  // Every test's browser is a different client address (see the app fixture above).
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    await use({ 'X-Forwarded-For': testClientAddress(), ...extraHTTPHeaders })
  },
})

/**
 * The `app` fixture for a spec file that changes the shop for its tests (adds a gateway, say):
 * a server of its own, started with `env`, instead of the worker's shared one. Playwright runs a
 * file whose worker fixtures differ in a worker of its own, so no other file sees the change.
 * Use as `test.extend<object, { app: RunningApp }>({ app: ownApp({ ... }) })`.
 */
export function ownApp(
  env: Record<string, string> = {},
): [
  (fixtures: object, use: (app: RunningApp) => Promise<void>) => Promise<void>,
  { scope: 'worker'; timeout: number },
] {
  return [
    // eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring form
    async ({}, use: (app: RunningApp) => Promise<void>) => {
      const app = await startApp({ env: { TRUST_PROXY: 'loopback', ...env } })
      await use(app)
      await app.dispose()
    },
    { scope: 'worker', timeout: 90_000 },
  ]
}

/** A client address of its own, from the benchmarking range 198.18.0.0/15 (RFC 2544). */
export function testClientAddress(): string {
  const n = crypto.randomInt(1, 2 ** 17 - 1)
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`
}

export { expect }

/**
 * Opens a page and waits until React has hydrated it (root sets data-hydrated on <html>), for
 * tests of what JavaScript adds, such as links that open a modal instead of a page.
 */
export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
}
