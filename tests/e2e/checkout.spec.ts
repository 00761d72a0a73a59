import crypto from 'node:crypto'
import type { Page, Route } from '@playwright/test'
import { simulatePayment } from '../../simulators/paytm/testing'
import { expect, test } from '../helpers/csp'
import { makeProduct, openAppDatabase, orderIdsOf } from '../factories'
import { signUpInBrowser } from '../helpers/mailbox'
import { gotoHydrated } from '../helpers/fixtures'
import { paymentForm } from '../helpers/shop'
import { screenshotWidthsAndThemes } from '../helpers/screenshots'

/**
 * Buying in the browser against the production build, with the built-in Paytm simulator
 * (no PAYTM_MID: the embedded default, in test mode).
 */
const PRODUCT = {
  slug: 'streamverse-premium-12-months',
  title: 'StreamVerse Premium 12 Months',
  price: '₹1,499',
}
const uniqueEmail = (name: string) =>
  `${name}.${crypto.randomBytes(4).toString('hex')}@example.test`

async function fillDetails(page: Page, details: { name?: string; email?: string; phone?: string }) {
  if (details.name !== undefined) await page.getByLabel('Full name').fill(details.name)
  if (details.email !== undefined) await page.getByLabel('Email').fill(details.email)
  if (details.phone !== undefined) await page.getByLabel('Phone number').fill(details.phone)
}

/** From the product page to the simulator's payment page. */
async function goToGateway(page: Page) {
  await gotoHydrated(page, `/product/${PRODUCT.slug}`)
  // Buy Now opens the payment dialog over the product page.
  await page.getByRole('link', { name: 'Buy Now' }).click()
  const dialog = page.getByRole('dialog', { name: 'Checkout' })
  await expect(dialog.getByText(PRODUCT.title)).toBeVisible()
  await expect(page).toHaveURL(`/product/${PRODUCT.slug}`)
  await expect(dialog.getByRole('note').filter({ hasText: 'Test mode' })).toBeVisible()
  await fillDetails(page, { name: 'Asha Verma', email: uniqueEmail('asha'), phone: '98765 43210' })
  await page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
  await expect(page.getByRole('heading', { name: 'Complete your payment' })).toBeVisible()
  await expect(page.getByText('Paytm simulator — test mode, no real money')).toBeVisible()
  await expect(page.getByText(PRODUCT.price)).toBeVisible()
}

test('Buy Now opens the payment dialog, which closes and opens again; its link is the checkout page', async ({
  page,
}) => {
  await gotoHydrated(page, `/product/${PRODUCT.slug}`)
  const buy = page.getByRole('link', { name: 'Buy Now' })
  await expect(buy).toHaveAttribute('href', `/checkout/${PRODUCT.slug}`)
  await buy.click()
  const dialog = page.getByRole('dialog', { name: 'Checkout' })
  await expect(dialog.getByRole('button', { name: `Pay ${PRODUCT.price}` })).toBeVisible()
  // The form checks the fields as the page does.
  await dialog.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
  await expect(dialog.getByText('Name is required')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await buy.click()
  await expect(dialog.getByLabel('Full name')).toBeVisible()
  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page).toHaveURL(`/product/${PRODUCT.slug}`)
  await buy.click()
  await expect(dialog.getByLabel('Full name')).toBeVisible()
  await screenshotWidthsAndThemes(page, 'payment-dialog')
})

test('a price changed while the payment dialog is open is refused, shown, and paid at the new price', async ({
  page,
  app,
}) => {
  const db = openAppDatabase(app)
  try {
    const product = await makeProduct(db, { title: 'Price Watch 1 Month', price: 49_900 })
    await gotoHydrated(page, `/product/${product.slug}`)
    await page.getByRole('link', { name: 'Buy Now' }).click()
    const dialog = page.getByRole('dialog', { name: 'Checkout' })
    await fillDetails(page, { name: 'Asha Verma', email: uniqueEmail('asha'), phone: '9876543210' })
    // The sale ends while the buyer types.
    await db.updateTable('product').set({ price: 59_900 }).where('id', '=', product.id).execute()
    await dialog.getByRole('button', { name: 'Pay ₹499' }).click()
    await expect(
      dialog.getByText(
        'The price of this product has changed to ₹599. Check the new price and press Pay again; your details are kept.',
      ),
    ).toBeVisible()
    await expect(dialog.getByLabel('Full name')).toHaveValue('Asha Verma')
    expect(await orderIdsOf(db, product.id)).toEqual([])
    // The dialog now asks for the new price, and that is what the gateway is asked for.
    await dialog.getByRole('button', { name: 'Pay ₹599' }).click()
    await expect(page.getByRole('heading', { name: 'Complete your payment' })).toBeVisible()
    await expect(page.getByText('₹599')).toBeVisible()
  } finally {
    await db.destroy()
  }
})

test('the payment dialog hands over to each gateway: Razorpay Checkout, PhonePe and Paytm pages', async ({
  page,
}) => {
  for (const [gateway, path] of [
    ['Razorpay', '/__simulator/razorpay/'],
    ['PhonePe', '/__simulator/phonepe/'],
    ['Paytm', '/__simulator/paytm/'],
  ] as const) {
    await gotoHydrated(page, `/product/${PRODUCT.slug}`)
    await page.getByRole('link', { name: 'Buy Now' }).click()
    const dialog = page.getByRole('dialog', { name: 'Checkout' })
    await dialog.getByRole('radio', { name: new RegExp(gateway) }).check()
    await fillDetails(page, { name: 'Asha Verma', email: uniqueEmail('asha'), phone: '9876543210' })
    await dialog.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
    await page.waitForURL((url) => url.pathname.startsWith(path))
  }
})

function result(page: Page) {
  return page.getByRole('heading', { level: 1 })
}

test('the hand-over sheet takes the focus, and Escape there is Cancel', async ({ page }) => {
  // Razorpay Checkout cannot load: the sheet stays, with Continue, until the buyer acts.
  await page.route('**/v1/checkout.js', (route) => route.abort())
  await gotoHydrated(page, `/product/${PRODUCT.slug}`)
  await page.getByRole('link', { name: 'Buy Now' }).click()
  const dialog = page.getByRole('dialog', { name: 'Checkout' })
  await dialog.getByRole('radio', { name: /Razorpay/ }).check()
  await fillDetails(page, { name: 'Asha Verma', email: uniqueEmail('asha'), phone: '9876543210' })
  await dialog.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
  await expect(dialog).toHaveCount(0)
  await expect(
    page.getByText('Razorpay Checkout could not be loaded.', { exact: false }),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: 'Continue' })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('button', { name: 'Continue' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Cancel' })).toHaveCount(0)
  await expect(page).toHaveURL(`/product/${PRODUCT.slug}`)
})

test('the payment form shows the spec messages, clears them as fields are edited, and refuses an out-of-stock product', async ({
  page,
}) => {
  await page.goto(`/checkout/${PRODUCT.slug}`)
  const pay = page.getByRole('button', { name: `Pay ${PRODUCT.price}` })
  await pay.click()
  await expect(page.getByText('Name is required')).toBeVisible()
  await expect(page.getByText('Email is required')).toBeVisible()
  await expect(page.getByText('Phone number is required')).toBeVisible()

  await fillDetails(page, { name: 'Ravi' })
  await expect(page.getByText('Name is required')).toHaveCount(0)
  await fillDetails(page, { email: 'ravi@', phone: '+91 98765 43210' })
  await pay.click()
  await expect(page.getByText('Please enter a valid email')).toBeVisible()
  // Twelve digits once the rest is removed.
  await expect(page.getByText('Please enter a valid 10-digit phone number')).toBeVisible()
  await fillDetails(page, { phone: '98765-43210' })
  await expect(page.getByText('Please enter a valid 10-digit phone number')).toHaveCount(0)
  await expect(page.getByText('Please enter a valid email')).toBeVisible()

  await page.goto('/checkout/chatmind-plus-1-month')
  await expect(page.getByRole('alert')).toHaveText('This product is out of stock.')
  await expect(page.getByRole('button', { name: /^Pay/ })).toHaveCount(0)
})

test('the server checks the form again and takes the price from the database, not from the post', async ({
  request,
}) => {
  const invalid = await request.post(`/checkout/${PRODUCT.slug}`, {
    form: { name: '', email: 'x', phone: '123' },
  })
  expect(invalid.status()).toBe(400)
  const invalidHtml = await invalid.text()
  expect(invalidHtml).toContain('Name is required')
  expect(invalidHtml).toContain('Please enter a valid email')
  expect(invalidHtml).toContain('Please enter a valid 10-digit phone number')

  const response = await request.post(`/checkout/${PRODUCT.slug}`, {
    form: {
      name: 'Asha',
      email: uniqueEmail('asha'),
      phone: '9876543210',
      amount: '1',
      TXN_AMOUNT: '1.00',
      price: '100',
    },
  })
  expect(response.status()).toBe(200)
  const html = await response.text()
  expect(html).toMatch(/action="[^"]*\/__simulator\/paytm\/theia\/processTransaction"/)
  expect(html).toContain('name="TXN_AMOUNT" value="1499.00"')
  expect(html).toMatch(/name="ORDER_ID" value="ORD_\d{13}_\d{1,3}"/)
  for (const field of [
    'MID',
    'WEBSITE',
    'CHANNEL_ID',
    'INDUSTRY_TYPE_ID',
    'CUST_ID',
    'CALLBACK_URL',
    'EMAIL',
    'MOBILE_NO',
    'CHECKSUMHASH',
  ]) {
    expect(html).toContain(`name="${field}"`)
  }
  expect(html).toContain('name="WEBSITE" value="WEBSTAGING"')
  expect(html).toContain('name="CHANNEL_ID" value="WEB"')
  expect(html).toContain('name="INDUSTRY_TYPE_ID" value="Retail"')
  // The order page's secret comes back once, as an httpOnly cookie.
  expect(response.headers()['set-cookie']).toMatch(
    /kb\.orders=ORD_\d+_\d+~[\w-]+;.*HttpOnly; SameSite=Lax/,
  )
})

test("a guest buys a product: 'Simulate success' ends on 'Payment Successful!' with the amount", async ({
  page,
}) => {
  await goToGateway(page)
  await page.getByRole('button', { name: 'Simulate success' }).click()
  await expect(page).toHaveURL(/\/payment\/callback\?ORDERID=ORD_\d+_\d+$/)
  await expect(result(page)).toHaveText('Payment Successful!')
  await expect(page.getByRole('note').filter({ hasText: 'Test mode' })).toBeVisible()
  const details = page.getByRole('main').locator('dl')
  await expect(details.getByText('Amount Paid')).toBeVisible()
  await expect(details.getByText(PRODUCT.price)).toBeVisible()
  await expect(details.getByText(/^\d{35}$/)).toBeVisible()
  await expect(details.getByText(/^\d{1,2} \w{3} \d{4}, \d{1,2}:\d{2} (am|pm)$/)).toBeVisible()
  await expect(page.getByText(/within 5 minutes\. Please check your spam folder/)).toBeVisible()
  await expect(page.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute(
    'href',
    '/dashboard',
  )
  // The invoice and the order page are real links for the buyer.
  const orderId = new URL(page.url()).searchParams.get('ORDERID')!
  await expect(page.getByRole('link', { name: 'Download Invoice' })).toHaveAttribute(
    'href',
    `/orders/${orderId}/invoice.pdf`,
  )
  await expect(page.getByRole('link', { name: 'View order' })).toHaveAttribute(
    'href',
    `/orders/${orderId}`,
  )
})

test('sending the payment form asks the shop once: no loader runs again before the gateway', async ({
  page,
}) => {
  await page.goto(`/checkout/${PRODUCT.slug}`)
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  const dataRequests: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname.endsWith('.data'))
      dataRequests.push(`${request.method()} ${url.pathname}${url.search}`)
  })
  await fillDetails(page, { name: 'Asha Verma', email: uniqueEmail('asha'), phone: '98765 43210' })
  await page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
  await expect(page.getByRole('heading', { name: 'Complete your payment' })).toBeVisible()
  // The submission only; React Router's revalidation (GET ...data?_routes=root) used to follow it.
  expect(dataRequests).toEqual([`POST /checkout/${PRODUCT.slug}.data`])
})

test("'Simulate failure' ends on 'Payment Failed', and tampering with the result URL changes nothing", async ({
  page,
  context,
}) => {
  await goToGateway(page)
  await page.getByRole('button', { name: 'Simulate failure' }).click()
  await expect(result(page)).toHaveText('Payment Failed')
  await expect(
    page.getByText('Your payment has been declined by your bank.', { exact: false }),
  ).toBeVisible()
  await expect(page.getByRole('link', { name: 'Retry Payment' })).toHaveAttribute(
    'href',
    `/checkout/${PRODUCT.slug}`,
  )
  await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/')
  await expect(page.getByRole('heading', { name: 'Need help?' })).toBeVisible()

  const url = new URL(page.url())
  const orderId = url.searchParams.get('ORDERID')!
  await page.goto(
    `/payment/callback?ORDERID=${orderId}&STATUS=TXN_SUCCESS&RESPCODE=01&TXNID=123&TXNAMOUNT=1.00&RESPMSG=Txn+Success`,
  )
  await expect(result(page)).toHaveText('Payment Failed')
  await expect(page.getByText('Payment Successful!')).toHaveCount(0)

  // Another browser (no order cookie) learns nothing: the page of an unknown order. It is not
  // told the payment failed (the buyer may have paid there): no Retry, signing in comes first.
  const stranger = await context.browser()!.newPage()
  await stranger.goto(new URL(`/payment/callback?ORDERID=${orderId}`, url).href)
  await expect(stranger.getByRole('heading', { level: 1 })).toHaveText(
    'We can’t show this order here',
  )
  await expect(stranger).toHaveTitle(/^We can’t show this order here \| /)
  await expect(stranger.getByText('Payment Failed')).toHaveCount(0)
  await expect(stranger.getByText('Failed to process payment callback')).toHaveCount(0)
  await expect(stranger.getByText('declined by your bank', { exact: false })).toHaveCount(0)
  await expect(stranger.getByRole('link', { name: 'Retry Payment' })).toHaveCount(0)
  await expect(stranger.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
    'href',
    `/payment/callback?ORDERID=${orderId}&login=1&redirectTo=${encodeURIComponent(`/payment/callback?ORDERID=${orderId}`)}`,
  )
  await expect(stranger.getByText('use the link from your e-mail', { exact: false })).toBeVisible()
  await expect(stranger.getByText(PRODUCT.price)).toHaveCount(0)
  // A return that names no order at all is the spec's failed callback, still without Retry.
  await stranger.goto(new URL('/payment/callback', url).href)
  await expect(stranger.getByRole('heading', { level: 1 })).toHaveText('No order to show')
  await expect(
    stranger.getByText('Failed to process payment callback', { exact: false }),
  ).toBeVisible()
  await expect(stranger.getByRole('link', { name: 'Retry Payment' })).toHaveCount(0)
  await stranger.close()

  // A forged callback (not signed by the gateway) is refused and still lands on our record.
  const forged = await page.request.post('/api/payments/paytm/callback', {
    form: {
      ORDERID: orderId,
      STATUS: 'TXN_SUCCESS',
      RESPCODE: '01',
      TXNAMOUNT: '1499.00',
      CHECKSUMHASH: 'x'.repeat(108),
    },
    maxRedirects: 0,
  })
  expect(forged.status()).toBe(303)
  expect(forged.headers().location).toBe(`/payment/callback?ORDERID=${orderId}`)
  await page.reload()
  await expect(result(page)).toHaveText('Payment Failed')
})

test("'Leave pending' shows 'Processing Payment...' until reconciliation confirms the payment", async ({
  page,
}) => {
  test.setTimeout(90_000)
  await goToGateway(page)
  await page.getByRole('button', { name: 'Leave pending' }).click()
  await expect(result(page)).toHaveText('Processing Payment...')
  // One live region holds the outcome, so a screen reader hears the change.
  const outcome = page.getByRole('main').getByRole('status')
  await expect(outcome).toContainText('Processing Payment...')
  // Not a dead end while the bank or UPI app takes its time: the order page and help are there.
  const orderId = new URL(page.url()).searchParams.get('ORDERID')!
  await expect(page.getByRole('link', { name: 'View order' })).toHaveAttribute(
    'href',
    `/orders/${orderId}`,
  )
  await expect(page.getByRole('heading', { name: 'Need help?' })).toBeVisible()
  // The simulator settles a pending payment after 5 s; the reconciliation job asks 10 s after
  // the pending callback; the page asks the server again by itself.
  await expect(result(page)).toHaveText('Payment Successful!', { timeout: 45_000 })
  await expect(outcome).toContainText('Payment Successful!')
  await expect(outcome).toContainText('Thank you for your purchase.')
  await expect(page.getByRole('main').locator('dl').getByText(PRODUCT.price)).toBeVisible()
})

test("polls that fail while 'Processing Payment...' keep the page, and a later one brings the outcome", async ({
  page,
}) => {
  test.setTimeout(90_000)
  // The first poll finds no connection (the buyer's phone went to the UPI app and back), the
  // second a proxy's 502 (the shop restarting); the others reach the shop.
  const failures = [
    (route: Route) => route.abort('internetdisconnected'),
    (route: Route) => route.fulfill({ status: 502, contentType: 'text/html', body: 'Bad Gateway' }),
  ]
  let failed = 0
  await page.route(
    (url) => url.pathname === '/payment/callback.data',
    (route) => {
      const fail = failures[failed]
      if (!fail) return route.continue()
      failed += 1
      return fail(route)
    },
  )
  await goToGateway(page)
  await page.getByRole('button', { name: 'Leave pending' }).click()
  await expect(result(page)).toHaveText('Processing Payment...')
  await expect.poll(() => failed, { timeout: 20_000 }).toBe(2)
  await expect(result(page)).toHaveText('Processing Payment...')
  await expect(page.getByText('Something went wrong')).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'View order' })).toBeVisible()
  // The simulator settles the payment after 5 s, reconciliation asks 10 s after the callback.
  await expect(result(page)).toHaveText('Payment Successful!', { timeout: 60_000 })
})

test('the buyer’s last choice, Razorpay, is checked again once the page runs', async ({
  page,
  baseURL,
}) => {
  await page.context().addCookies([{ name: 'kb.gateway', value: 'razorpay', url: baseURL! }])
  await gotoHydrated(page, `/checkout/${PRODUCT.slug}`)
  await expect(page.getByRole('radio', { name: /Razorpay/ })).toBeChecked()
  await expect(page.getByText('Paying through Razorpay needs JavaScript')).toHaveCount(0)
})

test('a way to pay picked before the page runs is kept when the last choice was Razorpay', async ({
  page,
  baseURL,
}) => {
  await page.context().addCookies([{ name: 'kb.gateway', value: 'razorpay', url: baseURL! }])
  // The page's scripts are held back until the buyer has picked, as on a slow phone.
  let release!: () => void
  const scriptsHeld = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await scriptsHeld
    await route.continue()
  })
  await page.goto(`/checkout/${PRODUCT.slug}`, { waitUntil: 'commit' })
  const picker = page.getByRole('group', { name: 'Pay with' })
  const radios = picker.getByRole('radio')
  await expect(radios).toHaveCount(3)
  // The server checked a way to pay that works without JavaScript; the buyer picks another one.
  const serverChecked = await picker.getByRole('radio', { checked: true }).getAttribute('value')
  const values = await radios.evaluateAll((all) => all.map((r) => (r as HTMLInputElement).value))
  const picked = values.find((value) => value !== 'razorpay' && value !== serverChecked)!
  await picker.locator(`input[value="${picked}"]`).check()
  await expect(page.locator('html[data-hydrated]')).toHaveCount(0)
  release()
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  await expect(picker.locator(`input[value="${picked}"]`)).toBeChecked()
  await expect(picker.getByRole('radio', { name: /Razorpay/ })).not.toBeChecked()
})

test('a signed-in customer finds the form prefilled and pays', async ({ page, app }) => {
  const email = uniqueEmail('meera')
  await signUpInBrowser(page, app, { name: 'Meera Iyer', email, password: 'secret12' })

  await page.goto(`/checkout/${PRODUCT.slug}`)
  await expect(page.getByLabel('Full name')).toHaveValue('Meera Iyer')
  await expect(page.getByLabel('Email')).toHaveValue(email)
  await fillDetails(page, { phone: '9123456780' })
  await page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
  await page.getByRole('button', { name: 'Simulate success' }).click()
  await expect(result(page)).toHaveText('Payment Successful!')
  await expect(page.getByText(email)).toBeVisible()
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('checkout works with plain forms and a visible Continue button', async ({ page }) => {
    await page.goto(`/checkout/${PRODUCT.slug}`)
    await page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
    // The server's own check answers (the browser did not run the schema).
    await expect(page.getByText('Name is required')).toBeVisible()
    await fillDetails(page, {
      name: 'No Script',
      email: uniqueEmail('noscript'),
      phone: '9000000001',
    })
    await page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
    await expect(page.getByText('Taking you to Paytm to pay securely…')).toBeVisible()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('button', { name: 'Simulate success' }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!')
  })

  test('Razorpay, which needs JavaScript, is not checked by default and says why', async ({
    page,
    baseURL,
  }) => {
    // Even when it was the buyer's last choice.
    await page.context().addCookies([{ name: 'kb.gateway', value: 'razorpay', url: baseURL! }])
    await page.goto(`/checkout/${PRODUCT.slug}`)
    const razorpay = page.getByRole('radio', { name: /Razorpay/ })
    await expect(razorpay).not.toBeChecked()
    await expect(
      page.getByRole('group', { name: 'Pay with' }).getByRole('radio', { checked: true }),
    ).toHaveCount(1)
    // A <noscript> note, whose text Playwright's text matching skips: read from the element.
    const noscriptText = () => page.locator('noscript').evaluate((element) => element.textContent)
    expect(await noscriptText()).toBe(
      'Paying through Razorpay needs JavaScript; choose another way to pay or turn JavaScript on.',
    )
    // Chosen anyway: the page says what to do instead of a Continue button that does nothing.
    await razorpay.check()
    await fillDetails(page, {
      name: 'No Script',
      email: uniqueEmail('noscript'),
      phone: '9000000002',
    })
    await page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
    await expect(page.getByText('Opening Razorpay to pay securely…')).toBeVisible()
    expect(await noscriptText()).toMatch(
      /^Paying through Razorpay needs JavaScript\. Turn JavaScript on and try again, or go back and\s+choose another way to pay\.$/,
    )
    await expect(page.getByRole('button', { name: 'Continue' })).toHaveCount(0)
  })
})

test("the spec's endpoints are safe: checksums only for a pending order's own parameters, verify-payment from our record", async ({
  request,
  baseURL,
}) => {
  const checkout = await request.post(`/checkout/${PRODUCT.slug}`, {
    form: { name: 'Api Buyer', email: uniqueEmail('api'), phone: '9000000002' },
  })
  const form = paymentForm(await checkout.text())
  const { CHECKSUMHASH: _, ...params } = form.fields
  const signed = await request.post('/api/paytm/generate-checksum', { data: params })
  expect(signed.status()).toBe(200)
  expect((await signed.json()) as { checksumHash: string }).toEqual({
    checksumHash: expect.stringMatching(/^[A-Za-z0-9+/]{107}=$/),
  })
  for (const tampered of [
    { TXN_AMOUNT: '1.00' },
    { ORDER_ID: 'ORD_1_1' },
    { CALLBACK_URL: 'https://evil.example/cb' },
    { EXTRA: 'x' },
  ]) {
    const refused = await request.post('/api/paytm/generate-checksum', {
      data: { ...params, ...tampered },
    })
    expect(refused.status()).toBe(400)
    expect(await refused.json()).toEqual({ error: 'Failed to generate checksum' })
  }

  expect(
    await (
      await request.post('/api/paytm/verify-payment', {
        data: { orderId: params.ORDER_ID, transactionId: 'T1' },
      })
    ).json(),
  ).toEqual({
    verified: false,
  })
  // Pay at the simulator and deliver the callback, as the browser would.
  const callback = await simulatePayment(
    { action: new URL(form.action, baseURL).href, fields: form.fields },
    'success',
  )
  const answer = await request.post('/api/payments/paytm/callback', {
    form: callback.fields,
    maxRedirects: 0,
  })
  expect(answer.status()).toBe(303)
  const verify = (transactionId: string) =>
    request.post('/api/paytm/verify-payment', { data: { orderId: params.ORDER_ID, transactionId } })
  expect(await (await verify(callback.fields.TXNID!)).json()).toEqual({ verified: true })
  expect(await (await verify('20260101000000000000000000000000000')).json()).toEqual({
    verified: false,
  })
  // A paid order is no longer signable.
  expect((await request.post('/api/paytm/generate-checksum', { data: params })).status()).toBe(400)
})

test("the embedded simulator's test controls are off in a shop (no NODE_ENV=test, no PAYTM_SIMULATOR_CONTROL)", async ({
  request,
}) => {
  expect((await request.get('/__simulator/paytm/__control/health')).status()).toBe(200)
  const forced = await request.post('/__simulator/paytm/__control/transactions/ORD_1_1', {
    data: { status: 'TXN_SUCCESS', mid: 'X', amount: '1.00' },
  })
  expect(forced.status()).toBe(404)
  expect(
    (
      await request.post('/__simulator/paytm/__control/outage', { data: { enabled: true } })
    ).status(),
  ).toBe(404)
})
