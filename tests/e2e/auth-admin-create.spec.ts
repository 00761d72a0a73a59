import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { startApp, type RunningApp } from '../helpers/app'
import { expect, test } from '../helpers/fixtures'

/** The first admin of a new install: the start-up hint, then `npm run admin:create`. */
const root = path.resolve(import.meta.dirname, '../..')
let app: RunningApp

test.beforeAll(async () => {
  app = await startApp()
})
test.afterAll(async () => {
  await app?.dispose()
})

function adminCreate(...args: string[]) {
  const result = spawnSync(
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
  )
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

test('a new install says how to make an admin; admin:create makes one with a set-password link', async ({
  page,
}) => {
  expect(app.output()).toContain(
    'There is no admin account yet. Create one with: npm run admin:create -- --email you@example.com',
  )

  const wrong = adminCreate('--email', 'not-an-address')
  expect(wrong.code).toBe(2)
  expect(wrong.stderr).toContain('Please enter a valid email')

  const created = adminCreate('--email', 'Founder@Example.test', '--name', 'Founder')
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
  const signup = await fetch(`${app.url}/signup`, {
    method: 'POST',
    body: new URLSearchParams({
      name: 'Staff',
      email: 'staff@example.test',
      password: 'secret12',
      confirmPassword: 'secret12',
    }),
    redirect: 'manual',
  })
  const cookie = signup.headers.getSetCookie()[0]!.split(';')[0]!
  const before = await fetch(`${app.url}/admin/dashboard`, {
    headers: { cookie },
    redirect: 'manual',
  })
  expect(before.status).toBe(403)

  const promoted = adminCreate('--email', 'staff@example.test')
  expect(promoted.stdout).toContain('staff@example.test was promoted to admin.')
  const after = await fetch(`${app.url}/admin/dashboard`, {
    headers: { cookie },
    redirect: 'manual',
  })
  expect(after.status).toBe(200)
})
