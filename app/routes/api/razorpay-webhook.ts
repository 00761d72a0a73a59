import { services } from '~/lib/app-context.server'
import { resolveRazorpaySetup } from '~/services/payment/razorpay-config.server'
import { handleRazorpayWebhook } from '~/services/payment/razorpay-flow.server'
import type { Route } from './+types/razorpay-webhook'

/**
 * POST /api/payments/razorpay/webhook: Razorpay's signed webhooks, server to server. The
 * signature is checked on the raw body; 2xx tells Razorpay to stop retrying (handled, a
 * duplicate, an event for an order that is not ours), 400 a refused delivery, 404 while the
 * shop has Razorpay switched off (the endpoint is not there), 500 a failure on our side.
 * Razorpay retries any answer that is not 2xx for 24 hours, so nothing is lost meanwhile.
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
  const setup = await resolveRazorpaySetup(db, env)
  if (!setup) return answer(404, 'Razorpay is not enabled in this shop')
  try {
    const result = await handleRazorpayWebhook(db, setup, raw, request.headers)
    if (result.kind === 'rejected')
      return result.reason === 'ignored-event' ? answer(200, 'ignored') : answer(400, result.reason)
    return answer(200, result.kind)
  } catch (error) {
    console.error('[payments] Razorpay webhook failed:', error)
    return answer(500, 'error')
  }
}

export function loader() {
  return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } })
}
