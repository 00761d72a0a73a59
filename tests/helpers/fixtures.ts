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
      const app = await startApp()
      await use(app)
      await app.dispose()
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ app }, use) => {
    await use(app.url)
  },
})

export { expect }

/**
 * Opens a page and waits until React has hydrated it (root sets data-hydrated on <html>), for
 * tests of what JavaScript adds, such as links that open a modal instead of a page.
 */
export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
}
