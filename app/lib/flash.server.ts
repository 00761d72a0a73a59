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

/**
 * A one-time note for a later page: a signed, short-lived cookie (60 s under /admin unless told
 * otherwise), set by an action's redirect and cleared by the page that reads it. `isNote` checks
 * what comes back.
 */
export function oneTimeNote<Note>(
  name: string,
  isNote: (value: unknown) => value is Note,
  scope: { path?: string; maxAgeSeconds?: number } = {},
) {
  const cookie = () => {
    const { env } = services()
    return createCookie(name, {
      path: scope.path ?? '/admin',
      httpOnly: true,
      sameSite: 'lax',
      secure: env.PUBLIC_URL.startsWith('https://'),
      maxAge: scope.maxAgeSeconds ?? 60,
      secrets: [env.APP_SECRET],
    })
  }
  return {
    /** Set-Cookie headers carrying the note to the next page. */
    async headers(note: Note): Promise<Headers> {
      return new Headers({ 'Set-Cookie': await cookie().serialize(note) })
    },
    /** The waiting note, if any, and the headers that clear it. */
    async read(request: Request): Promise<{ note: Note | null; headers: Headers }> {
      const value: unknown = await cookie().parse(request.headers.get('Cookie'))
      const headers = new Headers()
      if (value === null || value === undefined) return { note: null, headers }
      headers.append('Set-Cookie', await cookie().serialize('', { maxAge: 0 }))
      return { note: isNote(value) ? value : null, headers }
    },
  }
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

const flashNote = oneTimeNote('kb_flash', isFlash)

/** Set-Cookie headers carrying a message to the next page. */
export async function flashHeaders(type: Flash['type'], message: string): Promise<Headers> {
  return flashNote.headers({ type, message, id: crypto.randomBytes(6).toString('hex') })
}

/** The waiting message, if any, and the headers that clear it. */
export async function readFlash(
  request: Request,
): Promise<{ flash: Flash | null; headers: Headers }> {
  const { note, headers } = await flashNote.read(request)
  return { flash: note, headers }
}
