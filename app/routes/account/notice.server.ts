import { createCookie } from 'react-router'
import { services } from '~/lib/app-context.server'

/**
 * A one-time success message across a redirect in the customer dashboard (a signed cookie that
 * lives a minute, so it works without JavaScript). The password change answers with a redirect
 * because it replaces the session cookie: the page after it must be loaded with the new one.
 */
function noticeCookie() {
  const { env } = services()
  return createCookie('kb_notice', {
    path: '/dashboard',
    httpOnly: true,
    sameSite: 'lax',
    secure: env.PUBLIC_URL.startsWith('https://'),
    maxAge: 60,
    secrets: [env.APP_SECRET],
  })
}

/** A Set-Cookie header value carrying the message to the next page. */
export async function noticeCookieHeader(message: string): Promise<string> {
  return noticeCookie().serialize(message)
}

/** The waiting message, if any, and the headers that clear it. */
export async function readNotice(
  request: Request,
): Promise<{ notice: string | null; headers: Headers }> {
  const cookie = noticeCookie()
  const value: unknown = await cookie.parse(request.headers.get('Cookie'))
  const headers = new Headers()
  if (value === null || value === undefined) return { notice: null, headers }
  headers.append('Set-Cookie', await cookie.serialize('', { maxAge: 0 }))
  return { notice: typeof value === 'string' ? value : null, headers }
}
