import { services } from './app-context.server'

/**
 * One rule for every state-changing request (anything but GET, HEAD, OPTIONS): a browser's
 * request from another site is refused with 403, whatever the route. server/security.ts applies
 * it in front of the app; SameSite=Lax cookies alone would still let another site log a
 * visitor out, switch their theme or reach an action that needs no cookie.
 *
 * The exemptions, each for a reason:
 */
export const CROSS_SITE_EXEMPT: readonly { prefix: string; reason: string }[] = [
  {
    prefix: '/api/payments/',
    reason:
      'gateway callbacks arrive as a cross-site form post from the gateway page, or server to server',
  },
  {
    prefix: '/payment/callback',
    reason:
      'the gateway returns the buyer to the result page with a cross-site form post (its reveal action checks with assertSameSite)',
  },
  { prefix: '/api/paytm/', reason: "the spec's checksum API, called by other servers" },
  {
    prefix: '/api/auth/',
    reason: 'better-auth checks Origin itself (trustedOrigins), and Google returns there',
  },
]

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase())
}

export function isCrossSiteExempt(pathname: string): boolean {
  return CROSS_SITE_EXEMPT.some(({ prefix }) => pathname.startsWith(prefix))
}

/**
 * Did a browser send this from another site? Origin decides; without it (older browsers),
 * Sec-Fetch-Site. With neither it is no browser's request (curl, a server), and a forged
 * cross-site post always comes from a browser. Origin "null" (a sandboxed frame, a data: page)
 * is never ours.
 */
export function isCrossSite(
  headers: { origin?: string | null; fetchSite?: string | null },
  allowedOrigins: ReadonlySet<string>,
): boolean {
  const { origin, fetchSite } = headers
  if (origin && origin !== 'null') return !allowedOrigins.has(origin)
  if (fetchSite) return fetchSite !== 'same-origin' && fetchSite !== 'none'
  return origin === 'null'
}

export const CROSS_SITE_MESSAGE = 'Cross-site request refused'

/** For an action on an exempt path that only our own pages may post (the result page's reveal). */
export function assertSameSite(request: Request): void {
  const allowed = new Set([new URL(services().env.PUBLIC_URL).origin, new URL(request.url).origin])
  const headers = {
    origin: request.headers.get('origin'),
    fetchSite: request.headers.get('sec-fetch-site'),
  }
  if (isCrossSite(headers, allowed)) throw new Response(CROSS_SITE_MESSAGE, { status: 403 })
}
