import { data } from 'react-router'
import { OrderError, type CustomerDetails } from '~/data/order.server'
import type { CheckoutResult } from '~/components/checkout/checkout-form'
import { services } from '../app-context.server'
import { resolvePaytmSetup } from './config.server'
import { orderAccessCookie } from './order-access.server'
import { startPaytmCheckout } from './paytm-flow.server'
import { PAYTM_INITIATE_FAILED_MESSAGE, PaytmRequestError } from './paytm.server'

/**
 * The checkout action shared by /checkout/{slug} and /payment/pay: start the payment and
 * answer with the signed form (plus the order's access cookie), or with a message the buyer
 * can act on. Raw errors are logged, never shown.
 */
export async function beginCheckout(
  request: Request,
  input: {
    productId: string
    customer: CustomerDetails
    userId: string | null
    paymentLink?: { id: string; amount: number; preferredOrderId: string } | null
  },
) {
  const { db, env } = services()
  const values = {
    name: input.customer.name,
    email: input.customer.email,
    phone: input.customer.phone,
  }
  const fail = (status: number, formError: string) =>
    data<CheckoutResult>({ ok: false, formError, values }, { status })
  try {
    const setup = await resolvePaytmSetup(db, env)
    if (!setup) {
      console.error('[payments] checkout refused: the Paytm gateway is configured but inactive')
      return fail(503, PAYTM_INITIATE_FAILED_MESSAGE)
    }
    const started = await startPaytmCheckout(db, setup, {
      ...input,
      actor: input.userId ? `user:${input.userId}` : 'customer',
    })
    return data<CheckoutResult>(
      {
        ok: true,
        orderId: started.order.id,
        payment: { action: started.prepared.action, fields: { ...started.prepared.fields } },
      },
      {
        headers: {
          'Set-Cookie': orderAccessCookie(
            request,
            started.order.id,
            started.accessToken,
            env.PUBLIC_URL,
          ),
        },
      },
    )
  } catch (error) {
    if (error instanceof OrderError)
      return fail(error.code === 'out-of-stock' ? 409 : 404, error.message)
    if (error instanceof PaytmRequestError) {
      console.error(`[payments] cannot start a Paytm payment: ${error.message}`)
      return fail(500, error.userMessage)
    }
    console.error('[payments] checkout failed:', error)
    return fail(500, PAYTM_INITIATE_FAILED_MESSAGE)
  }
}
