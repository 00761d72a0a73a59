import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

/**
 * The page's serious and critical accessibility violations (axe-core, WCAG 2.1 A and AA), as
 * `rule: where` lines for a readable failure; an empty list when there are none. Toasts (the
 * shared sonner toaster) are left out: axe would catch them mid-fade.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .exclude('[data-sonner-toaster]')
    .analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.nodes
          .map((node) => node.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    )
}
