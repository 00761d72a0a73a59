import { execFile } from 'node:child_process'
import path from 'node:path'
import { startApp, type RunningApp } from '../helpers/app'
import { expect, test } from '../helpers/fixtures'
import { signUpConfirmed } from '../helpers/mailbox'

/** The first admin of a new install: the start-up hint, then `npm run admin:create`. */
const root = path.resolve(import.meta.dirname, '../..')
let app: RunningApp

test.beforeAll(async () => {
  app = await startApp()
})
test.afterAll(async () => {
  await app?.dispose()
})

/**
 * Runs `npm run admin:create` (tsx). Asynchronously: blocking this process for the seconds tsx
 * takes would leave fetch holding a keep-alive socket the server has closed meanwhile.
 */
function adminCreate(
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/admin-create.ts', ...args],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATA_DIR: app.dataDir,
          PUBLIC_URL: app.url,
        },
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error)
        else resolve({ code: error ? (error.code as number) : 0, stdout, stderr })
      },
    )
  })
}

test('a new install says how to make an admin; admin:create makes one with a set-password link', async ({
  page,
}) => {
  // Two runs of the script through tsx, each several seconds on a busy machine.
  test.setTimeout(90_000)
  expect(app.output()).toContain(
    'There is no admin account yet. Create one with: npm run admin:create -- --email you@example.com',
  )

  const wrong = await adminCreate('--email', 'not-an-address')
  expect(wrong.code).toBe(2)
  expect(wrong.stderr).toContain('Please enter a valid email')

  const created = await adminCreate('--email', 'Founder@Example.test', '--name', 'Founder')
  expect(created.code, created.stderr).toBe(0)
  expect(created.stdout).toContain('founder@example.test was created as an admin.')
  const link = new RegExp(`${app.url}/reset-password\\?token=[\\w-]+`).exec(created.stdout)?.[0]
  expect(link).toBeTruthy()

  await page.goto(link!)
  await page.getByLabel('New password', { exact: true }).fill('founder-secret')
  await page.getByLabel('Confirm new password').fill('founder-secret')
  await page.getByRole('button', { name: 'Set password' }).click()
  await page.getByLabel('Email').fill('founder@example.test')
  await page.getByLabel('Password').fill('founder-secret')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
    'href',
    '/admin/dashboard',
  )
  await page.goto(`${app.url}/admin`)
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()

  // The link worked once.
  await page.goto(link!)
  await expect(page.getByRole('heading', { name: 'Link expired' })).toBeVisible()
})

test('admin:create promotes an existing customer', async () => {
  const cookie = await signUpConfirmed(app.url, app, {
    name: 'Staff',
    email: 'staff@example.test',
    password: 'secret12',
  })
  const before = await fetch(`${app.url}/admin/dashboard`, {
    headers: { cookie },
    redirect: 'manual',
  })
  expect(before.status).toBe(403)

  const promoted = await adminCreate('--email', 'staff@example.test')
  expect(promoted.stdout).toContain('staff@example.test was promoted to admin.')
  const after = await fetch(`${app.url}/admin/dashboard`, {
    headers: { cookie },
    redirect: 'manual',
  })
  expect(after.status).toBe(200)
})
