import crypto from 'node:crypto'
import type { Browser, Page } from '@playwright/test'
import { listAuditEntries } from '~/data/audit.server'
import { getOrder } from '~/data/order.server'
import { adminTest } from '../helpers/admin'
import { confirmationPath } from '../helpers/mailbox'
import { pdfText } from '../helpers/pdf'
import { makePaidOrder, makeProduct } from '../factories'
import { expect, gotoHydrated, testClientAddress } from '../helpers/fixtures'
import { payAtGateway, postCallback } from '../helpers/shop'

/**
 * The admin Settings page in the production build: a save is checked, recorded and applied on
 * the storefront (site name, WhatsApp number, GSTIN and prefix on a new invoice); closing
 * registration refuses sign-up; maintenance mode closes the shop to visitors with a 503 while a
 * gateway callback still lands and the admin still browses. Navigation: every section is a link,
 * unknown admin paths get a not-found page inside the shell.
 */
const OWNER = { name: 'Shop Owner', email: 'owner.settings@example.test', password: 'secret12' }
const PRODUCT = { slug: 'streamverse-premium-12-months', price: '₹1,499' }

/** Listed in ADMIN_EMAILS beside the owner, without an account yet. */
const LISTED_LATER = 'listed.later@example.test'

const { test, logIn } = adminTest(OWNER)
test.use({ appEnv: { ADMIN_EMAILS: `${OWNER.email},${LISTED_LATER}` } })
// Each test signs in and saves through the UI; generous on a shared, busy machine.
test.describe.configure({ timeout: 240_000 })

async function visitor(browser: Browser, baseURL: string) {
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': testClientAddress() },
  })
  return { context, page: await context.newPage() }
}

async function openTab(page: Page, tab: string) {
  await gotoHydrated(page, '/admin/settings')
  await page
    .getByRole('navigation', { name: 'Settings sections' })
    .getByRole('link', { name: tab })
    .click()
  await expect(page.getByRole('heading', { level: 2, name: tab })).toBeVisible()
}

async function save(page: Page) {
  const posted = page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' &&
      new URL(response.url()).pathname.startsWith('/admin/settings'),
  )
  await page.getByRole('button', { name: 'Save settings' }).click()
  await posted
  // On a slow machine the toast of an earlier save may still be showing beside this one's.
  await expect(page.getByText('Settings saved').last()).toBeVisible()
}

test('navigation: every section is a link, Payment Links has its title, unknown paths stay in the shell', async ({
  page,
}) => {
  await logIn(page)
  await gotoHydrated(page, '/admin/payment-links')
  const nav = page.getByRole('navigation', { name: 'Admin' })
  for (const [label, href] of [
    ['Dashboard', '/admin/dashboard'],
    ['Transactions', '/admin/transactions'],
    ['Users', '/admin/users'],
    ['Payment Links', '/admin/payment-links'],
    ['Audit log', '/admin/audit'],
    ['Settings', '/admin/settings'],
  ]) {
    await expect(nav.getByRole('link', { name: label, exact: true })).toHaveAttribute('href', href!)
  }
  await expect(nav.getByText('Soon')).toHaveCount(0)
  await expect(nav.getByRole('link', { name: 'Payment Links' })).toHaveAttribute(
    'aria-current',
    'page',
  )
  await expect(page.getByRole('banner').getByText('Payment Links', { exact: true })).toBeVisible()

  await page
    .getByRole('banner')
    .getByRole('button', { name: /Account menu/ })
    .click()
  await expect(page.getByRole('menuitem', { name: 'Profile Settings' })).toHaveAttribute(
    'href',
    '/dashboard/settings',
  )
  await page.getByRole('menuitem', { name: 'Admin Settings' }).click()
  await expect(page).toHaveURL('/admin/settings')

  const response = await page.goto('/admin/no-such-page')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Settings' })).toBeVisible()
  // The sidebar reaches the bottom of the window.
  const sidebar = page.locator('aside').first()
  const box = await sidebar.boundingBox()
  expect(box!.height).toBeGreaterThanOrEqual(page.viewportSize()!.height - 1)
})

test('saved settings are checked, recorded and shown on the storefront and on a new invoice', async ({
  page,
  browser,
  baseURL,
  db,
}) => {
  await logIn(page)
  await openTab(page, 'General')
  const siteName = `Deal Keys ${crypto.randomBytes(2).toString('hex')}`
  await page.getByLabel('Site name').fill(siteName)
  await page.getByLabel('WhatsApp number').fill('91 98123 45678')
  await page.getByLabel('Seller legal name').fill('Deal Keys Traders Pvt Ltd')
  await page.getByLabel('GSTIN').fill('29ABCDE1234')
  await page.getByLabel('Invoice number prefix').fill('DK')
  await expect(page.getByLabel('GST rate (%)')).toHaveValue('18')
  await page.getByLabel('GST rate (%)').fill('50')
  await page.getByLabel('SAC code').fill('99843')
  await page.getByRole('button', { name: 'Save settings' }).click()
  // A wrong GSTIN, rate and SAC: the messages under the fields, nothing saved.
  await expect(
    page.getByText('Enter a valid 15-character GSTIN (e.g. 29ABCDE1234F1Z5)'),
  ).toBeVisible()
  await expect(
    page.getByText('Enter the GST rate in per cent, above 0 and at most 40 (e.g. 18)'),
  ).toBeVisible()
  await expect(
    page.getByText('Enter a SAC or HSN code of 4, 6 or 8 digits (e.g. 998434), or leave it empty'),
  ).toBeVisible()
  await expect(page.getByText('Settings saved')).toHaveCount(0)
  await page.getByLabel('GSTIN').fill('29abcde1234f1z5')
  await page.getByLabel('GST rate (%)').fill('5')
  await page.getByLabel('SAC code').fill('998434')
  await save(page)
  await expect(page.getByLabel('GSTIN')).toHaveValue('29ABCDE1234F1Z5')
  await expect(page.getByLabel('GST rate (%)')).toHaveValue('5')
  await expect(page.getByLabel('WhatsApp number')).toHaveValue('919812345678')

  const { entries } = await listAuditEntries(db, { targetType: 'settings' })
  expect(entries[0]).toMatchObject({
    action: 'settings.update',
    actorEmail: OWNER.email,
    changes: expect.objectContaining({
      siteName: { before: expect.any(String), after: siteName },
      sellerGstin: { before: '', after: '29ABCDE1234F1Z5' },
      gstRate: { before: 18, after: 5 },
      sacCode: { before: '', after: '998434' },
    }),
  })

  // A visitor sees the new name and WhatsApp number, and their invoice carries the GSTIN.
  const buyer = await visitor(browser, baseURL!)
  await buyer.page.goto('/')
  await expect(buyer.page).toHaveTitle(new RegExp(siteName))
  await expect(
    buyer.page
      .getByRole('contentinfo')
      .getByRole('link', { name: /WhatsApp/ })
      .first(),
  ).toHaveAttribute('href', /wa\.me\/919812345678/)
  await buyer.page.goto(`/checkout/${PRODUCT.slug}`)
  await buyer.page.getByLabel('Full name').fill('Ravi Kumar')
  await buyer.page
    .getByLabel('Email')
    .fill(`ravi.${crypto.randomBytes(3).toString('hex')}@example.test`)
  await buyer.page.getByLabel('Phone number').fill('9876543210')
  await buyer.page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
  await buyer.page.getByRole('button', { name: 'Simulate success' }).click()
  await expect(buyer.page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!')
  const orderId = new URL(buyer.page.url()).searchParams.get('ORDERID')!
  const invoice = await buyer.page.request.get(`/orders/${orderId}/invoice.pdf`)
  expect(invoice.status()).toBe(200)
  const text = pdfText(await invoice.body())
  expect(text).toContain('GSTIN: 29ABCDE1234F1Z5')
  expect(text).toContain('Deal Keys Traders Pvt Ltd')
  // Bought through the simulator: a test invoice, outside the shop's numbered series.
  expect(text).toContain('Test invoice')
  expect(text).toContain('Invoice number: TEST (not numbered)')
  await buyer.context.close()
  // A real sale's invoice is numbered with the new prefix (the owner may open any order's).
  const sale = await makePaidOrder(db, (await makeProduct(db)).id)
  const real = pdfText(await (await page.request.get(`/orders/${sale.id}/invoice.pdf`)).body())
  expect(real).toContain('Tax Invoice')
  expect(real).toMatch(/Invoice number: DK\/\d{2}-\d{2}\/\d{5}/)
  // Prices include GST at the saved rate; the seller's state is the place of supply.
  expect(real).toContain('Place of supply: Karnataka (29)')
  expect(real).toContain('\u00b7 SAC 998434 \u00b7 Qty 1')
  expect(real).toContain('CGST @ 2.5%')
  expect(real).toContain('SGST @ 2.5%')
})

test('with registration closed, sign-up is refused with a clear message', async ({
  page,
  browser,
  baseURL,
  app,
}) => {
  await logIn(page)
  await openTab(page, 'Security')
  await page.getByLabel('Allow new accounts').uncheck()
  await save(page)
  await expect(page.getByLabel('Allow new accounts')).not.toBeChecked()

  const someone = await visitor(browser, baseURL!)
  await someone.page.goto('/signup')
  await someone.page.getByLabel('Full name').fill('New Person')
  await someone.page
    .getByLabel('Email')
    .fill(`new.${crypto.randomBytes(3).toString('hex')}@example.test`)
  await someone.page.getByLabel('Password', { exact: true }).fill('secret12')
  await someone.page.getByLabel('Confirm password').fill('secret12')
  await someone.page.getByRole('button', { name: 'Create account' }).click()
  await expect(someone.page.getByText('New registrations are currently closed.')).toBeVisible()
  await someone.context.close()

  // An address in ADMIN_EMAILS is answered the same, so the form tells nobody who the admins
  // are; its owner still gets the confirmation link.
  const signUp = async (email: string) => {
    const response = await fetch(`${baseURL}/signup`, {
      method: 'POST',
      body: new URLSearchParams({
        name: 'Some One',
        email,
        password: 'secret12',
        confirmPassword: 'secret12',
      }),
      headers: { 'X-Forwarded-For': testClientAddress() },
      redirect: 'manual',
    })
    return {
      status: response.status,
      message: /New registrations[^<]*/.exec(await response.text())?.[0],
    }
  }
  const stranger = await signUp(`new.${crypto.randomBytes(3).toString('hex')}@example.test`)
  expect(stranger).toEqual({ status: 403, message: 'New registrations are currently closed.' })
  expect(await signUp(LISTED_LATER)).toEqual(stranger)
  expect(await confirmationPath(app, LISTED_LATER)).toMatch(/^\/verify-email\?token=/)

  await page.getByLabel('Allow new accounts').check()
  await save(page)
})

test('maintenance mode: visitors get 503 with Retry-After, a payment callback still lands, the admin browses', async ({
  page,
  browser,
  baseURL,
  db,
}) => {
  // A buyer is at the gateway when the owner closes the shop.
  const { orderId, callback } = await payAtGateway(baseURL!, PRODUCT.slug, 7001)

  await logIn(page)
  await openTab(page, 'System')
  await page.getByLabel('Maintenance mode').check()
  await save(page)
  await expect(page.getByText('Maintenance mode is on.')).toBeVisible()

  const home = await fetch(`${baseURL}/`, { headers: { 'X-Forwarded-For': testClientAddress() } })
  expect(home.status).toBe(503)
  expect(home.headers.get('retry-after')).toBe('600')
  expect(await home.text()).toContain('back soon')
  const lateCheckout = (path: string) =>
    fetch(`${baseURL}${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Forwarded-For': testClientAddress(),
      },
      body: new URLSearchParams({
        name: 'Late Buyer',
        email: 'late@example.test',
        phone: '9876543210',
      }),
    })
  expect((await lateCheckout(`/checkout/${PRODUCT.slug}`)).status).toBe(503)
  // Nor as a data request, the way a page opened before the shop closed sends it (the payment
  // dialog's post, and its load of the checkout form, which runs no root loader).
  const dataPost = await lateCheckout(`/checkout/${PRODUCT.slug}.data`)
  expect(dataPost.status).toBe(503)
  const dialogLoad = await fetch(
    `${baseURL}/checkout/${PRODUCT.slug}.data?_routes=routes%2Fcheckout%2Fcheckout`,
    { headers: { 'X-Forwarded-For': testClientAddress() } },
  )
  expect(dialogLoad.status).toBe(503)
  expect(await dialogLoad.text()).toBe(
    'The shop is closed for maintenance. Please try again in a few minutes.',
  )
  // Staff can still reach the sign-in page.
  expect((await fetch(`${baseURL}/login`)).status).toBe(200)

  // The gateway's callback for the payment under way is accepted and the order is paid.
  const status = await postCallback(baseURL!, callback)
  expect([200, 302, 303]).toContain(status)
  await expect
    .poll(async () => (await getOrder(db, orderId))?.status)
    .toMatch(/paid|delivered|completed/)

  // What the buyer bought stays reachable: the order page their mail links to answers (asking
  // for the mailed link, to someone without it) instead of the maintenance page.
  const orderPage = await fetch(`${baseURL}/orders/${orderId}`, {
    headers: { 'X-Forwarded-For': testClientAddress() },
  })
  expect(orderPage.status).not.toBe(503)
  expect(await orderPage.text()).not.toContain('back soon')

  // A visitor in the browser sees the maintenance page; the admin browses the shop with a banner.
  const someone = await visitor(browser, baseURL!)
  const seen = await someone.page.goto(`/product/${PRODUCT.slug}`)
  expect(seen?.status()).toBe(503)
  await expect(someone.page.getByRole('heading', { name: "We'll be back soon" })).toBeVisible()
  await someone.context.close()
  const mine = await page.goto('/')
  expect(mine?.status()).toBe(200)
  await expect(
    page.getByText('Maintenance mode is on: visitors see the maintenance page.'),
  ).toBeVisible()

  await openTab(page, 'System')
  await page.getByLabel('Maintenance mode').uncheck()
  await save(page)
  expect(
    (await fetch(`${baseURL}/`, { headers: { 'X-Forwarded-For': testClientAddress() } })).status,
  ).toBe(200)
})
