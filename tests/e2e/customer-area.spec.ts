import fs from 'node:fs'
import crypto from 'node:crypto'
import type { BrowserContext, Page } from '@playwright/test'
import { savePreferences } from '~/data/preferences.server'
import { getSiteSettings } from '~/data/settings.server'
import { shopDateTime, shopLongDate } from '~/lib/date-format'
import { parseValidity, validityEnd } from '~/lib/validity'
import { openAppDatabase } from '../factories'
import { ACCOUNT_PAGES } from '../helpers/account'
import { startApp, type RunningApp } from '../helpers/app'
import { expect, gotoHydrated, test } from '../helpers/fixtures'
import { signUpConfirmed, signUpInBrowser } from '../helpers/mailbox'
import { expectOrderStatus } from '../helpers/orders'
import { screenshotWidthsAndThemes } from '../helpers/screenshots'
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp'

/**
 * The customer area with real accounts against the production build: the overview's figures
 * after a purchase through the Paytm simulator, the wishlist's hearts with and without
 * JavaScript (and the sign-in round trip), the wishlist page, the phone menus, and the
 * back-in-stock mail read from a real SMTP server.
 */
const STREAMVERSE = {
  slug: 'streamverse-premium-12-months',
  title: 'StreamVerse Premium 12 Months',
}
const CINENOVA = { slug: 'cinenova-ultra-6-months', title: 'CineNova Ultra 6 Months' }
const PASSWORD = 'secret12'
const uniqueEmail = (name: string) =>
  `${name}.${crypto.randomBytes(4).toString('hex')}@example.test`

// Real sign-ups, a purchase and screenshots at two widths and two themes take a while on a shared machine.
test.describe.configure({ timeout: 150_000 })

async function signIn(context: BrowserContext, baseURL: string, cookie: string) {
  const [name, ...value] = cookie.split('=')
  await context.addCookies([{ name: name!, value: value.join('='), url: baseURL }])
}

/** A new customer signed in on a phone-sized page. */
async function signedInOnPhone(page: Page, app: RunningApp, name: string, email: string) {
  const cookie = await signUpConfirmed(app.url, app, { name, email, password: PASSWORD })
  await signIn(page.context(), app.url, cookie)
  await page.setViewportSize({ width: 390, height: 800 })
}

function cardHeart(page: Page, title: string) {
  return page.getByRole('button', { name: `Wishlist: ${title}` }).first()
}

/** The shop's answer to the next wishlist change a heart sends (by a fetcher, /wishlist). */
function wishlistAnswer(page: Page) {
  return page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' &&
      new URL(response.url()).pathname.startsWith('/wishlist'),
  )
}

test('the overview shows the figures of an order bought through the simulator', async ({
  page,
  app,
}) => {
  const email = uniqueEmail('meera')
  await signUpInBrowser(page, app, { name: 'Meera Iyer', email, password: PASSWORD })

  // A new account: empty states with a way to the products.
  await page.goto('/dashboard')
  await expect(page.getByText('No running subscriptions.')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Browse Products' }).first()).toBeVisible()
  await screenshotWidthsAndThemes(page, 'dashboard-empty')

  await page.goto(`/checkout/${STREAMVERSE.slug}`)
  await page.getByLabel('Phone number').fill('9123456780')
  await page.getByRole('button', { name: 'Pay ₹1,499' }).click()
  await page.getByRole('button', { name: 'Simulate success' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!')

  const db = openAppDatabase(app)
  try {
    const user = await db
      .selectFrom('user')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
    const order = await db
      .selectFrom('order')
      .select(['id', 'status'])
      .where('userId', '=', user.id)
      .executeTakeFirstOrThrow()
    await expectOrderStatus(db, order.id, 'delivered')
    const delivered = await db
      .selectFrom('orderEvent')
      .select('createdAt')
      .where('orderId', '=', order.id)
      .where('type', '=', 'delivered')
      .executeTakeFirstOrThrow()
    const { timezone } = await getSiteSettings(db)
    const expires = shopLongDate(timezone).format(
      validityEnd(new Date(delivered.createdAt), parseValidity('12 months')!, timezone),
    )
    const deliveredAt = shopDateTime(timezone).format(new Date(delivered.createdAt))

    await page.goto('/dashboard')
    const figures = page.getByRole('region', { name: 'Your purchases' })
    const figure = (label: string) =>
      figures.locator('div').filter({ hasText: label }).locator('dd').first()
    await expect(figure('Orders placed')).toHaveText('1')
    // Paid through the simulator (no gateway configured here): a test order, not money spent.
    await expect(figure('Total spent')).toHaveText('₹0')
    await expect(figures).toContainText('Refunds and test orders excluded')
    await expect(figure('Total saved')).toHaveText('₹0')
    // The same order as a real one counts.
    await db.updateTable('order').set({ testMode: 0 }).where('id', '=', order.id).execute()
    await expect(async () => {
      await page.reload()
      await expect(figure('Total spent')).toHaveText('₹1,499', { timeout: 1_000 })
    }).toPass({ timeout: 10_000 })
    // Original ₹5,988 less ₹1,499 paid.
    await expect(figure('Total saved')).toHaveText('₹4,489')
    await expect(figure('Active subscriptions')).toHaveText('1')
    const subscriptions = page.getByRole('region', { name: 'Active subscriptions' })
    await expect(subscriptions.getByRole('listitem')).toHaveCount(1)
    await expect(subscriptions.getByRole('listitem')).toContainText(STREAMVERSE.title)
    await expect(subscriptions.getByRole('listitem')).toContainText(`Expires on ${expires}`)
    const activity = page.getByRole('region', { name: 'Recent activity' }).getByRole('listitem')
    await expect(activity).toHaveCount(2)
    await expect(activity.first()).toContainText(`${STREAMVERSE.title} delivered`)
    await expect(activity.first()).toContainText(deliveredAt)
    await expect(activity.nth(1)).toContainText(`Payment received for ${STREAMVERSE.title}`)
    await expect(page.getByRole('region', { name: 'Recent orders' })).toContainText(order.id)
    const renew = subscriptions.getByRole('link', { name: `Renew ${STREAMVERSE.title}` })
    await expect(renew).toBeVisible()
    await screenshotWidthsAndThemes(page, 'dashboard')

    // Renew: the product's checkout with this order's details, the phone typed then included
    // (a signed-in checkout alone fills in only the account's name and address).
    await renew.click()
    await expect(page).toHaveURL(new RegExp(`/checkout/${STREAMVERSE.slug}\\?renew=`))
    await expect(page.getByLabel('Phone number')).toHaveValue('9123456780')
    await expect(page.getByLabel('Email')).toHaveValue(email)
    await expect(page.getByRole('button', { name: 'Pay ₹1,499' })).toBeVisible()
  } finally {
    await db.destroy()
  }
})

test('the heart asks a signed-out visitor to log in, then adds the product; card and page toggle it', async ({
  page,
  app,
}) => {
  const email = uniqueEmail('ravi')
  await signUpConfirmed(app.url, app, { name: 'Ravi Kumar', email, password: PASSWORD })

  await gotoHydrated(page, '/')
  await cardHeart(page, STREAMVERSE.title).click()
  await expect(page).toHaveURL(/\?login=1/)
  const dialog = page.getByRole('dialog', { name: 'Log in' })
  await dialog.getByLabel('Email').fill(email)
  await dialog.getByLabel('Password').fill(PASSWORD)
  await dialog.getByRole('button', { name: 'Log in' }).click()
  // Back on the same page, signed in, with the product on the wishlist.
  await expect(page).toHaveURL(`${app.url}/`)
  await expect(cardHeart(page, STREAMVERSE.title)).toHaveAttribute('aria-pressed', 'true')
  await expect(cardHeart(page, CINENOVA.title)).toHaveAttribute('aria-pressed', 'false')

  // The product page's heart, sent by a fetcher: the page stays, the state survives a reload.
  await gotoHydrated(page, `/product/${CINENOVA.slug}`)
  const pageHeart = page.getByRole('main').getByRole('button', { name: 'Wishlist', exact: true })
  await expect(pageHeart).toHaveAttribute('aria-pressed', 'false')
  const added = wishlistAnswer(page)
  await pageHeart.click()
  await expect(pageHeart).toHaveAttribute('aria-pressed', 'true')
  expect((await added).ok()).toBe(true)
  await expect(page).toHaveURL(`${app.url}/product/${CINENOVA.slug}`)
  // Related products: StreamVerse shares the category, and its heart is pressed there too.
  const related = page.getByRole('region', { name: 'You may also like' })
  await expect(related.getByRole('heading', { name: STREAMVERSE.title })).toBeVisible()
  await expect(
    related.getByRole('button', { name: `Wishlist: ${STREAMVERSE.title}` }),
  ).toHaveAttribute('aria-pressed', 'true')
  await screenshotWidthsAndThemes(page, 'product')
  await page.reload()
  await expect(pageHeart).toHaveAttribute('aria-pressed', 'true')

  await page.goto('/dashboard/wishlist')
  const items = page.getByRole('main').getByRole('listitem')
  await expect(items).toHaveCount(2)
  await expect(items.first()).toContainText(CINENOVA.title)
  await expect(items.first()).toContainText('₹699')
  await expect(items.first()).toContainText('In stock')
  await expect(items.first().getByRole('link', { name: `Buy ${CINENOVA.title}` })).toHaveAttribute(
    'href',
    `/checkout/${CINENOVA.slug}`,
  )
  await expect(page.getByRole('main')).toContainText(
    'We e-mail you when one that is out of stock comes back.',
  )
  // The back-in-stock mail points here to switch it off, so an item in stock has the switch too.
  const notify = items.first().getByRole('button', { name: /^E-mail me when back/ })
  await expect(notify).toHaveAttribute('aria-pressed', 'true')
  // The state is shown, not only told: the word On or Off beside the bell.
  await expect(notify).toContainText('On')
  await notify.click()
  await expect(notify).toHaveAttribute('aria-pressed', 'false')
  await expect(notify).toContainText('Off')
  await notify.click()
  await expect(notify).toHaveAttribute('aria-pressed', 'true')
  await screenshotWidthsAndThemes(page, 'wishlist')
  await items
    .first()
    .getByRole('button', { name: `Remove ${CINENOVA.title}` })
    .click()
  await expect(items).toHaveCount(1)
  await expect(items.first()).toContainText(STREAMVERSE.title)

  // The card's heart removes it again. The heart shows the change at once; leaving the page
  // by a full load before the shop has answered would cancel the request, so wait for it.
  await gotoHydrated(page, '/')
  const removed = wishlistAnswer(page)
  await cardHeart(page, STREAMVERSE.title).click()
  await expect(cardHeart(page, STREAMVERSE.title)).toHaveAttribute('aria-pressed', 'false')
  expect((await removed).ok()).toBe(true)
  await page.goto('/dashboard/wishlist')
  await expect(page.getByRole('heading', { name: 'Your wishlist is empty' })).toBeVisible()
  await screenshotWidthsAndThemes(page, 'wishlist-empty')
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the hearts and the wishlist page work with plain forms, sign-in included', async ({
    page,
    app,
  }) => {
    const email = uniqueEmail('noscript')
    await signUpConfirmed(app.url, app, { name: 'Plain Forms', email, password: PASSWORD })

    await page.goto(`/product/${STREAMVERSE.slug}`)
    const pageHeart = page.getByRole('main').getByRole('button', { name: 'Wishlist', exact: true })
    await pageHeart.click()
    await expect(page).toHaveURL(/\/product\/streamverse-premium-12-months\?login=1&redirectTo=/)
    const dialog = page.getByRole('dialog', { name: 'Log in' })
    await dialog.getByLabel('Email').fill(email)
    await dialog.getByLabel('Password').fill(PASSWORD)
    await dialog.getByRole('button', { name: 'Log in' }).click()
    await expect(page).toHaveURL(`${app.url}/product/${STREAMVERSE.slug}`)
    await expect(pageHeart).toHaveAttribute('aria-pressed', 'true')

    await page.goto('/')
    await cardHeart(page, CINENOVA.title).click()
    await expect(page).toHaveURL(`${app.url}/`)
    await expect(cardHeart(page, CINENOVA.title)).toHaveAttribute('aria-pressed', 'true')

    await page.goto('/dashboard/wishlist')
    const items = page.getByRole('main').getByRole('listitem')
    await expect(items).toHaveCount(2)
    await items
      .filter({ hasText: STREAMVERSE.title })
      .getByRole('button', { name: /^Remove/ })
      .click()
    await expect(page).toHaveURL(`${app.url}/dashboard/wishlist`)
    await expect(items).toHaveCount(1)

    await page.goto(`/product/${STREAMVERSE.slug}`)
    await expect(pageHeart).toHaveAttribute('aria-pressed', 'false')

    // A change that cannot be made answers a page named like the account pages.
    const refused = await page.request.post('/wishlist', { form: { intent: 'add' } })
    expect(refused.status()).toBe(400)
    const html = await refused.text()
    expect(html).toMatch(/<title>Wishlist not changed \| [^<]+<\/title>/)
    expect(html).toContain('That product could not be found.')
  })

  test('the phone menus open without JavaScript', async ({ page, app }) => {
    await signedInOnPhone(page, app, 'Small Screen', uniqueEmail('phone'))
    await page.goto('/dashboard/orders')
    // The sidebar is folded into a button naming the page shown.
    await expect(page.getByRole('navigation', { name: 'Account' })).toBeHidden()
    await page.getByLabel('Account menu: My Orders').click()
    const nav = page.getByRole('navigation', { name: 'Account' })
    await expect(nav.getByRole('link')).toHaveText(ACCOUNT_PAGES)
    await nav.getByRole('link', { name: 'Wishlist' }).click()
    await expect(page).toHaveURL(`${app.url}/dashboard/wishlist`)

    await page.getByLabel(/^Profile menu/).click()
    const profile = page.getByRole('list', { name: 'Profile' })
    await expect(profile.getByRole('link')).toHaveText(ACCOUNT_PAGES)
    await page.getByRole('button', { name: 'Logout' }).click()
    await expect(page).toHaveURL(`${app.url}/`)
  })
})

test('Skip to content is the first stop of the keyboard in the customer area and lands on the page', async ({
  page,
  app,
}) => {
  const cookie = await signUpConfirmed(app.url, app, {
    name: 'Key Board',
    email: uniqueEmail('keys'),
    password: PASSWORD,
  })
  await signIn(page.context(), app.url, cookie)
  await gotoHydrated(page, '/dashboard/orders')
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Skip to content' })
  await expect(skip).toBeFocused()
  await expect(skip).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(`${app.url}/dashboard/orders#main`)
  await expect(page.getByRole('main')).toBeFocused()
})

test('the phone menus: account pages behind one button, the profile menu with every page and Logout', async ({
  page,
  app,
}) => {
  await signedInOnPhone(page, app, 'Menu Person', uniqueEmail('menu'))
  await gotoHydrated(page, '/dashboard')
  await page.getByLabel('Account menu: Dashboard').click()
  await screenshotWidthsAndThemes(page, 'account-menu-open')
  await page.setViewportSize({ width: 390, height: 800 })
  await gotoHydrated(page, '/dashboard')
  await page.getByLabel('Account menu: Dashboard').click()
  await page
    .getByRole('navigation', { name: 'Account' })
    .getByRole('link', { name: 'My Orders' })
    .click()
  await expect(page).toHaveURL(`${app.url}/dashboard/orders`)
  // The page changed: the menu closed, its button names the new page.
  await expect(page.getByRole('navigation', { name: 'Account' })).toBeHidden()
  await expect(page.getByLabel('Account menu: My Orders')).toBeVisible()

  await page.getByLabel(/^Profile menu: Menu Person/).click()
  await page.getByRole('list', { name: 'Profile' }).getByRole('link', { name: 'Wishlist' }).click()
  await expect(page).toHaveURL(`${app.url}/dashboard/wishlist`)
  await expect(page.getByRole('list', { name: 'Profile' })).toBeHidden()
})

test.describe('back in stock', () => {
  let smtp: TestSmtpServer
  let shop: RunningApp
  test.beforeAll(async () => {
    smtp = await startSmtpServer()
    shop = await startApp({ env: { SMTP_URL: smtp.url, TRUST_PROXY: 'loopback' } })
  })
  test.afterAll(async () => {
    await shop?.dispose()
    // The restarted server was given its data directory, so dispose() leaves it.
    if (shop) fs.rmSync(shop.dataDir, { recursive: true, force: true })
    await smtp?.close()
  })

  test('a wished-for product back in stock sends one e-mail, read from SMTP', async () => {
    const email = uniqueEmail('waiting')
    const cookie = await signUpConfirmed(shop.url, smtp, {
      name: 'Waiting Buyer',
      email,
      password: PASSWORD,
    })
    const db = openAppDatabase(shop)
    try {
      await db
        .updateTable('product')
        .set({ inStock: 0 })
        .where('slug', '=', CINENOVA.slug)
        .execute()
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
      const page = await fetch(`${shop.url}/dashboard/wishlist`, { headers: { cookie } })
      expect(await page.text()).toContain('Out of stock')

      await db
        .updateTable('product')
        .set({ inStock: 1 })
        .where('slug', '=', CINENOVA.slug)
        .execute()
      // The background work checks wished-for products at start-up and then every minute
      // (app/services/background.server.ts): a restart on the same data stands in for that minute.
      await shop.stop()
      shop = await startApp({
        dataDir: shop.dataDir,
        port: shop.port,
        env: { SMTP_URL: smtp.url, TRUST_PROXY: 'loopback' },
      })
      const restock = () =>
        smtp.mails.filter((mail) => mail.subject === `Back in stock: ${CINENOVA.title}`)
      await expect.poll(() => restock().length, { timeout: 30_000, intervals: [500] }).toBe(1)
      const [mail] = restock()
      expect(mail!.to).toContain(email)
      expect(mail!.text).toContain('Hello Waiting Buyer,')
      expect(mail!.text).toContain(`/product/${CINENOVA.slug}`)
      expect(mail!.text).toContain('₹699')
      // It says where to switch it off: per product on the wishlist, or all such mail in the settings.
      expect(mail!.text).toContain(`${shop.url}/dashboard/wishlist, or with reminders and offers`)

      // With reminders and offers off, the wishlist says so instead of promising a mail.
      const user = await db
        .selectFrom('user')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
      await savePreferences(db, user.id, { notifications: false })
      await expect
        .poll(
          async () =>
            (
              await (await fetch(`${shop.url}/dashboard/wishlist`, { headers: { cookie } })).text()
            ).replace(/<!-- -->/g, ''),
          { timeout: 5_000 },
        )
        .toContain('Back-in-stock e-mails are off, with reminders and offers, in your')
    } finally {
      await db.destroy()
    }
  })
})
