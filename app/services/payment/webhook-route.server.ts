import { services } from '~/lib/app-context.server'
import type { DB } from '~/lib/db.server'
import type { Env } from '~/lib/env.server'

/**
 * What every gateway's webhook route does before and after its gateway's own handling: POST
 * only, a body of at most 64 KiB read as raw text (signatures are checked on it), 404 while the
 * gateway is switched off, and 500 (so the gateway delivers again) when handling throws.
 */
const MAX_BODY = 64 * 1024

/** A plain-text answer the gateway logs; never cached. */
export function answer(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  })
}

/** The answer to anything but POST on a webhook route. */
export function methodNotAllowed(): Response {
  return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } })
}

/** One delivery to `label`'s webhook route; `handle` answers it once the gateway is switched on. */
export async function receive<Setup>(
  request: Request,
  label: string,
  resolveSetup: (db: DB, env: Env) => Promise<Setup | null>,
  handle: (delivery: { db: DB; env: Env; setup: Setup; raw: string }) => Promise<Response>,
): Promise<Response> {
  if (request.method !== 'POST') return methodNotAllowed()
  const raw = await request.text()
  if (raw.length > MAX_BODY) return answer(413, 'Too large')
  const { db, env } = services()
  const setup = await resolveSetup(db, env)
  if (!setup) return answer(404, `${label} is not enabled in this shop`)
  try {
    return await handle({ db, env, setup, raw })
  } catch (error) {
    console.error(`[payments] ${label} webhook failed:`, error)
    return answer(500, 'error')
  }
}
