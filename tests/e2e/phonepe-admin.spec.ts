import type { Page } from '@playwright/test'
import { adminTest } from '../helpers/admin'
import { expect } from '../helpers/fixtures'

/**
 * PhonePe on the Gateways page: its settings, credentials required to make it active, secrets
 * encrypted and never shown, the webhook URL with its copy button (PHONEPE_* from the
 * environment: phonepe-admin-env.spec.ts).
 */
const OWNER = { name: 'Owner', email: 'owner@example.test', password: 'secret12' }
const { test, logIn } = adminTest(OWNER)
const SECRET = 'phonepe-client-secret-0123456789'
const PASSWORD = 'phonepe-webhook-pass-42'

function phonePeCard(page: Page) {
  return page
    .getByRole('list', { name: 'Gateways' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'PhonePe' }) })
}

test.describe('stored settings', () => {
  test('an admin adds PhonePe: checked, active only with credentials, secrets hidden', async ({
    page,
    app,
    db,
  }) => {
    test.setTimeout(180_000)
    await logIn(page)
    await page.goto('/admin/gateways?add=phonepe')
    await expect(page.getByLabel('Client ID')).toBeVisible()
    await page.getByLabel('Client ID').fill('bad id!')
    await page.getByLabel('Webhook Username').fill('shop:hook')
    await page.getByLabel('Status').selectOption('active')
    await page.getByRole('button', { name: 'Save Gateway' }).click()
    await expect(page.getByRole('alert')).toContainText('Failed to save gateway configuration')
    await expect(
      page.getByText('Client ID is letters, digits, dots, dashes and underscores'),
    ).toBeVisible()
    await expect(page.getByText('Webhook Username is at most 100 characters')).toBeVisible()
    await page.getByLabel('Client ID').fill('TESTMERCHANT_UAT_01')
    await page.getByLabel('Webhook Username').fill('shop_hook')
    await page.getByRole('button', { name: 'Save Gateway' }).click()
    await expect(
      page.getByText('Client Secret is required to make the gateway active'),
    ).toBeVisible()
    await expect(
      page.getByText('Webhook Password is required to make the gateway active'),
    ).toBeVisible()
    await page.getByLabel('Client Secret').fill(SECRET)
    await page.getByLabel('Webhook Password').fill(PASSWORD)
    await page.getByLabel('Environment').selectOption('production')
    await page.getByRole('button', { name: 'Save Gateway' }).click()
    await expect(page.getByText('Gateway configuration saved.')).toBeVisible()

    const card = phonePeCard(page)
    await expect(card.getByText('Active')).toBeVisible()
    await expect(card.getByText('TESTMERCHANT_UAT_01')).toBeVisible()
    await expect(card.getByText('production')).toBeVisible()
    await expect(card.getByText('•••••••• (set)')).toHaveCount(2)
    await expect(card.getByText(`${app.url}/api/payments/phonepe/webhook`)).toBeVisible()
    await expect(card.getByRole('button', { name: /Copy/ })).toBeVisible()
    const html = await page.content()
    expect(html).not.toContain(SECRET)
    expect(html).not.toContain(PASSWORD)

    // Encrypted at rest, and the audit log keeps them masked.
    const row = await db
      .selectFrom('paymentGateway')
      .select(['secrets', 'config'])
      .where('id', '=', 'phonepe')
      .executeTakeFirstOrThrow()
    const secrets = JSON.parse(row.secrets) as Record<string, string>
    expect(secrets.clientSecret).toMatch(/^v1\./)
    expect(secrets.webhookPassword).toMatch(/^v1\./)
    const audit = await db.selectFrom('auditLog').selectAll().execute()
    expect(JSON.stringify(audit)).not.toContain(SECRET)
    expect(JSON.stringify(audit)).not.toContain(PASSWORD)

    // Blank on edit keeps the stored secret.
    await card.getByRole('link', { name: /Edit/ }).click()
    await expect(page.getByLabel('Client Secret')).toHaveValue('')
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('PhonePe UPI')
    await page.getByRole('button', { name: 'Save Gateway' }).click()
    await expect(page.getByRole('heading', { name: 'PhonePe UPI' })).toBeVisible()
    const after = await db
      .selectFrom('paymentGateway')
      .select('secrets')
      .where('id', '=', 'phonepe')
      .executeTakeFirstOrThrow()
    expect(JSON.parse(after.secrets)).toEqual(secrets)
  })

  test('screenshots of the Gateways page with PhonePe', async ({ page }) => {
    test.setTimeout(120_000)
    await logIn(page)
    for (const width of [390, 1280]) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 900 })
        await page.emulateMedia({ colorScheme: scheme })
        await page.goto('/admin/gateways?edit=phonepe')
        await page.screenshot({
          path: test.info().outputPath(`phonepe-admin-${width}-${scheme}.png`),
          fullPage: true,
        })
      }
    }
  })
})
