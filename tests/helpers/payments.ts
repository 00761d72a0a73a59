import type { Page } from '@playwright/test'
import type { PaytmSetup } from '~/services/payment/config.server'
import { PAYTM_STAGING_DEFAULTS } from '~/lib/payments/paytm.server'
import type { RunningPaytmSimulator } from '../../simulators/paytm/testing'
import type { DB } from '~/lib/db.server'
import { getOrder, type Order } from '~/data/order.server'
import { createPaymentLink, type PaymentLink } from '~/data/payment-link.server'
import { openAppDatabase } from '../factories'

/** The Paytm setup that talks to a simulator started by startPaytmSimulator. */
export function simulatorSetup(
  sim: RunningPaytmSimulator,
  overrides: Partial<PaytmSetup> = {},
): PaytmSetup {
  return {
    config: {
      ...PAYTM_STAGING_DEFAULTS,
      mid: sim.mid,
      merchantKey: sim.merchantKey,
      host: sim.url,
    },
    callbackUrl: 'http://127.0.0.1:9/api/payments/paytm/callback',
    source: 'environment',
    testMode: false,
    ...overrides,
  }
}

/** Calls one of the simulator's test controls. */
export async function simulatorControl(
  sim: RunningPaytmSimulator,
  path: string,
  body: unknown,
): Promise<unknown> {
  const response = await fetch(`${sim.url}/__control/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!response.ok)
    throw new Error(
      `simulator control ${path} answered ${response.status}: ${await response.text()}`,
    )
  return response.json()
}

const GATEWAY_NAMES = { razorpay: 'Razorpay', phonepe: 'PhonePe' } as const

/**
 * Puts a gateway record in testing without credentials on the Gateways page (if there is none),
 * so checkout offers that gateway's built-in simulator; `position` orders it among the others.
 */
export async function addGatewayInTesting(
  db: DB,
  type: keyof typeof GATEWAY_NAMES,
  position = 0,
): Promise<void> {
  const at = new Date().toISOString()
  await db
    .insertInto('paymentGateway')
    .values({
      id: type,
      name: GATEWAY_NAMES[type],
      type,
      status: 'testing',
      position,
      createdAt: at,
      updatedAt: at,
    })
    .onConflict((oc) => oc.doNothing())
    .execute()
}

/** addGatewayInTesting for Razorpay on a running test app, beside Paytm's simulator. */
export async function addRazorpayInTesting(app: { dataDir: string }): Promise<void> {
  const db = openAppDatabase(app)
  try {
    await addGatewayInTesting(db, 'razorpay')
  } finally {
    await db.destroy()
  }
}

/** A webhook a simulator sent, as the shop would have received it. */
export interface SentWebhook {
  body: string
  headers: Headers
}

/** A fetch for a simulator's outgoing webhooks: each is kept in `sent` and answered 200. */
export function webhookRecorder(): { sent: SentWebhook[]; fetch: typeof fetch } {
  const sent: SentWebhook[] = []
  const record = async (_url: RequestInfo | URL, init?: RequestInit) => {
    sent.push({ body: String(init?.body), headers: new Headers(init?.headers) })
    return new Response('ok')
  }
  return { sent, fetch: record as typeof fetch }
}

/** The order a test made; a missing one fails the test. */
export async function existingOrder(db: DB, id: string): Promise<Order> {
  const found = await getOrder(db, id)
  if (!found) throw new Error(`no order ${id}`)
  return found
}

/** Opens the Gateways page's Add Gateway form for one type of gateway. */
export async function openAddGatewayForm(page: Page, type: string): Promise<void> {
  await page.goto('/admin/gateways')
  await page.getByRole('link', { name: 'Add Gateway' }).click()
  await page
    .getByRole('navigation', { name: 'Gateway type' })
    .getByRole('link', { name: type })
    .click()
}

/** An admin's ₹999 payment link for Rohan Mehta, for the product with this slug. */
export async function paymentLinkFor(
  db: DB,
  slug: string,
  publicUrl: string,
): Promise<PaymentLink> {
  const product = await db
    .selectFrom('product')
    .select('id')
    .where('slug', '=', slug)
    .executeTakeFirstOrThrow()
  return createPaymentLink(
    db,
    {
      productId: product.id,
      amount: 99_900,
      customer: { name: 'Rohan Mehta', email: 'rohan@example.test', phone: '9988776655' },
      createdBy: null,
    },
    publicUrl,
  )
}
