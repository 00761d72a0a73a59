import { describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../tests/helpers/db'
import { pageText, renderPage, serveTestDb } from '../../../tests/helpers/route-render'
import { makeCustomer, makeOrder, makeProduct, payOrder } from '../../../tests/factories'
import { newRefundId } from '~/data/refund.server'
import {
  requestGatewayRefund,
  runRefund,
  type RefundingGateway,
} from '~/services/payment/refunds.server'
import CustomerDashboard, { loader } from './dashboard'

/**
 * /dashboard as the server renders it for a signed-in customer: the figures (Total spent and
 * Total saved net of refunds in part, without test orders) and the recent activity's words for a
 * refund in part. Signing in is not what is tested here: requireUser answers with this file's
 * customer.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/auth.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requireUser: vi.fn(async () => signedIn.user),
}))

const t = fileTestDb()
serveTestDb(t, { env: { PUBLIC_URL: 'https://shop.example.in', APP_SECRET: 'x'.repeat(32) } })

/** A gateway that refunds at once, as the refund job finds it (app/services/payment/refunds.server.ts). */
const refundingGateway: RefundingGateway = {
  testMode: false,
  refund: async (request) => ({
    refundId: `rfnd_${request.refundId}`,
    status: 'processed',
    amountPaise: request.amountPaise,
    message: 'processed',
  }),
  refundStatus: async () => null,
}

/** The admin's Refund of `amount` paise (with a reason meant for the shop), processed at once. */
async function refundThroughGateway(orderId: string, amount: number) {
  const asked = await requestGatewayRefund(t.db, {
    refundId: newRefundId(),
    orderId,
    amountPaise: amount,
    reason: 'Internal: buyer complained twice',
    actor: 'user:admin',
  })
  if (!asked.ok) throw new Error(asked.message)
  expect(await runRefund(t.db, refundingGateway, asked.refundId)).toEqual({ kind: 'processed' })
}

/** The dashboard rendered on the server, as its text (tags removed, entities decoded). */
async function render(): Promise<string> {
  const { html } = await renderPage(
    { id: 'routes/account/dashboard', path: '/dashboard', Component: CustomerDashboard, loader },
    new Request('http://shop.test/dashboard'),
  )
  return pageText(html)
}

describe(`the customer dashboard (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('spends and saves net of a refund in part, leaves test orders out, and says so', async () => {
    const meera = await makeCustomer(t.db, { name: 'Meera Iyer' })
    signedIn.user = { ...meera, isAdmin: false }
    // By hand, so the orders stay paid: ₹200 each against ₹650.
    const product = await makeProduct(t.db, {
      title: 'Netflix Premium',
      price: 20_000,
      originalPrice: 65_000,
    })
    await payOrder(t.db, await makeOrder(t.db, product.id, { userId: meera.id }))
    const partly = await payOrder(t.db, await makeOrder(t.db, product.id, { userId: meera.id }))

    const before = await render()
    expect(before).toContain('Orders placed 2 2 waiting for delivery')
    expect(before).toContain('Total spent ₹400 Refunds excluded')
    expect(before).toContain('Total saved ₹900 Against original prices')

    // ₹50 of ₹200 goes back: the order stays paid; ₹150 of it is kept, and ¾ of its saving.
    await refundThroughGateway(partly.id, 5_000)
    // Paid through the simulator: listed and counted, not money spent.
    await payOrder(t.db, await makeOrder(t.db, product.id, { userId: meera.id, testMode: true }))

    const after = await render()
    expect(after).toContain('Orders placed 3 3 waiting for delivery')
    expect(after).toContain('Total spent ₹350 Refunds and test orders excluded')
    expect(after).toContain('Total saved ₹787.50 Against original prices')
    expect(after).toContain('Refund of ₹50 processed for Netflix Premium')
    // The reason the admin typed is the shop's, not the buyer's.
    expect(after).not.toContain('Internal: buyer complained twice')
  })
})
