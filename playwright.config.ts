import { defineConfig } from '@playwright/test'
import { chromiumArgs, findChromium } from './tests/helpers/chromium'

/**
 * End-to-end tests against the production build, in Debian's Chromium (Playwright's own
 * browser download is not available here). scripts/test.mjs builds first and skips these
 * with a clear line when no Chromium is installed.
 */
const chromium = findChromium()

export default defineConfig({
  testDir: 'tests/e2e',
  // Two workers on two cores: each spec file starts its own server, so files run side by side.
  workers: 2,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  outputDir: 'test-results',
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME
    ? [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME }]]
    : [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: chromium, args: chromiumArgs(chromium) },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
})
