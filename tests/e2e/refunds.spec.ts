import crypto from 'node:crypto'
import type { Page } from '@playwright/test'
import { listAuditEntries } from '~/data/audit.server'
import { getOrder } from '~/data/order.server'
import { appendOrderEvent } from '~/data/order-event.server'
import { updateSiteSettings } from '~/data/settings.server'
import type { DB } from '~/lib/db.server'
import { openAppDatabase } from '../factories'
import { adminTest } from '../helpers/admin'
import { freePort, startApp } from '../helpers/app'
import { expect } from '../helpers/fixtures'
import { signUpConfirmed } from '../helpers/mailbox'
import { expectOrderStatus } from '../helpers/orders'
import { pdfText } from '../helpers/pdf'
import { screenshotWidthsAndThemes } from '../helpers/screenshots'
import { addGatewayInTesting } from '../helpers/payments'
import { smtpServerFixture, type TestSmtpServer } from '../helpers/smtp'

/**
 * Refunds through the gateways and the Gateways page, against the production build with the
 * built-in simulators: a buyer pays (Paytm, Razorpay, then PhonePe), the admin refunds from the
 * order page, the gateway confirms (Paytm's refund status, Razorpay's refund.processed, PhonePe's
 * refund status), the item is revoked and the buyer e-mailed (through a local SMTP server). Then
 * Test connection (success, and the refusal of wrong credentials by Razorpay and PhonePe) and
 * the checkout order set with the arrows.
 */
const OWNER = { name: 'Shop Owner', email: 'owner@example.test', password: 'secret12' }
const APP_SECRET = 'refunds-e2e-secret-0123456789abcdefghijklmnopqrstuv'
const PRODUCT = { slug: 'streamverse-premium-12-months', price: '₹1,499' }

const admin = adminTest(OWNER)
const { logIn, logInWithoutJavaScript } = admin
const test = admin.test.extend<object, { smtp: TestSmtpServer }>({
  smtp: smtpServerFixture,
  // Its own port, known before it starts: Razorpay keys and PhonePe credentials stored on the
  // Gateways page are sent to the embedded simulators (RAZORPAY_HOST, PHONEPE_HOST), which refuse
  // wrong ones as the gateways do.
  app: [
    async ({ smtp }, use) => {
      const port = await freePort()
      const app = await startApp({
        port,
        env: {
          ADMIN_EMAILS: OWNER.email,
          TRUST_PROXY: 'loopback',
          APP_SECRET,
          SMTP_URL: smtp.url,
          RAZORPAY_HOST: `http://127.0.0.1:${port}/__simulator/razorpay`,
          PHONEPE_HOST: `http://127.0.0.1:${port}/__simulator/phonepe`,
        },
      })
      await signUpConfirmed(app.url, smtp, OWNER)
      await use(app)
      await app.dispose()
    },
    { scope: 'worker', timeout: 90_000 },
  ],
})
test.describe.configure({ mode: 'serial' })

let db: DB
let smtp: TestSmtpServer
test.beforeAll(({ app, smtp: server }) => {
  db = openAppDatabase(app)
  smtp = server
})
test.afterAll(async () => {
  await db.destroy()
})

/** The order's refunds as the shop stored them. */
function refundsOf(orderId: string) {
  return db
    .selectFrom('orderRefund')
    .select(['status', 'amount', 'gatewayRefundId'])
    .where('orderId', '=', orderId)
    .execute()
}

/** The buyer's purchase in the browser through one gateway's simulator; returns the order id. */
async function buy(
  page: Page,
  gateway: 'Paytm' | 'Razorpay' | 'PhonePe',
  email: string,
): Promise<string> {
  await checkoutAt(page, gateway, email)
  await page
    .getByRole('button', { name: /success/i })
    .first()
    .click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment Successful!', {
    timeout: 30_000,
  })
  const order = await orderOf(email)
  await expectOrderStatus(db, order.id, 'delivered', { timeout: 30_000 })
  return order.id
}

const orderOf = (email: string) =>
  db
    .selectFrom('order')
    .select(['id', 'status'])
    .where('customerEmail', '=', email)
    .executeTakeFirstOrThrow()

/** The checkout form sent with `gateway` chosen, up to that gateway's simulator page. */
async function checkoutAt(page: Page, gateway: 'Paytm' | 'Razorpay' | 'PhonePe', email: string) {
  await page.goto(`/checkout/${PRODUCT.slug}`)
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  await page
    .getByRole('group', { name: 'Pay with' })
    .getByRole('radio', { name: new RegExp(gateway) })
    .check()
  await page.getByLabel('Full name').fill('Asha Verma')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Phone number').fill('9876543210')
  await page.getByRole('button', { name: `Pay ${PRODUCT.price}` }).click()
  await expect(page.getByText(`${gateway} simulator — test mode, no real money`)).toBeVisible({
    timeout: 30_000,
  })
}

async function itemStatus(orderId: string) {
  return (
    await db
      .selectFrom('stockItem')
      .select('status')
      .where('orderId', '=', orderId)
      .executeTakeFirst()
  )?.status
}

/** Presses a gateway card's Test connection and checks the answer the card shows. */
async function testConnection(page: Page, gateway: string, answer: string) {
  await page.getByRole('button', { name: `Test connection of ${gateway}` }).click()
  await expect(page.locator(`#gateway-${gateway.toLowerCase()}`).getByRole('status')).toContainText(
    answer,
  )
}

/** Saves credentials of the gateway's own in its open edit form (field label to value). */
async function saveCredentials(page: Page, fields: Record<string, string>) {
  for (const [label, value] of Object.entries(fields)) await page.getByLabel(label).fill(value)
  await page.getByRole('button', { name: 'Save Gateway' }).click()
  await expect(page.getByText('Gateway configuration saved.')).toBeVisible()
}

/** Removes a gateway record's own credentials: in testing it then uses the built-in simulator. */
async function dropOwnCredentials(gatewayId: string) {
  await db
    .updateTable('paymentGateway')
    .set({ secrets: '{}', config: '{}' })
    .where('id', '=', gatewayId)
    .execute()
}

/** Submits the order page's Refund: the amount (all of it unless given) and a reason. */
/** Sends the order page's Refund form; returns the form's refund key (one per refund asked). */
async function submitRefund(page: Page, orderId: string, amount?: string): Promise<string> {
  await page.goto(`/admin/orders/${orderId}`)
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  const card = page.locator('#action-gateway-refund')
  await expect(card.getByRole('heading', { name: 'Refund' })).toBeVisible()
  const field = card.getByLabel('Amount in rupees')
  await expect(field).toHaveValue('1499.00')
  if (amount) await field.fill(amount)
  await card.getByLabel('Reason (optional)').fill('Wrong region')
  const refundKey = await card.locator('input[name="refundKey"]').inputValue()
  await card.getByRole('button', { name: 'Refund' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Refund through the gateway?' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Refund' }).click()
  return refundKey
}

/** What each simulator's successful payment leaves as the gateway's last answer. */
const OWN_WORDS: Record<string, string> = {
  Paytm: 'TXN_SUCCESS · 01 · Txn Success',
  Razorpay: 'captured',
  PhonePe: 'COMPLETED · Payment completed',
}

/**
 * Refunds the whole order through its gateway from the order page, waits until the gateway
 * confirmed it (order refunded, item revoked) and returns the buyer's refund mail.
 */
async function refundInFull(page: Page, orderId: string, gateway: string, email: string) {
  const refundKey = await submitRefund(page, orderId)
  // The order's Payment fact names its gateway and the way the buyer paid as people write them
  // (each simulator pays by UPI: Razorpay's method `upi`, PhonePe's UPI_COLLECT).
  await expect(
    page.getByRole('definition').filter({ hasText: new RegExp(`^${gateway} · `) }),
  ).toHaveText(`${gateway} · UPI · test mode (no real money)`)
  // Its last answer is in the gateway's own words, not Paytm's for every gateway.
  await expect(
    page
      .getByRole('term')
      .filter({ hasText: "Gateway's last answer" })
      .locator('xpath=following-sibling::dd[1]'),
  ).toHaveText(OWN_WORDS[gateway]!)
  // Razorpay and PhonePe give the order an id of their own, which their dashboards search by.
  const gatewayOrderId = page
    .getByRole('term')
    .filter({ hasText: `${gateway} order ID` })
    .locator('xpath=following-sibling::dd[1]')
  if (gateway === 'Paytm') await expect(gatewayOrderId).toHaveCount(0)
  else await expect(gatewayOrderId).toHaveText(gateway === 'Razorpay' ? /^order_\w+$/ : /^OMO\w+$/)
  await expect(page.getByText(new RegExp(`sent to ${gateway}`))).toBeVisible({ timeout: 30_000 })
  if (gateway === 'Paytm') {
    // Paytm answers at its next status check, 10 s on: until then Mark refunded waits.
    await expect(
      page
        .getByRole('region', { name: 'Refunds' })
        .getByText('₹1,499 is still waiting for the gateway’s answer'),
    ).toBeVisible()
    await expect(page.locator('#action-refund')).toHaveCount(0)
    await page
      .getByRole('region', { name: 'Refunds' })
      .screenshot({ path: test.info().outputPath('refund-waiting.png') })
  }
  // The same form again (a double click, a retried request) sends nothing and logs nothing more.
  const again = await page.request.post(`/admin/orders/${orderId}`, {
    form: {
      intent: 'gateway-refund',
      refundKey,
      amount: '1499.00',
      reason: 'Wrong region',
      confirmed: 'yes',
    },
    maxRedirects: 0,
  })
  expect(again.status()).toBe(302)
  const { entries } = await listAuditEntries(db, { targetId: orderId })
  expect(entries.filter((entry) => entry.action === 'order.gateway-refund')).toHaveLength(1)
  await waitRefunded(page, orderId)
  return refundMail(email, orderId)
}

async function waitRefunded(page: Page, orderId: string) {
  // The refund job asks the gateway at once; Paytm confirms at the next status check (10 s).
  await expectOrderStatus(db, orderId, 'refunded', { timeout: 60_000, intervals: [1000] })
  await page.reload()
  await expect(
    page.getByText('Refunded: the buyer no longer sees the item delivered for this order.'),
  ).toBeVisible()
  await expect(
    page.getByRole('region', { name: 'Refunds' }).getByText('Refunded', { exact: true }),
  ).toBeVisible()
  expect(await itemStatus(orderId)).toBe('revoked')
}

async function refundMail(email: string, orderId: string) {
  await expect
    .poll(
      () =>
        smtp.mails.filter(
          (mail) => mail.to.includes(email) && mail.subject === `Refund for order ${orderId}`,
        ).length,
      {
        timeout: 30_000,
      },
    )
    .toBe(1)
  return smtp.mails.find(
    (mail) => mail.to.includes(email) && mail.subject === `Refund for order ${orderId}`,
  )!
}

test('a refund through Paytm: asked, confirmed by its status, item revoked, buyer e-mailed', async ({
  page,
}) => {
  const email = `paytm.${crypto.randomBytes(4).toString('hex')}@example.test`
  const orderId = await buy(page, 'Paytm', email)
  await logIn(page)
  // Too much is refused at its field with the amount left, before anything is asked, and
  // nothing is sent.
  await page.goto(`/admin/orders/${orderId}`)
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  const card = page.locator('#action-gateway-refund')
  await card.getByLabel('Amount in rupees').fill('1500')
  await card.getByRole('button', { name: 'Refund' }).click()
  await expect(card.getByText('At most ₹1,499 is left to refund on this order.')).toBeVisible()
  await expect(page.getByRole('alertdialog')).toHaveCount(0)
  expect(
    await db.selectFrom('orderRefund').select('id').where('orderId', '=', orderId).execute(),
  ).toEqual([])

  const mail = await refundInFull(page, orderId, 'Paytm', email)
  expect(mail.text).toContain('We have refunded ₹1,499 for StreamVerse')
  // Its credit note (a test one: paid through the simulator) is named in the mail ...
  expect(mail.text).toContain('Our credit note for ₹1,499 is on your order page')
  const rows = await refundsOf(orderId)
  expect(rows).toEqual([
    { status: 'processed', amount: 149_900, gatewayRefundId: expect.stringMatching(/^\d+$/) },
  ])
  // ... and sits with the invoice on the admin's order page and on the buyer's.
  const documents = page.getByRole('region', { name: 'Invoice and credit notes' })
  await expect(documents.getByRole('link', { name: 'Invoice' })).toHaveAttribute(
    'href',
    `/orders/${orderId}/invoice.pdf`,
  )
  await expect(
    documents.getByRole('link', { name: 'Credit note TEST (not numbered)' }),
  ).toBeVisible()
  await page.goto(`/orders/${orderId}`)
  const invoiceCard = page.getByRole('region', { name: 'Invoice' })
  await expect(invoiceCard.getByRole('link', { name: 'Download Invoice' })).toBeVisible()
  const noteLink = invoiceCard.getByRole('link', { name: 'TEST (not numbered)' })
  await expect(noteLink).toBeVisible()
  const download = await page.request.get((await noteLink.getAttribute('href'))!)
  expect(download.status()).toBe(200)
  expect(download.headers()['content-type']).toBe('application/pdf')
  const text = pdfText(await download.body())
  expect(text).toContain('Test credit note')
  expect(text).toContain(`Order: ${orderId}`)
  expect(text).toContain('Against invoice: TEST (not numbered)')
  expect(text).toContain('Reason: Wrong region')
  expect(text).toMatch(/Refund reference: \d+/)
  // The refunded sale keeps its invoice; another order's credit note id is a 404 here.
  expect((await page.request.get(`/orders/${orderId}/invoice.pdf`)).status()).toBe(200)
  expect((await page.request.get(`/orders/${orderId}/credit-notes/CN_nope`)).status()).toBe(404)
  // The result page of the refunded order says so, instead of 'Payment Successful!'.
  await page.goto(`/payment/callback?ORDERID=${orderId}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment refunded')
  await expect(page).toHaveTitle(/^Payment refunded \| /)
  await screenshotWidthsAndThemes(page, 'result-page-refunded')
  await expect(page.getByText('Your payment has been refunded.', { exact: false })).toBeVisible()
  await expect(page.getByText('Thank you for your purchase.')).toHaveCount(0)
  await expect(page.getByText('We have e-mailed the link', { exact: false })).toHaveCount(0)
  await expect(page.getByRole('main').getByRole('link', { name: 'View order' })).toHaveAttribute(
    'href',
    `/orders/${orderId}`,
  )
})

test('a part refund: the question names the amount, the form starts again, the page follows the answer', async ({
  page,
}) => {
  const email = `part.${crypto.randomBytes(4).toString('hex')}@example.test`
  const orderId = await buy(page, 'Paytm', email)
  await logIn(page)
  await page.goto(`/admin/orders/${orderId}`)
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  const card = page.locator('#action-gateway-refund')
  const key = card.locator('input[name="refundKey"]')
  const first = await key.inputValue()
  await card.getByLabel('Amount in rupees').fill('500')
  await card.getByRole('button', { name: 'Refund' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Refund through the gateway?' })
  await expect(dialog).toContainText(
    `Refund ₹500 to ${email} through Paytm? That is part of the ₹1,499 left to refund.`,
  )
  await dialog.screenshot({ path: test.info().outputPath('part-refund-question.png') })
  await dialog.getByRole('button', { name: 'Refund ₹500' }).click()
  await expect(page.getByText(/sent to Paytm/)).toBeVisible({ timeout: 30_000 })
  // Without a reload: the form starts again with what is left (the box typed in was reset), under
  // a key of its own (a second refund under the first's key would be taken for a repeat).
  await expect(card.getByLabel('Amount in rupees')).toHaveValue('999.00')
  await expect(key).not.toHaveValue(first)
  // Paytm answers at its next status check, 10 s on; the page asks again by itself.
  const refunds = page.getByRole('region', { name: 'Refunds' })
  await expect(refunds.getByText('Refunded', { exact: true })).toBeVisible({ timeout: 45_000 })
  expect(await refundsOf(orderId)).toEqual([
    { status: 'processed', amount: 50_000, gatewayRefundId: expect.stringMatching(/^\d+$/) },
  ])
  // The orders list says so beside the status, which stays Delivered: the order is still a sale.
  await page.goto(`/admin/orders?q=${orderId}`)
  const row = page.getByRole('row').filter({ hasText: orderId })
  await expect(row).toContainText('Delivered')
  await expect(row).toContainText('Part refunded ₹500')
  await screenshotWidthsAndThemes(page, 'orders-part-refunded')
})

test('a refund through Razorpay: confirmed by refund.processed, item revoked, buyer e-mailed', async ({
  page,
}) => {
  const email = `rzp.${crypto.randomBytes(4).toString('hex')}@example.test`
  const orderId = await buy(page, 'Razorpay', email)
  await logIn(page)
  await refundInFull(page, orderId, 'Razorpay', email)
  const rows = await refundsOf(orderId)
  expect(rows).toEqual([
    { status: 'processed', amount: 149_900, gatewayRefundId: expect.stringMatching(/^rfnd_/) },
  ])
  // No Refund is offered once everything went back; the manual record stays for refunds outside.
  await expect(page.locator('#action-gateway-refund')).toHaveCount(0)

  // A warning on the timeline (a later refund that may have paid twice) is marked for a look;
  // the refund's own entries are not.
  const warning =
    'Razorpay reports a refund of ₹1,499 processed (webhook) after the order was already refunded'
  await appendOrderEvent(db, orderId, {
    type: 'refund_warning',
    message: warning,
    actor: 'gateway',
  })
  await page.reload()
  const timeline = page.getByRole('region', { name: 'Timeline' })
  await expect(timeline.getByRole('listitem').filter({ hasText: warning })).toContainText(
    `Check${warning}`,
  )
  await expect(timeline.getByText('Check', { exact: true })).toHaveCount(1)
  await timeline.screenshot({ path: test.info().outputPath('timeline-check.png') })

  // A refund whose credit note is missing (it failed, or came before credit notes were kept):
  // the page says so and 'Issue credit note' issues it, once, and e-mails the buyer.
  await db.deleteFrom('creditNote').where('orderId', '=', orderId).execute()
  await page.reload()
  const documents = page.getByRole('region', { name: 'Invoice and credit notes' })
  await expect(documents).toContainText(
    '₹1,499 refunded has no credit note. Issue one from Actions so the refund is documented',
  )
  // A refunded sale's invoice is offered again with its credit note, not without.
  await expect(documents.getByRole('link', { name: 'Invoice' })).toHaveCount(0)
  const issue = page.locator('#action-credit-note')
  await issue.getByRole('button', { name: 'Issue credit note' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Issue the credit note?' })
  await expect(dialog).toContainText(
    `A credit note for ₹1,499, dated today, is added to order ${orderId}`,
  )
  await dialog.getByRole('button', { name: 'Issue credit note' }).click()
  await expect(
    page.getByText('Credit note TEST (not numbered) issued; the buyer has been e-mailed.'),
  ).toBeVisible()
  await expect(
    documents.getByRole('link', { name: 'Credit note TEST (not numbered)' }),
  ).toBeVisible()
  await expect(documents.getByRole('link', { name: 'Invoice' })).toBeVisible()
  await expect(documents).not.toContainText('has no credit note')
  await expect(page.locator('#action-credit-note')).toHaveCount(0)
  await expect(
    page.getByText('Credit note TEST (not numbered) issued for ₹1,499 refunded'),
  ).toBeVisible()
  await expect
    .poll(() => smtp.mails.filter((mail) => mail.subject === `Credit note for order ${orderId}`))
    .toHaveLength(1)
  const mail = smtp.mails.find((mail) => mail.subject === `Credit note for order ${orderId}`)!
  expect(mail.text).toContain('Our credit note for the ₹1,499 we refunded for StreamVerse')
  // A stale form posted again (another tab) issues nothing more.
  const again = await page.request.post(`/admin/orders/${orderId}`, {
    form: { intent: 'credit-note', confirmed: 'yes' },
    maxRedirects: 0,
  })
  expect(again.status()).toBe(302)
  expect(
    await db.selectFrom('creditNote').select('id').where('orderId', '=', orderId).execute(),
  ).toHaveLength(1)
  const { entries } = await listAuditEntries(db, { targetId: orderId })
  expect(entries.filter((entry) => entry.action === 'order.credit-note')).toHaveLength(1)

  // Had it been a live sale with GST, paid in January 2026 (financial year 2025-26), the action
  // would say that its credit note reduces that GST only until 30 November 2026.
  await updateSiteSettings(db, { sellerGstin: '29ABCDE1234F1Z5' })
  try {
    await db
      .updateTable('order')
      .set({ testMode: 0, paidAt: '2026-01-15T06:00:00.000Z' })
      .where('id', '=', orderId)
      .execute()
    await db.deleteFrom('creditNote').where('orderId', '=', orderId).execute()
    // The shop's processes see the new settings within a second (docs/page-cache.md).
    await expect(async () => {
      await page.reload()
      await expect(page.locator('#action-credit-note')).toContainText(
        /This sale was made in 2025-26: (its credit note reduces the GST paid on it only if issued by 30 November 2026|a credit note issued after 30 November 2026 no longer reduces the GST paid on it)/,
        { timeout: 1000 },
      )
    }).toPass({ timeout: 10_000 })
  } finally {
    await updateSiteSettings(db, { sellerGstin: '' })
  }
})

test('a refund through PhonePe: confirmed by its refund status, item revoked, buyer e-mailed', async ({
  page,
}) => {
  const email = `phonepe.${crypto.randomBytes(4).toString('hex')}@example.test`
  const orderId = await buy(page, 'PhonePe', email)
  expect((await getOrder(db, orderId))?.gateway).toBe('phonepe')
  await logIn(page)
  const mail = await refundInFull(page, orderId, 'PhonePe', email)
  expect(mail.text).toContain('We have refunded ₹1,499 for StreamVerse')
  const rows = await refundsOf(orderId)
  // PhonePe's own refund id (OMR...) is kept beside ours.
  expect(rows).toEqual([
    { status: 'processed', amount: 149_900, gatewayRefundId: expect.stringMatching(/^OMR/) },
  ])
  await expect(page.locator('#action-gateway-refund')).toHaveCount(0)
})

test("'Confirm payment' on a Razorpay order asks Razorpay, not Paytm, and shows its answer", async ({
  page,
}) => {
  const email = `rzp.pending.${crypto.randomBytes(4).toString('hex')}@example.test`
  await checkoutAt(page, 'Razorpay', email)
  await page.getByRole('button', { name: 'Simulate pending' }).click()
  await page.waitForURL(/\/payment\/callback/, { timeout: 30_000 })
  const order = await orderOf(email)
  await expectOrderStatus(db, order.id, 'pending')

  await logIn(page)
  await page.goto(`/admin/orders/${order.id}`)
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  const actions = page.getByRole('region', { name: 'Actions' })
  await expect(actions).toContainText('asks Razorpay about this order')
  await actions.getByRole('button', { name: 'Confirm payment and deliver' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Confirm payment and deliver?' })
  await dialog.getByRole('button', { name: 'Ask Razorpay and deliver' }).click()
  // The payment is only authorised at Razorpay: its answer is shown, and nothing changes.
  await expect(
    page.getByText(/^Razorpay does not confirm this payment \(.+\)\. Nothing was changed\.$/),
  ).toBeVisible()
  await expect(
    page.getByRole('region', { name: 'Timeline' }).getByRole('listitem').last(),
  ).toContainText('Checked with Razorpay by an admin')
  await expectOrderStatus(db, order.id, 'pending')
})

test('Test connection: the simulators accept; Razorpay refuses wrong keys in its own words', async ({
  page,
}) => {
  await logIn(page)
  await page.goto('/admin/gateways')
  await testConnection(
    page,
    'Paytm',
    'Connected. The built-in Paytm simulator accepted the merchant ID and key',
  )
  // Razorpay with keys of its own (testing): they go to RAZORPAY_HOST, which refuses them.
  await addGatewayInTesting(db, 'razorpay', 5)
  await page.goto('/admin/gateways?edit=razorpay')
  await saveCredentials(page, { 'Key ID': 'rzp_test_WrongKey1234', 'Key Secret': 'not-the-secret' })
  await testConnection(
    page,
    'Razorpay',
    'Connection failed. The gateway refused the credentials: HTTP 401 Authentication failed',
  )
  // Back to the simulator for the next test.
  await dropOwnCredentials('razorpay')
  await page.reload()
  await testConnection(
    page,
    'Razorpay',
    'Connected. The built-in Razorpay simulator accepted the key ID and secret.',
  )
})

test("an edit form opened before another admin's save is refused, also after Test connection reloads the page", async ({
  page,
}) => {
  await logIn(page)
  await page.goto('/admin/gateways?edit=razorpay')
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  await page.getByLabel('Name').fill('Razorpay (mine)')
  // Another admin renames it meanwhile.
  await db
    .updateTable('paymentGateway')
    .set({ name: 'Razorpay (theirs)' })
    .where('id', '=', 'razorpay')
    .execute()
  // Test connection posts from the card and the page's data is read again, the form kept open.
  await testConnection(
    page,
    'Razorpay',
    'Connected. The built-in Razorpay simulator accepted the key ID and secret.',
  )
  await expect(page.getByLabel('Name')).toHaveValue('Razorpay (mine)')
  await page.getByRole('button', { name: 'Save Gateway' }).click()
  await expect(
    page.getByText('This gateway was changed by someone else since you opened it'),
  ).toBeVisible()
  const stored = await db
    .selectFrom('paymentGateway')
    .select('name')
    .where('id', '=', 'razorpay')
    .executeTakeFirstOrThrow()
  expect(stored.name).toBe('Razorpay (theirs)')
  await db
    .updateTable('paymentGateway')
    .set({ name: 'Razorpay' })
    .where('id', '=', 'razorpay')
    .execute()
})

test('the arrows set the order in which checkout offers the gateways (without JavaScript too)', async ({
  browser,
  baseURL,
}) => {
  const { context, page } = await logInWithoutJavaScript(browser, baseURL)
  await page.goto('/admin/gateways')
  // PhonePe has no record yet: its simulator's card comes after the records, with no arrows.
  const cards = page.getByRole('list', { name: 'Gateways' }).getByRole('heading', { level: 2 })
  await expect(cards).toHaveText(['Paytm', 'Razorpay', 'PhonePe'])
  await expect(page.getByRole('button', { name: /Move PhonePe/ })).toHaveCount(0)
  const firstChoice = async () => {
    await page.goto(`/checkout/${PRODUCT.slug}`)
    return page.getByRole('group', { name: 'Pay with' }).getByRole('radio').first()
  }
  await expect(await firstChoice()).toHaveAccessibleName(/Paytm/)

  await page.goto('/admin/gateways')
  await expect(page.getByRole('button', { name: 'Move Paytm up' })).toBeDisabled()
  await page.getByRole('button', { name: 'Move Razorpay up' }).click()
  await expect(cards).toHaveText(['Razorpay', 'Paytm', 'PhonePe'])
  await expect(await firstChoice()).toHaveAccessibleName(/Razorpay/)
  const moves = await db
    .selectFrom('auditLog')
    .select(['action', 'summary'])
    .where('action', '=', 'gateway.move')
    .execute()
  expect(moves).toEqual([
    { action: 'gateway.move', summary: 'Moved the Razorpay gateway up in the checkout order' },
  ])

  await page.goto('/admin/gateways')
  await page.getByRole('button', { name: 'Move Razorpay down' }).click()
  await expect(cards).toHaveText(['Paytm', 'Razorpay', 'PhonePe'])
  await expect(await firstChoice()).toHaveAccessibleName(/Paytm/)
  await context.close()
})

// After the arrows test, which counts the cards: this one adds a PhonePe record.
test('Test connection of PhonePe: the simulator issues a token; a wrong secret is refused', async ({
  page,
}) => {
  await logIn(page)
  // PhonePe in testing with credentials of its own: they go to PHONEPE_HOST, which refuses them.
  await addGatewayInTesting(db, 'phonepe', 6)
  await page.goto('/admin/gateways?edit=phonepe')
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  await saveCredentials(page, {
    'Client ID': 'SIMTEST_NotThisShop01',
    'Client Secret': 'not-the-secret',
  })
  await testConnection(
    page,
    'PhonePe',
    'Connection failed. The gateway refused the credentials: PhonePe token: HTTP 401',
  )

  // Without credentials the testing record uses the built-in simulator, which issues a token.
  await dropOwnCredentials('phonepe')
  await page.reload()
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  await testConnection(
    page,
    'PhonePe',
    'Connected. The built-in PhonePe simulator issued a token for the client ID and secret.',
  )
})

test('screenshots of the order page refund and the gateways page', async ({ page }) => {
  await logIn(page)
  const email = `shot.${crypto.randomBytes(4).toString('hex')}@example.test`
  const orderId = await buy(page, 'Paytm', email)
  for (const width of [390, 1280]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 900 })
      await page.emulateMedia({ colorScheme: scheme })
      await page.goto(`/admin/orders/${orderId}`)
      await page.screenshot({
        path: test.info().outputPath(`order-refund-${width}-${scheme}.png`),
        fullPage: true,
      })
      await page.goto('/admin/gateways')
      await page.screenshot({
        path: test.info().outputPath(`gateways-${width}-${scheme}.png`),
        fullPage: true,
      })
    }
  }
})
