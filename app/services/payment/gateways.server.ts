import { getSiteSettings } from '~/data/settings.server'
import type { DB } from '~/lib/db.server'
import type { Env } from '~/lib/env.server'
import type { RazorpayCheckout } from '~/lib/payments/razorpay.server'
import type { ProcessTransactionForm } from '~/lib/payments/paytm.server'
import type { Order } from '~/data/order.server'
import { resolvePaytmSetup } from './config.server'
import { startPaytmCheckout, type StartCheckoutInput } from './paytm-flow.server'
import { resolveRazorpaySetup } from './razorpay-config.server'
import { startRazorpayCheckout } from './razorpay-flow.server'
import { resolvePhonePeSetup } from './phonepe-config.server'
import { startPhonePeCheckout } from './phonepe-flow.server'

/**
 * The gateways a buyer may pay through right now, in the order checkout offers them
 * (docs/payments.md, "Choosing how to pay"), and starting a payment at one of them.
 */
export const CHECKOUT_GATEWAYS = ['razorpay', 'phonepe', 'paytm'] as const
export type CheckoutGatewayId = (typeof CHECKOUT_GATEWAYS)[number]

export interface CheckoutGateway {
  id: CheckoutGatewayId
  /** What the buyer picks. */
  label: string
  /** True for a built-in simulator: no real money moves. */
  testMode: boolean
}

const LABELS: Record<CheckoutGatewayId, string> = {
  razorpay: 'UPI, cards, netbanking — Razorpay',
  phonepe: 'UPI, cards, netbanking — PhonePe',
  paytm: 'UPI, cards, wallet — Paytm',
}

/** Gateways checkout may use, in the shop's order of the Gateways page. */
export async function checkoutGateways(db: DB, env: Env): Promise<CheckoutGateway[]> {
  const [rows, paytm, razorpay, phonepe] = await Promise.all([
    db
      .selectFrom('paymentGateway')
      .select(['type'])
      .orderBy('position')
      .orderBy('createdAt')
      .execute(),
    resolvePaytmSetup(db, env),
    resolveRazorpaySetup(db, env),
    resolvePhonePeSetup(db, env),
  ])
  const setups: Partial<Record<CheckoutGatewayId, { testMode: boolean }>> = {}
  if (paytm) setups.paytm = paytm
  if (razorpay) setups.razorpay = razorpay
  if (phonepe) setups.phonepe = phonepe
  const order: CheckoutGatewayId[] = []
  for (const row of rows)
    if (
      (CHECKOUT_GATEWAYS as readonly string[]).includes(row.type) &&
      !order.includes(row.type as CheckoutGatewayId)
    )
      order.push(row.type as CheckoutGatewayId)
  // A gateway configured only by the environment (or Paytm's simulator) comes after the records.
  for (const id of ['paytm', 'razorpay', 'phonepe'] as const)
    if (!order.includes(id)) order.push(id)
  return order
    .filter((id) => setups[id])
    .map((id) => ({ id, label: LABELS[id], testMode: setups[id]!.testMode }))
}

export type StartedPayment =
  | { kind: 'form'; order: Order; accessToken: string; form: ProcessTransactionForm }
  | { kind: 'razorpay'; order: Order; accessToken: string; checkout: RazorpayCheckout }
  | { kind: 'redirect'; order: Order; accessToken: string; url: string }

/**
 * Starts a payment at one gateway. Returns null when that gateway is switched off; throws
 * OrderError (product), PaytmRequestError or PaymentStartError (the gateway cannot start it).
 */
export async function startPayment(
  db: DB,
  env: Env,
  gateway: CheckoutGatewayId,
  input: StartCheckoutInput,
): Promise<StartedPayment | null> {
  if (gateway === 'razorpay') {
    const setup = await resolveRazorpaySetup(db, env)
    if (!setup) return null
    const { siteName } = await getSiteSettings(db)
    const started = await startRazorpayCheckout(db, setup, input, { shopName: siteName })
    return {
      kind: 'razorpay',
      order: started.order,
      accessToken: started.accessToken,
      checkout: started.checkout,
    }
  }
  if (gateway === 'phonepe') {
    const setup = await resolvePhonePeSetup(db, env)
    if (!setup) return null
    const started = await startPhonePeCheckout(db, setup, env.APP_SECRET, input)
    return {
      kind: 'redirect',
      order: started.order,
      accessToken: started.accessToken,
      url: started.redirectUrl,
    }
  }
  const setup = await resolvePaytmSetup(db, env)
  if (!setup) return null
  const started = await startPaytmCheckout(db, setup, input)
  return {
    kind: 'form',
    order: started.order,
    accessToken: started.accessToken,
    form: started.prepared,
  }
}
