import { redirect } from 'react-router'
import { services } from '~/lib/app-context.server'
import { paymentResultPath } from '~/lib/order-status'
import { resolvePhonePeSetup } from '~/services/payment/phonepe-config.server'
import { handlePhonePeReturn } from '~/services/payment/phonepe-flow.server'
import type { Route } from './+types/phonepe-return'

/**
 * GET /api/payments/phonepe/return?order=...: where PhonePe sends the buyer's browser back.
 * Nothing here is signed, so the visit only makes the shop ask PhonePe's status API about that
 * order; whatever happened, the buyer goes on (303) to the result page showing our record.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const claimed = new URL(request.url).searchParams.get('order') ?? ''
  let orderId: string | null = null
  try {
    const { db, env } = services()
    const setup = await resolvePhonePeSetup(db, env)
    if (setup) {
      const result = await handlePhonePeReturn(db, setup, env.APP_SECRET, claimed)
      if (result.kind === 'handled') orderId = result.orderId
    } else {
      console.error('[payments] PhonePe return received while PhonePe is switched off')
    }
  } catch (error) {
    // The result page shows the order as we have it; reconciliation picks up what this missed.
    console.error('[payments] PhonePe return failed:', error)
  }
  return redirect(
    paymentResultPath(orderId ?? (/^[A-Za-z0-9_-]{1,63}$/.test(claimed) ? claimed : null)),
    303,
  )
}
