import { resolvePhonePeSetup } from '~/services/payment/phonepe-config.server'
import { handlePhonePeWebhook } from '~/services/payment/phonepe-flow.server'
import * as webhook from '~/services/payment/webhook-route.server'
import type { Route } from './+types/phonepe-webhook'

/**
 * POST /api/payments/phonepe/webhook: PhonePe's webhooks, server to server, authorised by the
 * Authorization header (SHA-256 of the configured username and password) and confirmed with
 * the status API. 200 tells PhonePe it is done (handled, an event we ignore, an order that is
 * not ours), 401 an unauthorised delivery, 400 one we cannot read, 404 while PhonePe is switched
 * off, 503 when the status API could not confirm it and 500 a failure on our side (PhonePe
 * delivers again after either).
 */
export async function action({ request }: Route.ActionArgs) {
  return webhook.receive(
    request,
    'PhonePe',
    resolvePhonePeSetup,
    async ({ db, env, setup, raw }) => {
      const result = await handlePhonePeWebhook(db, setup, env.APP_SECRET, raw, request.headers)
      if (result.kind === 'rejected') {
        if (result.reason === 'ignored-event') return webhook.answer(200, 'ignored')
        return webhook.answer(result.reason === 'unauthorised' ? 401 : 400, result.reason)
      }
      if (result.kind === 'unconfirmed')
        return webhook.answer(503, 'status not confirmed, deliver again')
      return webhook.answer(200, result.kind)
    },
  )
}

export const loader = webhook.methodNotAllowed
