import { data } from 'react-router'
import { z } from 'zod'
import { claimStatusCheck, getOrder, SETTLED_STATUSES } from '~/data/order.server'
import { services } from '~/lib/app-context.server'
import { safeEqual } from '~/lib/crypto.server'
import { resolvePaytmSetup } from '~/services/payment/config.server'
import { reconcileOrder, STATUS_CHECK_MIN_INTERVAL_MS } from '~/services/payment/paytm-flow.server'
import type { Route } from './+types/paytm-verify-payment'

/**
 * POST /api/paytm/verify-payment {orderId, transactionId} -> {verified}.
 * verified is true only when our record says the order is paid by exactly that gateway
 * transaction. A pending order is first checked with the status API (server to server, at
 * most once per STATUS_CHECK_MIN_INTERVAL_MS per order, so this cannot be used to flood Paytm).
 */
const VERIFY_FAILED = 'Failed to verify payment'
const requestSchema = z.object({
  orderId: z.string().min(1).max(60),
  transactionId: z.string().min(1).max(100),
})
const noStore = { 'Cache-Control': 'no-store' }

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== 'POST')
    return data({ verified: false }, { status: 405, headers: { Allow: 'POST' } })
  let json: unknown
  try {
    const body = await request.text()
    json = body.length <= 4096 ? JSON.parse(body) : null
  } catch {
    json = null
  }
  const parsed = requestSchema.safeParse(json)
  if (!parsed.success)
    return data({ verified: false, error: VERIFY_FAILED }, { status: 400, headers: noStore })
  const { orderId, transactionId } = parsed.data
  const { db, env } = services()
  try {
    let order = await getOrder(db, orderId)
    if (!order) return data({ verified: false }, { headers: noStore })
    if (order.status === 'pending' && order.gateway === 'paytm') {
      const setup = await resolvePaytmSetup(db, env)
      // The turn is taken with a compare-and-set, not judged from the order read above: of many
      // requests at once only one asks Paytm (docs/payments.md, "The spec's endpoints").
      if (
        setup &&
        (await claimStatusCheck(db, orderId, new Date(), STATUS_CHECK_MIN_INTERVAL_MS))
      ) {
        await reconcileOrder(db, setup, orderId, { via: 'verify-payment' })
        order = (await getOrder(db, orderId)) ?? order
      }
    }
    const verified =
      (SETTLED_STATUSES as readonly string[]).includes(order.status) &&
      order.status !== 'refunded' &&
      order.gatewayTxnId !== null &&
      safeEqual(order.gatewayTxnId, transactionId)
    return data({ verified }, { headers: noStore })
  } catch (error) {
    console.error('[payments] verify-payment:', error)
    return data({ verified: false, error: VERIFY_FAILED }, { status: 500, headers: noStore })
  }
}
