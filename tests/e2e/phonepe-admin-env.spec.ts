import type { Page } from '@playwright/test'
import { adminTest } from '../helpers/admin'
import { expect } from '../helpers/fixtures'
import { addGatewayInTesting } from '../helpers/payments'

/**
 * PhonePe configured by the environment: PHONEPE_* win over the Gateways page and are shown
 * read-only there, secrets never.
 */
const OWNER = { name: 'Owner', email: 'owner@example.test', password: 'secret12' }
const { test, logIn } = adminTest(OWNER)

test.use({
  appEnv: {
    PHONEPE_CLIENT_ID: 'ENVMERCHANT_01',
    PHONEPE_CLIENT_SECRET: 'env-secret-never-shown',
    PHONEPE_WEBHOOK_USERNAME: 'env_hook',
    PHONEPE_WEBHOOK_PASSWORD: 'env-pass-never-shown',
  },
})

function phonePeCard(page: Page) {
  return page
    .getByRole('list', { name: 'Gateways' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'PhonePe' }) })
}

test('PHONEPE_* win and are shown read-only, secrets hidden', async ({ page, db }) => {
  test.setTimeout(120_000)
  await addGatewayInTesting(db, 'phonepe')
  await logIn(page)
  await page.goto('/admin/gateways')
  const card = phonePeCard(page)
  await expect(card.getByText('PHONEPE_CLIENT_ID')).toBeVisible()
  await expect(card.getByText('ENVMERCHANT_01')).toBeVisible()
  await expect(card.getByText('sandbox (default)', { exact: true })).toBeVisible()
  await expect(card.getByText('From the environment (read-only)')).toBeVisible()
  const html = await page.content()
  expect(html).not.toContain('env-secret-never-shown')
  expect(html).not.toContain('env-pass-never-shown')
  await card.getByRole('link', { name: /Edit/ }).click()
  await expect(
    page.getByText('The PhonePe settings come from the PHONEPE_* environment variables'),
  ).toBeVisible()
  await expect(page.getByLabel('Client ID')).toHaveCount(0)
})
