import { createProduct, type Product, type ProductInput } from '~/data/product.server'
import type { DB } from '~/lib/db.server'
import type { PaytmSetup } from '~/lib/payments/config.server'
import { PAYTM_STAGING_DEFAULTS } from '~/lib/payments/paytm.server'
import type { RunningPaytmSimulator } from '../../simulators/paytm/testing'

/** Factories for order and payment tests. */

let sequence = 0

/** A product in stock at ₹1,499 unless told otherwise. */
export async function makeProduct(db: DB, overrides: Partial<ProductInput> = {}): Promise<Product> {
  sequence += 1
  const input: ProductInput = {
    title: `Test Subscription ${sequence}`,
    slug: `test-subscription-${sequence}-${Math.random().toString(36).slice(2, 8)}`,
    description: 'A subscription for tests',
    shortDescription: 'For tests',
    image: '',
    price: 149_900,
    originalPrice: 299_900,
    category: 'Streaming',
    featured: false,
    inStock: true,
    buyNowLink: null,
    tags: [],
    validity: '12 months',
    deliveryTime: 'Instant delivery',
    features: [],
    metaTitle: '',
    metaDescription: '',
    keywords: [],
    rating: 0,
    reviews: 0,
    ...overrides,
  }
  return createProduct(db, input)
}

export const BUYER = { name: 'Asha Verma', email: 'asha@example.in', phone: '9876543210' } as const

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
