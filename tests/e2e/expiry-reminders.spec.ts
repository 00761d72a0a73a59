import crypto from 'node:crypto'
import type { DB } from '~/lib/db.server'
import { makePaidOrder, makeStockedProduct, openAppDatabase } from '../factories'
import { startApp, type RunningApp } from '../helpers/app'
import { expect, test } from '@playwright/test'
import { importStock } from '~/services/fulfilment.server'
import { SHOP_SECRET } from '../helpers/shop'
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../helpers/smtp'

/**
 * Expiry reminders in the production build, read from a real SMTP server: the clock is moved by
 * dating the items' delivery back, the shop checks at start-up, and each reminder arrives once
 * however often the shop restarts. The mail's Renew link opens the product's checkout with the
 * buyer's details filled in and the price from the database.
 */
const DAY = 24 * 60 * 60 * 1000

let smtp: TestSmtpServer
let app: RunningApp
let db: DB
const env = () => ({
  SMTP_URL: smtp.url,
  APP_SECRET: SHOP_SECRET,
  SEED_DEMO: '0',
  TRUST_PROXY: 'loopback',
})

test.describe.configure({ timeout: 240_000 })
test.beforeAll(async () => {
  smtp = await startSmtpServer()
  app = await startApp({ env: env() })
  db = openAppDatabase(app)
})
test.afterAll(async () => {
  await db?.destroy()
  await app?.dispose()
  await smtp?.close()
})

/** A restart on the same data and port: the shop checks for due reminders as it starts. */
async function restart() {
  await app.stop()
  app = await startApp({ env: env(), dataDir: app.dataDir, port: app.port })
}

/** A delivered 30-day item whose delivery is moved `daysAgo` into the past. */
async function deliveredDaysAgo(productId: string, email: string, daysAgo: number) {
  const order = await makePaidOrder(db, productId, {
    customer: { name: 'Meera Iyer', email, phone: '9123456780' },
  })
  expect(order.status).toBe('delivered')
  await db
    .updateTable('orderEvent')
    .set({ createdAt: new Date(Date.now() - daysAgo * DAY).toISOString() })
    .where('orderId', '=', order.id)
    .where('type', '=', 'delivered')
    .execute()
  // A check that ran in between stored the end counted from the real delivery: counted again.
  await db.updateTable('order').set({ validityEndsAt: null }).where('id', '=', order.id).execute()
  return order
}

const reminders = (email: string): ReceivedMail[] =>
  smtp.mails.filter((mail) => mail.to.includes(email) && mail.subject.includes(' expires in '))

test('reminders 7 days and 1 day ahead arrive once each across restarts; Renew prefills the checkout', async ({
  page,
}) => {
  const tag = crypto.randomBytes(3).toString('hex')
  const product = await makeStockedProduct(
    db,
    SHOP_SECRET,
    [1, 2, 3].map((n) => `renew-${tag}-${n}@mail.test:pass${n}`),
    { title: `CloudBox 30 Days ${tag}`, validity: '30 days', price: 24_900 },
  )
  const week = `week.${tag}@example.in`
  const lastDay = `lastday.${tag}@example.in`
  const later = `later.${tag}@example.in`
  const weekOrder = await deliveredDaysAgo(product.id, week, 23.05)
  await deliveredDaysAgo(product.id, lastDay, 29.5)

  await restart()
  await expect.poll(() => reminders(week).length, { timeout: 60_000 }).toBe(1)
  await expect.poll(() => reminders(lastDay).length, { timeout: 60_000 }).toBe(1)
  expect(reminders(week)[0]!.subject).toBe(`Your ${product.title} expires in 7 days`)
  expect(reminders(lastDay)[0]!.subject).toBe(`Your ${product.title} expires in 1 day`)

  // Another restart with one more item due: only that one is mailed.
  await deliveredDaysAgo(product.id, later, 23.1)
  await restart()
  await expect.poll(() => reminders(later).length, { timeout: 60_000 }).toBe(1)
  expect(reminders(week)).toHaveLength(1)
  expect(reminders(lastDay)).toHaveLength(1)

  // The Renew link: the same product's checkout, the buyer's details filled in. (The shop runs
  // in test mode, which sells only test items.)
  await importStock(db, {
    productId: product.id,
    content: `test-${tag}@mail.test:pass`,
    format: 'lines',
    appSecret: SHOP_SECRET,
    testItems: true,
  })
  const mail = reminders(week)[0]!
  expect(mail.text).toContain(`(order ${weekOrder.id}) runs out on`)
  expect(mail.text).toContain('/dashboard/settings')
  const link = new URL(/https?:\/\/\S+\/checkout\/\S+/.exec(mail.text)![0])
  expect(link.pathname).toBe(`/checkout/${product.slug}`)
  const prefilled = await page.goto(`${app.url}${link.pathname}${link.search}`)
  // The buyer's details are in this page: no shared or browser cache keeps it.
  expect(prefilled?.headers()['cache-control']).toBe('private, no-store')
  await expect(page.getByLabel('Full name')).toHaveValue('Meera Iyer')
  await expect(page.getByLabel('Email')).toHaveValue(week)
  await expect(page.getByLabel('Phone number')).toHaveValue('9123456780')
  await expect(page.getByRole('button', { name: 'Pay ₹249' })).toBeVisible()

  // A link whose signature was tampered with fills in nothing.
  await page.goto(`${app.url}${link.pathname}?renew=${encodeURIComponent(`${weekOrder.id}.0000`)}`)
  await expect(page.getByLabel('Email')).toHaveValue('')
})
