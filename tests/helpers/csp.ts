import type { Page } from '@playwright/test'
import { expect, test as base } from './fixtures'

/**
 * Fails a browser test on any Content-Security-Policy violation in its page: the browser
 * reports each refused script, style, image, connection or form target as a
 * `securitypolicyviolation` event (and a "Refused to ..." console error); both are collected and
 * must be none when the test ends. The listener is added by the DevTools protocol, so the
 * policy under test does not block it.
 */
export async function collectCspViolations(
  { page }: { page: Page },
  use: (violations: string[]) => Promise<void>,
) {
  const violations: string[] = []
  await page.addInitScript(() => {
    window.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} in ${event.documentURI} (${event.sourceFile}:${event.lineNumber})`,
      )
    })
  })
  page.on('console', (message) => {
    const text = message.text()
    if (
      message.type() === 'error' &&
      /^CSP violation:|Refused to|Content Security Policy/.test(text)
    ) {
      violations.push(text)
    }
  })
  await use(violations)
  expect(violations, 'Content-Security-Policy violations').toEqual([])
}

/** The shared `test` (one app per worker) that also fails on any CSP violation. For another
 * `test` (adminTest's): `.extend({ cspViolations: [collectCspViolations, { auto: true }] })`. */
export const test = base.extend<{ cspViolations: string[] }>({
  cspViolations: [collectCspViolations, { auto: true }],
})

export { expect }
