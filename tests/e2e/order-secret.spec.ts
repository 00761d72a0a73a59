import crypto from 'node:crypto'
import type { Locator, Page } from '@playwright/test'
import { updateSiteSettings } from '~/data/settings.server'
import type { DB } from '~/lib/db.server'
import { deliverManually } from '~/services/order-actions.server'
import { importStock } from '~/services/fulfilment.server'
import { makePaidOrder, makeProduct, makeStockedProduct, openAppDatabase } from '../factories'
import type { RunningApp } from '../helpers/app'
import { expect, ownApp, test as base } from '../helpers/fixtures'
import { signUpConfirmed } from '../helpers/mailbox'
import { screenshotWidthsAndThemes } from '../helpers/screenshots'
import { SHOP_SECRET } from '../helpers/shop'

/**
 * What the buyer reads off the order page and the payment result page: a revealed item stays on
 * one line where it fits and otherwise breaks at the edge, the same way on every line, never at
 * a hyphen of its own choosing (keys, passwords, multi-line account details, at 390 and 1280 px);
 * and the shop's WhatsApp number is written as the footer and the mails write it.
 */
const test = base.extend<object, { app: RunningApp }>({
  app: ownApp({ APP_SECRET: SHOP_SECRET }),
})
test.describe.configure({ timeout: 150_000 })

const DEMO_ITEM = 'demo-user-999@example.test / Demo-Pass-999'
const LICENCE_KEY = 'XKCD7-4M9QP-ZR2WT-8HJ3K-LN6VB-YT5GF-Q2W3E-R4T5Y-U7I8O-P9A0S'
const ACCOUNT_LINES = [
  'Email: asha.verma.family-plan@example-mail.co.in / Password: Str0ng-Pass-With-Hyphens-2025',
  'Profile 3 only, please do not change the PIN',
]

let db: DB
test.beforeAll(async ({ app }) => {
  db = openAppDatabase(app)
  await updateSiteSettings(db, {
    whatsappNumber: '919876543210',
    contactEmail: 'help@keybazaar.example',
  })
})
test.afterAll(async () => {
  await db?.destroy()
})

/** A customer signed in to `page`, with a confirmed address their paid orders are owned by. */
async function signedInBuyer(page: Page, app: RunningApp) {
  const email = `buyer.${crypto.randomBytes(4).toString('hex')}@example.test`
  const cookie = await signUpConfirmed(app.url, app, {
    name: 'Asha Verma',
    email,
    password: 'secret12',
  })
  const [name, ...value] = cookie.split('=')
  await page.context().addCookies([{ name: name!, value: value.join('='), url: app.url }])
  return { name: 'Asha Verma', email, phone: '9876543210' }
}

/** The text of each line the browser laid `code` out in. */
function renderedLines(code: Locator): Promise<string[]> {
  return code.evaluate((element) => {
    const text = element.firstChild
    if (!(text instanceof Text)) throw new Error('the value is not one text node')
    const range = document.createRange()
    const lines: string[] = []
    let top: number | null = null
    for (let index = 0; index < text.length; index++) {
      range.setStart(text, index)
      range.setEnd(text, index + 1)
      const rect = range.getBoundingClientRect()
      const char = text.data.charAt(index)
      if (top === null || Math.abs(rect.top - top) > 4) lines.push(char)
      else lines[lines.length - 1] = `${lines.at(-1) ?? ''}${char}`
      top = rect.top
    }
    return lines
  })
}

/**
 * The value reads the same broken as whole, and every line but the last is full, the same number
 * of characters: the break falls at the edge, not at a hyphen or space before it.
 */
function expectEvenBreaks(lines: string[], value: string) {
  expect(lines.join('')).toBe(value)
  const full = lines.slice(0, -1).map((line) => line.length)
  expect(new Set(full).size, JSON.stringify(lines)).toBeLessThanOrEqual(1)
  if (full.length) expect(lines.at(-1)!.length).toBeLessThanOrEqual(full[0]!)
}

async function reveal(page: Page) {
  await page.getByRole('button', { name: 'Reveal' }).click()
  const region = page.getByRole('region', { name: 'Revealed account details' })
  await expect(region).toBeVisible()
  return region
}

test('a revealed item keeps to one line where it fits, and otherwise breaks evenly at the edge', async ({
  page,
  app,
}) => {
  const buyer = await signedInBuyer(page, app)
  const tag = crypto.randomBytes(3).toString('hex')
  const stocked = async (title: string, content: string, format: 'lines' | 'csv' = 'lines') => {
    const product = await makeStockedProduct(db, SHOP_SECRET, [], { title: `${title} ${tag}` })
    await importStock(db, {
      productId: product.id,
      content,
      format,
      appSecret: SHOP_SECRET,
    })
    return product
  }
  const demo = await stocked('Demo', DEMO_ITEM)
  const keyed = await stocked('Key', LICENCE_KEY)
  const fielded = await stocked(
    'Fields',
    'email,password,note\nasha.verma.family-plan@example-mail.co.in,Str0ng-Pass-With-Hyphens-2025,Profile 3 only',
    'csv',
  )
  const handed = await makeProduct(db, { title: `Family plan ${tag}` })
  const demoOrder = await makePaidOrder(db, demo.id, { customer: buyer })
  const keyOrder = await makePaidOrder(db, keyed.id, { customer: buyer })
  const fieldOrder = await makePaidOrder(db, fielded.id, { customer: buyer })
  const handOrder = await makePaidOrder(db, handed.id, { customer: buyer })
  const delivery = await deliverManually(db, SHOP_SECRET, {
    orderId: handOrder.id,
    secret: ACCOUNT_LINES.join('\n'),
    actor: 'test',
  })
  expect(delivery.ok).toBe(true)
  for (const order of [demoOrder, keyOrder, fieldOrder]) expect(order.status).toBe('delivered')

  // The demo item on the payment result page and on the order page: one line on a desktop,
  // next to its Copy button; on a phone, full lines broken at the edge.
  for (const path of [`/payment/callback?ORDERID=${demoOrder.id}`, `/orders/${demoOrder.id}`]) {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(path)
    const region = await reveal(page)
    const code = region.locator('code')
    await expect(code).toHaveText(DEMO_ITEM)
    await expect(region.getByRole('button', { name: 'Copy account details' })).toBeVisible()
    expect(await renderedLines(code), path).toEqual([DEMO_ITEM])
    await page.setViewportSize({ width: 390, height: 844 })
    const phone = await renderedLines(code)
    expect(phone.length, path).toBeGreaterThan(1)
    expectEvenBreaks(phone, DEMO_ITEM)
    // Copy stays inside the card, under the value.
    const [copy, card] = await Promise.all([
      region.getByRole('button', { name: 'Copy account details' }).boundingBox(),
      region.boundingBox(),
    ])
    expect(copy!.x + copy!.width).toBeLessThanOrEqual(card!.x + card!.width)
    await screenshotWidthsAndThemes(page, path.startsWith('/orders') ? 'order-demo' : 'result-demo')
  }

  // A long licence key, a multi-line hand delivery and named fields, on the order page.
  const cases: Array<{ order: string; values: string[]; name: string }> = [
    { order: keyOrder.id, values: [LICENCE_KEY], name: 'order-key' },
    { order: handOrder.id, values: ACCOUNT_LINES, name: 'order-lines' },
    {
      order: fieldOrder.id,
      values: [
        'asha.verma.family-plan@example-mail.co.in',
        'Str0ng-Pass-With-Hyphens-2025',
        'Profile 3 only',
      ],
      name: 'order-fields',
    },
  ]
  for (const { order, values, name } of cases) {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`/orders/${order}`)
    const region = await reveal(page)
    const codes = region.locator('code')
    await expect(codes).toHaveCount(values.length)
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 })
      for (const [index, value] of values.entries()) {
        const code = codes.nth(index)
        await expect(code).toHaveText(value)
        expectEvenBreaks(await renderedLines(code), value)
        // Nothing sticks out of the card: the value wraps inside it.
        const [box, card] = await Promise.all([code.boundingBox(), region.boundingBox()])
        expect(box!.x + box!.width).toBeLessThanOrEqual(card!.x + card!.width + 0.5)
      }
    }
    await expect(region.getByRole('button', { name: /^Copy/ })).toHaveCount(values.length)
    await screenshotWidthsAndThemes(page, name)
  }
})

test('the payment result page writes the WhatsApp number as the footer and mails do', async ({
  page,
}) => {
  // An order this browser may not see: the page offers help, WhatsApp among it.
  await page.goto('/payment/callback?ORDERID=ORD_1_1')
  const help = page.getByRole('complementary').filter({ hasText: 'Need help?' })
  const whatsapp = help.getByRole('link', { name: /WhatsApp/ })
  await expect(whatsapp).toHaveText('WhatsApp +91 98765 43210 (opens in a new tab)')
  expect(new URL((await whatsapp.getAttribute('href'))!).pathname).toBe('/919876543210')
  await expect(help).not.toContainText('919876543210')
  await screenshotWidthsAndThemes(page, 'result-help')
})
