import { getAuth } from '~/services/auth.server'
import type { Route } from './+types/api-auth'

/**
 * better-auth's HTTP endpoints, limited to what a browser must reach directly: the OAuth
 * callback from Google. Everything else goes through our own routes' actions (validation,
 * rate limits, forms that work without JavaScript), so better-auth's other endpoints are
 * not exposed.
 */
const ALLOWED = /^\/api\/auth\/callback\/[a-z0-9-]+$/

function handle(request: Request): Promise<Response> | Response {
  const { pathname } = new URL(request.url)
  if (!ALLOWED.test(pathname)) return new Response('Not found', { status: 404 })
  return getAuth().handler(request)
}

export function loader({ request }: Route.LoaderArgs) {
  return handle(request)
}

export function action({ request }: Route.ActionArgs) {
  return handle(request)
}
