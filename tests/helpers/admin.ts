import type { Browser, Page } from '@playwright/test'
import type { DB } from '~/lib/db.server'
import { openAppDatabase } from '../factories'
import { startApp, type RunningApp } from './app'
import { signUpConfirmed, type Mailbox } from './mailbox'
import { expect, test as base } from './fixtures'

/** The shop owner of a back-office test: listed in ADMIN_EMAILS, so an admin with every right. */
export interface ShopOwner {
  name: string
  email: string
  password: string
}

export interface AdminWorkerFixtures {
  /** Extra environment for the server (ADMIN_EMAILS is set from the owner). */
  appEnv: Record<string, string | undefined>
  /** Where the owner's confirmation mail arrives when SMTP_URL is set (default: the app's file outbox). */
  ownerMailbox: Mailbox | undefined
  app: RunningApp
  /** The app's own database (SQLite in its data directory), for setting up and checking data. */
  db: DB
}

/**
 * A Playwright `test` for the back office: one production server per spec file, the owner's
 * account signed up on it, its database open, and every test failing if a page threw in the
 * browser. Each call builds its own fixtures, so two spec files never share a server.
 * `appEnv` can be overridden with `.extend()` (e.g. to point SMTP_URL at a test server).
 */
export function adminTest(owner: ShopOwner) {
  const test = base.extend<{ pageErrors: string[] }, AdminWorkerFixtures>({
    appEnv: [{}, { scope: 'worker', option: true }],
    ownerMailbox: [undefined, { scope: 'worker', option: true }],
    app: [
      async ({ appEnv, ownerMailbox }, use) => {
        // The test runner stands where a reverse proxy would, so a test may speak for several
        // client addresses with X-Forwarded-For (docs/security.md, TRUST_PROXY).
        const app = await startApp({
          env: { ADMIN_EMAILS: owner.email, TRUST_PROXY: 'loopback', ...appEnv },
        })
        // ADMIN_EMAILS apply once the owner confirmed the address with the mailed link.
        await signUpConfirmed(app.url, ownerMailbox ?? app, owner)
        await use(app)
        await app.dispose()
      },
      { scope: 'worker', timeout: 90_000 },
    ],
    db: [
      async ({ app }, use) => {
        const db = openAppDatabase(app)
        await use(db)
        await db.destroy()
      },
      { scope: 'worker' },
    ],
    // No page may throw in the browser along the way.
    pageErrors: [
      async ({ page }, use) => {
        const errors: string[] = []
        page.on('pageerror', (error) => errors.push(error.message))
        await use(errors)
        expect(errors).toEqual([])
      },
      { auto: true },
    ],
  })

  /** Logs the owner in through the login page (with or without JavaScript). */
  async function logIn(page: Page) {
    await page.goto('/login')
    await page.getByLabel('Email').fill(owner.email)
    await page.getByLabel('Password').fill(owner.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await expect(page).toHaveURL('/')
  }

  /** A browser without JavaScript (its own context, at `baseURL`), the owner logged in. */
  async function logInWithoutJavaScript(browser: Browser, baseURL: string | undefined) {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL })
    const page = await context.newPage()
    await logIn(page)
    return { context, page }
  }

  return { test, logIn, logInWithoutJavaScript }
}
