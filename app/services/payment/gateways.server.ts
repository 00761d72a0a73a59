import { getSiteSettings } from '~/data/settings.server'
import type { DB } from '~/lib/db.server'
import type { Env } from '~/lib/env.server'
import type { RazorpayCheckout } from '~/lib/payments/razorpay.server'
import {
  fetchOrderStatus,
  paytmGateway,
  type ProcessTransactionForm,
} from '~/lib/payments/paytm.server'
import { GatewayRefusedError, GatewayUnreachableError } from '~/lib/payments/gateway.server'
import { checkRazorpayKeys } from '~/lib/payments/razorpay.server'
import { fetchPhonePeToken } from '~/lib/payments/phonepe.server'
import type { Order } from '~/data/order.server'
import { paytmGatewaySettings } from '~/data/gateway.server'
import { resolvePaytmSetup } from './config.server'
import { startPaytmCheckout, type StartCheckoutInput } from './paytm-flow.server'
import { resolveRazorpaySetup } from './razorpay-config.server'
import { razorpayClient, razorpayReconciler, startRazorpayCheckout } from './razorpay-flow.server'
import { resolvePhonePeSetup } from './phonepe-config.server'
import { phonePeClient, phonePeReconciler, startPhonePeCheckout } from './phonepe-flow.server'
import type { ReconcilingGateway } from './gateway-flow.server'
import type { CheckoutGatewayId } from './offered-gateways.server'
import type { RefundingGateway } from './refunds.server'

/**
 * Starting a payment at the gateway the buyer chose (checkoutGateways, offered-gateways.server.ts,
 * says which are offered), and the gateway that reconciles or refunds an order.
 */
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

/**
 * The status API of a gateway of the shared payment workflow (Razorpay, PhonePe) as it is
 * configured now, for reconciliation and the admin's 'Confirm payment'; null when it is off.
 * Paytm keeps its own status request (paytm-flow.server.ts).
 */
export async function reconcilingGatewayFor(
  db: DB,
  env: Env,
  gateway: string,
): Promise<ReconcilingGateway | null> {
  if (gateway === 'razorpay') {
    const setup = await resolveRazorpaySetup(db, env)
    return setup ? razorpayReconciler(setup) : null
  }
  if (gateway === 'phonepe') {
    const setup = await resolvePhonePeSetup(db, env)
    return setup ? phonePeReconciler(db, setup, env.APP_SECRET) : null
  }
  return null
}

/** The refund API of a gateway as it is configured now, or null when it is off or has none. */
export async function refundGatewayFor(
  db: DB,
  env: Env,
  gateway: string,
): Promise<RefundingGateway | null> {
  if (gateway === 'paytm') {
    const setup = await resolvePaytmSetup(db, env)
    if (!setup) return null
    const client = paytmGateway(setup.config, { callbackUrl: setup.callbackUrl })
    return {
      testMode: setup.testMode,
      refund: (request) => client.refund(request),
      refundStatus: (query) => client.refundStatus(query),
    }
  }
  if (gateway === 'razorpay') {
    const setup = await resolveRazorpaySetup(db, env)
    if (!setup) return null
    const client = razorpayClient(setup)
    return {
      testMode: setup.testMode,
      refund: (request) => client.refund(request),
      refundStatus: (query) => client.refundStatus(query),
    }
  }
  if (gateway === 'phonepe') {
    const setup = await resolvePhonePeSetup(db, env)
    if (!setup) return null
    const client = phonePeClient(db, setup, env.APP_SECRET)
    return {
      testMode: setup.testMode,
      refund: (request) => client.refund(request),
      refundStatus: (query) => client.refundStatus(query),
    }
  }
  return null
}

export interface ConnectionTest {
  ok: boolean
  /** What the gateway answered, in its words where it gave some. */
  message: string
}

/**
 * The Gateways page's Test connection: one harmless call with the credentials the shop would
 * use now. Paytm: the status API for an order id that cannot exist, signed with the merchant
 * key; "Invalid Order ID" (334) means Paytm checked the signature and accepts the merchant,
 * "Invalid checksum" (330) that the key is wrong. Razorpay: the Orders API with the keys.
 * PhonePe: its OAuth token endpoint with the client credentials.
 */
export async function testGatewayConnection(
  db: DB,
  env: Env,
  gateway: string,
  now = new Date(),
): Promise<ConnectionTest> {
  try {
    if (gateway === 'paytm') {
      const setup = await resolvePaytmSetup(db, env)
      if (!setup)
        return {
          ok: false,
          message: 'Paytm is inactive, or its stored key cannot be read: nothing to test.',
        }
      if (setup.source === 'simulator') {
        // A merchant id without a key it can use is the simulator at checkout (config.server.ts):
        // the admin's merchant was never asked, so this is no success.
        const stored = await paytmGatewaySettings(db, env.APP_SECRET)
        if (stored?.merchantId)
          return {
            ok: false,
            message: `No Merchant Key is stored that this APP_SECRET can read, so checkout uses the built-in Paytm simulator and Merchant ID ${stored.merchantId} was not tested. Enter the Merchant Key, save, and test again.`,
          }
      }
      const where = setup.source === 'simulator' ? 'The built-in Paytm simulator' : 'Paytm'
      const answer = await fetchOrderStatus(`KBTEST_${now.getTime()}`, setup.config, {
        timeoutMs: 8000,
      })
      if (answer.respCode === '334')
        return {
          ok: true,
          message: `${where} accepted the merchant ID and key (it answered “${answer.respMsg}” for a test order that does not exist, as expected).`,
        }
      return {
        ok: false,
        message: `${where} answered: ${answer.respMsg || answer.status} (${answer.respCode}).`,
      }
    }
    if (gateway === 'razorpay') {
      const setup = await resolveRazorpaySetup(db, env)
      if (!setup)
        return {
          ok: false,
          message: 'Razorpay is inactive, or its stored keys cannot be read: nothing to test.',
        }
      await checkRazorpayKeys(setup.config, { timeoutMs: 8000 })
      const where = setup.source === 'simulator' ? 'The built-in Razorpay simulator' : 'Razorpay'
      return { ok: true, message: `${where} accepted the key ID and secret.` }
    }
    if (gateway === 'phonepe') {
      const setup = await resolvePhonePeSetup(db, env)
      if (!setup)
        return {
          ok: false,
          message: 'PhonePe is inactive, or its stored secret cannot be read: nothing to test.',
        }
      // A fresh token, not the cached one: the point is to ask PhonePe about these credentials.
      await fetchPhonePeToken(setup.config, { timeoutMs: 8000 })
      const where = setup.source === 'simulator' ? 'The built-in PhonePe simulator' : 'PhonePe'
      return { ok: true, message: `${where} issued a token for the client ID and secret.` }
    }
    return { ok: false, message: 'KeyBazaar cannot talk to this gateway yet: nothing to test.' }
  } catch (error) {
    if (error instanceof GatewayRefusedError) {
      const words = error.message.replace(/^Razorpay GET \S+: /, '')
      return { ok: false, message: `The gateway refused the credentials: ${words}` }
    }
    if (error instanceof GatewayUnreachableError)
      return { ok: false, message: `The gateway could not be reached: ${error.message}` }
    throw error
  }
}
