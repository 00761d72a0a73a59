import path from 'node:path'
import type { Page } from '@playwright/test'
import { createDatabase, type DB } from '~/lib/db.server'
import { startApp, type RunningApp } from './app'
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
    app: [
      async ({ appEnv }, use) => {
        const app = await startApp({ env: { ADMIN_EMAILS: owner.email, ...appEnv } })
        const response = await fetch(`${app.url}/signup`, {
          method: 'POST',
          body: new URLSearchParams({
            name: owner.name,
            email: owner.email,
            password: owner.password,
            confirmPassword: owner.password,
          }),
          redirect: 'manual',
        })
        if (response.status !== 302) throw new Error(`sign-up answered ${response.status}`)
        await use(app)
        await app.dispose()
      },
      { scope: 'worker', timeout: 90_000 },
    ],
    db: [
      async ({ app }, use) => {
        const db = createDatabase({ sqlitePath: path.join(app.dataDir, 'keybazaar.db') })
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

  return { test, logIn }
}
