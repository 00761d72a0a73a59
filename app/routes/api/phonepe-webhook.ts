import { services } from '~/lib/app-context.server'
import { resolvePhonePeSetup } from '~/services/payment/phonepe-config.server'
import { handlePhonePeWebhook } from '~/services/payment/phonepe-flow.server'
import type { Route } from './+types/phonepe-webhook'

/**
 * POST /api/payments/phonepe/webhook: PhonePe's webhooks, server to server, authorised by the
 * Authorization header (SHA-256 of the configured username and password) and confirmed with
 * the status API. 200 tells PhonePe it is done (handled, an event we ignore, an order that is
 * not ours), 401 an unauthorised delivery, 400 one we cannot read, 404 while PhonePe is switched
 * off, 503 when the status API could not confirm it and 500 a failure on our side (PhonePe
 * delivers again after either).
 */
const MAX_BODY = 64 * 1024

function answer(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  })
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== 'POST')
    return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } })
  const raw = await request.text()
  if (raw.length > MAX_BODY) return answer(413, 'Too large')
  const { db, env } = services()
  const setup = await resolvePhonePeSetup(db, env)
  if (!setup) return answer(404, 'PhonePe is not enabled in this shop')
  try {
    const result = await handlePhonePeWebhook(db, setup, env.APP_SECRET, raw, request.headers)
    if (result.kind === 'rejected') {
      if (result.reason === 'ignored-event') return answer(200, 'ignored')
      return answer(result.reason === 'unauthorised' ? 401 : 400, result.reason)
    }
    if (result.kind === 'unconfirmed') return answer(503, 'status not confirmed, deliver again')
    return answer(200, result.kind)
  } catch (error) {
    console.error('[payments] PhonePe webhook failed:', error)
    return answer(500, 'error')
  }
}

export function loader() {
  return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } })
}
