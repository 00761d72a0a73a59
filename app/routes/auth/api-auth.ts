import { clientIp } from '~/lib/rate-limit.server'
import { getAuth, withClientIp } from '~/services/auth.server'
import type { Route } from './+types/api-auth'

/**
 * better-auth's HTTP endpoints, limited to what a browser must reach directly: the OAuth
 * callback from Google. Everything else goes through our own routes' actions (validation,
 * rate limits, forms that work without JavaScript), so better-auth's other endpoints are
 * not exposed.
 */
const ALLOWED = /^\/api\/auth\/callback\/[a-z0-9-]+$/

function handle(request: Request, ip: string): Promise<Response> | Response {
  const { pathname } = new URL(request.url)
  if (!ALLOWED.test(pathname)) return new Response('Not found', { status: 404 })
  // better-auth reads the client address from X-Forwarded-For and stores it with the session it
  // opens. The visitor's own header is never believed: only the address the server trusts
  // (TRUST_PROXY, docs/security.md "Trusted proxies"; `withClientIp`).
  const headers = withClientIp(request.headers, ip)
  return getAuth().handler(new Request(request, { headers }))
}

export function loader({ request, context }: Route.LoaderArgs) {
  return handle(request, clientIp(context))
}

export function action({ request, context }: Route.ActionArgs) {
  return handle(request, clientIp(context))
}
