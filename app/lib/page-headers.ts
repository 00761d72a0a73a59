import type { HeadersFunction } from 'react-router'

/**
 * Response headers of the account pages: never cached (they depend on who asks), and a
 * rate-limited answer keeps its Retry-After.
 */
export const accountPageHeaders: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers({ 'Cache-Control': 'no-store' })
  const retryAfter = actionHeaders.get('Retry-After')
  if (retryAfter) headers.set('Retry-After', retryAfter)
  return headers
}
