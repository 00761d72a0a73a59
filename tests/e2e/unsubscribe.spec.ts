import crypto from 'node:crypto'
import fs from 'node:fs'
import { test as base, expect } from '@playwright/test'
import { unsubscribeUrl } from '~/lib/unsubscribe-link.server'
import { openAppDatabase } from '../factories'
import { startApp, type RunningApp } from '../helpers/app'
import { collectCspViolations } from '../helpers/csp'
import { signUpConfirmed } from '../helpers/mailbox'
import { screenshotWidthsAndThemes } from '../helpers/screenshots'
import { SHOP_SECRET } from '../helpers/shop'
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../helpers/smtp'

/**
 * The one-click unsubscribe of reminders and offers (docs/notifications.md, "Unsubscribing")
 * against the production build: a back-in-stock mail read from a real SMTP server carries
 * List-Unsubscribe and List-Unsubscribe-Post; its link, opened in a browser that is not signed
 * in, asks first and switches the mail off at the button; the account's Settings switch shows
 * it and turns it on again. A mail app's own one-click POST (no cookies, from anywhere) is
 * answered 200 and needs no page at all.
 */
const test = base.extend<{ cspViolations: string[] }>({
  cspViolations: [collectCspViolations, { auto: true }],
})

const CINENOVA = { slug: 'cinenova-ultra-6-months', title: 'CineNova Ultra 6 Months' }
const PASSWORD = 'secret12'
const uniqueEmail = (name: string) =>
  `${name}.${crypto.randomBytes(4).toString('hex')}@example.test`

let smtp: TestSmtpServer
let shop: RunningApp
// The shop's secret is known here, so a test can make a link for an address it never mailed.
const env = () => ({ SMTP_URL: smtp.url, TRUST_PROXY: 'loopback', APP_SECRET: SHOP_SECRET })

// A sign-up, a restart and screenshots at two widths and two themes take a while on a shared machine.
test.describe.configure({ timeout: 180_000 })
test.beforeAll(async () => {
  smtp = await startSmtpServer()
  shop = await startApp({ env: env() })
})
test.afterAll(async () => {
  await shop?.dispose()
  // The restarted server was given its data directory, so dispose() leaves it.
  if (shop) fs.rmSync(shop.dataDir, { recursive: true, force: true })
  await smtp?.close()
})

/** A header of the mail as sent, its folded lines joined. */
function header(mail: ReceivedMail, name: string): string | undefined {
  const head = mail.raw.slice(0, mail.raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ')
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim()
}

/** A mail app's one-click unsubscribe (RFC 8058): a bare POST, no cookies. */
function oneClick(url: string, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: 'List-Unsubscribe=One-Click',
    redirect: 'manual',
  })
}

test('the back-in-stock mail unsubscribes from its link: asked first, then done; Settings shows it', async ({
  page,
}) => {
  const email = uniqueEmail('waiting')
  const cookie = await signUpConfirmed(shop.url, smtp, {
    name: 'Waiting Buyer',
    email,
    password: PASSWORD,
  })
  const db = openAppDatabase(shop)
  try {
    // A wished-for product out of stock comes back (as in customer-area.spec.ts).
    await db.updateTable('product').set({ inStock: 0 }).where('slug', '=', CINENOVA.slug).execute()
    const product = await db
      .selectFrom('product')
      .select('id')
      .where('slug', '=', CINENOVA.slug)
      .executeTakeFirstOrThrow()
    const added = await fetch(`${shop.url}/wishlist`, {
      method: 'POST',
      headers: { cookie, origin: shop.url },
      body: new URLSearchParams({ intent: 'add', productId: product.id, redirectTo: '/' }),
      redirect: 'manual',
    })
    expect(added.status).toBe(303)
    await db.updateTable('product').set({ inStock: 1 }).where('slug', '=', CINENOVA.slug).execute()
    // The background work checks wished-for products at start-up and then every minute
    // (app/services/background.server.ts): a restart on the same data stands in for that minute.
    await shop.stop()
    shop = await startApp({ dataDir: shop.dataDir, port: shop.port, env: env() })
    const restock = () =>
      smtp.mails.filter(
        (mail) => mail.to.includes(email) && mail.subject === `Back in stock: ${CINENOVA.title}`,
      )
    await expect.poll(() => restock().length, { timeout: 30_000, intervals: [500] }).toBe(1)
    const [mail] = restock()

    // The headers mail apps read, and the same link as a line in the mail.
    expect(header(mail!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click')
    const link = /^<([^>]+)>$/.exec(header(mail!, 'List-Unsubscribe') ?? '')?.[1] ?? ''
    expect(link.startsWith(`${shop.url}/unsubscribe?t=offers.`), link).toBe(true)
    expect(link).not.toContain(email.split('@')[0]!)
    expect(mail!.text).toContain(`Unsubscribe: ${link}`)

    // Opened in a browser that is not signed in: a question, nothing changed yet.
    const masked = `w***@e***.test`
    const opened = await page.goto(link)
    expect(opened?.status()).toBe(200)
    expect(opened?.headers()['cache-control']).toContain('no-store')
    await expect(
      page.getByRole('heading', { name: `Unsubscribe ${masked} from reminders and offers?` }),
    ).toBeVisible()
    const optOuts = () =>
      db.selectFrom('mailOptOut').select('kind').where('email', '=', email).execute()
    expect(await optOuts()).toEqual([])
    await screenshotWidthsAndThemes(page, 'unsubscribe')

    await page.getByRole('button', { name: 'Unsubscribe' }).click()
    await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible()
    await expect(page.getByText(`You will no longer get`)).toContainText(masked)
    await expect(page.getByRole('link', { name: 'Settings' }).last()).toHaveAttribute(
      'href',
      '/dashboard/settings',
    )
    expect(await optOuts()).toEqual([{ kind: 'offers' }])

    // The mail app's own button later: the same bare POST, still 200, nothing more to do.
    const again = await oneClick(link)
    expect(again.status).toBe(200)
    expect(await optOuts()).toHaveLength(1)

    // Signed in, the account's switch says off; turned on, the address's opt-out goes.
    const [name, ...value] = cookie.split('=')
    await page.context().addCookies([{ name: name!, value: value.join('='), url: shop.url }])
    await page.goto(`${shop.url}/dashboard/settings`)
    const mailSwitch = page.getByRole('checkbox', { name: /E-mail me reminders and offers/ })
    await expect(mailSwitch).not.toBeChecked()
    await mailSwitch.check()
    await page.getByRole('button', { name: 'Save preferences' }).click()
    await expect(page.getByText('Your preferences have been saved.')).toBeVisible()
    await expect.poll(optOuts).toEqual([])
  } finally {
    await db.destroy()
  }
})

test("a mail app's one-click POST without cookies is answered 200; another site's page is refused; a forged link 400", async () => {
  const guest = uniqueEmail('guest')
  const link = unsubscribeUrl(shop.url, SHOP_SECRET, guest, 'offers')
  const db = openAppDatabase(shop)
  try {
    const optOuts = () =>
      db.selectFrom('mailOptOut').select('kind').where('email', '=', guest).execute()
    // A link checker's GET changes nothing.
    expect((await fetch(link)).status).toBe(200)
    expect(await optOuts()).toEqual([])

    const response = await oneClick(link)
    expect(response.status).toBe(200)
    expect(response.headers.get('set-cookie')).toBeNull()
    expect(await response.text()).toContain('You will no longer get')
    expect(await optOuts()).toEqual([{ kind: 'offers' }])

    // Mail services post from their servers, without an Origin; another site's page in a
    // browser is refused like any cross-site post.
    const crossSite = await oneClick(link, {
      Origin: 'https://mail.example.com',
      'Sec-Fetch-Site': 'cross-site',
    })
    expect(crossSite.status).toBe(403)

    // A changed token: 400, and that address is not touched.
    const other = uniqueEmail('other')
    const forged = unsubscribeUrl(
      shop.url,
      'another-secret-0123456789abcdef0123456789',
      other,
      'offers',
    )
    const refused = await oneClick(forged)
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain('This unsubscribe link is not valid.')
    expect(
      await db.selectFrom('mailOptOut').select('kind').where('email', '=', other).execute(),
    ).toEqual([])
  } finally {
    await db.destroy()
  }
})
