import { data } from 'react-router'
import { OrderError, type CustomerDetails } from '~/data/order.server'
import type { CheckoutResult } from '~/components/checkout/checkout-form'
import { services } from '~/lib/app-context.server'
import { gatewayLabel } from '~/lib/validation/gateway'
import { hitPolicies, tooManyAttemptsMessage } from '~/lib/rate-limit.server'
import { orderAccessCookie } from '~/services/order-access.server'
import { startPayment } from '~/services/payment/gateways.server'
import {
  CHECKOUT_GATEWAYS,
  checkoutGateways,
  gatewaysFor,
  type CheckoutGateway,
  type CheckoutGatewayId,
} from '~/services/payment/offered-gateways.server'
import { PaymentStartError } from '~/services/payment/gateway-flow.server'
import { PAYTM_INITIATE_FAILED_MESSAGE, PaytmRequestError } from '~/lib/payments/paytm.server'
import { GATEWAY_MODE_FIELD } from '~/lib/validation/checkout'

/** The buyer's last choice of gateway, so the next checkout offers it first. */
export const GATEWAY_COOKIE = 'kb.gateway'
const GATEWAY_COOKIE_MAX_AGE = 365 * 24 * 60 * 60

export function rememberedGateway(request: Request): string | null {
  const cookie = request.headers.get('cookie') ?? ''
  const match = new RegExp(`(?:^|;\\s*)${GATEWAY_COOKIE.replace('.', '\\.')}=([a-z]{1,20})`).exec(
    cookie,
  )
  return match?.[1] ?? null
}

/** The modes a checkout form was rendered with (GATEWAY_MODE_FIELD); null when it sent none. */
export function renderedGatewayModes(form: FormData): ReadonlyMap<string, 'test' | 'live'> | null {
  const modes = new Map<string, 'test' | 'live'>()
  for (const value of form.getAll(GATEWAY_MODE_FIELD).slice(0, CHECKOUT_GATEWAYS.length)) {
    const match = typeof value === 'string' ? /^([a-z]{1,20}):(test|live)$/.exec(value) : null
    if (match) modes.set(match[1]!, match[2] as 'test' | 'live')
  }
  return modes.size > 0 ? modes : null
}

export const CHECKOUT_CHANGED_MESSAGES = {
  /** The form was rendered with the chosen gateway in the other mode (or without it). */
  modeChanged:
    'Payment settings changed while you were on this page. Check the way to pay and press Pay again.',
  /** The gateway the form named is not offered any more. */
  gatewayGone: (label: string) =>
    `${label} is not available any more. Please choose how to pay and press Pay again; your details are kept.`,
} as const

/**
 * The gateways to show at checkout for the product (those that can sell it: gatewaysFor), and
 * which one starts selected.
 */
export async function checkoutChoice(
  request: Request,
  productId: string | null,
): Promise<{
  gateways: CheckoutGateway[]
  selected: CheckoutGatewayId | null
  /** The gateways' names when every one offered takes no real money (test mode), else []. */
  testGatewayNames: string[]
  /** Those of testGatewayNames that are the gateway's own test environment, not the simulator. */
  testSandboxNames: string[]
}> {
  const { db, env } = services()
  const offered = await checkoutGateways(db, env)
  const gateways = productId ? await gatewaysFor(db, offered, productId) : offered
  const remembered = rememberedGateway(request)
  const selected = gateways.find((g) => g.id === remembered)?.id ?? gateways[0]?.id ?? null
  // With real and test gateways side by side, each test option says so in the choice instead.
  const testGatewayNames = gateways.every((g) => g.testMode)
    ? gateways.map((g) => gatewayLabel(g.id))
    : []
  const testSandboxNames = testGatewayNames.length
    ? gateways.filter((g) => g.sandbox).map((g) => gatewayLabel(g.id))
    : []
  return { gateways, selected, testGatewayNames, testSandboxNames }
}

/**
 * The checkout action shared by /checkout/{slug} and /payment/pay: start the payment at the
 * gateway the buyer chose (the first active one when there is no choice) and answer with what
 * the browser needs to reach it (plus the order's access cookie), or with a message the buyer
 * can act on. When a gateway cannot start the payment, the buyer is offered the next one with
 * the details already entered. Raw errors are logged, never shown.
 */
export async function beginCheckout(
  request: Request,
  input: {
    productId: string
    customer: CustomerDetails
    userId: string | null
    /** The client's address (clientIp of the load context), for the checkout limits. */
    ip: string
    paymentLink?: { id: string; amount: number; preferredOrderId: string } | null
    /** The price the buyer's page showed (NewOrder.shownPrice). */
    shownPrice?: number | null
    /** The gateway the buyer picked (ignored unless it is active). */
    gateway?: string | null
    /** Gateways that already failed to start in this attempt (from the form). */
    unavailable?: readonly string[]
    /** The mode of each gateway as the form showed it (renderedGatewayModes); checked when given. */
    renderedModes?: ReadonlyMap<string, 'test' | 'live'> | null
    /**
     * False when this browser may not see the customer's details (a payment link opened by
     * someone else): neither the gateway's page nor a refusal carries them.
     */
    seesCustomer?: boolean
  },
) {
  const { db, env } = services()
  const seesCustomer = input.seesCustomer !== false
  // The details a refused checkout form shows again; none to a browser that may not see them.
  const shownAgain = seesCustomer
    ? {
        values: {
          name: input.customer.name,
          email: input.customer.email,
          phone: input.customer.phone,
        },
      }
    : {}
  const fail = (status: number, formError: string, extra: Partial<CheckoutResult> = {}) =>
    data<CheckoutResult>({ ok: false, formError, ...shownAgain, ...extra } as CheckoutResult, {
      status,
    })
  // Every checkout creates an order and asks the gateway about it later, so a script must not
  // create them by the thousand (limits: RATE_LIMIT_POLICIES in app/lib/rate-limit.server.ts).
  const { blocked } = await hitPolicies(db, [
    ['checkoutIp', input.ip],
    ['checkoutEmail', input.customer.email.trim().toLowerCase()],
  ])
  if (blocked) {
    return data<CheckoutResult>(
      { ok: false, formError: tooManyAttemptsMessage(blocked.retryAfterSeconds), ...shownAgain },
      { status: 429, headers: { 'Retry-After': String(blocked.retryAfterSeconds) } },
    )
  }
  // Only gateways that can sell the product, for the choice and for falling back.
  const offered = await checkoutGateways(db, env)
  const gateways = await gatewaysFor(db, offered, input.productId)
  const named = offered.find((g) => g.id === input.gateway)
  if (input.gateway && !named && gateways.length > 0) {
    // The buyer's gateway was switched off since the page loaded: never move the payment to
    // another gateway (perhaps in the other mode) silently; ask again with the next selected.
    const known = (CHECKOUT_GATEWAYS as readonly string[]).includes(input.gateway)
    const unavailable = [
      ...new Set([...(input.unavailable ?? []), ...(known ? [input.gateway] : [])]),
    ]
    const next = gateways.find((g) => !unavailable.includes(g.id)) ?? gateways[0]!
    return fail(
      409,
      CHECKOUT_CHANGED_MESSAGES.gatewayGone(
        known ? gatewayLabel(input.gateway) : 'The way to pay you chose',
      ),
      { unavailable, gateway: next.id },
    )
  }
  const chosen = gateways.find((g) => g === named) ?? (named ? undefined : gateways[0])
  if (named && !chosen) {
    // The buyer's gateway can no longer sell it (a simulator beside a real gateway, and the
    // product's last item of that kind went): never switch between real and test money
    // silently, ask again with the other way selected.
    const next = gateways[0]!
    return fail(
      409,
      `${named.label} can no longer sell this product. Please pay with ${next.label}; your details are kept.`,
      { unavailable: [...(input.unavailable ?? []), named.id], gateway: next.id },
    )
  }
  if (!chosen) {
    console.error('[payments] checkout refused: no payment gateway is active')
    return fail(503, PAYTM_INITIATE_FAILED_MESSAGE)
  }
  if (input.renderedModes) {
    const shown = input.renderedModes.get(chosen.id)
    if (shown !== (chosen.testMode ? 'test' : 'live'))
      return fail(409, CHECKOUT_CHANGED_MESSAGES.modeChanged, {
        unavailable: [...(input.unavailable ?? [])],
        gateway: chosen.id,
      })
  }
  const startFailed = () => {
    const unavailable = [...new Set([...(input.unavailable ?? []), chosen.id])]
    const next = gateways.find((g) => !unavailable.includes(g.id))
    if (!next) return fail(503, PAYTM_INITIATE_FAILED_MESSAGE)
    return fail(
      503,
      `${chosen.label} could not start the payment. Please try ${next.label}; your details are kept.`,
      { unavailable, gateway: next.id },
    )
  }
  try {
    const started = await startPayment(db, env, chosen.id, {
      productId: input.productId,
      customer: input.customer,
      userId: input.userId,
      paymentLink: input.paymentLink,
      shownPrice: input.shownPrice ?? null,
      actor: input.userId ? `user:${input.userId}` : 'customer',
      seesCustomer,
    })
    if (!started) return startFailed()
    const headers = new Headers()
    headers.append(
      'Set-Cookie',
      orderAccessCookie(request, started.order.id, started.accessToken, env.PUBLIC_URL),
    )
    if (gateways.length > 1) {
      const secure = env.PUBLIC_URL.startsWith('https://') ? '; Secure' : ''
      headers.append(
        'Set-Cookie',
        `${GATEWAY_COOKIE}=${chosen.id}; Path=/; Max-Age=${GATEWAY_COOKIE_MAX_AGE}; SameSite=Lax${secure}`,
      )
    }
    return data<CheckoutResult>(
      {
        ok: true,
        orderId: started.order.id,
        payment:
          started.kind === 'form'
            ? { kind: 'form', action: started.form.action, fields: { ...started.form.fields } }
            : started.kind === 'redirect'
              ? { kind: 'redirect', url: started.url, gateway: chosen.label.split(' — ').pop()! }
              : {
                  kind: 'razorpay',
                  script: started.checkout.script,
                  options: started.checkout.options,
                },
      },
      { headers },
    )
  } catch (error) {
    if (error instanceof OrderError)
      return fail(
        error.code === 'out-of-stock' ||
          error.code === 'not-in-test-mode' ||
          error.code === 'price-changed'
          ? 409
          : error.code === 'link-closed'
            ? 410
            : 404,
        error.message,
      )
    if (error instanceof PaymentStartError) return startFailed()
    if (error instanceof PaytmRequestError) {
      console.error(`[payments] cannot start a Paytm payment: ${error.message}`)
      return gateways.length > 1 ? startFailed() : fail(500, error.userMessage)
    }
    console.error('[payments] checkout failed:', error)
    return fail(500, PAYTM_INITIATE_FAILED_MESSAGE)
  }
}
