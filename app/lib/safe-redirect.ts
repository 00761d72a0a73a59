/**
 * Only a same-site path may be a destination after signing in (no open redirect).
 * Kept apart from the Zod schemas so that pages needing only this do not load Zod.
 */
export function safeRedirect(to: unknown, fallback = '/'): string {
  if (
    typeof to !== 'string' ||
    !to.startsWith('/') ||
    to.startsWith('//') ||
    to.startsWith('/\\')
  ) {
    return fallback
  }
  return to
}
