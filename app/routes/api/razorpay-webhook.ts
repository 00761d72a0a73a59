import { resolveRazorpaySetup } from '~/services/payment/razorpay-config.server'
import { handleRazorpayWebhook } from '~/services/payment/razorpay-flow.server'
import * as webhook from '~/services/payment/webhook-route.server'
import type { Route } from './+types/razorpay-webhook'

/**
 * POST /api/payments/razorpay/webhook: Razorpay's signed webhooks, server to server. The
 * signature is checked on the raw body; 2xx tells Razorpay to stop retrying (handled, a
 * duplicate, an event for an order that is not ours), 400 a refused delivery, 404 while the
 * shop has Razorpay switched off (the endpoint is not there), 500 a failure on our side.
 * Razorpay retries any answer that is not 2xx for 24 hours, so nothing is lost meanwhile.
 */
export async function action({ request }: Route.ActionArgs) {
  return webhook.receive(request, 'Razorpay', resolveRazorpaySetup, async ({ db, setup, raw }) => {
    const result = await handleRazorpayWebhook(db, setup, raw, request.headers)
    if (result.kind === 'rejected')
      return result.reason === 'ignored-event'
        ? webhook.answer(200, 'ignored')
        : webhook.answer(400, result.reason)
    return webhook.answer(200, result.kind)
  })
}

export const loader = webhook.methodNotAllowed
