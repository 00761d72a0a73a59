import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from '../helpers/fixtures'

/**
 * Automated accessibility check (axe-core, WCAG 2.1 A and AA rules) of the storefront pages in
 * both themes: no serious or critical violation, one h1, and focus that can be seen.
 */
const pages = [
  { name: 'home', path: '/' },
  { name: 'home filtered', path: '/?category=music' },
  { name: 'product', path: '/product/streamverse-premium-12-months' },
  { name: 'out-of-stock product', path: '/product/chatmind-plus-1-month' },
  { name: 'product not found', path: '/product/no-such-product' },
]

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes
        .slice(0, 5)
        .map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
    }))
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme} theme`, () => {
    test.beforeEach(async ({ context, app }) => {
      await context.addCookies([{ name: 'theme', value: theme, url: app.url }])
    })

    for (const { name, path } of pages) {
      test(`${name} has no serious or critical accessibility violation and one h1`, async ({
        page,
      }) => {
        await page.goto(path)
        await expect(page.locator('html')).toHaveClass(theme)
        await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
        expect(await seriousViolations(page)).toEqual([])
      })
    }
  })
}

test('keyboard focus is visible on links, chips and buttons', async ({ page }) => {
  await page.goto('/')
  // The first Tab reaches the skip link, which appears when focused.
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Skip to content' })
  await expect(skip).toBeFocused()
  await expect(skip).toBeVisible()

  const chip = page
    .getByRole('navigation', { name: 'Filter by category' })
    .getByRole('link', { name: 'Music', exact: true })
  await chip.focus()
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Tab')
  await expect(chip).toBeFocused()
  const outline = await chip.evaluate((element) => {
    const style = getComputedStyle(element)
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) }
  })
  expect(outline.style).toBe('solid')
  expect(outline.width).toBeGreaterThanOrEqual(2)
})
