import { redirect } from 'react-router'
import { services } from '~/lib/app-context.server'
import { paymentResultPath } from '~/lib/order-status'
import { readFormData } from '~/lib/form-data.server'
import { resolveRazorpaySetup } from '~/services/payment/razorpay-config.server'
import {
  handleRazorpayReturn,
  razorpayReturnOrderId,
} from '~/services/payment/razorpay-flow.server'
import type { Route } from './+types/razorpay-callback'

/**
 * POST /api/payments/razorpay/callback: Checkout's callback_url, a cross-site form POST from
 * the buyer's browser (razorpay_payment_id, razorpay_order_id, razorpay_signature, or the
 * error[...] fields of a failure). Authenticated by the signature and the payments API, not a
 * session; whatever happened, the buyer goes on (303) to the result page showing our record.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== 'POST')
    return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } })
  let fields: Record<string, string> | null = null
  try {
    const form = await readFormData(request)
    fields = {}
    for (const [name, value] of form) if (typeof value === 'string') fields[name] = value
  } catch {
    fields = null
  }
  let orderId: string | null = null
  if (fields) {
    try {
      const { db, env } = services()
      // Our order, found first by the Razorpay order id the return names: a buyer who has just
      // paid sees it even when the return cannot be handled now (Razorpay switched off, its keys
      // refused, a database error); reconciliation decides it.
      orderId = await razorpayReturnOrderId(db, fields)
      const setup = await resolveRazorpaySetup(db, env)
      if (setup) {
        const result = await handleRazorpayReturn(db, setup, fields)
        if (result.kind !== 'unknown-order') orderId = result.orderId
      } else {
        console.error('[payments] Razorpay return received while Razorpay is switched off')
      }
    } catch (error) {
      // The result page shows the order as we have it; reconciliation picks up what this missed.
      console.error('[payments] Razorpay return failed:', error)
    }
  }
  return redirect(paymentResultPath(orderId), 303)
}

/** A GET here (a bookmark, a refresh) goes to the result page. */
export function loader() {
  return redirect(paymentResultPath(null), 303)
}
