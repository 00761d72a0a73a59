import fs from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { makeOrder, makeProduct, payOrder } from '../factories'
import { adminTest } from '../helpers/admin'
import { expect, gotoHydrated } from '../helpers/fixtures'

/**
 * Screenshots of every form of the shop for review, at 390 and 1280 px in light and dark: each
 * form as it opens and, where sending it empty changes nothing, with its messages. Written to
 * the directory in FORM_SCREENSHOTS; skipped without it (they are looked at, not compared).
 */
const OWNER = { name: 'Form Owner', email: 'owner.forms@example.test', password: 'secret12' }

const { test, logIn } = adminTest(OWNER)

interface FormShot {
  name: string
  url: string
  /** Opens the form (a dialog) or sends it empty, for the second screenshot. */
  then?: (page: Page) => Promise<void>
  /** Pages for a visitor who is not signed in. */
  signedOut?: boolean
}

const submit = (name: string | RegExp) => async (page: Page) => {
  await page.getByRole('button', { name }).first().click()
}

test('screenshots of every form', async ({ page, browser, app, db }) => {
  test.skip(!process.env.FORM_SCREENSHOTS, 'set FORM_SCREENSHOTS=dir to write them')
  test.setTimeout(900_000)
  const dir = process.env.FORM_SCREENSHOTS!
  fs.mkdirSync(dir, { recursive: true })

  // A product delivered by hand: it sells without stock, and its paid order has every action.
  const product = await makeProduct(db, { title: 'Form Screenshots Licence' })
  const order = await payOrder(db, await makeOrder(db, product.id))
  const customer = await db
    .selectFrom('user')
    .select('id')
    .where('email', '=', OWNER.email)
    .executeTakeFirstOrThrow()

  const forms: FormShot[] = [
    { name: 'login', url: '/login', signedOut: true, then: submit('Log in') },
    { name: 'signup', url: '/signup', signedOut: true, then: submit(/^(Sign up|Create account)/) },
    { name: 'forgot', url: '/forgot-password', signedOut: true, then: submit(/^Send/) },
    { name: 'checkout', url: `/checkout/${product.slug}`, signedOut: true, then: submit(/^Pay /) },
    { name: 'product', url: '/admin/products/add', then: submit('Create Product') },
    { name: 'stock', url: `/admin/products/${product.id}/stock`, then: submit('Import items') },
    { name: 'gateways', url: '/admin/gateways' },
    { name: 'payment-links', url: '/admin/payment-links' },
    { name: 'order-actions', url: `/admin/orders/${order.id}` },
    { name: 'user-edit', url: `/admin/users/${customer.id}`, then: submit('Edit User') },
    { name: 'user-password', url: `/admin/users/${customer.id}`, then: submit('Reset Password') },
    ...['general', 'notifications', 'security', 'system', 'appearance'].map((tab) => ({
      name: `settings-${tab}`,
      url: `/admin/settings?tab=${tab}`,
    })),
    { name: 'account-settings', url: '/dashboard/settings' },
  ]

  await logIn(page)
  const visitor = await browser.newContext({ baseURL: app.url })
  const visitorPage = await visitor.newPage()
  for (const theme of ['light', 'dark'] as const) {
    for (const context of [page.context(), visitor])
      await context.addCookies([{ name: 'theme', value: theme, url: app.url }])
    for (const width of [390, 1280]) {
      for (const each of [page, visitorPage])
        await each.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      for (const form of forms) {
        const on = form.signedOut ? visitorPage : page
        const shot = (suffix: string) =>
          on.screenshot({
            path: path.join(dir, `${form.name}${suffix}-${width}-${theme}.png`),
            fullPage: true,
          })
        await gotoHydrated(on, form.url)
        await expect(on.getByRole('main').first()).toBeVisible()
        await shot('')
        if (form.then) {
          await form.then(on)
          // Messages or a dialog appear without a navigation.
          await on.waitForTimeout(300)
          await shot('-2')
        }
      }
    }
  }
  await visitor.close()
})
