import { redirect } from 'react-router'
import { services } from '~/lib/app-context.server'
import { paymentResultPath } from '~/lib/order-status'
import { resolvePaytmSetup } from '~/services/payment/config.server'
import { handlePaytmCallback } from '~/services/payment/paytm-flow.server'
import { readFormData } from '~/lib/form-data.server'
import type { Route } from './+types/paytm-callback'

/**
 * POST /api/payments/paytm/callback: Paytm's callback, a cross-site form POST from the buyer's
 * browser. It is authenticated by its checksum and the status API, not by a session (the
 * session cookie is SameSite=Lax and is not sent on this POST); as a resource route it is not
 * subject to React Router's same-origin check for actions. Whatever happened, the buyer is
 * sent on (303) to the result page, which shows our record of the order.
 */
const ORDER_ID = /^[A-Za-z0-9@._-]{1,50}$/

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== 'POST')
    return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } })
  // Its body limit (GATEWAY_BODY_LIMIT) is enforced on the bytes received by server/request-guard.ts.
  let form: FormData | null = null
  try {
    form = await readFormData(request)
  } catch {
    form = null
  }
  const claimed = form?.get('ORDERID')
  let orderId = typeof claimed === 'string' && ORDER_ID.test(claimed) ? claimed : null
  if (form) {
    try {
      const { db, env } = services()
      const setup = await resolvePaytmSetup(db, env)
      if (setup) {
        const result = await handlePaytmCallback(db, setup, form)
        if (result.kind !== 'rejected') orderId = result.orderId
      } else {
        console.error(
          '[payments] Paytm callback received while payments are switched off; reconciliation will look at the order',
        )
      }
    } catch (error) {
      // The result page shows the order as we have it; reconciliation picks up what this missed.
      console.error('[payments] Paytm callback failed:', error)
    }
  }
  return redirect(paymentResultPath(orderId), 303)
}

/** A GET here (a bookmark, a refresh) goes to the result page. */
export function loader({ request }: Route.LoaderArgs) {
  const claimed = new URL(request.url).searchParams.get('ORDERID')
  return redirect(paymentResultPath(claimed && ORDER_ID.test(claimed) ? claimed : null), 303)
}
