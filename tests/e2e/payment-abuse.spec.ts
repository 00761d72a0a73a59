import type { Browser } from '@playwright/test'
import { ORDER_MESSAGES } from '~/data/order.server'
import { paymentLinkFor } from '../helpers/payments'
import { setProductDelivery } from '~/data/stock.server'
import type { DB } from '~/lib/db.server'
import { readForm } from '../../simulators/paytm/testing'
import { adminTest } from '../helpers/admin'
import { expect, gotoHydrated } from '../helpers/fixtures'
import { withinOneWindow } from '../helpers/rate-limit'
import { screenshotWidthsAndThemes } from '../helpers/screenshots'
import { demoProductImage, makeProduct } from '../factories'

/**
 * Abuse of checkout and of test mode, against the production build with the built-in Paytm
 * simulator (no gateway configured): checkout throttling, what the result and payment link
 * pages tell someone who only knows an order id, forged simulator answers, and test mode never
 * selling real stock (docs/payments.md, docs/delivery.md).
 */
const OWNER = { name: 'Abuse Owner', email: 'abuse.owner@example.test', password: 'secret12' }
const DEMO = { slug: 'streamverse-premium-12-months', price: '₹1,499' }

const { test, logIn } = adminTest(OWNER)
let db: DB
test.beforeAll(({ db: opened }) => {
  db = opened
})

const countRows = async (table: 'order' | 'job') =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

/** A checkout posted as if from `ip` (the test shop trusts its loopback proxy's X-Forwarded-For). */
async function checkout(baseURL: string, slug: string, email: string, ip: string) {
  // A plain fetch: the page's own requests carry the test's client address (tests/helpers/fixtures.ts).
  const response = await fetch(`${baseURL}/checkout/${slug}`, {
    method: 'POST',
    body: new URLSearchParams({ name: 'Asha Verma', email, phone: '9876543210' }),
    headers: { 'X-Forwarded-For': ip },
  })
  const text = await response.text()
  return {
    status: () => response.status,
    headers: () => Object.fromEntries(response.headers),
    text: async () => text,
  }
}

/** The result page's main text with the order id taken out (it is echoed either way). */
async function resultText(browser: Browser, baseURL: string, orderId: string): Promise<string> {
  const context = await browser.newContext({ baseURL })
  const page = await context.newPage()
  await page.goto(`/payment/callback?ORDERID=${orderId}`)
  const text = (await page.getByRole('main').innerText()).replaceAll(orderId, '{id}')
  await context.close()
  return text
}

test('refuses the 41st checkout from one address, and the 11th for one e-mail, creating nothing', async ({
  baseURL,
}) => {
  // The checkout limits count in fixed ten-minute windows (app/lib/rate-limit.server.ts): start
  // well inside one, so the refused request falls in the same window as the forty before it.
  test.setTimeout(240_000)
  await withinOneWindow('checkoutIp', 90_000)
  const before = { orders: await countRows('order'), jobs: await countRows('job') }
  for (let i = 0; i < 40; i++) {
    const answer = await checkout(baseURL!, DEMO.slug, `buyer${i}@example.test`, '203.0.113.7')
    expect(answer.status()).toBe(200)
  }
  expect(await countRows('order')).toBe(before.orders + 40)
  const jobs = await countRows('job')

  const refused = await checkout(baseURL!, DEMO.slug, 'buyer41@example.test', '203.0.113.7')
  expect(refused.status()).toBe(429)
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0)
  expect(await refused.text()).toMatch(
    /Too many attempts\. Please wait \d+ (seconds|minutes?) and try again\./,
  )
  expect(await countRows('order')).toBe(before.orders + 40)
  expect(await countRows('job')).toBe(jobs)
  // Another address is not affected.
  expect((await checkout(baseURL!, DEMO.slug, 'other@example.test', '203.0.113.8')).status()).toBe(
    200,
  )

  // One e-mail address from many addresses.
  for (let i = 0; i < 10; i++) {
    const answer = await checkout(baseURL!, DEMO.slug, 'same@example.test', `198.51.100.${i + 1}`)
    expect(answer.status()).toBe(200)
  }
  const orders = await countRows('order')
  const again = await checkout(baseURL!, DEMO.slug, 'SAME@example.test', '198.51.100.99')
  expect(again.status()).toBe(429)
  expect(await countRows('order')).toBe(orders)
})

test('someone who knows only an order id learns nothing from the result page or the payment link', async ({
  page,
  browser,
  baseURL,
}) => {
  const link = await paymentLinkFor(db, DEMO.slug, baseURL!)
  const linkPath = link.paymentUrl.slice(baseURL!.length)

  // A stranger opening the link sees the customer masked.
  const stranger = await browser.newContext({ baseURL })
  const strangerPage = await stranger.newPage()
  await strangerPage.goto(linkPath)
  await expect(strangerPage.getByRole('heading', { name: 'Complete your payment' })).toBeVisible()
  await expect(strangerPage.getByText('R*** M***')).toBeVisible()
  await expect(strangerPage.getByText('r***@example.test')).toBeVisible()
  await expect(strangerPage.getByText('Rohan Mehta')).toHaveCount(0)
  await expect(strangerPage.getByText('rohan@example.test')).toHaveCount(0)

  // The customer pays from their browser and the payment fails.
  await page.goto(linkPath)
  await page.getByRole('button', { name: 'Pay ₹999' }).click()
  await page.getByRole('button', { name: 'Simulate failure' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Failed')
  await expect(page.getByText('declined by your bank', { exact: false })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Retry Payment' })).toHaveAttribute('href', linkPath)
  // An unpaid attempt unmasks nobody: anyone holding the link can start one by pressing Pay.
  await page.goto(linkPath)
  await expect(page.getByText('R*** M***')).toBeVisible()
  await expect(page.getByText('Rohan Mehta')).toHaveCount(0)

  // The stranger gets exactly the page of an order that does not exist.
  const strangerView = await resultText(browser, baseURL!, link.orderId)
  expect(strangerView).toBe(await resultText(browser, baseURL!, 'ORD_1000000000000_1'))
  expect(strangerView).not.toContain('declined')
  await strangerPage.goto(`/payment/callback?ORDERID=${link.orderId}`)
  // Not a failed payment to them (the customer may have paid elsewhere): no Retry, sign in.
  await expect(strangerPage.getByRole('link', { name: 'Retry Payment' })).toHaveCount(0)
  await expect(strangerPage.getByRole('link', { name: 'Sign in' })).toBeVisible()
  await screenshotWidthsAndThemes(strangerPage, 'result-page-stranger')
  await strangerPage.goto(linkPath)
  await expect(strangerPage.getByText('Rohan Mehta')).toHaveCount(0)
  await stranger.close()
})

test("a forged simulator failure for another buyer's pending order changes nothing", async ({
  page,
  baseURL,
}) => {
  // The victim reaches the simulator's payment page and has not answered yet.
  await page.goto(`/checkout/${DEMO.slug}`)
  await page.getByLabel('Full name').fill('Asha Verma')
  await page.getByLabel('Email').fill('victim@example.test')
  await page.getByLabel('Phone number').fill('9876543210')
  await page.getByRole('button', { name: `Pay ${DEMO.price}` }).click()
  await expect(page.getByRole('button', { name: 'Simulate failure' })).toBeVisible()
  const victim = readForm(await page.content())
  const orderId = victim.fields.ORDER_ID!
  const mid = victim.fields.MID!

  const simulator = `${baseURL}/__simulator/paytm`
  const post = async (url: string, form: Record<string, string>) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
      redirect: 'manual',
    })
    return { status: response.status, html: await response.text() }
  }
  // Pressing the victim's "Simulate failure" without the page's secret.
  const pressed = await post(`${simulator}/theia/simulator/respond`, {
    MID: mid,
    ORDER_ID: orderId,
    PAYMENTMODE: 'UPI',
    outcome: 'failure',
  })
  expect(pressed.status).toBe(404)
  // A request for the victim's order that the attacker cannot sign, and its refusal sent on.
  const refusal = await post(`${simulator}/theia/processTransaction`, {
    MID: mid,
    ORDER_ID: orderId,
    TXN_AMOUNT: '1.00',
    CALLBACK_URL: `${baseURL}/api/payments/paytm/callback`,
    CHECKSUMHASH: 'forged',
  })
  const callback = readForm(refusal.html)
  expect(callback.fields.CHECKSUMHASH).toBeUndefined()
  expect((await post(`${baseURL}/api/payments/paytm/callback`, callback.fields)).status).toBe(303)

  const order = await db
    .selectFrom('order')
    .select(['status', 'statusChecks'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow()
  expect(order).toEqual({ status: 'pending', statusChecks: 0 })
  // The victim's own page still pays.
  await page.getByRole('button', { name: 'Simulate success' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!')
})

test('test mode sells no real stock: the buyer is told so, the admin sees why, and test items sell', async ({
  page,
}) => {
  const image = await demoProductImage(db)
  const product = await makeProduct(db, {
    title: 'Real Licence Pro',
    slug: 'real-licence-pro',
    image,
    price: 49_900,
    originalPrice: 99_900,
  })
  // No shared secret is stored, so no key is needed.
  await setProductDelivery(db, '', product.id, { mode: 'stock' })
  await logIn(page)
  // Real keys, imported by the admin without marking them as test items.
  await gotoHydrated(page, `/admin/products/${product.id}/stock`)
  await page.getByLabel('Paste items').fill('REAL-KEY-0001\nREAL-KEY-0002')
  await page.getByRole('button', { name: 'Import items' }).click()
  await expect(page.getByRole('status').filter({ hasText: '2 added' })).toBeVisible()

  // The stock page says why these are not sold, in one banner: its own, which counts them,
  // rather than the admin shell's too.
  const shellNote = page.getByRole('note', { name: 'Test mode', exact: true })
  await page.reload()
  await expect(page.getByRole('note', { name: 'Test mode stock' })).toContainText(
    'Available now: 2 real (kept for real payments), 0 test (delivered for test payments).',
  )
  await expect(page.getByRole('note').filter({ hasText: 'Test mode' })).toHaveCount(1)
  // Every other admin page has the shell's.
  await page.goto('/admin/dashboard')
  await expect(shellNote).toContainText(
    'Test mode: real stock is not sold while no live payment gateway is configured.',
  )
  await expect(
    shellNote.getByRole('link', { name: 'configure a gateway in Payment Gateways' }),
  ).toHaveAttribute('href', '/admin/gateways')

  // The buyer sees a clear message instead of the gateway, and the server creates nothing.
  const orders = await countRows('order')
  await page.goto(`/checkout/${product.slug}`)
  await expect(page.getByRole('alert')).toHaveText(ORDER_MESSAGES.notInTestMode)
  await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0)
  const refused = await page.request.post(`/checkout/${product.slug}`, {
    form: { name: 'Asha Verma', email: 'asha.real@example.test', phone: '9876543210' },
  })
  expect(refused.status()).toBe(409)
  expect(await refused.text()).toContain(ORDER_MESSAGES.notInTestMode)
  expect(await countRows('order')).toBe(orders)

  // Test items, marked so on import, are what a test payment gets.
  await gotoHydrated(page, `/admin/products/${product.id}/stock`)
  await page.getByLabel('Paste items').fill('TEST-KEY-0001')
  await page.getByLabel('These are test items').check()
  await page.getByRole('button', { name: 'Import items' }).click()
  await expect(page.getByRole('status').filter({ hasText: '1 added' })).toBeVisible()
  await page.goto(`/checkout/${product.slug}`)
  await page.getByLabel('Phone number').fill('9876543210')
  await page.getByRole('button', { name: 'Pay ₹499' }).click()
  await page.getByRole('button', { name: 'Simulate success' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!')
  const orderId = new URL(page.url()).searchParams.get('ORDERID')!
  const items = await db
    .selectFrom('stockItem')
    .select(['orderId', 'testItem', 'status'])
    .where('productId', '=', product.id)
    .orderBy('testItem')
    .execute()
  expect(items).toEqual([
    { orderId: null, testItem: 0, status: 'available' },
    { orderId: null, testItem: 0, status: 'available' },
    { orderId, testItem: 1, status: 'delivered' },
  ])
})
