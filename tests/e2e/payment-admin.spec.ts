import path from 'node:path'
import SQLite from 'better-sqlite3'
import type { Page } from '@playwright/test'
import { formatRupees } from '~/lib/money'
import { readSiteSettings, updateSiteSettings } from '~/data/settings.server'
import { openAppDatabase } from '../factories'
import { screenshotWidthsAndThemes } from '../helpers/screenshots'
import { startApp, type RunningApp } from '../helpers/app'
import { expect, gotoHydrated, test as base } from '../helpers/fixtures'
import { signUpInBrowser, waitForMail } from '../helpers/mailbox'
import { pdfText } from '../helpers/pdf'
import { openAddGatewayForm } from '../helpers/payments'

/**
 * The back office of payments: the Gateways page and
 * payment links, in the production build with the built-in simulator.
 */
const OWNER = 'owner@example.test'
const PRODUCT = {
  slug: 'streamverse-premium-12-months',
  title: 'StreamVerse Premium 12 Months',
  price: '₹1,499',
}
const MERCHANT_KEY = 'Zq7#Tt2!Lm9@Pw4$'

const test = base.extend<object, { app: RunningApp }>({
  app: [
    // eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring form
    async ({}, use) => {
      const app = await startApp({ env: { ADMIN_EMAILS: OWNER } })
      await use(app)
      await app.dispose()
    },
    { scope: 'worker', timeout: 90_000 },
  ],
})

async function signUp(page: Page, app: RunningApp, name: string, email: string) {
  await signUpInBrowser(page, app, { name, email, password: 'secret12' })
}

async function logIn(page: Page, email: string) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill('secret12')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL('/')
}

function paytmCard(page: Page) {
  return page
    .getByRole('list', { name: 'Gateways' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'Paytm' }) })
}

test.describe.serial('payments back office', () => {
  test('the admin pages are for admins only, and payment links need Can Manage Orders', async ({
    page,
    app,
  }) => {
    for (const path of ['/admin/gateways', '/admin/payment-links']) {
      await page.goto(path)
      await expect(page).toHaveURL(`/?login=1&redirectTo=${encodeURIComponent(path)}`)
    }
    await signUp(page, app, 'Curious Customer', 'curious@example.test')
    for (const path of ['/admin/gateways', '/admin/payment-links']) {
      const response = await page.goto(path)
      expect(response?.status()).toBe(403)
      await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible()
    }
    // An action is guarded on its own, not only by the page.
    const post = await page.request.post('/admin/gateways', {
      form: { mode: 'add', type: 'stripe', name: 'Stripe', status: 'active' },
      maxRedirects: 0,
    })
    expect(post.status()).toBe(403)
    await page.context().clearCookies()
    await signUp(page, app, 'Shop Owner', OWNER)
  })

  test('the default Paytm gateway appears, with transactions and revenue from real orders', async ({
    page,
    app,
  }) => {
    // A purchase in test mode first.
    await page.goto(`/checkout/${PRODUCT.slug}`)
    await page.getByLabel('Full name').fill('Asha Verma')
    await page.getByLabel('Email').fill('asha@example.test')
    await page.getByLabel('Phone number').fill('9876543210')
    await page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
    await page.getByRole('button', { name: 'Simulate success' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!')

    await logIn(page, OWNER)
    await page.goto('/admin/gateways')
    await expect(page.getByRole('heading', { name: 'Payment Gateways' })).toBeVisible()
    // One test-mode banner (the page's own, instead of the admin shell's): no real money moves,
    // and real stock is not sold.
    const testMode = page.getByRole('note').filter({ hasText: 'Test mode' })
    await expect(testMode).toHaveCount(1)
    await expect(testMode).toHaveAccessibleName('Test mode')
    await expect(testMode).toContainText('no real money moves and real stock is not sold')
    // A fresh shop offers all three simulators, Paytm first; only Paytm has a record.
    const offer = page.getByRole('region', { name: 'At checkout now' })
    await expect(offer.getByRole('listitem')).toHaveText([
      /^1\.UPI, cards, wallet — PaytmBuilt-in simulator$/,
      /^2\.UPI, cards, netbanking — RazorpayBuilt-in simulator$/,
      /^3\.UPI, cards, netbanking — PhonePeBuilt-in simulator$/,
    ])
    await expect(offer).toContainText('Buyers pick one of these, in this order.')
    const card = paytmCard(page)
    await expect(card.getByText('Checkout position 1 of 3')).toBeVisible()
    await expect(card.getByText('Testing', { exact: true })).toBeVisible()
    await expect(card.getByText('staging', { exact: true })).toBeVisible()
    await expect(card.getByText('WEBSTAGING')).toBeVisible()
    await expect(card.getByText('Not set')).toBeVisible()
    // This purchase and the demo seed's fictional ones (services/seed): all test mode.
    const db = openAppDatabase(app)
    const paid = await db
      .selectFrom('order')
      .select(['amount', 'testMode'])
      .where('gateway', '=', 'paytm')
      .where('status', 'in', ['paid', 'delivered', 'awaiting_stock'])
      .execute()
    await db.destroy()
    expect(paid.length).toBeGreaterThan(1)
    expect(paid.every((order) => order.testMode === 1)).toBe(true)
    const paise = paid.reduce((sum, order) => sum + Number(order.amount), 0)
    // Real payments and test ones apart: none of them real.
    const figures = card.locator('dl').first()
    await expect(figures.getByRole('definition')).toHaveText([
      '₹0',
      '0 transactions',
      formatRupees(paise),
      `${paid.length} transactions, no real money`,
    ])
    // The other two simulators have cards of their own, with their figures and Set up.
    for (const name of ['Razorpay', 'PhonePe']) {
      const simulator = page
        .getByRole('list', { name: 'Gateways' })
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name }) })
      await expect(simulator.getByText('Built-in simulator', { exact: true })).toBeVisible()
      await expect(simulator.getByText('Real payments', { exact: true })).toBeVisible()
      await expect(simulator.getByRole('link', { name: `Set up ${name}` })).toHaveAttribute(
        'href',
        `/admin/gateways?add=${name.toLowerCase()}`,
      )
    }
    await screenshotWidthsAndThemes(page, 'gateways-fresh')
  })

  test('an admin creates a payment link; a tampered amount is refused; the link is paid once', async ({
    page,
    app,
  }) => {
    await logIn(page, OWNER)
    await page.goto('/admin/payment-links')
    await page.getByLabel('Product').selectOption({ label: `${PRODUCT.title} (${PRODUCT.price})` })
    await page.getByLabel('Amount in rupees').fill('999')
    await page.getByLabel('Customer name').fill('Rohan Mehta')
    await page.getByLabel('Customer email').fill('rohan@example.test')
    await page.getByLabel('Customer phone').fill('9988776655')
    await page.getByRole('button', { name: 'Create Payment Link' }).click()
    const created = page.getByRole('status').getByRole('link')
    await expect(created).toHaveText(
      /\/payment\/pay\?order=ORD_\d+_\d+&amount=999\.00&product=\w+$/,
    )
    const linkUrl = new URL((await created.textContent())!)
    // "E-mail the link to the customer" is ticked to begin with: the link goes out by mail (this
    // shop has no SMTP_URL, so into its outbox folder).
    await expect(
      page.getByRole('status').filter({ hasText: 'Payment link created' }),
    ).toContainText('It is on its way to rohan@example.test by e-mail.')
    const mail = await waitForMail(app, 'rohan@example.test', (received) =>
      received.text.includes(linkUrl.href),
    )
    expect(mail.text).toContain(`Here is your link to pay ₹999 for ${PRODUCT.title}.`)
    // Its row offers to send it on WhatsApp, the link and amount in the message.
    const row = page.getByRole('row').filter({ hasText: linkUrl.searchParams.get('order')! })
    const send = new URL(
      (await row.getByRole('link', { name: /Send on WhatsApp/ }).getAttribute('href'))!,
    )
    expect(send.origin + send.pathname).toBe('https://wa.me/919988776655')
    expect(send.searchParams.get('text')).toBe(
      `Hello Rohan Mehta, please pay ₹999 for ${PRODUCT.title} at KeyBazaar with this link: ${linkUrl.href}`,
    )
    await screenshotWidthsAndThemes(page, 'links')
    // The table scrolls inside its card; the page itself never scrolls sideways.
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width)
    }
    await page.setViewportSize({ width: 1280, height: 720 })

    const tampered = new URL(linkUrl)
    tampered.searchParams.set('amount', '1.00')
    await page.goto(tampered.pathname + tampered.search)
    // An altered link is answered as an unknown one: an order id alone tells a guesser nothing.
    await expect(page.getByRole('alert')).toHaveText(
      'This payment link is not valid. Please check the link or contact us.',
    )
    await expect(page.getByRole('button', { name: /^Pay/ })).toHaveCount(0)
    const otherProduct = new URL(linkUrl)
    otherProduct.searchParams.set('product', 'someone-else')
    await page.goto(otherProduct.pathname + otherProduct.search)
    await expect(page.getByRole('alert')).toHaveText(
      'This payment link is not valid. Please check the link or contact us.',
    )

    await page.goto(linkUrl.pathname + linkUrl.search)
    await expect(page.getByRole('heading', { name: 'Complete your payment' })).toBeVisible()
    await expect(page.getByText('Rohan Mehta')).toBeVisible()
    // The shop's ways to pay are offered as at checkout (here its three simulators).
    await expect(page.getByRole('note').filter({ hasText: 'Test mode' })).toContainText('Razorpay')
    const choice = page.getByRole('group', { name: 'Pay with' })
    await expect(choice.getByRole('radio')).toHaveCount(3)
    await choice.getByRole('radio', { name: /Razorpay/ }).check()
    await page.getByRole('button', { name: 'Pay ₹999' }).click()
    await expect(page.getByText('Razorpay simulator — test mode, no real money')).toBeVisible()
    await expect(page.getByText('₹999', { exact: true })).toBeVisible()
    await page.getByRole('button', { name: 'Simulate success' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!')
    // The first attempt carries the link's order id.
    await expect(page).toHaveURL(`/payment/callback?ORDERID=${linkUrl.searchParams.get('order')}`)
    await expect(page.getByRole('main').locator('dl').getByText('₹999')).toBeVisible()

    await page.goto(linkUrl.pathname + linkUrl.search)
    await expect(page.getByRole('alert')).toHaveText('This payment link has already been paid.')
    await page.goto('/admin/payment-links')
    await expect(
      page
        .getByRole('row')
        .filter({ hasText: linkUrl.searchParams.get('order')! })
        .getByText('paid'),
    ).toBeVisible()
  })

  test('a payment link made out to a business: all its details or none, and its invoice names it', async ({
    page,
    app,
  }) => {
    await logIn(page, OWNER)
    await page.goto('/admin/payment-links')
    const fillCustomer = async () => {
      await page
        .getByLabel('Product')
        .selectOption({ label: `${PRODUCT.title} (${PRODUCT.price})` })
      await page.getByLabel('Customer name').fill('Kavya Rao')
      await page.getByLabel('Customer email').fill('kavya@example.test')
      await page.getByLabel('Customer phone').fill('9988770011')
    }
    await fillCustomer()
    // A GSTIN alone, with a typo in its check character: each field says what it lacks.
    await page.getByLabel('GSTIN').fill('27AAPFU0939F1ZW')
    await page.getByRole('button', { name: 'Create Payment Link' }).click()
    const business = page.getByRole('group', { name: 'Invoice to a business (optional)' })
    await expect(
      business.getByText("Enter the business's legal name, as on its GST registration"),
    ).toBeVisible()
    await expect(
      business.getByText(
        "This GSTIN's last character does not match the others: check it for a typo",
      ),
    ).toBeVisible()
    await expect(
      business.getByText("Enter the business's address, as on its GST registration"),
    ).toBeVisible()
    await expect(page.getByRole('status').getByRole('link')).toHaveCount(0)
    await screenshotWidthsAndThemes(page, 'link-business')
    await page.setViewportSize({ width: 1280, height: 720 })

    await business.getByLabel('Legal name').fill('Udyam Software Private Limited')
    // The shop's own GSTIN, pasted by mistake, is refused.
    const db = openAppDatabase(app)
    try {
      const { sellerGstin } = await readSiteSettings(db)
      await updateSiteSettings(db, { sellerGstin: '29AAGCB7383J1Z4' })
      await business.getByLabel('GSTIN').fill('29AAGCB7383J1Z4')
      await business.getByLabel('Business address').fill('Nariman Point, Mumbai 400021')
      await page.getByRole('button', { name: 'Create Payment Link' }).click()
      await expect(
        business.getByText("This is the shop's own GSTIN: enter the buyer's business GSTIN"),
      ).toBeVisible()
      await updateSiteSettings(db, { sellerGstin })
    } finally {
      await db.destroy()
    }
    await expect(page.getByRole('status').getByRole('link')).toHaveCount(0)
    await business.getByLabel('GSTIN').fill('27aapfu0939f1zv')
    await business.getByLabel('Business address').fill('Nariman Point, Mumbai 400021')
    await page.getByRole('button', { name: 'Create Payment Link' }).click()
    const created = page.getByRole('status').getByRole('link')
    await expect(created).toBeVisible()
    const linkUrl = new URL((await created.textContent())!)
    const orderId = linkUrl.searchParams.get('order')!
    await expect(
      page
        .getByRole('row')
        .filter({ hasText: orderId })
        .getByText('Invoice to Udyam Software Private Limited (GSTIN 27AAPFU0939F1ZV)'),
    ).toBeVisible()

    // The buyer sees whom the invoice names, pays, and the invoice names the business.
    await page.goto(linkUrl.pathname + linkUrl.search)
    await expect(
      page.getByText('Udyam Software Private Limited, GSTIN 27AAPFU0939F1ZV'),
    ).toBeVisible()
    await page
      .getByRole('group', { name: 'Pay with' })
      .getByRole('radio', { name: /Razorpay/ })
      .check()
    await page.getByRole('button', { name: 'Pay ₹1,499' }).click()
    await page.getByRole('button', { name: 'Simulate success' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!')
    const invoice = await page.request.get(`/orders/${orderId}/invoice.pdf`)
    expect(invoice.status()).toBe(200)
    const text = pdfText(await invoice.body())
    expect(text).toContain('Udyam Software Private Limited')
    expect(text).toContain('GSTIN: 27AAPFU0939F1ZV')
    expect(text).toContain('Bought by: Kavya Rao')
  })

  test('a payment link is only for a product in stock, and its page says when it sold out', async ({
    page,
    app,
  }) => {
    await logIn(page, OWNER)
    const db = openAppDatabase(app)
    try {
      const product = await db
        .selectFrom('product')
        .select(['id', 'title'])
        .where('slug', '=', 'podstack-premium-1-year')
        .executeTakeFirstOrThrow()
      await page.goto('/admin/payment-links')
      await page.getByLabel('Product').selectOption(product.id)
      await page.getByLabel('Customer name').fill('Isha Nair')
      await page.getByLabel('Customer email').fill('isha@example.test')
      await page.getByLabel('Customer phone').fill('9876501234')
      await page.getByRole('button', { name: 'Create Payment Link' }).click()
      const linkUrl = new URL((await page.getByRole('status').getByRole('link').textContent())!)

      // Its last items go (sold elsewhere, or revoked by the owner).
      await db
        .updateTable('stockItem')
        .set({ status: 'revoked' })
        .where('productId', '=', product.id)
        .where('status', '=', 'available')
        .execute()

      // The buyer is told instead of being offered a payment that would be refused.
      await page.goto(linkUrl.pathname + linkUrl.search)
      await expect(page.getByRole('heading', { name: 'Complete your payment' })).toBeVisible()
      await expect(page.getByRole('alert')).toHaveText('This product is out of stock.')
      await expect(page.getByRole('button', { name: /^Pay/ })).toHaveCount(0)

      // The form no longer offers it, and a post naming it anyway is refused with the reason.
      await page.goto('/admin/payment-links')
      await expect(page.getByLabel('Product').locator(`option[value="${product.id}"]`)).toHaveCount(
        0,
      )
      const refused = await page.request.post('/admin/payment-links', {
        form: {
          // The form's one-time key, as the page made it.
          key: await page.locator('input[name="key"]').inputValue(),
          productId: product.id,
          name: 'Isha Nair',
          email: 'isha@example.test',
          phone: '9876501234',
        },
      })
      expect(refused.status()).toBe(409)
      expect(await refused.text()).toContain('This product is out of stock.')
      const links = await db
        .selectFrom('paymentLink')
        .select('id')
        .where('productId', '=', product.id)
        .execute()
      expect(links).toHaveLength(1)
    } finally {
      await db.destroy()
    }
  })

  test('an admin cancels a payment link: asked first, cancelled once, and the link takes no payment', async ({
    page,
    app,
  }) => {
    await logIn(page, OWNER)
    // Hydrated: Cancel asks in the app's dialog.
    await gotoHydrated(page, '/admin/payment-links')
    await page.getByLabel('Product').selectOption({ label: `${PRODUCT.title} (${PRODUCT.price})` })
    await page.getByLabel('Customer name').fill('Neha Kapoor')
    await page.getByLabel('Customer email').fill('neha@example.test')
    await page.getByLabel('Customer phone').fill('9988771122')
    await page.getByRole('button', { name: 'Create Payment Link' }).click()
    const created = page.getByRole('status').getByRole('link')
    await expect(created).toBeVisible()
    const linkUrl = new URL((await created.textContent())!)
    const orderId = linkUrl.searchParams.get('order')!
    // Made: the form is empty again, ready for the next link.
    await expect(page.getByLabel('Customer name')).toHaveValue('')
    await expect(page.getByLabel('Customer email')).toHaveValue('')
    const row = page.getByRole('row').filter({ hasText: orderId })
    await expect(row.getByText('active', { exact: true })).toBeVisible()
    await expect(row.getByRole('link', { name: /Send on WhatsApp/ })).toBeVisible()

    // Asked first: keeping the link changes nothing.
    const cancel = row.getByRole('button', { name: `Cancel link for ${orderId}` })
    await cancel.click()
    const dialog = page.getByRole('alertdialog', { name: 'Cancel payment link?' })
    await expect(dialog).toContainText(
      `The link for ${PRODUCT.price} (order ${orderId}) sent to Neha Kapoor <neha@example.test> stops taking payments.`,
    )
    await dialog.getByRole('button', { name: 'Keep link' }).click()
    await expect(dialog).toBeHidden()
    await expect(row.getByText('active', { exact: true })).toBeVisible()
    await screenshotWidthsAndThemes(page, 'payment-links-active')

    await cancel.click()
    await dialog.getByRole('button', { name: 'Cancel link' }).click()
    await expect(page.getByRole('status').getByText('Payment link cancelled.')).toBeVisible()
    await expect(row.getByText('cancelled', { exact: true })).toBeVisible()
    await expect(row.getByRole('button', { name: /Cancel link/ })).toHaveCount(0)
    await expect(row.getByRole('link', { name: /Send on WhatsApp/ })).toHaveCount(0)

    const db = openAppDatabase(app)
    try {
      const link = await db
        .selectFrom('paymentLink')
        .select(['id', 'status'])
        .where('orderId', '=', orderId)
        .executeTakeFirstOrThrow()
      expect(link.status).toBe('cancelled')
      const audit = await db
        .selectFrom('auditLog')
        .select(['actorEmail', 'summary'])
        .where('action', '=', 'payment-link.cancel')
        .where('targetId', '=', link.id)
        .execute()
      expect(audit).toHaveLength(1)
      expect(audit[0]).toMatchObject({ actorEmail: OWNER })
      expect(audit[0]!.summary).toContain(`(order ${orderId})`)

      // A second cancel (another admin, an old tab) is told so, and recorded no second time.
      const again = await page.request.post('/admin/payment-links', {
        form: { intent: 'cancel', id: link.id, confirmed: 'yes' },
      })
      expect(again.status()).toBe(409)
      expect(await again.text()).toContain('This payment link is already cancelled.')
      const entries = await db
        .selectFrom('auditLog')
        .select('id')
        .where('action', '=', 'payment-link.cancel')
        .where('targetId', '=', link.id)
        .execute()
      expect(entries).toHaveLength(1)
    } finally {
      await db.destroy()
    }

    // The customer's link now says it is over, with nothing to pay.
    const response = await page.goto(linkUrl.pathname + linkUrl.search)
    expect(response?.status()).toBe(410)
    await expect(page.getByRole('alert')).toHaveText('This payment link is no longer active.')
    await expect(page.getByRole('button', { name: /^Pay/ })).toHaveCount(0)
  })

  test('without JavaScript, Cancel link asks on the page first, and Keep link changes nothing', async ({
    browser,
    app,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL: app.url })
    const page = await context.newPage()
    try {
      await logIn(page, OWNER)
      await page.goto('/admin/payment-links')
      await page
        .getByLabel('Product')
        .selectOption({ label: `${PRODUCT.title} (${PRODUCT.price})` })
      await page.getByLabel('Customer name').fill('Kiran Das')
      await page.getByLabel('Customer email').fill('kiran@example.test')
      await page.getByLabel('Customer phone').fill('9988771133')
      await page.getByRole('button', { name: 'Create Payment Link' }).click()
      const orderId = new URL(
        (await page.getByRole('status').getByRole('link').textContent())!,
      ).searchParams.get('order')!
      // Create answered with a redirect: reloading the page it shows sends nothing again, and
      // its message was for once.
      await expect(page).toHaveURL('/admin/payment-links')
      await page.reload()
      await expect(
        page.getByRole('status').filter({ hasText: 'Payment link created' }),
      ).toHaveCount(0)
      await expect(page.getByRole('row').filter({ hasText: 'kiran@example.test' })).toHaveCount(1)
      const row = page.getByRole('row').filter({ hasText: orderId })
      await row.getByRole('button', { name: `Cancel link for ${orderId}` }).click()
      const question = page.getByRole('region', { name: 'Cancel payment link?' })
      await expect(question).toContainText(`(order ${orderId}) sent to Kiran Das`)
      await question.getByRole('link', { name: 'Keep link' }).click()
      await expect(question).toHaveCount(0)
      await expect(row.getByText('active', { exact: true })).toBeVisible()
      await row.getByRole('button', { name: `Cancel link for ${orderId}` }).click()
      await question.getByRole('button', { name: 'Cancel link' }).click()
      await expect(page.getByText('Payment link cancelled.')).toBeVisible()
      await expect(row.getByText('cancelled', { exact: true })).toBeVisible()
    } finally {
      await context.close()
    }
  })

  test('gateways: add one per type, edit without changing the type, secrets encrypted and never shown', async ({
    page,
    app,
  }) => {
    await logIn(page, OWNER)
    await openAddGatewayForm(page, 'Razorpay')
    await expect(page.getByLabel('Key ID')).toBeVisible()
    await expect(page.getByLabel('Merchant ID')).toHaveCount(0)
    await page.getByLabel('Key ID').fill('not-a-key')
    await page.getByLabel('Status').selectOption('active')
    await page.getByRole('button', { name: 'Save Gateway' }).click()
    await expect(page.getByRole('alert')).toContainText('Failed to save gateway configuration')
    await expect(page.getByText('Key ID looks like rzp_test_... or rzp_live_...')).toBeVisible()
    await page.getByLabel('Key ID').fill('rzp_test_AbCdEf123456')
    await page.getByRole('button', { name: 'Save Gateway' }).click()
    // Active needs the secrets too: the key secret, and the webhook secret without which
    // Razorpay's webhooks could not be verified.
    await expect(page.getByText('Key Secret is required to make the gateway active')).toBeVisible()
    await expect(
      page.getByText('Webhook Secret is required to make the gateway active'),
    ).toBeVisible()
    await page.getByLabel('Key Secret').fill('razor-secret-value-123')
    await page.getByLabel('Webhook Secret').fill('razor-webhook-secret-456')
    await page.getByRole('button', { name: 'Save Gateway' }).click()
    await expect(page.getByText('Gateway configuration saved.')).toBeVisible()
    const razorpay = page
      .getByRole('list', { name: 'Gateways' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Razorpay' }) })
    await expect(razorpay.getByText('Active')).toBeVisible()
    // Both secrets stored, neither shown.
    await expect(razorpay.getByText('•••••••• (set)')).toHaveCount(2)

    // Edit Paytm: the type is fixed; a bad key is refused with the spec's message.
    await paytmCard(page).getByRole('link', { name: /Edit/ }).click()
    await expect(page.getByText('(cannot be changed)')).toBeVisible()
    await expect(page.getByRole('navigation', { name: 'Gateway type' })).toHaveCount(0)
    await page.getByLabel('Merchant ID').fill('KEYBAZ12345678901234')
    await page.getByLabel('Merchant Key').fill('short')
    await page.getByRole('button', { name: 'Save Gateway' }).click()
    await expect(page.getByRole('alert')).toContainText('Failed to save gateway configuration')
    await expect(page.getByText('Merchant Key must be exactly 16 characters')).toBeVisible()

    // Saved inactive: real credentials switch test mode off, and inactive means no payments.
    await page.getByLabel('Merchant Key').fill(MERCHANT_KEY)
    await page.getByLabel('Status').selectOption('inactive')
    await page.getByRole('button', { name: 'Save Gateway' }).click()
    await expect(page.getByText('Gateway configuration saved.')).toBeVisible()
    const card = paytmCard(page)
    await expect(card.getByText('KEYBAZ12345678901234')).toBeVisible()
    await expect(card.getByText('•••••••• (set)')).toBeVisible()
    await expect(page.getByText('The Paytm gateway is inactive')).toBeVisible()
    expect(await page.content()).not.toContain(MERCHANT_KEY)

    // Blank on edit keeps the stored key.
    await card.getByRole('link', { name: /Edit/ }).click()
    await expect(page.getByLabel('Merchant Key')).toHaveValue('')
    await expect(page.getByText('A key is stored (hidden). Leave blank to keep it.')).toBeVisible()
    await page.getByLabel('Name').fill('Paytm India')
    await page.getByRole('button', { name: 'Save Gateway' }).click()
    await expect(page.getByRole('heading', { name: 'Paytm India' })).toBeVisible()

    // At rest: encrypted, bound to the gateway and field.
    const db = new SQLite(path.join(app.dataDir, 'keybazaar.db'), { readonly: true })
    const rows = db.prepare('select id, secrets from payment_gateway order by id').all() as {
      id: string
      secrets: string
    }[]
    db.close()
    const paytm = JSON.parse(rows.find((row) => row.id === 'paytm')!.secrets) as Record<
      string,
      string
    >
    expect(paytm.merchantKey).toMatch(/^v1\./)
    expect(JSON.stringify(rows)).not.toContain(MERCHANT_KEY)
    expect(JSON.stringify(rows)).not.toContain('razor-secret-value-123')

    // No fallback: with every gateway inactive, checkout says so and sends nothing.
    await page.goto('/admin/gateways')
    await razorpay.getByRole('link', { name: /Edit/ }).click()
    await page.getByLabel('Status').selectOption('inactive')
    await page.getByRole('button', { name: 'Save Gateway' }).click()
    await expect(page.getByText('Gateway configuration saved.')).toBeVisible()
    await expect(
      page.getByRole('note').filter({ hasText: 'Checkout offers no way to pay' }),
    ).toBeVisible()
    await expect(razorpay.getByText('Not offered at checkout')).toBeVisible()
    await expect(paytmCard(page).getByText('Not offered at checkout')).toBeVisible()
    await page.goto(`/checkout/${PRODUCT.slug}`)
    await expect(page.getByRole('note').filter({ hasText: 'Test mode' })).toHaveCount(0)
    await page.getByLabel('Full name').fill('Late Buyer')
    await page.getByLabel('Email').fill('late@example.test')
    await page.getByLabel('Phone number').fill('9876500000')
    await page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
    await expect(page.getByRole('alert')).toHaveText(
      'Failed to initiate payment. Please try again.',
    )
    await expect(page).toHaveURL(`/checkout/${PRODUCT.slug}`)
  })
})
