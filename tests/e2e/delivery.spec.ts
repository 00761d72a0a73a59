import crypto from 'node:crypto'
import path from 'node:path'
import { test as base, type Browser, type Page } from '@playwright/test'
import { listOpenReports } from '~/data/order-report.server'
import { listOrderEvents } from '~/data/order.server'
import { updateSiteSettings } from '~/data/settings.server'
import { markRefunded } from '~/services/order-actions.server'
import { createDatabase, type DB } from '~/lib/db.server'
import { startApp, type RunningApp } from '../helpers/app'
import { seriousViolations } from '../helpers/axe'
import { pdfText } from '../helpers/pdf'
import { expect, gotoHydrated } from '../helpers/fixtures'
import { signUpInBrowser } from '../helpers/mailbox'
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../helpers/smtp'

/**
 * The buyer's side of delivery, in Chromium against the production build with a real
 * SMTP server and the built-in Paytm simulator: pay, reveal the delivered item on the result
 * page, receive the delivery e-mail, open its secret link in another browser, reveal there
 * (logged), download the invoice, report a problem; wrong links get the same 404 as a missing
 * order; My Orders shows the buyer's own orders only.
 */
const PRODUCT = {
  slug: 'streamverse-premium-12-months',
  title: 'StreamVerse Premium 12 Months',
  price: '₹1,499',
}
const DEMO_ITEM = /^demo-user-\d{3}@example\.test \/ Demo-Pass-\d{3}$/

interface Shop {
  app: RunningApp
  smtp: TestSmtpServer
  db: DB
}

const test = base.extend<object, { shop: Shop }>({
  shop: [
    // eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring form
    async ({}, use) => {
      const smtp = await startSmtpServer()
      const app = await startApp({ env: { SMTP_URL: smtp.url } })
      const db = createDatabase({ sqlitePath: path.join(app.dataDir, 'keybazaar.db') })
      await updateSiteSettings(db, {
        contactEmail: 'help@keybazaar.example',
        whatsappNumber: '919876543210',
      })
      await use({ app, smtp, db })
      await db.destroy()
      await app.dispose()
      await smtp.close()
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ shop }, use) => {
    await use(shop.app.url)
  },
})

const uniqueEmail = (name: string) =>
  `${name}.${crypto.randomBytes(4).toString('hex')}@example.test`

/** From the checkout to the result page, paying with 'Simulate success'. Returns the order id. */
async function buy(page: Page, buyer: { name?: string; email?: string }): Promise<string> {
  await page.goto(`/checkout/${PRODUCT.slug}`)
  if (buyer.name) await page.getByLabel('Full name').fill(buyer.name)
  if (buyer.email) await page.getByLabel('Email').fill(buyer.email)
  await page.getByLabel('Phone number').fill('9876543210')
  await page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
  await page.getByRole('button', { name: 'Simulate success' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!')
  const orderId = new URL(page.url()).searchParams.get('ORDERID')
  expect(orderId).toMatch(/^ORD_\d+_\d+$/)
  return orderId!
}

async function revealedSecret(page: Page): Promise<string> {
  const region = page.getByRole('region', { name: 'Revealed account details' })
  await expect(region).toBeVisible()
  return (await region.locator('code').first().textContent()) ?? ''
}

function deliveryMail(smtp: TestSmtpServer, email: string): ReceivedMail | undefined {
  return smtp.mails.find((mail) => mail.to.includes(email) && mail.subject.includes(' is ready: '))
}

async function freshPage(
  browser: Browser,
  baseURL: string,
  options: { javaScriptEnabled?: boolean } = {},
) {
  const context = await browser.newContext({ baseURL, ...options })
  return { context, page: await context.newPage() }
}

test('a buyer pays, reveals the item, gets the e-mail, and its link opens the order in another browser', async ({
  page,
  browser,
  shop,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const email = uniqueEmail('asha')
  const orderId = await buy(page, { name: 'Asha Verma', email })
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)

  // Result page: the item is there behind Reveal, the invoice and the order page are links.
  const result = page.getByRole('main')
  await expect(result.getByRole('heading', { name: 'Your account details' })).toBeVisible()
  await expect(result.getByText(/demo-user-/)).toHaveCount(0)
  await expect(result.getByRole('link', { name: 'Download Invoice' })).toHaveAttribute(
    'href',
    `/orders/${orderId}/invoice.pdf`,
  )
  await expect(result.getByRole('link', { name: 'View order' })).toHaveAttribute(
    'href',
    `/orders/${orderId}`,
  )
  await expect(result.getByRole('button', { name: 'Download Invoice' })).toHaveCount(0)
  await result.getByRole('button', { name: 'Reveal' }).click()
  const secret = await revealedSecret(page)
  expect(secret).toMatch(DEMO_ITEM)
  await expect(page.getByRole('region', { name: 'Revealed account details' })).toBeFocused()
  // A text item's lines have no names: a list, not a definition list without terms.
  const lines = page.getByRole('region', { name: 'Revealed account details' })
  await expect(lines.getByRole('listitem')).toHaveCount(1)
  await expect(lines.getByRole('listitem')).toContainText(secret)
  await expect(lines.getByRole('definition')).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Copy/ })).toBeVisible()
  await page.getByRole('link', { name: 'Hide' }).click()
  await expect(result.getByRole('button', { name: 'Reveal' })).toBeVisible()
  await expect(result.getByText(secret)).toHaveCount(0)
  expect(await seriousViolations(page)).toEqual([])

  // The delivery e-mail arrives over SMTP with the order page link, not the credentials.
  await expect.poll(() => deliveryMail(shop.smtp, email), { timeout: 20_000 }).toBeTruthy()
  const mail = deliveryMail(shop.smtp, email)!
  expect(mail.subject).toBe(`Your order ${orderId} is ready: ${PRODUCT.title}`)
  expect(mail.text).not.toContain(secret)
  expect(mail.html).not.toContain(secret)
  const link = new RegExp(`https?://\\S+/orders/${orderId}/[\\w-]{20,}`).exec(mail.text)?.[0]
  expect(link).toBeTruthy()
  expect(mail.html).toContain(link!)

  // Another browser (no cookie, not signed in) opens the link: the token leaves the address bar.
  const other = await freshPage(browser, baseURL!)
  await other.page.goto(link!)
  await expect(other.page).toHaveURL(`${baseURL}/orders/${orderId}`)
  await expect(other.page.locator('html[data-hydrated]')).toHaveCount(1)
  const order = other.page.getByRole('main')
  await expect(order.getByRole('heading', { level: 1 })).toHaveText(PRODUCT.title)
  await expect(order.getByText('Delivered', { exact: true })).toBeVisible()
  const details = order.locator('dl').first()
  await expect(details.getByText(orderId, { exact: true })).toBeVisible()
  await expect(details.getByText(PRODUCT.price)).toBeVisible()
  await expect(details.getByRole('link', { name: PRODUCT.title })).toHaveAttribute(
    'href',
    `/product/${PRODUCT.slug}`,
  )
  await expect(details.getByText('Validity')).toBeVisible()
  await expect(details.getByText('Delivery time')).toBeVisible()
  await expect(details.getByText(/^\d{35}$/)).toBeVisible() // the payment reference
  await expect(order.getByRole('link', { name: /WhatsApp us about this order/ })).toHaveAttribute(
    'href',
    `https://wa.me/919876543210?text=${encodeURIComponent(`Hi KeyBazaar, I need help with my order ${orderId} (${PRODUCT.title}).`)}`,
  )
  await expect(order.getByRole('link', { name: 'help@keybazaar.example' })).toHaveAttribute(
    'href',
    `mailto:help@keybazaar.example?subject=${encodeURIComponent(`Help with order ${orderId}`)}`,
  )
  await expect(order.getByText(secret)).toHaveCount(0)
  expect(await seriousViolations(other.page)).toEqual([])
  await order.getByRole('button', { name: 'Reveal' }).click()
  expect(await revealedSecret(other.page)).toBe(secret)
  expect(await seriousViolations(other.page)).toEqual([])
  // The dark theme too (the theme is a cookie).
  await other.context.addCookies([{ name: 'theme', value: 'dark', url: baseURL! }])
  await gotoHydrated(other.page, `/orders/${orderId}`)
  await order.getByRole('button', { name: 'Reveal' }).click()
  expect(await revealedSecret(other.page)).toBe(secret)
  expect(await seriousViolations(other.page)).toEqual([])

  // Every reveal is in the order's timeline, with the page it came from and the address.
  const revealed = (via: string) =>
    expect.objectContaining({
      actor: 'token',
      data: { ip: expect.stringContaining('127.0.0.1'), via },
    })
  const reveals = (await listOrderEvents(shop.db, orderId)).filter(
    (event) => event.type === 'secret_revealed',
  )
  expect(reveals).toEqual([revealed('result_page'), revealed('order_page'), revealed('order_page')])

  // The invoice downloads as a PDF named after the order, with the order id in it.
  const invoice = await other.page.request.get(`/orders/${orderId}/invoice.pdf`)
  expect(invoice.status()).toBe(200)
  expect(invoice.headers()['content-type']).toBe('application/pdf')
  expect(invoice.headers()['content-disposition']).toBe(
    `attachment; filename="invoice-${orderId}.pdf"`,
  )
  expect(invoice.headers()['cache-control']).toBe('private, no-store')
  expect(invoice.headers()['vary']).toContain('Cookie')
  const pdf = await invoice.body()
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-')
  const drawn = pdfText(pdf)
  expect(drawn).toContain(orderId)
  expect(drawn).toContain('Asha Verma')
  expect(drawn).toContain(PRODUCT.title)
  const [download] = await Promise.all([
    other.page.waitForEvent('download'),
    order.getByRole('link', { name: 'Download Invoice' }).click(),
  ])
  expect(download.suggestedFilename()).toBe(`invoice-${orderId}.pdf`)

  // Report a problem: a short reason is refused under the field, a real one is listed as open.
  const reason = other.page.getByLabel('What is wrong?')
  await reason.fill('broken')
  await order.getByRole('button', { name: 'Report a problem' }).click()
  await expect(
    order.getByText('Please describe the problem in at least 10 characters.'),
  ).toBeVisible()
  await expect(reason).toHaveAttribute('aria-invalid', 'true')
  await reason.fill('The password is not accepted on the sign-in page.')
  await order.getByRole('button', { name: 'Report a problem' }).click()
  await expect(other.page).toHaveURL(`${baseURL}/orders/${orderId}?reported=1`)
  await expect(order.getByRole('heading', { name: 'Your report' })).toBeVisible()
  await expect(order.getByRole('status')).toContainText('We have told the shop about the problem')
  await expect(order.getByText('Open', { exact: true })).toBeVisible()
  await expect(order.getByText('The password is not accepted on the sign-in page.')).toBeVisible()
  await expect(order.getByRole('button', { name: 'Report a problem' })).toHaveCount(0)
  const open = await listOpenReports(shop.db)
  expect(open).toEqual([
    expect.objectContaining({
      orderId,
      reason: 'The password is not accepted on the sign-in page.',
      reportedBy: 'customer',
    }),
  ])
  await other.context.close()

  // Without JavaScript the link, Reveal and the report form work as plain pages.
  const plain = await freshPage(browser, baseURL!, { javaScriptEnabled: false })
  await plain.page.goto(link!)
  await expect(plain.page).toHaveURL(`${baseURL}/orders/${orderId}`)
  await plain.page.getByRole('button', { name: 'Reveal' }).click()
  await expect(
    plain.page.getByRole('region', { name: 'Revealed account details' }).locator('code'),
  ).toHaveText(secret)
  await expect(plain.page.getByRole('button', { name: /^Copy/ })).toHaveCount(0)
  await plain.page.getByRole('link', { name: 'Hide' }).click()
  await expect(plain.page.getByRole('button', { name: 'Reveal' })).toBeVisible()
  await plain.context.close()
  expect(
    (await listOrderEvents(shop.db, orderId)).filter((event) => event.type === 'secret_revealed'),
  ).toHaveLength(4)
})

test('a wrong token and a made-up order id get the same 404, never cached', async ({
  page,
  request,
  shop,
}) => {
  const orderId = await buy(page, { name: 'Ravi Kumar', email: uniqueEmail('ravi') })
  const madeUp = 'ORD_1700000000000_1'
  const wrongToken = crypto.randomBytes(32).toString('base64url')

  async function fetchPage(url: string) {
    // No cookies, not signed in: a stranger.
    const response = await fetch(`${shop.app.url}${url}`, { redirect: 'manual' })
    // The page repeats the address asked for (the theme switcher comes back to it) and carries
    // its own CSP nonce; all else must be the same.
    const body = (await response.text())
      .replaceAll(url, '{address}')
      .replace(/nonce="[^"]*"/g, 'nonce=""')
    return { status: response.status, body, headers: response.headers }
  }
  const pairs: Array<[string, string]> = [
    // The secret link route: a wrong token for a real order, any token for a made-up one.
    [`/orders/${orderId}/${wrongToken}`, `/orders/${madeUp}/${wrongToken}`],
    // The order page: a stranger without any token, and ?token= wrong.
    [`/orders/${orderId}`, `/orders/${madeUp}`],
    [`/orders/${orderId}?token=${wrongToken}`, `/orders/${madeUp}?token=${wrongToken}`],
  ]
  for (const [real, fake] of pairs) {
    const [a, b] = [await fetchPage(real), await fetchPage(fake)]
    expect(a.status).toBe(404)
    expect(b.status).toBe(404)
    expect(a.body).toBe(b.body)
    expect(a.body).toContain('Order not found')
    expect(a.body).not.toContain(orderId)
    expect(a.headers.get('cache-control')).toBe('private, no-store')
    expect(a.headers.get('vary')).toContain('Cookie')
    expect(a.body).toContain('<meta name="robots" content="noindex"')
  }
  // The invoice: the same plain 404 for a real order the stranger may not see and a made-up one.
  const [realInvoice, fakeInvoice] = [
    await fetchPage(`/orders/${orderId}/invoice.pdf`),
    await fetchPage(`/orders/${madeUp}/invoice.pdf`),
  ]
  expect([realInvoice.status, fakeInvoice.status]).toEqual([404, 404])
  expect(realInvoice.body).toBe(fakeInvoice.body)

  // Reveal and report by a stranger change nothing.
  const reveal = await request.post(`/orders/${orderId}`, { form: { intent: 'reveal' } })
  expect(reveal.status()).toBe(404)
  const events = await listOrderEvents(shop.db, orderId)
  expect(events.filter((event) => event.type === 'secret_revealed')).toHaveLength(0)

  // The buyer's own browser (its order cookie) sees the page, marked private, no-store (a guest
  // has no session cookie for the site-wide rule to go by), per cookie, and noindex.
  const own = await page.request.get(`/orders/${orderId}`)
  expect(own.status()).toBe(200)
  expect(own.headers()['cache-control']).toBe('private, no-store')
  expect(own.headers()['vary']).toContain('Cookie')
  expect(await own.text()).toContain('<meta name="robots" content="noindex"')
  const revealed = await page.request.post(`/orders/${orderId}`, { form: { intent: 'reveal' } })
  expect(revealed.status()).toBe(200)
  expect(revealed.headers()['cache-control']).toBe('private, no-store')
  expect(await revealed.text()).toMatch(/demo-user-\d{3}@example\.test \/ Demo-Pass-\d{3}/)
})

test("My Orders lists the signed-in buyer's orders and not other people's", async ({
  page,
  browser,
  baseURL,
  shop,
}) => {
  test.setTimeout(90_000)
  // Someone else buys first, as a guest.
  const guest = await freshPage(browser, baseURL!)
  const othersOrder = await buy(guest.page, { name: 'Other Buyer', email: uniqueEmail('other') })
  await guest.context.close()

  const email = uniqueEmail('meera')
  await signUpInBrowser(page, shop.smtp, { name: 'Meera Iyer', email, password: 'secret12' })

  await gotoHydrated(page, '/dashboard/orders')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('My Orders')
  await expect(page.getByRole('heading', { name: 'No orders yet' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Browse Products' })).toHaveAttribute('href', '/')
  expect(await seriousViolations(page)).toEqual([])

  const myOrder = await buy(page, {})
  await page.getByRole('link', { name: 'Go to Dashboard' }).click()
  await expect(page.getByRole('heading', { name: 'Recent orders' })).toBeVisible()
  await expect(page.getByRole('link', { name: `View order ${myOrder}` })).toBeVisible()
  await expect(page.getByText(othersOrder)).toHaveCount(0)

  await page
    .getByRole('navigation', { name: 'Account' })
    .getByRole('link', { name: 'My Orders' })
    .click()
  await expect(page).toHaveURL(`${baseURL}/dashboard/orders`)
  const list = page.getByRole('main').getByRole('listitem')
  await expect(list).toHaveCount(1)
  await expect(list.getByRole('link', { name: `View order ${myOrder}` })).toBeVisible()
  await expect(list.getByText(PRODUCT.title)).toBeVisible()
  await expect(list.getByText(PRODUCT.price)).toBeVisible()
  await expect(list.getByText('Delivered')).toBeVisible()
  await expect(list.getByRole('link', { name: /^Invoice/ })).toHaveAttribute(
    'href',
    `/orders/${myOrder}/invoice.pdf`,
  )
  expect(await seriousViolations(page)).toEqual([])

  // Signed in, the order page opens without the checkout's cookie; someone else's does not.
  await page.context().clearCookies({ name: 'kb.orders' })
  await list.getByRole('link', { name: /^View order/ }).click()
  await expect(page).toHaveURL(`${baseURL}/orders/${myOrder}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(PRODUCT.title)
  const foreign = await page.request.get(`/orders/${othersOrder}`)
  expect(foreign.status()).toBe(404)

  // Refunded, the sale keeps its invoice beside its credit note, and My Orders still links it.
  expect(
    await markRefunded(shop.db, { orderId: myOrder, note: 'NEFT 42', actor: 'system' }),
  ).toMatchObject({ ok: true })
  await page.goto('/dashboard/orders')
  await expect(list.getByText('Refunded')).toBeVisible()
  const invoice = list.getByRole('link', { name: /^Invoice/ })
  await expect(invoice).toHaveAttribute('href', `/orders/${myOrder}/invoice.pdf`)
  expect((await page.request.get(`/orders/${myOrder}/invoice.pdf`)).status()).toBe(200)
})

test('guessing tokens from one address is stopped, even with a right token, after 30 tries', async ({
  page,
  shop,
}) => {
  const orderId = await buy(page, { name: 'Guess Target', email: uniqueEmail('target') })
  // The checkout's token, from this browser's order cookie.
  const cookie = (await page.context().cookies()).find((c) => c.name === 'kb.orders')!
  const rightToken = new RegExp(`${orderId}~([\\w-]+)`).exec(cookie.value)![1]!
  const visit = (url: string) => fetch(`${shop.app.url}${url}`, { redirect: 'manual' })
  expect((await visit(`/orders/${orderId}/${rightToken}`)).status).toBe(303)
  // Start from an empty counter (the tests before tried wrong tokens too), and not in the last
  // seconds of a 15-minute window, whose end would reset the count halfway through.
  await shop.db.deleteFrom('rateLimit').where('key', 'like', 'orderTokenIp:%').execute()
  const windowLeft = 15 * 60_000 - (Date.now() % (15 * 60_000))
  if (windowLeft < 10_000) await new Promise((resolve) => setTimeout(resolve, windowLeft + 100))

  const statuses: number[] = []
  for (let i = 0; i < 31; i++) {
    statuses.push(
      (await visit(`/orders/${orderId}/${crypto.randomBytes(32).toString('base64url')}`)).status,
    )
  }
  expect(statuses.slice(0, 30)).toEqual(Array(30).fill(404))
  expect(statuses[30]).toBe(429)
  for (const url of [
    `/orders/${orderId}/${rightToken}`,
    `/orders/${orderId}?token=${rightToken}`,
  ]) {
    const blocked = await visit(url)
    expect(blocked.status).toBe(429)
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(await blocked.text()).toContain('Too many attempts')
  }
  // The buyer's own browser is not asked for a token, so it still sees the order.
  expect((await page.request.get(`/orders/${orderId}`)).status()).toBe(200)
})
