import { data } from 'react-router'
import { z } from 'zod'
import { getOrder } from '~/data/order.server'
import { services } from '~/lib/app-context.server'
import { paiseToDecimalText } from '~/lib/money'
import { resolvePaytmSetup } from '~/services/payment/config.server'
import { generatePaytmChecksum } from '~/lib/payments/paytm-checksum.server'
import { paytmCustomerId, paytmMaySign } from '~/services/payment/paytm-flow.server'
import type { Route } from './+types/paytm-generate-checksum'

/**
 * POST /api/paytm/generate-checksum, kept for its shape but made safe: it signs only the exact
 * parameters of an existing pending Paytm order of the configured mode (our merchant, our
 * callback, the order's amount, customer and contact details), so it can never sign anything a
 * browser invents. Anything else is 400 'Failed to generate checksum'; there is no fallback value.
 */
const CHECKSUM_FAILED = 'Failed to generate checksum'
const MAX_BODY_BYTES = 8 * 1024

const text = z.string().max(255)
const requestSchema = z
  .object({
    MID: text,
    WEBSITE: text,
    CHANNEL_ID: text,
    INDUSTRY_TYPE_ID: text,
    ORDER_ID: text,
    CUST_ID: text,
    TXN_AMOUNT: text,
    CALLBACK_URL: text,
    EMAIL: text.optional(),
    MOBILE_NO: text.optional(),
  })
  .strict()

const refuse = () =>
  data({ error: CHECKSUM_FAILED }, { status: 400, headers: { 'Cache-Control': 'no-store' } })

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== 'POST')
    return data({ error: 'Method Not Allowed' }, { status: 405, headers: { Allow: 'POST' } })
  const body = await request.text()
  if (body.length > MAX_BODY_BYTES) return refuse()
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return refuse()
  }
  const parsed = requestSchema.safeParse(json)
  if (!parsed.success) return refuse()
  const params = parsed.data
  const { db, env } = services()
  const [setup, order] = await Promise.all([
    resolvePaytmSetup(db, env),
    getOrder(db, params.ORDER_ID),
  ])
  if (!setup || !order || !paytmMaySign(order, setup)) return refuse()
  const expected: Record<string, string | undefined> = {
    MID: setup.config.mid,
    WEBSITE: setup.config.website,
    CHANNEL_ID: setup.config.channel,
    INDUSTRY_TYPE_ID: setup.config.industryType,
    ORDER_ID: order.id,
    CUST_ID: paytmCustomerId(order.userId, order.customerEmail, setup.config.merchantKey),
    TXN_AMOUNT: paiseToDecimalText(order.amount),
    CALLBACK_URL: setup.callbackUrl,
  }
  for (const [name, value] of Object.entries(expected)) {
    if (params[name as keyof typeof params] !== value) return refuse()
  }
  // A payment link's order is paid by whoever holds the link, who is shown its customer only
  // masked and sent to Paytm without them: a request naming an e-mail or phone is refused, so
  // this API cannot tell a guess of either right from wrong (docs/payments.md, "Payment links").
  if (
    order.paymentLinkId !== null &&
    (params.EMAIL !== undefined || params.MOBILE_NO !== undefined)
  )
    return refuse()
  if (params.EMAIL !== undefined && params.EMAIL !== order.customerEmail) return refuse()
  if (params.MOBILE_NO !== undefined && params.MOBILE_NO !== order.customerPhone) return refuse()
  try {
    return data(
      { checksumHash: generatePaytmChecksum(params, setup.config.merchantKey) },
      { headers: { 'Cache-Control': 'no-store' } },
    )
  } catch (error) {
    console.error('[payments] generate-checksum:', error instanceof Error ? error.message : error)
    return data({ error: CHECKSUM_FAILED }, { status: 500 })
  }
}
