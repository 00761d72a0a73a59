import { GATEWAY_MODE_FIELD } from '~/lib/validation/checkout'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CheckoutResult } from '~/components/checkout/checkout-form'
import { fileTestDb } from '../../../tests/helpers/db'
import { addGatewayInTesting } from '../../../tests/helpers/payments'
import { BUYER, makeProduct, orderIdsOf } from '../../../tests/factories'
import { beginCheckout, CHECKOUT_CHANGED_MESSAGES, renderedGatewayModes } from './checkout.server'
import { shouldRevalidate } from './checkout'

/**
 * The checkout action shared by /checkout/{slug} and /payment/pay, on SQLite and PostgreSQL.
 * It reads the database and the environment through services() (app/lib/app-context.server.ts):
 * here, this file's test database and a fresh install's environment, whose checkout offers the
 * built-in simulators (test mode).
 */
const t = fileTestDb()
const holder = globalThis as typeof globalThis & { __keybazaar?: unknown }
let productId: string
beforeAll(async () => {
  holder.__keybazaar = {
    db: t.db,
    engine: t.engine,
    env: { PUBLIC_URL: 'http://shop.test', APP_SECRET: 'a'.repeat(64) },
  }
  productId = (await makeProduct(t.db, { price: 149_900 })).id
})
afterAll(() => {
  holder.__keybazaar = undefined
})

let buyers = 0
/** Checkout as the form sends it (a new buyer each time, so the per-e-mail limit stays away). */
async function pay(choice: {
  gateway: string
  unavailable?: string[]
  modes?: string[]
  shownPrice?: number
}): Promise<{ data: CheckoutResult; status: number }> {
  const form = new FormData()
  for (const mode of choice.modes ?? []) form.append(GATEWAY_MODE_FIELD, mode)
  const answer: unknown = await beginCheckout(
    new Request('http://shop.test/checkout/p', { method: 'POST' }),
    {
      productId,
      customer: { ...BUYER, email: `buyer${++buyers}@example.in` },
      userId: null,
      ip: '203.0.113.60',
      gateway: choice.gateway,
      unavailable: choice.unavailable ?? [],
      renderedModes: renderedGatewayModes(form),
      shownPrice: choice.shownPrice,
    },
  )
  const { data, init } = answer as { data: CheckoutResult; init: ResponseInit | null }
  return { data, status: init?.status ?? 200 }
}

describe(`beginCheckout (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('refuses a gateway switched off since the page loaded, instead of paying through another', async () => {
    await addGatewayInTesting(t.db, 'razorpay')
    await t.db
      .updateTable('paymentGateway')
      .set({ status: 'inactive' })
      .where('id', '=', 'razorpay')
      .execute()
    try {
      const before = await orderIdsOf(t.db, productId)
      const refused = await pay({ gateway: 'razorpay' })
      expect(refused).toMatchObject({
        status: 409,
        data: {
          ok: false,
          formError: CHECKOUT_CHANGED_MESSAGES.gatewayGone('Razorpay'),
          // Offered no more, and the next way to pay selected.
          unavailable: ['razorpay'],
          gateway: 'paytm',
          values: { name: BUYER.name, phone: BUYER.phone },
        },
      })
      expect(refused.data.ok === false && refused.data.formError).toBe(
        'Razorpay is not available any more. Please choose how to pay and press Pay again; your details are kept.',
      )
      // A name the shop never offered is refused the same way, without repeating it.
      expect(await pay({ gateway: 'stripe' })).toMatchObject({
        status: 409,
        data: {
          formError: CHECKOUT_CHANGED_MESSAGES.gatewayGone('The way to pay you chose'),
          unavailable: [],
        },
      })
      expect(await orderIdsOf(t.db, productId)).toEqual(before)
    } finally {
      await t.db.deleteFrom('paymentGateway').where('id', '=', 'razorpay').execute()
    }
  })

  it('refuses a form rendered with the chosen gateway in the other mode, and pays one that matches', async () => {
    const before = await orderIdsOf(t.db, productId)
    // The page said Paytm takes real money; it is the simulator now (or the other way round).
    for (const modes of [['paytm:live', 'razorpay:test'], ['razorpay:test']]) {
      expect(
        await pay({ gateway: 'paytm', modes, unavailable: ['phonepe'] }),
        modes.join(),
      ).toEqual({
        status: 409,
        data: {
          ok: false,
          formError: CHECKOUT_CHANGED_MESSAGES.modeChanged,
          values: expect.any(Object),
          unavailable: ['phonepe'],
          gateway: 'paytm',
        },
      })
    }
    expect(CHECKOUT_CHANGED_MESSAGES.modeChanged).toBe(
      'Payment settings changed while you were on this page. Check the way to pay and press Pay again.',
    )
    expect(await orderIdsOf(t.db, productId)).toEqual(before)
    // Rendered as it is, or by a form that does not say (the field is checked when present).
    expect((await pay({ gateway: 'paytm', modes: ['paytm:test'] })).data.ok).toBe(true)
    expect((await pay({ gateway: 'paytm' })).data.ok).toBe(true)
  })

  it('refuses an order at another price than the page showed, at every gateway, and takes the new one', async () => {
    await addGatewayInTesting(t.db, 'razorpay')
    await addGatewayInTesting(t.db, 'phonepe')
    for (const gateway of ['paytm', 'razorpay', 'phonepe']) {
      const product = await makeProduct(t.db, { price: 99_900 })
      productId = product.id
      // The page showed ₹999.00; the sale ended meanwhile.
      await t.db
        .updateTable('product')
        .set({ price: 149_900 })
        .where('id', '=', product.id)
        .execute()
      const refused = await pay({ gateway, shownPrice: 99_900 })
      expect(refused, gateway).toMatchObject({
        status: 409,
        data: {
          ok: false,
          formError:
            'The price of this product has changed to ₹1,499. Check the new price and press Pay again; your details are kept.',
          values: { name: BUYER.name, phone: BUYER.phone },
        },
      })
      expect(await orderIdsOf(t.db, product.id), gateway).toEqual([])
      // Pay pressed again on the reloaded page: the order is at the price shown. (Razorpay and
      // PhonePe would call their simulators next, which this test does not run.)
      if (gateway !== 'paytm') continue
      const paid = await pay({ gateway, shownPrice: 149_900 })
      expect(paid.data.ok, gateway).toBe(true)
      const amounts = await t.db
        .selectFrom('order')
        .select('amount')
        .where('productId', '=', product.id)
        .execute()
      expect(amounts, gateway).toEqual([{ amount: 149_900 }])
    }
  })

  it('reads the rendered modes from the form, ignoring anything else', () => {
    const form = new FormData()
    expect(renderedGatewayModes(form)).toBeNull()
    form.append(GATEWAY_MODE_FIELD, 'paytm:maybe')
    form.append(GATEWAY_MODE_FIELD, 'PAYTM:test')
    expect(renderedGatewayModes(form)).toBeNull()
    form.append(GATEWAY_MODE_FIELD, 'razorpay:live')
    expect(renderedGatewayModes(form)).toEqual(new Map([['razorpay', 'live']]))
  })
})

describe('what a checkout post reloads', () => {
  const args = (formAction: string | undefined, actionStatus: number | undefined) =>
    ({
      formAction,
      actionStatus,
      currentUrl: new URL('http://shop.test/product/p'),
      nextUrl: new URL('http://shop.test/product/p'),
      defaultShouldRevalidate: false,
    }) as never

  it("reloads the checkout page's, or the Buy Now dialog's, ways to pay after a 409 only", () => {
    // The dialog on /product/p loads /checkout/p: its post is not to the page's own path.
    expect(shouldRevalidate(args('/checkout/p', 409))).toBe(true)
    expect(shouldRevalidate(args('/checkout/p', 200))).toBe(false)
    expect(shouldRevalidate(args('/checkout/p', 400))).toBe(false)
    expect(shouldRevalidate(args('/theme', 200))).toBe(false)
  })
})
