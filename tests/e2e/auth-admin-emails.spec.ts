import fs from 'node:fs'
import { startApp, type RunningApp } from '../helpers/app'
import { expect, test } from '../helpers/fixtures'
import { confirmationPath, confirmOverHttp, waitForMail } from '../helpers/mailbox'

/**
 * ADMIN_EMAILS make an admin only of an account whose owner proved the address: registering
 * a listed address first is not enough. The start-up log says who is an admin and which
 * listed addresses wait for their confirmation.
 */
const LISTED = 'owner@shop.example.test'
let app: RunningApp

test.afterAll(async () => {
  if (!app) return
  // Restarted on the same data directory, so dispose() leaves it: remove it here.
  await app.stop()
  fs.rmSync(app.dataDir, { recursive: true, force: true })
})

const post = (path: string, form: Record<string, string>, cookie = '') =>
  fetch(`${app.url}${path}`, {
    method: 'POST',
    body: new URLSearchParams(form),
    headers: cookie ? { cookie } : {},
    redirect: 'manual',
  })

test('a listed address is an admin only once its owner proves it, never with the password of whoever registered it first', async () => {
  // Three server starts on one data directory.
  test.setTimeout(150_000)
  app = await startApp({ env: { ADMIN_EMAILS: LISTED } })
  expect(app.output()).toContain('[auth] There is no admin account yet.')

  // Someone registers the owner's address first.
  const squat = await post('/signup', {
    name: 'Squatter',
    email: LISTED,
    password: 'squatter-pw',
    confirmPassword: 'squatter-pw',
  })
  expect(squat.status).toBe(200)
  // They cannot sign in, so the admin pages send them to the login form.
  const login = await post('/login', { email: LISTED, password: 'squatter-pw' })
  expect(login.status).toBe(401)
  expect(login.headers.getSetCookie().some((cookie) => cookie.includes('session_token='))).toBe(
    false,
  )
  const admin = await fetch(`${app.url}/admin/dashboard`, { redirect: 'manual' })
  expect(admin.status).toBe(302)
  expect(admin.headers.get('location')).toBe('/?login=1&redirectTo=%2Fadmin%2Fdashboard')

  // The start-up log says the address waits for its confirmation.
  const { dataDir } = app
  await app.stop()
  app = await startApp({ env: { ADMIN_EMAILS: LISTED }, dataDir })
  expect(app.output()).toContain(
    `[auth] ADMIN_EMAILS waiting for e-mail verification (not admins until the address is confirmed through the link we mailed): ${LISTED}`,
  )
  expect(app.output()).toContain('[auth] There is no admin account yet.')

  // The owner opens the mailed link. It asks for the password chosen at sign-up, which the
  // owner does not know: the squatter's sign-up is not confirmed by the owner's click.
  const link = await confirmationPath(app, LISTED)
  const opened = await fetch(`${app.url}${link}`, { redirect: 'manual' })
  expect(opened.status).toBe(200)
  expect(opened.headers.getSetCookie().some((value) => value.includes('session_token='))).toBe(
    false,
  )
  expect(await opened.text()).toContain('Enter the password you chose when you signed up')
  const guessed = await confirmOverHttp(app.url, link, 'owner-guess')
  expect(guessed.status).toBe(400)
  expect(guessed.headers.getSetCookie().some((value) => value.includes('session_token='))).toBe(
    false,
  )
  expect((await post('/login', { email: LISTED, password: 'squatter-pw' })).status).toBe(401)

  // The page's way out: a new password through the mailed reset link, which proves the address.
  await post('/forgot-password', { email: LISTED })
  const reset = await waitForMail(app, LISTED, (mail) =>
    mail.text.includes('/reset-password?token='),
  )
  const resetUrl = new URL(/https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(reset.text)![0])
  const set = await post(`${resetUrl.pathname}${resetUrl.search}`, {
    token: resetUrl.searchParams.get('token')!,
    password: 'owners-own-pw',
    confirmPassword: 'owners-own-pw',
  })
  expect(set.status).toBe(302)
  // The squatter's password is gone; the owner signs in, an admin.
  expect((await post('/login', { email: LISTED, password: 'squatter-pw' })).status).toBe(401)
  const confirmed = await post('/login', { email: LISTED, password: 'owners-own-pw' })
  expect(confirmed.status).toBe(302)
  const cookie = confirmed.headers
    .getSetCookie()
    .find((value) => value.includes('session_token='))!
    .split(';')[0]!
  const dashboard = await fetch(`${app.url}/admin/dashboard`, {
    headers: { cookie },
    redirect: 'manual',
  })
  expect(dashboard.status).toBe(200)

  await app.stop()
  app = await startApp({ env: { ADMIN_EMAILS: LISTED }, dataDir })
  expect(app.output()).toContain(`[auth] Admins: ${LISTED} (ADMIN_EMAILS)`)
  expect(app.output()).not.toContain('There is no admin account yet')
})
