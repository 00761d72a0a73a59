/**
 * better-auth's session cookies, as every part of the server recognises them: the token and
 * the cookie cache (`kb.session_token`, `kb.session_data` and its chunks `kb.session_data.0`…),
 * named with SESSION_COOKIE_PREFIX (better-auth's cookiePrefix in app/services/auth.server.ts)
 * and `__Secure-` in front on https. A request without any of them has no session, so it is
 * answered without asking better-auth and may be cached as a visitor's.
 */
export const SESSION_COOKIE_PREFIX = 'kb'

const SESSION_COOKIE_NAME = new RegExp(
  `^(?:__Secure-)?${SESSION_COOKIE_PREFIX}\\.session_(?:token|data)(?:\\.\\d+)?=`,
)

function cookieParts(cookieHeader: string | null | undefined): string[] {
  return (cookieHeader ?? '').split(';').map((part) => part.trim())
}

/** Whether a Cookie header carries any session cookie. */
export function hasSessionCookie(cookieHeader: string | null | undefined): boolean {
  return cookieParts(cookieHeader).some((part) => SESSION_COOKIE_NAME.test(part))
}

/**
 * The session cookies of a Cookie header in a stable order, '' without any: the same session
 * gives the same string whatever else the browser sends, so it keys a cache of sessions.
 */
export function sessionCookies(cookieHeader: string | null | undefined): string {
  return cookieParts(cookieHeader)
    .filter((part) => SESSION_COOKIE_NAME.test(part))
    .sort()
    .join('; ')
}
