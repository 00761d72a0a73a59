import AxeBuilder from '@axe-core/playwright'
import fs from 'node:fs'
import type { Page } from '@playwright/test'
import { createOrderReport } from '~/services/order-reports.server'
import { createOrder, type CustomerDetails, type Order } from '~/data/order.server'
import { markOrderPaid } from '~/services/fulfilment.server'
import { orderCounts } from '~/data/order-admin.server'
import { sql } from 'kysely'
import type { DB } from '~/lib/db.server'
import { simulatorMerchant } from '~/services/payment/config.server'
import { adminTest } from '../helpers/admin'
import { screenshotWidthsAndThemes } from '../helpers/screenshots'
import { expect, gotoHydrated } from '../helpers/fixtures'
import { makeCustomer, makePaidOrder, makeProduct } from '../factories'
import { formatRupees } from '~/lib/money'
import { saveCustomerBusiness } from '~/data/customer-gst.server'
import { smtpServerFixture, type TestSmtpServer } from '../helpers/smtp'

/**
 * The admin's orders in the production build with the built-in Paytm simulator and a
 * real SMTP server: the list with its counts, search, filters and CSV export; an order's page
 * with its timeline; and the recovery actions: deliver manually, replace, reply, refund, and
 * confirm payment and deliver for a payment whose callback never reached the shop.
 */
const OWNER = { name: 'Shop Owner', email: 'owner@example.test', password: 'secret12' }
const APP_SECRET = 'admin-orders-e2e-secret-0123456789abcdefghijklmnop'

const admin = adminTest(OWNER)
const { logIn, logInWithoutJavaScript } = admin
const test = admin.test.extend<object, { smtp: TestSmtpServer }>({
  smtp: smtpServerFixture,
  ownerMailbox: [
    async ({ smtp }, use) => {
      await use(smtp)
    },
    { scope: 'worker' },
  ],
  appEnv: [
    async ({ smtp }, use) => {
      await use({
        APP_SECRET,
        SMTP_URL: smtp.url,
        // The simulator's test controls: make Paytm hold a payment the shop never heard of.
        PAYTM_SIMULATOR_CONTROL: '1',
      })
    },
    { scope: 'worker' },
  ],
})
let db: DB
let smtp: TestSmtpServer
test.beforeAll(({ db: opened, smtp: server }) => {
  db = opened
  smtp = server
})

let txn = 0

/** A demo product sold from stock with at least `items` items left. */
async function stockProduct(items = 2) {
  const rows = await db
    .selectFrom('product')
    .innerJoin('stockItem', 'stockItem.productId', 'product.id')
    .select((eb) => ['product.id', 'product.title', eb.fn.countAll<number>().as('left')])
    .where('product.deliveryMode', '=', 'stock')
    // The demo has sold-out products that still hold items; an order cannot be placed for them.
    .where('product.inStock', '=', 1)
    .where('stockItem.status', '=', 'available')
    .groupBy(['product.id', 'product.title'])
    .execute()
  const product = rows.find((row) => Number(row.left) >= items)
  if (!product) throw new Error('no demo product with stock left')
  return product
}

async function newOrder(productId: string, customer: CustomerDetails): Promise<Order> {
  return (await createOrder(db, { productId, customer, testMode: true })).order
}

/** Paid as a verified callback would have paid it: delivery runs in the same transaction. */
async function paid(order: Order): Promise<void> {
  txn += 1
  await markOrderPaid(
    db,
    order.id,
    {
      txnId: `E2E${Date.now()}${txn}`,
      bankTxnId: null,
      paymentMode: 'UPI',
      paidAmount: order.amount,
      status: 'TXN_SUCCESS',
      respCode: '01',
      respMsg: 'Txn Success',
    },
    { message: 'Payment confirmed by Paytm (callback)', actor: 'gateway' },
  )
}

const orderUrl = (id: string) => `/admin/orders/${encodeURIComponent(id)}`
const statusLine = (page: Page) => page.getByRole('main').locator('p', { hasText: 'Status:' })
const actions = (page: Page) => page.getByRole('region', { name: 'Actions' })
const timeline = (page: Page) => page.getByRole('region', { name: 'Timeline' })

/** Confirms in the app's dialog (JavaScript on). */
async function confirmDialog(page: Page, title: string, button: string) {
  const dialog = page.getByRole('alertdialog', { name: title })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: button }).click()
}

function mailsTo(email: string, subject: string) {
  return smtp.mails.filter((mail) => mail.to.includes(email) && mail.subject.startsWith(subject))
}

test.describe.serial('admin orders', () => {
  let delivered: Order
  let pendingFarah: Order
  let manualPaid: Order

  test.beforeAll(async () => {
    const stock = await stockProduct(3)
    delivered = await newOrder(stock.id, {
      name: 'Kiran Desai',
      email: 'kiran@example.in',
      phone: '9811111111',
    })
    await paid(delivered)
    await createOrderReport(db, {
      orderId: delivered.id,
      reason: 'The password is not accepted on my TV',
      reportedBy: 'customer',
    })
    pendingFarah = await newOrder(stock.id, {
      name: 'Farah Khan',
      email: 'farah@example.in',
      phone: '9822222222',
    })
    const manual = await makeProduct(db, { title: 'Handpicked Family Plan' })
    manualPaid = await newOrder(manual.id, {
      name: 'Rohit Shetty',
      email: 'rohit@example.in',
      phone: '9833333333',
    })
    await paid(manualPaid)
    // A name a spreadsheet would run as a formula.
    await newOrder(manual.id, {
      name: '=HYPERLINK("http://evil.test","Refund")',
      email: 'sly@example.in',
      phone: '9844444444',
    })
  })

  test('the list: counts per status, search, status and open-report filters, CSV export', async ({
    page,
  }) => {
    await logIn(page)
    await gotoHydrated(page, '/admin/orders')
    await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible()
    // The sidebar's Orders entry is a link now, with the open report as a badge.
    const nav = page.getByRole('navigation', { name: 'Admin' })
    await expect(nav.getByRole('link', { name: /^Orders\W*1 open report$/ })).toHaveAttribute(
      'aria-current',
      'page',
    )

    const counts = await orderCounts(db)
    const chips = page.getByRole('navigation', { name: 'Orders by status' })
    await expect(chips.getByRole('link', { name: /^All orders/ })).toHaveText(
      `All orders${counts.total}`,
    )
    await expect(chips.getByRole('link', { name: /^Pending/ })).toHaveText(
      `Pending${counts.byStatus.pending}`,
    )
    await expect(chips.getByRole('link', { name: /^Delivered/ })).toHaveText(
      `Delivered${counts.byStatus.delivered}`,
    )
    await expect(chips.getByRole('link', { name: /^Open reports/ })).toHaveText('Open reports1')

    const table = page.getByRole('table')
    await page.getByLabel('Search by customer, order ID or product').fill('farah')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page).toHaveURL('/admin/orders?q=farah')
    await expect(table.getByRole('rowheader')).toHaveText([pendingFarah.id])
    const row = table.getByRole('row').filter({ hasText: pendingFarah.id })
    await expect(row).toContainText('Farah Khan')
    await expect(row).toContainText('farah@example.in')
    await expect(row).toContainText('₹')
    await expect(row).toContainText('Pending')
    await expect(row).toContainText('Test')

    // By order id, then by status (applies at once), then only open reports.
    await page.getByLabel('Search by customer, order ID or product').fill(delivered.id)
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(table.getByRole('rowheader')).toHaveText([delivered.id])
    await page.getByRole('link', { name: 'Clear' }).click()
    await expect(page).toHaveURL('/admin/orders')
    await expect(page.getByLabel('Search by customer, order ID or product')).toHaveValue('')
    await page.getByLabel('Status', { exact: true }).selectOption('paid')
    await expect(page).toHaveURL('/admin/orders?status=paid')
    await expect(table.getByRole('rowheader')).toContainText([manualPaid.id])
    for (const paidRow of await table
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader') })
      .all())
      await expect(paidRow).toContainText('Paid')
    await page.getByLabel('Status', { exact: true }).selectOption('')
    await expect(page).toHaveURL('/admin/orders')
    await page.getByLabel('Only open reports').check()
    await expect(page).toHaveURL('/admin/orders?reports=open')
    await expect(table.getByRole('rowheader')).toHaveText([delivered.id])
    await expect(table.getByRole('row').filter({ hasText: delivered.id })).toContainText('Report')

    // Export what the filters show: a CSV download with the same rows.
    await page.getByLabel('Only open reports').uncheck()
    await expect(page).toHaveURL('/admin/orders')
    await page.getByLabel('Search by customer, order ID or product').fill('example.in')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page).toHaveURL('/admin/orders?q=example.in')
    const downloading = page.waitForEvent('download')
    await page.getByRole('link', { name: /Export CSV/ }).click()
    const download = await downloading
    expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/)
    const csv = fs.readFileSync(await download.path(), 'utf8')
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
    expect(lines[0]).toBe(
      'Order ID,Date,Customer Name,Email,Phone,Product,Amount,Status,Gateway,Transaction ID,Test Mode,Open Report,Refunded',
    )
    expect(lines).toHaveLength(5)
    const kiran = lines.find((line) => line.startsWith(`${delivered.id},`))!
    expect(kiran).toContain(',Kiran Desai,kiran@example.in,9811111111,')
    expect(kiran).toContain(`,${(delivered.amount / 100).toFixed(2)},Delivered,paytm,E2E`)
    expect(kiran.endsWith(',Yes,Yes,0.00')).toBe(true)
    expect(lines.find((line) => line.startsWith(`${pendingFarah.id},`))).toMatch(
      /,Pending,paytm,,Yes,No,0\.00$/,
    )
    // The formula is written as text, not as something Excel would run.
    expect(csv).toContain(`,"'=HYPERLINK(""http://evil.test"",""Refund"")",sly@example.in,`)
    expect(csv).not.toMatch(/,=HYPERLINK/)

    const results = await new AxeBuilder({ page }).analyze()
    expect(results.violations.map((violation) => violation.id)).toEqual([])
  })

  test("an order's page: the facts, the delivered item behind Reveal, the timeline with who did what", async ({
    page,
    extraHTTPHeaders,
  }) => {
    await logIn(page)
    await gotoHydrated(page, orderUrl(delivered.id))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Order ${delivered.id}`)
    await expect(statusLine(page)).toContainText('Delivered')
    await expect(statusLine(page)).toContainText('Test')
    await expect(statusLine(page)).toContainText('Report')
    const summary = page.getByRole('region', { name: 'Summary' })
    await expect(summary.getByRole('link', { name: 'kiran@example.in' })).toHaveAttribute(
      'href',
      'mailto:kiran@example.in',
    )
    await expect(summary.getByText('Guest checkout (not signed in)')).toBeVisible()
    await expect(summary.getByText('From stock (one item per order)')).toBeVisible()
    // A chat with the buyer, the order id filled in.
    const chat = new URL(
      (await summary.getByRole('link', { name: /WhatsApp the buyer/ }).getAttribute('href'))!,
    )
    expect(chat.origin + chat.pathname).toBe('https://wa.me/919811111111')
    expect(chat.searchParams.get('text')).toBe(
      `Hello Kiran Desai, about your KeyBazaar order ${delivered.id}: `,
    )
    await screenshotWidthsAndThemes(page, 'order-page')
    await page.setViewportSize({ width: 1280, height: 720 })

    const steps = timeline(page).getByRole('listitem')
    await expect(steps).toHaveCount(4)
    await expect(steps.nth(0)).toContainText('Order created for')
    await expect(steps.nth(0)).toContainText('by Buyer')
    await expect(steps.nth(1)).toContainText('Payment confirmed by Paytm (callback)')
    await expect(steps.nth(1)).toContainText('by Paytm')
    await expect(steps.nth(1)).toContainText('Pending → Paid')
    await expect(steps.nth(2)).toContainText('Delivered from stock')
    await expect(steps.nth(3)).toContainText(
      'Buyer reported a problem: The password is not accepted on my TV',
    )

    const item = page.getByRole('region', { name: 'Delivered item' })
    await expect(item.getByText(/demo-user-/)).toHaveCount(0)
    await item.getByRole('button', { name: 'Reveal' }).click()
    await expect(page.getByRole('region', { name: 'The delivered item' })).toContainText(
      /demo-user-\d+@example\.test/,
    )
    await expect(steps).toHaveCount(5)
    await expect(steps.nth(4)).toContainText('Delivered item revealed (admin)')
    await expect(steps.nth(4)).toContainText('by Shop Owner (owner@example.test)')
    // The address the browser spoke from (the test fixtures give each test one of its own).
    await expect(steps.nth(4)).toContainText(`IP ${extraHTTPHeaders!['X-Forwarded-For']}`)

    const results = await new AxeBuilder({ page }).analyze()
    expect(results.violations.map((violation) => violation.id)).toEqual([])
  })

  test('deliver manually: a paid order of a manual product gets the details the admin enters', async ({
    page,
  }) => {
    await logIn(page)
    await gotoHydrated(page, orderUrl(manualPaid.id))
    await expect(statusLine(page)).toContainText('Paid')
    await expect(page.getByRole('region', { name: 'Delivered item' })).toContainText(
      'Nothing has been delivered for this order yet.',
    )
    const box = actions(page).getByLabel('Account details or key')
    // Only spaces: the form says what is missing before anything is asked, and nothing changes.
    await box.fill('   ')
    await actions(page).getByRole('button', { name: 'Deliver', exact: true }).click()
    await expect(
      actions(page).getByText('Enter the account details or licence key to deliver.'),
    ).toBeVisible()
    await expect(box).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByRole('alertdialog')).toHaveCount(0)
    await expect(statusLine(page)).toContainText('Paid')

    await box.fill('Email: family@example.in\nPassword: Fam-2026!')
    await actions(page).getByRole('button', { name: 'Deliver', exact: true }).click()
    await confirmDialog(page, 'Deliver these details?', 'Deliver')
    await expect(page.getByText('Delivered; the buyer has been e-mailed.')).toBeVisible()
    await expect(statusLine(page)).toContainText('Delivered')
    await expect(timeline(page).getByRole('listitem').last()).toContainText(
      'Delivered by hand by an admin',
    )
    await expect(timeline(page).getByRole('listitem').last()).toContainText(
      'by Shop Owner (owner@example.test)',
    )
    await expect(timeline(page).getByRole('listitem').last()).toContainText('Paid → Delivered')

    await page
      .getByRole('region', { name: 'Delivered item' })
      .getByRole('button', { name: 'Reveal' })
      .click()
    const revealed = page.getByRole('region', { name: 'The delivered item' })
    await expect(revealed.getByRole('term')).toHaveText(['Email', 'Password'])
    await expect(revealed.getByRole('definition')).toHaveText(['family@example.in', 'Fam-2026!'])

    // The buyer's delivery e-mail, with a link to the order page (no credentials in it).
    await expect
      .poll(() => mailsTo('rohit@example.in', `Your order ${manualPaid.id} is ready`).length, {
        timeout: 15_000,
      })
      .toBe(1)
    const mail = mailsTo('rohit@example.in', `Your order ${manualPaid.id} is ready`)[0]!
    expect(mail.text).toMatch(new RegExp(`/orders/${manualPaid.id}/[A-Za-z0-9_-]{20,}`))
    expect(mail.text).not.toContain('Fam-2026!')
  })

  test('reply to a report, replace the item from stock, mark refunded', async ({ page }) => {
    await logIn(page)
    await gotoHydrated(page, orderUrl(delivered.id))
    const reports = page.getByRole('region', { name: 'Problem reports' })
    await expect(reports.getByRole('listitem')).toHaveCount(1)
    await expect(reports).toContainText('Open')
    await expect(reports).toContainText('The password is not accepted on my TV')

    await actions(page)
      .getByLabel('Reply to the buyer')
      .fill('Please sign out on the TV first, then use the new code.')
    await actions(page).getByRole('button', { name: 'Send reply' }).click()
    await confirmDialog(page, 'Send this reply?', 'Send reply')
    await expect(page.getByText('Reply sent; the report is resolved.')).toBeVisible()
    await expect(reports).toContainText('Resolved with a reply')
    await expect(reports).toContainText('Please sign out on the TV first, then use the new code.')
    await expect(reports).toContainText('by Shop Owner (owner@example.test)')
    await expect(statusLine(page)).not.toContainText('Report')
    await expect(actions(page).getByRole('heading', { name: 'Reply to the report' })).toHaveCount(0)
    await expect
      .poll(
        () => mailsTo('kiran@example.in', `About your report on order ${delivered.id}`).length,
        { timeout: 15_000 },
      )
      .toBe(1)
    expect(mailsTo('kiran@example.in', 'About your report')[0]!.text).toContain(
      'Please sign out on the TV first',
    )

    await actions(page)
      .getByLabel('Reason (optional, kept with the revoked item)')
      .fill('Password changed by the account owner')
    await actions(page).getByRole('button', { name: 'Replace item' }).click()
    await confirmDialog(page, 'Replace the item from stock?', 'Replace item')
    await expect(
      page.getByText('The item was replaced from stock; the buyer has been e-mailed.'),
    ).toBeVisible()
    const items = page.getByRole('region', { name: 'Delivered item' }).getByRole('listitem')
    await expect(items).toHaveCount(2)
    await expect(items.nth(0)).toContainText('Revoked')
    await expect(items.nth(0)).toContainText('Password changed by the account owner')
    await expect(items.nth(1)).toContainText('Live')
    await expect(timeline(page).getByRole('listitem').last()).toContainText(
      'Item replaced from stock: Password changed by the account owner',
    )
    await expect
      .poll(() => mailsTo('kiran@example.in', `Replacement for order ${delivered.id}`).length, {
        timeout: 15_000,
      })
      .toBe(1)

    await expect(actions(page).getByText('KeyBazaar does not send money back itself')).toBeVisible()
    // It says how much it records: all of the payment (nothing went back through Paytm).
    await expect(
      actions(page).getByText(
        `It records all that is left of the payment (${formatRupees(delivered.amount)}) as refunded, with a credit note for it`,
      ),
    ).toBeVisible()
    await actions(page).getByLabel('Refund note (required)').fill('Paytm refund 20261121-4471')
    await actions(page).getByRole('button', { name: 'Mark refunded' }).click()
    await confirmDialog(page, 'Mark this order refunded?', 'Mark refunded')
    await expect(page.getByText('Marked refunded; the buyer has been e-mailed.')).toBeVisible()
    await expect(statusLine(page)).toContainText('Refunded')
    await expect(page.getByRole('region', { name: 'Delivered item' })).toContainText(
      'Refunded: the buyer no longer sees the item delivered for this order.',
    )
    await expect(actions(page)).toContainText('No action applies to an order that is refunded.')
    const last = timeline(page).getByRole('listitem').last()
    await expect(last).toContainText('Marked refunded: Paytm refund 20261121-4471')
    await expect(last).toContainText('Delivered → Refunded')
    await expect
      .poll(() => mailsTo('kiran@example.in', `Refund for order ${delivered.id}`).length, {
        timeout: 15_000,
      })
      .toBe(1)
  })

  test('confirm payment and deliver: Paytm holds a payment whose callback never arrived; a second confirm says it is paid', async ({
    page,
    context,
    app,
  }) => {
    const stock = await stockProduct(1)
    const missed = await newOrder(stock.id, {
      name: 'Meena Pillai',
      email: 'meena@example.in',
      phone: '9855555555',
    })
    const failed = await newOrder(stock.id, {
      name: 'Vikram Rao',
      email: 'vikram@example.in',
      phone: '9866666666',
    })
    // The embedded simulator now holds a success (and a failure) for them; the shop heard nothing.
    const { mid } = simulatorMerchant(APP_SECRET)
    for (const [order, status] of [
      [missed, 'TXN_SUCCESS'],
      [failed, 'TXN_FAILURE'],
    ] as const) {
      const response = await fetch(
        `${app.url}/__simulator/paytm/__control/transactions/${order.id}`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ status, mid, amountPaise: order.amount }),
        },
      )
      expect(response.status).toBe(200)
    }

    await logIn(page)
    // A second tab opened on the same order before the first one confirms it.
    const stale = await context.newPage()
    await gotoHydrated(page, orderUrl(missed.id))
    await gotoHydrated(stale, orderUrl(missed.id))
    await expect(statusLine(page)).toContainText('Pending')
    await expect(actions(page)).toContainText('asks the built-in Paytm simulator about this order')

    await actions(page).getByRole('button', { name: 'Confirm payment and deliver' }).click()
    await confirmDialog(page, 'Confirm payment and deliver?', 'Ask Paytm and deliver')
    await expect(
      page.getByText('Payment confirmed with Paytm: the order was delivered.'),
    ).toBeVisible()
    await expect(statusLine(page)).toContainText('Delivered')
    const steps = timeline(page).getByRole('listitem')
    await expect(steps.filter({ hasText: 'confirmed with Paytm by an admin' })).toContainText(
      'by Shop Owner (owner@example.test)',
    )
    await expect(steps.filter({ hasText: 'confirmed with Paytm by an admin' })).toContainText(
      'Pending → Paid',
    )
    await expect(steps.last()).toContainText('Delivered from stock')
    await expect
      .poll(() => mailsTo('meena@example.in', `Your order ${missed.id} is ready`).length, {
        timeout: 15_000,
      })
      .toBe(1)

    await actions(stale).getByRole('button', { name: 'Confirm payment and deliver' }).click()
    await confirmDialog(stale, 'Confirm payment and deliver?', 'Ask Paytm and deliver')
    await expect(
      stale.getByText(`Order ${missed.id} is already paid (delivered). Nothing was changed.`),
    ).toBeVisible()
    await expect(statusLine(stale)).toContainText('Delivered')
    await expect(
      timeline(stale).getByRole('listitem').filter({ hasText: 'confirmed with Paytm by an admin' }),
    ).toHaveCount(1)

    // Paytm says the other payment failed: the answer is shown and the order stays as it was.
    await gotoHydrated(page, orderUrl(failed.id))
    await actions(page).getByRole('button', { name: 'Confirm payment and deliver' }).click()
    await confirmDialog(page, 'Confirm payment and deliver?', 'Ask Paytm and deliver')
    await expect(
      page.getByText(
        /^Paytm does not confirm this payment \(TXN_FAILURE, .+\)\. Nothing was changed\.$/,
      ),
    ).toBeVisible()
    await expect(statusLine(page)).toContainText('Pending')
    await expect(timeline(page).getByRole('listitem').last()).toContainText(
      'Checked with Paytm by an admin',
    )
  })

  test('without JavaScript every action asks on the page first, then does it', async ({
    browser,
    baseURL,
  }) => {
    const { context, page } = await logInWithoutJavaScript(browser, baseURL)
    await page.goto(orderUrl(manualPaid.id))
    // The server checks what was typed before it asks: a note of spaces is refused at its card.
    const note = actions(page).getByLabel('Refund note (required)')
    await note.fill('   ')
    await actions(page).getByRole('button', { name: 'Mark refunded' }).click()
    await expect(page).toHaveURL(new RegExp(`${orderUrl(manualPaid.id)}#action-refund$`))
    await expect(
      actions(page).getByText(
        "Enter a note, such as the refund reference from the gateway's dashboard.",
      ),
    ).toBeVisible()
    await expect(note).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByRole('region', { name: 'Mark this order refunded?' })).toHaveCount(0)
    await page.getByRole('button', { name: 'Resend e-mail' }).click()
    const ask = page.getByRole('region', { name: 'Send the delivery e-mail again?' })
    await expect(ask).toBeVisible()
    // The answer opens at the action's card, where the question is.
    await expect(page).toHaveURL(new RegExp(`${orderUrl(manualPaid.id)}#action-resend$`))
    const before = mailsTo('rohit@example.in', `Your order ${manualPaid.id} is ready`).length
    await ask.getByRole('button', { name: 'Send e-mail' }).click()
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: 'The delivery e-mail is on its way to the buyer.' }),
    ).toBeVisible()
    await expect(
      page.getByRole('region', { name: 'Timeline' }).getByRole('listitem').last(),
    ).toContainText('Delivery e-mail sent again')
    await expect
      .poll(() => mailsTo('rohit@example.in', `Your order ${manualPaid.id} is ready`).length, {
        timeout: 15_000,
      })
      .toBe(before + 1)
    await context.close()
  })

  test('an action that was done says so even when its audit entry cannot be written', async ({
    page,
    db,
    app,
  }) => {
    // The shop of these tests runs on SQLite (tests/helpers/admin.ts): a trigger fails the write.
    // The last test resent this order's mail moments ago, and a resend within a minute of another
    // is taken for a repeat: that one is dated a minute back.
    await db
      .updateTable('orderEvent')
      .set({ createdAt: new Date(Date.now() - 120_000).toISOString() })
      .where('orderId', '=', manualPaid.id)
      .where('type', '=', 'mail_resent')
      .execute()
    await logIn(page)
    await gotoHydrated(page, orderUrl(manualPaid.id))
    await sql`create trigger kb_test_no_audit before insert on audit_log begin select raise(abort, 'audit log unavailable'); end`.execute(
      db,
    )
    try {
      const before = mailsTo('rohit@example.in', `Your order ${manualPaid.id} is ready`).length
      await actions(page).getByRole('button', { name: 'Resend e-mail' }).click()
      await confirmDialog(page, 'Send the delivery e-mail again?', 'Send e-mail')
      await expect(page.getByText('The delivery e-mail is on its way to the buyer.')).toBeVisible()
      await expect(page.getByText('nothing was changed')).toHaveCount(0)
      expect(app.output()).toContain(
        `order action resend on ${manualPaid.id} done, but its audit entry was not written`,
      )
      await expect
        .poll(() => mailsTo('rohit@example.in', `Your order ${manualPaid.id} is ready`).length, {
          timeout: 15_000,
        })
        .toBe(before + 1)
    } finally {
      await sql`drop trigger kb_test_no_audit`.execute(db)
    }
  })

  test("a business buyer's order names the business its invoice is made out to", async ({
    page,
  }) => {
    const customer = await makeCustomer(db)
    await saveCustomerBusiness(db, customer.id, {
      businessName: 'Udyam Software Private Limited',
      gstin: '27AAPFU0939F1ZV',
      address: '4th Floor, Nariman Point, Mumbai 400021',
    })
    const order = await makePaidOrder(db, (await makeProduct(db)).id, { userId: customer.id })
    await logIn(page)
    await page.goto(`/admin/orders/${order.id}`)
    const fact = page
      .getByRole('term')
      .filter({ hasText: 'Invoiced to' })
      .locator('xpath=following-sibling::dd[1]')
    // The payment's mail numbers the invoice, which keeps the business, whatever the account
    // says later.
    await expect
      .poll(
        async () =>
          (
            await db
              .selectFrom('invoice')
              .select('buyerGstin')
              .where('orderId', '=', order.id)
              .executeTakeFirst()
          )?.buyerGstin,
      )
      .toBe('27AAPFU0939F1ZV')
    await saveCustomerBusiness(db, customer.id, null)
    await page.reload()
    await expect(fact).toHaveText(
      'Udyam Software Private LimitedGSTIN 27AAPFU0939F1ZV4th Floor, Nariman Point, Mumbai 400021',
    )
  })

  test('an order that does not exist is a clear 404', async ({ page }) => {
    await logIn(page)
    const response = await page.goto('/admin/orders/ORD_1_404')
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { name: 'Order not found' })).toBeVisible()
    await page.getByRole('link', { name: 'Back to Orders' }).click()
    await expect(page).toHaveURL('/admin/orders')
  })
})
