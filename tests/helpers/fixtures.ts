import { test as base, expect } from '@playwright/test'
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
