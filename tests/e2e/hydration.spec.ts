import type { Page } from '@playwright/test'
import { expect, gotoHydrated, test } from '../helpers/fixtures'
import { signUpConfirmed } from '../helpers/mailbox'

/**
 * The browser hydrates the server's HTML without a mismatch, on the pages whose
 * visitor-independent parts the server writes from HTML rendered before
 * (app/components/ui/static-markup.tsx): each is opened twice, so the second one is built from
 * those copies. React reports a mismatch as a recoverable error (an uncaught error event and a
 * console error) and then renders the page again from scratch.
 */
function collectHydrationErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      const text = message.text()
      if (/hydrat|did not match|Minified React error #(418|419|423|425)/i.test(text))
        errors.push(`console ${message.type()}: ${text}`)
    }
  })
  return errors
}

const PRODUCT_PATH = '/product/streamverse-premium-12-months'

test('signed-in and anonymous pages hydrate without errors', async ({ page, app, baseURL }) => {
  // Twelve page loads: a busy machine needs more than the default time.
  test.setTimeout(120_000)
  const cookie = await signUpConfirmed(baseURL!, app, {
    name: 'Hydration Check',
    email: 'hydration.check@example.test',
    password: 'hydration-secret-12',
  })
  const errors = collectHydrationErrors(page)
  for (const path of ['/', PRODUCT_PATH]) {
    await gotoHydrated(page, path)
    await gotoHydrated(page, path)
  }
  const [name, value] = cookie.split('=')
  await page.context().addCookies([{ name: name!, value: value!, url: baseURL! }])
  for (const path of [PRODUCT_PATH, '/dashboard', '/dashboard/orders', '/?category=Streaming']) {
    await gotoHydrated(page, path)
    await gotoHydrated(page, path)
  }
  await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toBeVisible()
  expect(errors).toEqual([])
})

test('links inside reused HTML are live after hydration', async ({ page, app, baseURL }) => {
  const cookie = await signUpConfirmed(baseURL!, app, {
    name: 'Live Links',
    email: 'live.links@example.test',
    password: 'live-links-secret-12',
  })
  const [name, value] = cookie.split('=')
  await page.context().addCookies([{ name: name!, value: value!, url: baseURL! }])
  const errors = collectHydrationErrors(page)
  await page.setViewportSize({ width: 1280, height: 900 })
  await gotoHydrated(page, '/dashboard')
  await gotoHydrated(page, '/dashboard')
  // A mark on the window survives a client-side navigation, not a new document.
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true))
  const sidebar = page.getByRole('complementary')
  await sidebar.getByRole('link', { name: 'My Orders' }).click()
  await expect(page).toHaveURL(/\/dashboard\/orders$/)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  // The sidebar's active link moved with the page (React owns the reused HTML).
  await expect(sidebar.getByRole('link', { name: 'My Orders' })).toHaveAttribute(
    'aria-current',
    'page',
  )
  expect(
    await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
  ).toBe(true)
  expect(errors).toEqual([])
})
