import fs from 'node:fs'
import path from 'node:path'
import { parse } from 'csv-parse/sync'
import type { Locator, Page } from '@playwright/test'
import { formatRupees } from '~/lib/money'
import { adminTest } from '../helpers/admin'
import { expect, gotoHydrated } from '../helpers/fixtures'
import { paymentForm, postCallback } from '../helpers/shop'
import { makeCustomer, makePaidOrder, makeProduct } from '../factories'
import { saveCustomerBusiness } from '~/data/customer-gst.server'
import { issueInvoiceNumber } from '~/data/invoice.server'
import { readSiteSettings, updateSiteSettings } from '~/data/settings.server'
import { gstToolDate } from '~/lib/gst'
import { markRefunded } from '~/services/order-actions.server'
import {
  simulatePayment,
  startPaytmSimulator,
  type RunningPaytmSimulator,
} from '../../simulators/paytm/testing'

/**
 * The dashboard and the transactions page over orders bought through the real checkout: the
 * checkout form posted, the payment answered at the gateway (the Paytm simulator standing in
 * for Paytm, configured by the environment, so the orders are live, not test mode), the signed
 * callback posted back. The figures on the pages must equal those orders, and the CSV export
 * must parse back to them with formula-like cells neutralised.
 */
const OWNER = { name: 'Dash Owner', email: 'dash.owner@example.test', password: 'secret12' }

const admin = adminTest(OWNER)
const { logIn } = admin
const test = admin.test.extend<object, { sim: RunningPaytmSimulator }>({
  sim: [
    // eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring form
    async ({}, use) => {
      const sim = await startPaytmSimulator()
      await use(sim)
      await sim.close()
    },
    { scope: 'worker' },
  ],
  appEnv: [
    async ({ sim }, use) => {
      await use({
        PAYTM_HOST: sim.url,
        PAYTM_MID: sim.mid,
        PAYTM_MERCHANT_KEY: sim.merchantKey,
        PAYTM_WEBSITE: 'WEBSTAGING',
        SEED_DEMO: '0',
      })
    },
    { scope: 'worker' },
  ],
})

const FORMULA_NAME = '=HYPERLINK("http://evil.example","Click")'
const QUOTED_NAME = 'Rao, "Kiran"'

interface Purchase {
  orderId: string
  name: string
  amount: number
  outcome: 'success' | 'failure'
}
const purchases: Purchase[] = []
// Each test walks several server-rendered pages; a busy machine (shared cores) needs the room.
test.describe.configure({ timeout: 120_000 })
let buyer = 0

/** A buyer's purchase without JavaScript: checkout form, the gateway's answer, the callback. */
async function buy(
  shopUrl: string,
  product: { slug: string; price: number },
  name: string,
  outcome: 'success' | 'failure',
) {
  buyer += 1
  const response = await fetch(`${shopUrl}/checkout/${product.slug}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-Forwarded-For': `10.77.0.${buyer}`,
    },
    body: new URLSearchParams({
      name,
      email: `dash.buyer${buyer}@example.test`,
      phone: `98765${String(buyer).padStart(5, '0')}`,
    }),
  })
  expect(response.status).toBe(200)
  const form = paymentForm(await response.text())
  const callback = await simulatePayment(
    { action: new URL(form.action, shopUrl).href, fields: form.fields },
    outcome,
  )
  expect(await postCallback(shopUrl, callback)).toBe(303)
  purchases.push({ orderId: form.fields.ORDER_ID!, name, amount: product.price, outcome })
}

test.beforeAll(async ({ app, db }) => {
  const alpha = await makeProduct(db, { title: 'Dash Alpha Suite', price: 99_900 })
  const beta = await makeProduct(db, { title: 'Dash Beta Pass', price: 49_900 })
  await buy(app.url, alpha, FORMULA_NAME, 'success')
  await buy(app.url, alpha, QUOTED_NAME, 'success')
  await buy(app.url, beta, 'Meera Nair', 'success')
  await buy(app.url, beta, '-2+3 Trader', 'failure')
  const statuses = await db
    .selectFrom('order')
    .select(['id', 'status', 'testMode'])
    .where(
      'id',
      'in',
      purchases.map((p) => p.orderId),
    )
    .execute()
  // Live orders (not test mode), paid or failed as the gateway answered.
  expect(statuses.every((row) => Number(row.testMode) === 0)).toBe(true)
  expect(statuses.filter((row) => row.status === 'failed')).toHaveLength(1)
})

const paid = () => purchases.filter((p) => p.outcome === 'success')
const revenue = () => paid().reduce((sum, p) => sum + p.amount, 0)

function statCard(page: Page, label: string) {
  return page
    .getByRole('list', { name: /^Figures for/ })
    .getByRole('listitem')
    .filter({ has: page.getByText(label, { exact: true }) })
}

test('the dashboard shows the figures of the orders bought, for today and the last 7 days', async ({
  page,
}) => {
  await logIn(page)
  await gotoHydrated(page, '/admin/dashboard?period=today')
  await expect(page.getByRole('link', { name: 'Today' })).toHaveAttribute('aria-current', 'page')
  await expect(statCard(page, 'Revenue')).toContainText(formatRupees(revenue()))
  await expect(statCard(page, 'Revenue')).toContainText('Up from 0 yesterday')
  await expect(statCard(page, 'Paid orders')).toContainText(String(paid().length))
  await expect(statCard(page, 'Average order value')).toContainText(
    formatRupees(Math.round(revenue() / paid().length)),
  )
  // 3 of 4 attempts succeeded.
  await expect(statCard(page, 'Payment success rate')).toContainText('75.0%')
  // Only the owner has signed in.
  await expect(statCard(page, 'Active users')).toContainText('1')
  await expect(statCard(page, 'Products')).toContainText('2')

  // The chart's table alternative: the hours add up to the day.
  const table = page.getByRole('table', { name: /Revenue and paid orders, today, by hour/ })
  await expect(table.getByRole('row')).toHaveCount(25)
  const orderCells = await table.locator('tbody tr td:nth-child(3)').allTextContents()
  expect(orderCells.reduce((sum, cell) => sum + Number(cell), 0)).toBe(paid().length)
  // The picture is drawn in the browser.
  await expect(page.locator('.recharts-wrapper').first()).toBeVisible()

  const top = page.getByRole('region', { name: 'Top products by revenue' })
  await expect(top.getByRole('listitem').first()).toContainText('Dash Alpha Suite')
  await expect(top.getByRole('listitem').first()).toContainText(formatRupees(2 * 99_900))
  await expect(top.getByRole('listitem').nth(1)).toContainText(formatRupees(49_900))

  // The period switch is a plain link: same orders over 7 days.
  await page.getByRole('link', { name: 'Last 7 days' }).click()
  await expect(page).toHaveURL(/period=7d/)
  await expect(statCard(page, 'Revenue')).toContainText(formatRupees(revenue()))
  await expect(page.getByRole('table', { name: /by day/ }).getByRole('row')).toHaveCount(8)

  // The products bought are delivered by hand: their paid orders wait for the shop, and the
  // count links to them.
  const attention = page.getByRole('region', { name: 'Needs attention' })
  await attention.getByRole('link', { name: /^\d+ paid orders? to deliver by hand$/ }).click()
  // Real orders only, as the count is: a simulated payment owes no one a delivery.
  await expect(page).toHaveURL(/\/admin\/orders\?status=paid&real=1$/)
  await expect(page.getByRole('checkbox', { name: 'Real orders only' })).toBeChecked()
  await expect(page.getByRole('link', { name: paid()[0]!.orderId })).toBeVisible()
  await page.goBack()

  // Recent orders link to each order.
  const recent = page.getByRole('region', { name: 'Recent orders' })
  for (const purchase of purchases)
    await expect(recent.getByRole('link', { name: purchase.orderId })).toBeVisible()
  await recent.getByRole('link', { name: purchases[0]!.orderId }).click()
  await expect(page).toHaveURL(`/admin/orders/${purchases[0]!.orderId}`)
})

test('the dashboard works without JavaScript: figures and the table server-rendered', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  await page.goto('/login')
  await page.getByLabel('Email').fill(OWNER.email)
  await page.getByLabel('Password').fill(OWNER.password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.goto('/admin/dashboard?period=30d')
  await expect(statCard(page, 'Revenue')).toContainText(formatRupees(revenue()))
  await expect(page.getByRole('table', { name: /last 30 days, by day/ })).toBeVisible()
  await context.close()
})

/** "2026-11": this month in India time, as the GST register's form names it. */
const indiaMonth = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit' })
    .format(new Date())
    .slice(0, 7)

/** The CSV a click downloads, named `filename`, parsed into rows. */
async function downloadedCsv(page: Page, button: Locator, filename: string) {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()])
  expect(download.suggestedFilename()).toBe(filename)
  return parse(fs.readFileSync(await download.path(), 'utf8'), { bom: true }) as string[][]
}

test('transactions: filters, success rate, the CSV export and the GST register', async ({
  page,
  db,
}) => {
  await logIn(page)
  await gotoHydrated(page, '/admin/transactions')
  await expect(page.getByTestId('success-rate')).toHaveText('75.0%')
  await page
    .getByRole('navigation', { name: 'Transactions by status' })
    .getByRole('link', { name: /^Failed/ })
    .click()
  await expect(page).toHaveURL(/status=failed/)
  await expect(page.getByTestId('success-rate')).toHaveText('0.0%')
  await expect(page.getByText('Showing 1–1 of 1 transaction')).toBeVisible()
  await page.getByRole('link', { name: 'Clear' }).click()
  await page.getByLabel('Search').fill('Kiran')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page.getByText('Showing 1–1 of 1 transaction')).toBeVisible()
  await expect(page.getByTestId('success-rate')).toHaveText('100.0%')
  await page.getByRole('link', { name: 'Clear' }).click()
  await expect(page.getByText('Showing 1–4 of 4 transactions')).toBeVisible()
  // The gateway by its name, in the table and the filter (the export keeps the stored id).
  const firstRow = page.getByRole('row').filter({ hasText: purchases[0]!.orderId })
  await expect(firstRow.getByRole('cell', { name: 'Paytm', exact: true })).toBeVisible()
  await expect(page.getByLabel('Gateway').getByRole('option', { name: 'Paytm' })).toHaveCount(1)
  await page.getByLabel('Gateway').selectOption({ label: 'Paytm' })
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page).toHaveURL(/gateway=paytm/)
  await expect(page.getByText('Showing 1–4 of 4 transactions')).toBeVisible()

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/)
  const file = await download.path()
  const text = fs.readFileSync(file, 'utf8')
  const rows: string[][] = parse(text, { bom: true })
  expect(rows[0]).toEqual([
    'Order ID',
    'Customer Name',
    'Email',
    'Phone',
    'Product',
    'Amount',
    'Status',
    'Gateway',
    'Transaction ID',
    'Date',
    'Test Mode',
    'Refunded',
  ])
  expect(rows).toHaveLength(1 + purchases.length)
  const byOrder = new Map(rows.slice(1).map((row) => [row[0], row]))
  for (const purchase of purchases) {
    const row = byOrder.get(purchase.orderId)!
    expect(row[5]).toBe(`${purchase.amount / 100}.00`)
    expect(row[6]).toBe(purchase.outcome === 'success' ? 'Success' : 'Failed')
    expect(row[7]).toBe('paytm')
    if (purchase.outcome === 'success') expect(row[8]).not.toBe('')
    expect(row[10]).toBe('No') // live orders, not simulated payments
  }
  const names = rows.slice(1).map((row) => row[1])
  // Formula-like cells are text in a spreadsheet; quotes and commas survive RFC 4180 quoting.
  expect(names).toContain(`'${FORMULA_NAME}`)
  expect(names).toContain(`'-2+3 Trader`)
  expect(names).toContain(QUOTED_NAME)
  expect(text).toContain('"Rao, ""Kiran"""')
  expect(text).toContain('\r\n')

  // The GST register of this month holds every invoice issued in it: one issued now, say.
  const sale = await makePaidOrder(db, (await makeProduct(db, { price: 59_000 })).id)
  expect((await page.request.get(`/orders/${sale.id}/invoice.pdf`)).status()).toBe(200)
  // Refunded in the same month: its credit note counts negative.
  expect(
    (await markRefunded(db, { orderId: sale.id, note: 'By UPI', actor: 'user:owner' })).ok,
  ).toBe(true)
  const register = page.getByRole('region', { name: 'GST register' })
  const thisMonth = indiaMonth()
  await register.getByLabel('Month').selectOption(thisMonth)
  const gstRows = await downloadedCsv(
    page,
    register.getByRole('button', { name: 'Download CSV' }),
    `gst-register-${thisMonth}.csv`,
  )
  expect(gstRows[0]).toEqual([
    'Document',
    'Number',
    'Date',
    'Against invoice',
    'Order ID',
    'Buyer',
    'Buyer GSTIN',
    'Supply',
    'Place of supply',
    'SAC',
    'Rate (%)',
    'Taxable value',
    'CGST',
    'SGST/UTGST',
    'IGST',
    'Total',
    'Reduces tax',
  ])
  const saleRow = gstRows.find((row) => row[4] === sale.id && row[0] === 'Invoice')!
  expect(saleRow.slice(0, 2)).toEqual([
    'Invoice',
    expect.stringMatching(/^INV\/\d{2}-\d{2}\/\d{5}$/),
  ])
  expect(saleRow[7]).toBe('B2C')
  expect(saleRow[15]).toBe('590.00')
  // The credit note's amounts are numbers a spreadsheet sums, not text.
  const creditRow = gstRows.find((row) => row[4] === sale.id && row[0] === 'Credit note')!
  expect(creditRow[1]).toMatch(/^CN\/\d{2}-\d{2}\/\d{5}$/)
  expect(creditRow[3]).toBe(saleRow[1])
  expect(creditRow[15]).toBe('-590.00')
  // Issued in time: it reduces the tax, and the column says nothing.
  expect(creditRow[16]).toBe('')
  // A payment that failed has no invoice.
  const failed = purchases.find((purchase) => purchase.outcome === 'failure')!
  expect(gstRows.some((row) => row[4] === failed.orderId)).toBe(false)
  // A month that is not one is refused with a clear message.
  const bad = await page.request.get('/admin/transactions/gst-register?month=2026-13')
  expect(bad.status()).toBe(400)
  expect(await bad.text()).toContain('Choose a month, such as 2026-11, for the GST register.')

  // GSTR-1's table 13 from the same form: the month's series, the sale's numbers within them.
  await register.getByLabel('Report').selectOption({ label: 'GSTR-1 13: documents issued' })
  const docRows = await downloadedCsv(
    page,
    register.getByRole('button', { name: 'Download CSV' }),
    `gstr1-docs-${thisMonth}.csv`,
  )
  expect(docRows[0]).toEqual([
    'Nature of Document',
    'Sr. No. From',
    'Sr. No. To',
    'Total Number',
    'Cancelled',
  ])
  const sequence = (number: string) => Number(number.split('/')[2])
  for (const [nature, number] of [
    ['Invoices for outward supply', saleRow[1]!],
    ['Credit Note', creditRow[1]!],
  ] as const) {
    const series = docRows.find(
      (row) => row[0] === nature && row[1]!.split('/')[1] === number.split('/')[1],
    )!
    expect(sequence(series[1]!)).toBeLessThanOrEqual(sequence(number))
    expect(sequence(series[2]!)).toBeGreaterThanOrEqual(sequence(number))
    expect(Number(series[3])).toBe(sequence(series[2]!) - sequence(series[1]!) + 1)
    expect(series[4]).toBe('0')
  }
  // Every table of the form downloads, in the offline tool's layout; an unknown one is refused.
  const tables = await register
    .getByLabel('Report')
    .locator('option')
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))
  expect(tables).toEqual([
    'register',
    'b2b',
    'b2cs',
    'cdnr',
    'hsn-b2b',
    'hsn-b2c',
    'docs',
    'gstr3b',
  ])
  const b2cs = await page.request.get(
    `/admin/transactions/gst-register?month=${thisMonth}&report=b2cs`,
  )
  expect(b2cs.headers()['content-disposition']).toContain(`gstr1-b2cs-${thisMonth}.csv`)
  expect((await b2cs.text()).split('\r\n')[0]).toBe(
    '\uFEFFType,Place Of Supply,Rate,Applicable % of Tax Rate,Taxable Value,Cess Amount,E-Commerce GSTIN',
  )
  const unknown = await page.request.get(
    `/admin/transactions/gst-register?month=${thisMonth}&report=gstr9`,
  )
  expect(unknown.status()).toBe(400)
  expect(await unknown.text()).toContain('Choose a report: register, gstr3b, or one of b2b, b2cs')
})

test("GSTR-1 tables from the month's documents with GST: B2B, credit note to a business, B2C, SAC", async ({
  page,
  db,
}) => {
  await logIn(page)
  // This month's other documents were issued without a GSTIN: they stay out of the tax tables.
  const before = await readSiteSettings(db)
  await updateSiteSettings(db, { sellerGstin: '29ABCDE1234F1Z5', gstRate: 18, sacCode: '998434' })
  try {
    const settings = await readSiteSettings(db)
    const product = await makeProduct(db, { title: 'GSTR Suite', price: 118_000 })
    const business = await makeCustomer(db)
    await saveCustomerBusiness(db, business.id, {
      businessName: 'Udyam Software Private Limited',
      gstin: '27AAPFU0939F1ZV',
      address: 'Mumbai',
    })
    const b2b = await makePaidOrder(db, product.id, { userId: business.id })
    const consumer = await makePaidOrder(db, product.id)
    const invoice = await issueInvoiceNumber(db, b2b.id, settings, new Date())
    await issueInvoiceNumber(db, consumer.id, settings, new Date())
    expect(
      (await markRefunded(db, { orderId: b2b.id, note: 'NEFT', actor: 'user:owner' })).ok,
    ).toBe(true)
    const [note] = await db
      .selectFrom('creditNote')
      .select('number')
      .where('orderId', '=', b2b.id)
      .execute()
    const thisMonth = indiaMonth()
    const table = async (report: string) => {
      const response = await page.request.get(
        `/admin/transactions/gst-register?month=${thisMonth}&report=${report}`,
      )
      expect(response.status()).toBe(200)
      return parse(await response.text(), { bom: true }) as string[][]
    }
    // As app/lib/gst.test.ts checks it ("05-Sep-2026").
    const today = gstToolDate(new Date().toISOString())
    // ₹1,180 at 18% to Maharashtra from Karnataka: ₹1,000 taxable and ₹180 IGST.
    expect(await table('b2b')).toEqual([
      [
        'GSTIN/UIN of Recipient',
        'Receiver Name',
        'Invoice Number',
        'Invoice date',
        'Invoice Value',
        'Place Of Supply',
        'Reverse Charge',
        'Applicable % of Tax Rate',
        'Invoice Type',
        'E-Commerce GSTIN',
        'Rate',
        'Taxable Value',
        'Cess Amount',
      ],
      [
        '27AAPFU0939F1ZV',
        'Udyam Software Private Limited',
        invoice.number,
        today,
        '1180.00',
        '27-Maharashtra',
        'N',
        '',
        'Regular B2B',
        '',
        '18',
        '1000.00',
        '0.00',
      ],
    ])
    // Its credit note, positive here (negative in the register).
    expect((await table('cdnr')).slice(1)).toEqual([
      [
        '27AAPFU0939F1ZV',
        'Udyam Software Private Limited',
        note!.number,
        today,
        'C',
        '27-Maharashtra',
        'N',
        'Regular B2B',
        '1180.00',
        '',
        '18',
        '1000.00',
        '0.00',
      ],
    ])
    expect(await table('b2cs')).toEqual([
      [
        'Type',
        'Place Of Supply',
        'Rate',
        'Applicable % of Tax Rate',
        'Taxable Value',
        'Cess Amount',
        'E-Commerce GSTIN',
      ],
      ['OE', '29-Karnataka', '18', '', '1000.00', '0.00', ''],
    ])
    // The B2B sale and its credit note net to nothing; the consumer's is ₹90 CGST and ₹90 SGST.
    expect((await table('hsn-b2b')).slice(1)).toEqual([
      ['998434', '', 'NA', '0', '0.00', '18', '0.00', '0.00', '0.00', '0.00', '0.00'],
    ])
    expect(await table('hsn-b2c')).toEqual([
      [
        'HSN',
        'Description',
        'UQC',
        'Total Quantity',
        'Total Value',
        'Rate',
        'Taxable Value',
        'Integrated Tax Amount',
        'Central Tax Amount',
        'State/UT Tax Amount',
        'Cess Amount',
      ],
      ['998434', '', 'NA', '0', '1180.00', '18', '1000.00', '0.00', '90.00', '90.00', '0.00'],
    ])
    // GSTR-3B 3.1(a): the B2B sale is credited away, the consumer's stays.
    expect(await table('gstr3b')).toEqual([
      [
        'Table',
        'Nature of supplies',
        'Total taxable value',
        'Integrated tax',
        'Central tax',
        'State/UT tax',
        'Cess',
      ],
      [
        '3.1(a)',
        'Outward taxable supplies (other than zero rated, nil rated and exempted)',
        '1000.00',
        '0.00',
        '90.00',
        '90.00',
        '0.00',
      ],
    ])
  } finally {
    const { sellerGstin, gstRate, sacCode } = before
    await updateSiteSettings(db, { sellerGstin, gstRate, sacCode })
  }
})

test('the filter bars fit, with a usable search box, at every width', async ({ page }) => {
  await logIn(page)
  // At 1024 px the transactions bar's four fixed-width fields had left the box 50 px wide.
  for (const width of [1024, 1100, 1280, 1440]) {
    await page.setViewportSize({ width, height: 900 })
    for (const [list, label] of [
      ['transactions', 'Search'],
      ['orders', 'Search by customer, order ID or product'],
      ['users', 'Search by name or email'],
    ] as const) {
      await page.goto(`/admin/${list}`)
      const search = page.getByLabel(label, { exact: true })
      const box = await search.boundingBox()
      expect(box?.width, `${list} at ${width} px`).toBeGreaterThanOrEqual(240)
      // Its hint is read whole: the placeholder's text fits inside the box's padding.
      const hint = await search.evaluate((input: HTMLInputElement) => {
        const style = getComputedStyle(input)
        const context = document.createElement('canvas').getContext('2d')!
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
        const room =
          input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
        return { text: context.measureText(input.placeholder).width, room }
      })
      expect(hint.text, `${list} placeholder at ${width} px`).toBeLessThanOrEqual(hint.room)
    }
    // The audit log's bar (no search box) fits too: its grid had pushed the page to 1233 px.
    await page.goto('/admin/audit')
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(pageWidth, `audit log at ${width} px`).toBeLessThanOrEqual(width)
  }
})

test('screenshots for review', async ({ page }) => {
  const dir = process.env.SHOTS_DIR
  test.skip(!dir, 'SHOTS_DIR not set')
  test.setTimeout(240_000)
  await logIn(page)
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      for (const [name, url] of [
        ['dashboard', '/admin/dashboard?period=7d'],
        ['transactions', '/admin/transactions'],
        ['orders', '/admin/orders'],
        ['users', '/admin/users'],
        ['products', '/admin/products'],
      ] as const) {
        await gotoHydrated(page, url)
        await page.waitForTimeout(300)
        await page.screenshot({
          path: path.join(dir!, `${name}-${width}-${scheme}.png`),
          fullPage: true,
        })
      }
    }
  }
})
