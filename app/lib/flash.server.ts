import crypto from 'node:crypto'
import { createCookie } from 'react-router'
import { services } from './app-context.server'
import type { Flash } from './flash'

/**
 * One-time messages across a redirect (an admin action answers with a 303 back to its page,
 * whose FlashNotice shows the message once). A signed, short-lived cookie: works without
 * JavaScript. Scoped to /admin, the only pages that show one so far.
 */
export type { Flash }

function flashCookie() {
  const { env } = services()
  return createCookie('kb_flash', {
    path: '/admin',
    httpOnly: true,
    sameSite: 'lax',
    secure: env.PUBLIC_URL.startsWith('https://'),
    maxAge: 60,
    secrets: [env.APP_SECRET],
  })
}

/** Set-Cookie headers carrying a message to the next page. */
export async function flashHeaders(type: Flash['type'], message: string): Promise<Headers> {
  const flash: Flash = { type, message, id: crypto.randomBytes(6).toString('hex') }
  return new Headers({ 'Set-Cookie': await flashCookie().serialize(flash) })
}

function isFlash(value: unknown): value is Flash {
  const flash = value as Flash | null
  return (
    typeof flash === 'object' &&
    flash !== null &&
    (flash.type === 'success' || flash.type === 'error') &&
    typeof flash.message === 'string' &&
    typeof flash.id === 'string'
  )
}

/** The waiting message, if any, and the headers that clear it. */
export async function readFlash(
  request: Request,
): Promise<{ flash: Flash | null; headers: Headers }> {
  const cookie = flashCookie()
  const value: unknown = await cookie.parse(request.headers.get('Cookie'))
  const headers = new Headers()
  if (value === null || value === undefined) return { flash: null, headers }
  headers.append('Set-Cookie', await cookie.serialize('', { maxAge: 0 }))
  return { flash: isFlash(value) ? value : null, headers }
}
