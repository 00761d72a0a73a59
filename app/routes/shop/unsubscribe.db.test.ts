import { describe, expect, it } from 'vitest'
import { fileTestDb } from '../../../tests/helpers/db'
import {
  pageText as text,
  postActions,
  renderPage,
  serveTestDb,
} from '../../../tests/helpers/route-render'
import { makeCustomer } from '../../../tests/factories'
import { getPreferences, isMailOptedOut, savePreferences } from '~/data/preferences.server'
import { unsubscribeToken, unsubscribeUrl } from '~/lib/unsubscribe-link.server'
import Unsubscribe, {
  action,
  confirmQuestion,
  doneMessage,
  headers,
  loader,
  UNSUBSCRIBE_TEXT,
} from './unsubscribe'

/**
 * /unsubscribe as the server answers it, with a real database: the mail app's one-click POST
 * (no cookies, no Origin, the body RFC 8058 prescribes) switches the address's reminders and
 * offers off; a GET only asks; a link that is not genuine changes nothing. Maintenance mode is
 * the server's (app/services/maintenance.server.test.ts); the cross-site check lets the mail
 * service's POST through as it has no Origin (tests/e2e/unsubscribe.spec.ts).
 */
const t = fileTestDb()
const PUBLIC_URL = 'https://shop.example.in'
const APP_SECRET = 'k'.repeat(64)
serveTestDb(t, { env: { PUBLIC_URL, APP_SECRET } })

let clients = 0
/** A client address of its own for each test, so the per-address limit counts each apart. */
const newClient = () => `203.0.113.${++clients}`

/** The path of the unsubscribe link mailed to `email`. */
function linkFor(email: string): string {
  const url = new URL(unsubscribeUrl(PUBLIC_URL, APP_SECRET, email, 'offers'))
  return `${url.pathname}${url.search}`
}

/** The page at `path` as GET, or as a mail app's one-click POST (no cookies, no Origin). */
async function open(path: string, options: { post?: boolean; ip?: string } = {}) {
  const request = new Request(
    `http://shop.test${path}`,
    options.post
      ? {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'List-Unsubscribe=One-Click',
        }
      : undefined,
  )
  const { html, status, context } = await renderPage(
    { id: 'routes/shop/unsubscribe', path: '/unsubscribe', Component: Unsubscribe, loader, action },
    request,
    { clientIp: options.ip ?? '198.51.100.1' },
  )
  const routeHeaders = headers({
    loaderHeaders: context.loaderHeaders['routes/shop/unsubscribe'] ?? new Headers(),
    actionHeaders: context.actionHeaders['routes/shop/unsubscribe'] ?? new Headers(),
  } as Parameters<typeof headers>[0])
  return { html, text: text(html), status, headers: routeHeaders }
}

describe(`/unsubscribe (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('asks on GET, and changes nothing: link checkers open links before the reader', async () => {
    const customer = await makeCustomer(t.db, { email: 'asks.first@example.in' })
    const link = linkFor('Asks.First@example.in')
    const page = await open(link, { ip: newClient() })
    expect(page.status).toBe(200)
    expect(page.text).toContain(confirmQuestion('a***@e***.in'))
    expect(page.text).toContain('Unsubscribe a***@e***.in from reminders and offers?')
    expect(page.html).not.toContain('asks.first')
    // Its button posts the one-click body to the same link, token and all.
    expect(postActions(page.html)).toEqual([link])
    expect(page.html).toMatch(/<input type="hidden" name="List-Unsubscribe" value="One-Click"/)
    expect(page.headers.get('Cache-Control')).toBe('no-store')

    expect(await isMailOptedOut(t.db, 'asks.first@example.in')).toBe(false)
    expect((await getPreferences(t.db, customer.id)).notifications).toBe(true)
  })

  it("switches a guest's address off with the mail app's one-click POST, without a cookie", async () => {
    const link = linkFor('guest.buyer@example.in')
    const done = await open(link, { post: true, ip: newClient() })
    expect(done.status).toBe(200)
    expect(done.text).toContain(UNSUBSCRIBE_TEXT.doneTitle)
    expect(done.text).toContain(doneMessage('g***@e***.in'))
    expect(done.text).toContain('You will no longer get')
    // How to turn it back on: the account's Settings page.
    expect(done.text).toContain('Settings page')
    expect(done.html).toContain('href="/dashboard/settings"')
    expect(await isMailOptedOut(t.db, 'guest.buyer@example.in')).toBe(true)

    // A second click (or the mail app's retry) is answered the same and changes nothing more.
    const again = await open(link, { post: true, ip: newClient() })
    expect(again.status).toBe(200)
    expect(
      await t.db
        .selectFrom('mailOptOut')
        .selectAll()
        .where('email', '=', 'guest.buyer@example.in')
        .execute(),
    ).toHaveLength(1)
  })

  it("turns an account's switch off too, so its settings page tells the truth", async () => {
    const customer = await makeCustomer(t.db, { email: 'has.account@example.in' })
    await savePreferences(t.db, customer.id, { theme: 'dark' })
    const done = await open(linkFor(customer.email), { post: true, ip: newClient() })
    expect(done.status).toBe(200)
    expect(await isMailOptedOut(t.db, customer.email)).toBe(true)
    // Only the mail switch changed.
    expect(await getPreferences(t.db, customer.id)).toMatchObject({
      theme: 'dark',
      notifications: false,
    })
  })

  it('answers 400 to a link that is not genuine, and changes nothing', async () => {
    const customer = await makeCustomer(t.db, { email: 'not.forged@example.in' })
    const genuine = unsubscribeToken(APP_SECRET, customer.email, 'offers')
    const forged = [
      '/unsubscribe',
      '/unsubscribe?t=',
      '/unsubscribe?t=offers.nonsense',
      `/unsubscribe?t=${encodeURIComponent(unsubscribeToken('x'.repeat(64), customer.email, 'offers'))}`,
      `/unsubscribe?t=${encodeURIComponent(genuine.replace(/^offers\./, 'restock.'))}`,
      `/unsubscribe?t=${encodeURIComponent(genuine.slice(0, -3))}`,
    ]
    const ip = newClient()
    for (const path of forged) {
      for (const post of [false, true]) {
        const page = await open(path, { post, ip })
        expect(page.status, `${post ? 'POST' : 'GET'} ${path}`).toBe(400)
        expect(page.text).toContain(UNSUBSCRIBE_TEXT.invalidTitle)
        expect(page.text).toContain(UNSUBSCRIBE_TEXT.invalid)
        expect(page.html).not.toContain('<form')
      }
    }
    expect(
      await t.db
        .selectFrom('mailOptOut')
        .select('email')
        .where('email', '=', customer.email)
        .execute(),
    ).toEqual([])
    expect((await getPreferences(t.db, customer.id)).notifications).toBe(true)
  })

  it('refuses an address that tried too many bad links, while genuine links neither count nor are refused', async () => {
    const ip = newClient()
    // Genuine links do not count: a mail provider's server posting for many readers.
    for (let i = 0; i < 35; i++) {
      expect((await open(linkFor(`reader.${i}@example.in`), { post: true, ip })).status).toBe(200)
    }
    for (let i = 0; i < 30; i++) {
      expect((await open('/unsubscribe?t=offers.guess', { ip })).status).toBe(400)
    }
    const refused = await open('/unsubscribe?t=offers.guess', { post: true, ip })
    expect(refused.status).toBe(429)
    // The same words as any bad link: waiting would not make it good.
    expect(refused.text).toContain(UNSUBSCRIBE_TEXT.invalid)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    // A genuine link still works from that address: a reader behind the same carrier address.
    expect((await open(linkFor('same.carrier@example.in'), { post: true, ip })).status).toBe(200)
    // Another address is not held up.
    expect(
      (await open(linkFor('elsewhere@example.in'), { post: true, ip: newClient() })).status,
    ).toBe(200)
  })
})
