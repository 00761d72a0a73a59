import { test, type Page } from '@playwright/test'

/**
 * Full-page screenshots of the page as it stands, at a phone and a desktop width in the light
 * and the dark theme, into the test's output folder (`<name>-<width>-<scheme>.png`). The page is
 * left light at 1280 px.
 */
export async function screenshotWidthsAndThemes(page: Page, name: string): Promise<void> {
  for (const width of [390, 1280]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 900 })
      await page.emulateMedia({ colorScheme: scheme })
      await page.screenshot({
        path: test.info().outputPath(`${name}-${width}-${scheme}.png`),
        fullPage: true,
      })
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 900 })
}
