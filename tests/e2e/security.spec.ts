import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { RouteConfigEntry } from '@react-router/dev/routes'
import type { APIRequestContext } from '@playwright/test'
import { createDatabase, type DB } from '~/lib/db.server'
import { simulatePayment } from '../../simulators/paytm/testing'
import routes from '../../app/routes'
import { startApp, type RunningApp } from '../helpers/app'
import { expect, test } from '../helpers/fixtures'
import { makeProduct } from '../factories'
import { paymentForm } from '../helpers/shop'
import { confirmOverHttp } from '../helpers/mailbox'
import { parseMail } from '../helpers/smtp'

/**
 * The browser-facing protections of docs/security.md, asked of the production server: the
 * Content-Security-Policy and its nonce, HSTS, whose X-Forwarded-For counts, cross-site posts,
 * no-store for personal pages, the password change without JavaScript, and private data files.
 */

const EVIL = 'https://evil.example'

const sessionCookie = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.includes('session_token='))

/** Posts the sign-up form (as without JavaScript); the session cookie if it signs in at once. */
async function postSignUp(app: RunningApp, email: string, password: string) {
  const response = await fetch(`${app.url}/signup`, {
    method: 'POST',
    body: new URLSearchParams({ name: 'Meera Iyer', email, password, confirmPassword: password }),
    redirect: 'manual',
  })
  expect(response.status).toBeLessThan(400)
  return sessionCookie(response)
}

/** The path of the confirmation link mailed to `email`, from the app's file outbox (DATA_DIR/mail). */
async function confirmationPath(app: RunningApp, email: string): Promise<string> {
  const mailDir = path.join(app.dataDir, 'mail')
  let link: string | undefined
  await expect
    .poll(
      () => {
        const mails = fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : []
        for (const name of mails) {
          const raw = fs.readFileSync(path.join(mailDir, name), 'utf8')
          if (!/^to:.*$/im.exec(raw)?.[0].includes(email)) continue
          link =
            /https?:\/\/\S+\/verify-email\?token=[\w.%&=-]+/.exec(parseMail(raw).text)?.[0] ?? link
        }
        return Boolean(link)
      },
      { timeout: 20_000, message: `a confirmation mail to ${email}` },
    )
    .toBe(true)
  const { pathname, search } = new URL(link!)
  return `${pathname}${search}`
}

/**
 * Signs up (the sign-up form without JavaScript) and returns the session cookie. Where sign-up
 * continues by a mailed link, the link is opened, as the customer would.
 */
async function signUp(
  app: RunningApp,
  email: string,
  password = 'correct horse 42',
): Promise<string> {
  const direct = await postSignUp(app, email, password)
  if (direct) return direct
  const confirmed = await confirmOverHttp(app.url, await confirmationPath(app, email), password)
  const cookie = sessionCookie(confirmed)
  expect(cookie, 'the confirmation link signs in').toBeTruthy()
  return cookie!
}

function nonceOfPolicy(policy: string | undefined): string {
  const nonce = /'nonce-([^']+)'/.exec(policy ?? '')?.[1]
  expect(nonce, `a nonce in ${policy}`).toBeTruthy()
  return nonce!
}

test.describe('Content-Security-Policy', () => {
  test('is strict, and every rendered page gets a fresh nonce that all its scripts carry', async ({
    request,
  }) => {
    // /login is rendered for every request (the page cache keeps only the storefront's pages).
    const first = await request.get('/login')
    const second = await request.get('/login')
    const policy = first.headers()['content-security-policy']!
    for (const directive of [
      "default-src 'self'",
      "'strict-dynamic'",
      // A product's image may be hosted elsewhere (an https address).
      "img-src 'self' data: blob: https:",
      "connect-src 'self'",
      "frame-ancestors 'self'",
      "base-uri 'self'",
      "object-src 'none'",
    ]) {
      expect(policy).toContain(directive)
    }
    expect(policy).toMatch(/form-action 'self'/)
    const nonce = nonceOfPolicy(policy)
    expect(nonceOfPolicy(second.headers()['content-security-policy'])).not.toBe(nonce)

    // Every script that runs carries this response's nonce (JSON-LD is data, not run).
    const html = await first.text()
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0])
    const runnable = scripts.filter((tag) => !tag.includes('application/ld+json'))
    expect(runnable.length).toBeGreaterThan(0)
    for (const tag of runnable) expect(tag).toContain(`nonce="${nonce}"`)
    // The nonce appears in the page only as nonce="..." (what the page cache removes).
    expect(html.split(nonce).length - 1).toBe([...html.matchAll(/nonce="/g)].length)
  })

  test("a page shared by many visitors has no nonce: its policy lists its inline scripts' hashes", async ({
    request,
  }) => {
    const first = await request.get('/')
    const second = await request.get('/')
    expect(second.headers()['x-page-cache']).toBe('hit')
    const policy = second.headers()['content-security-policy']!
    expect(policy).not.toContain("'nonce-")
    expect(policy).toContain("'strict-dynamic'")
    expect(first.headers()['content-security-policy']).toBe(policy)
    const html = await second.text()
    expect(html).not.toMatch(/\snonce=/)
    // Exactly the inline scripts run: each one's hash is in the policy.
    const inline = [...html.matchAll(/<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    expect(inline.length).toBeGreaterThan(1)
    for (const [, body] of inline) {
      const hash = crypto.createHash('sha256').update(body!).digest('base64')
      expect(policy).toContain(`'sha256-${hash}'`)
    }
  })

  test('lets checkout post to the payment gateway in use, here the built-in simulator', async ({
    request,
    app,
  }) => {
    const policy = (await request.get('/')).headers()['content-security-policy']!
    expect(policy).toContain(`form-action 'self' ${new URL(app.url).origin}`)
  })

  test('names the configured Paytm host, Google and the S3 public host; HSTS for an https shop', async () => {
    const app = await startApp({
      env: {
        PUBLIC_URL: 'https://shop.example.in',
        PAYTM_MID: 'MERCHANT0001',
        PAYTM_MERCHANT_KEY: 'abcdefghijklmnop',
        PAYTM_HOST: 'https://securegw.paytm.in',
        GOOGLE_CLIENT_ID: 'client',
        GOOGLE_CLIENT_SECRET: 'secret',
        GOOGLE_ISSUER: 'https://accounts.example.test',
        STORAGE_S3_ENDPOINT: 'http://127.0.0.1:9',
        STORAGE_S3_BUCKET: 'shop-images',
        STORAGE_S3_ACCESS_KEY_ID: 'key',
        STORAGE_S3_SECRET_ACCESS_KEY: 'secret-key',
        STORAGE_S3_PUBLIC_URL: 'https://cdn.example.in/images',
        SEED_DEMO: '0',
      },
    })
    try {
      const response = await fetch(`${app.url}/`)
      const policy = response.headers.get('content-security-policy')!
      expect(policy).toContain(
        "form-action 'self' https://shop.example.in https://accounts.example.test https://securegw.paytm.in",
      )
      expect(policy).toContain("img-src 'self' data: blob: https: https://cdn.example.in")
      // Behind a TLS proxy the socket is plain HTTP: the public URL decides.
      expect(response.headers.get('strict-transport-security')).toBe(
        'max-age=31536000; includeSubDomains',
      )
    } finally {
      await app.dispose()
    }
  })

  test('sends no HSTS for a shop on plain http', async ({ request }) => {
    expect((await request.get('/')).headers()['strict-transport-security']).toBeUndefined()
  })
})

test.describe('client address', () => {
  /** The rate-limit keys after one failed sign-in that says it came from 203.0.113.7. */
  async function keysAfterFailedLogin(app: RunningApp): Promise<string> {
    const db = createDatabase({ sqlitePath: path.join(app.dataDir, 'keybazaar.db') })
    try {
      const response = await fetch(`${app.url}/login`, {
        method: 'POST',
        headers: { 'X-Forwarded-For': '203.0.113.7' },
        body: new URLSearchParams({ email: 'nobody@example.in', password: 'wrong password 1' }),
      })
      // Refused (wrong password); the attempt counts against the client's address.
      expect(response.status).toBeGreaterThanOrEqual(400)
      const rows = await db.selectFrom('rateLimit').select('key').execute()
      return rows.map((row) => row.key).join(' ')
    } finally {
      await db.destroy()
    }
  }

  test('ignores X-Forwarded-For by default: the socket address is the client', async () => {
    const app = await startApp({ env: { SEED_DEMO: '0' } })
    try {
      const keys = await keysAfterFailedLogin(app)
      expect(keys).toContain('127.0.0.1')
      expect(keys).not.toContain('203.0.113.7')
    } finally {
      await app.dispose()
    }
  })

  test('honours X-Forwarded-For from the proxies TRUST_PROXY names', async () => {
    const app = await startApp({ env: { TRUST_PROXY: 'loopback', SEED_DEMO: '0' } })
    try {
      expect(await keysAfterFailedLogin(app)).toContain('203.0.113.7')
    } finally {
      await app.dispose()
    }
  })

  test('refuses a bad TRUST_PROXY at start-up in one line', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-trust-'))
    try {
      const { runServerOnce } = await import('../helpers/app')
      const result = await runServerOnce({ DATA_DIR: dataDir, PORT: '0', TRUST_PROXY: 'everyone' })
      expect(result.code).not.toBe(0)
      expect(result.stderr).toContain('TRUST_PROXY must be a number of proxies')
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

test.describe('cross-site requests', () => {
  const REFUSED = 'Cross-site request refused'

  for (const [path, form] of [
    ['/admin/api/uploads', {}],
    ['/logout', {}],
    ['/theme', { theme: 'dark' }],
    ['/login', { email: 'someone@example.in', password: 'a password 1' }],
    ['/dashboard/settings', {}],
  ] as const) {
    test(`refuses a cross-site post to ${path}, by Origin or by Sec-Fetch-Site`, async ({
      request,
    }) => {
      const variants: Record<string, string>[] = [
        { Origin: EVIL },
        { Origin: 'null' },
        { 'Sec-Fetch-Site': 'cross-site' },
        { 'Sec-Fetch-Site': 'same-site' },
      ]
      for (const headers of variants) {
        const response = await request.post(path, { headers, form, maxRedirects: 0 })
        expect(response.status(), JSON.stringify(headers)).toBe(403)
        expect(await response.text()).toBe(REFUSED)
      }
    })
  }

  test('lets the same origin post: theme, logout, uploads (which then checks the admin)', async ({
    request,
    app,
  }) => {
    const headers = { Origin: app.url, 'Sec-Fetch-Site': 'same-origin' }
    const theme = await request.post('/theme', {
      headers,
      form: { theme: 'dark' },
      maxRedirects: 0,
    })
    expect(theme.status()).toBe(200)
    expect(theme.headers()['set-cookie']).toContain('theme=dark')
    const logout = await request.post('/logout', { headers, maxRedirects: 0 })
    expect(logout.status()).toBe(302)
    const upload = await request.post('/admin/api/uploads', { headers, maxRedirects: 0 })
    expect(await upload.text()).not.toBe(REFUSED)
    // Without Origin and Sec-Fetch-Site it is no browser (a script, a server): let through.
    const bare = await request.post('/theme', { form: { theme: 'light' }, maxRedirects: 0 })
    expect(bare.status()).toBe(200)
  })

  test("the gateway's callback still arrives from the gateway's site and pays the order", async ({
    app,
  }) => {
    const db: DB = createDatabase({ sqlitePath: path.join(app.dataDir, 'keybazaar.db') })
    try {
      const product = await makeProduct(db)
      const checkout = await fetch(`${app.url}/checkout/${product.slug}`, {
        method: 'POST',
        headers: { Origin: app.url },
        body: new URLSearchParams({
          name: 'Asha Verma',
          email: 'asha@example.in',
          phone: '9876543210',
        }),
      })
      expect(checkout.status).toBe(200)
      const form = paymentForm(await checkout.text())
      const callback = await simulatePayment(
        { action: new URL(form.action, app.url).href, fields: form.fields },
        'success',
      )
      const response = await fetch(`${app.url}/api/payments/paytm/callback`, {
        method: 'POST',
        headers: { Origin: 'https://securegw.paytm.in', 'Sec-Fetch-Site': 'cross-site' },
        body: new URLSearchParams(callback.fields),
        redirect: 'manual',
      })
      expect(response.status).toBe(303)
      const order = await db
        .selectFrom('order')
        .select('status')
        .where('id', '=', form.fields.ORDER_ID!)
        .executeTakeFirstOrThrow()
      expect(['paid', 'delivered', 'awaiting_stock']).toContain(order.status)
    } finally {
      await db.destroy()
    }
  })
})

/** Every URL pattern of app/routes.ts, parameters filled in with a placeholder. */
function routePaths(entries: RouteConfigEntry[], parent = ''): string[] {
  return entries.flatMap((entry) => {
    const own = entry.index ? parent || '/' : `${parent}/${entry.path ?? ''}`.replace(/\/+/g, '/')
    return [own, ...routePaths(entry.children ?? [], own === '/' ? '' : own)]
  })
}
const URLS = [...new Set(routePaths(routes))].map((pattern) => ({
  pattern,
  url: pattern.replace(/:[^/]+/g, 'x').replace('*', 'x'),
}))
/** Answers that hold nothing personal and say so (public caching). */
const PUBLIC_RESOURCES = new Set(['/sitemap.xml', '/robots.txt'])

test.describe('no caching of personal pages', () => {
  let admin: RunningApp
  let adminCookie: string
  let customerCookie: string
  test.beforeAll(async () => {
    admin = await startApp({ env: { ADMIN_EMAILS: 'owner@example.in', SEED_DEMO: '0' } })
    adminCookie = await signUp(admin, 'owner@example.in')
    customerCookie = await signUp(admin, 'customer@example.in')
  })
  test.afterAll(async () => {
    await admin?.dispose()
  })

  async function cacheControl(request: APIRequestContext, url: string, cookie?: string) {
    const response = await request.get(`${admin.url}${url}`, {
      headers: cookie ? { Cookie: cookie } : {},
      maxRedirects: 0,
    })
    return response.headers()['cache-control']
  }

  test('every /dashboard and /admin route answers private, no-store to anyone', async ({
    request,
  }) => {
    const personal = URLS.filter(({ pattern }) => /^\/(dashboard|admin)(\/|$)/.test(pattern))
    expect(personal.map(({ pattern }) => pattern)).toEqual(
      expect.arrayContaining([
        '/dashboard',
        '/dashboard/orders',
        '/dashboard/settings',
        '/admin/orders/:orderId',
      ]),
    )
    for (const { url } of personal) {
      for (const cookie of [adminCookie, customerCookie, undefined]) {
        expect(
          await cacheControl(request, url, cookie),
          `${url} ${cookie ? 'signed in' : 'anonymous'}`,
        ).toBe('private, no-store')
      }
    }
  })

  test('every other route answers private, no-store to a signed-in visitor, unless it is public data', async ({
    request,
  }) => {
    for (const { pattern, url } of URLS) {
      if (/^\/(dashboard|admin)(\/|$)/.test(pattern)) continue
      const value = await cacheControl(request, url, customerCookie)
      if (PUBLIC_RESOURCES.has(pattern)) expect(value, pattern).toMatch(/^public/)
      else expect(value, pattern).toBe('private, no-store')
    }
    // Keyed on the session: an anonymous visitor's home page may be cached.
    expect(await cacheControl(request, '/')).not.toBe('private, no-store')
  })
})

test("a confirmation link for another account leaves a signed-in buyer's session alone", async ({
  app,
}) => {
  const stamp = Date.now()
  const buyer = await signUp(app, `buyer-${stamp}@example.in`)
  // Someone signs up and sends the buyer their own, unused, confirmation link.
  const stranger = `stranger-${stamp}@example.in`
  expect(await postSignUp(app, stranger, 'correct horse 42')).toBeUndefined()
  const link = await confirmationPath(app, stranger)
  const opened = await fetch(`${app.url}${link}`, {
    headers: { Cookie: buyer },
    redirect: 'manual',
  })
  expect(opened.status).toBe(200)
  expect(sessionCookie(opened)).toBeUndefined()
  const page = await opened.text()
  expect(page).toContain('Signed in to another account')
  expect(page).toContain(`You are signed in as buyer-${stamp}@example.in`)
  // Its one action is Log out (the header's own is "Logout").
  expect(page).toMatch(
    /action="\/logout" method="post"><button type="submit"[^>]*>Log out<\/button>/,
  )
  // The buyer is still the one signed in.
  const settings = await fetch(`${app.url}/dashboard/settings`, {
    headers: { Cookie: buyer },
    redirect: 'manual',
  })
  expect(settings.status).toBe(200)
  expect(await settings.text()).toContain(`buyer-${stamp}@example.in`)
  // The link was not used up: sent without that session, with its password, it confirms and
  // signs in.
  const own = await confirmOverHttp(app.url, link, 'correct horse 42')
  expect(own.status).toBe(302)
  expect(sessionCookie(own)).toBeTruthy()
})

test('changing the password without JavaScript keeps this session and ends the others', async ({
  browser,
  app,
}) => {
  const email = `nojs-${Date.now()}@example.in`
  const password = 'first password 1'
  await signUp(app, email, password)
  const logIn = async (javaScriptEnabled: boolean) => {
    const context = await browser.newContext({ baseURL: app.url, javaScriptEnabled })
    const page = await context.newPage()
    await page.goto('/login')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await expect(page).toHaveURL(`${app.url}/`)
    return { context, page }
  }
  const other = await logIn(true)
  const { context, page } = await logIn(false)
  try {
    await page.goto('/dashboard/settings')
    await page.getByLabel('Current password').fill(password)
    await page.getByLabel('New password', { exact: true }).fill('second password 2')
    await page.getByLabel('Confirm new password').fill('second password 2')
    await page.getByRole('button', { name: 'Change password' }).click()

    await expect(
      page.getByText('Your password has been changed. Other devices have been signed out.'),
    ).toBeVisible()
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible()
    // Still signed in on the next page load; the message was shown once.
    await page.reload()
    await expect(page).toHaveURL(`${app.url}/dashboard/settings`)
    await expect(page.getByText('Your password has been changed.')).toHaveCount(0)
    // The other device's session ended.
    await other.page.goto('/dashboard/settings')
    await expect(other.page).toHaveURL(/\/login\?redirectTo=/)
  } finally {
    await context.close()
    await other.context.close()
  }
})

test.describe('data files', () => {
  const mode = (file: string) => fs.statSync(file).mode & 0o777

  async function sendResetMail(app: RunningApp) {
    await signUp(app, 'mail@example.in')
    await fetch(`${app.url}/forgot-password`, {
      method: 'POST',
      body: new URLSearchParams({ email: 'mail@example.in' }),
    })
    const mailDir = path.join(app.dataDir, 'mail')
    await expect
      .poll(() => (fs.existsSync(mailDir) ? fs.readdirSync(mailDir).length : 0))
      .toBeGreaterThan(0)
    return mailDir
  }

  test('a fresh start keeps the data directory, database, secret and mail private', async () => {
    const app = await startApp({ env: { SEED_DEMO: '0' } })
    try {
      const mailDir = await sendResetMail(app)
      expect(mode(app.dataDir)).toBe(0o700)
      for (const name of ['keybazaar.db', 'keybazaar.db-wal', 'keybazaar.db-shm', 'secret']) {
        expect(mode(path.join(app.dataDir, name)), name).toBe(0o600)
      }
      expect(mode(mailDir)).toBe(0o700)
      for (const name of fs.readdirSync(mailDir))
        expect(mode(path.join(mailDir, name)), name).toBe(0o600)
    } finally {
      await app.dispose()
    }
  })

  test('start-up makes the files of an older install private', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-modes-'))
    try {
      const first = await startApp({ dataDir, env: { SEED_DEMO: '0' } })
      const mailDir = await sendResetMail(first)
      await first.stop()
      // What an older version left behind: everything readable by every local account.
      fs.chmodSync(dataDir, 0o755)
      fs.chmodSync(mailDir, 0o755)
      const files = [
        'keybazaar.db',
        'secret',
        ...fs.readdirSync(mailDir).map((name) => path.join('mail', name)),
      ]
      for (const name of files) fs.chmodSync(path.join(dataDir, name), 0o644)

      const second = await startApp({ dataDir, env: { SEED_DEMO: '0' } })
      try {
        expect(mode(dataDir)).toBe(0o700)
        expect(mode(mailDir)).toBe(0o700)
        for (const name of files) expect(mode(path.join(dataDir, name)), name).toBe(0o600)
        for (const name of ['keybazaar.db-wal', 'keybazaar.db-shm']) {
          expect(mode(path.join(dataDir, name)), name).toBe(0o600)
        }
      } finally {
        await second.stop()
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
