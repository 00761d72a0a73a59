import { describe, expect, it } from 'vitest'
import { getOrder, listOrderEvents, type Order } from '~/data/order.server'
import { updateSiteSettings } from '~/data/settings.server'
import type { GatewayPaymentStatus } from '~/lib/payments/gateway.server'
import { MAIL_JOB } from '~/lib/mail.server'
import { fileTestDb } from '../../../tests/helpers/db'
import { makeOrder, makePaidOrder, makeProduct } from '../../../tests/factories'
import { applyGatewayStatus } from './gateway-flow.server'

/**
 * What the shared workflow does with a gateway's "paid" that the order cannot accept: no
 * payment id, or an id that already paid another order. The order stays unpaid, the timeline
 * says why once, and for a real order the shop is mailed once (docs/payments.md). Another
 * amount is covered through each gateway's own flow tests.
 */
const t = fileTestDb()
const now = new Date()

function paid(order: Order, txnId: string | null): GatewayPaymentStatus {
  return {
    state: 'paid',
    txnId,
    bankTxnId: null,
    amountPaise: order.amount,
    paymentMode: 'UPI',
    status: 'captured',
    respCode: 'captured',
    respMsg: 'Payment captured',
  }
}

async function shopMails(orderId: string) {
  return (await t.db.selectFrom('job').select('payload').where('type', '=', MAIL_JOB).execute())
    .map((job) => JSON.parse(job.payload) as { to: string; subject: string; text: string })
    .filter((mail) => mail.subject === `Order ${orderId}: a payment to check`)
}

async function setUp(testMode = false) {
  await updateSiteSettings(t.db, { contactEmail: 'owner@example.test', alertRecipients: [] })
  const product = await makeProduct(t.db, { price: 49_900 })
  const order = await makeOrder(t.db, product.id, { gateway: 'razorpay', testMode })
  return { product, order }
}

describe('a payment the order cannot accept', () => {
  it('without a payment id: not paid, one warning, one mail to the shop', async () => {
    const { order } = await setUp()
    const first = await applyGatewayStatus(t.db, order, paid(order, null), 'webhook', now)
    expect(first).toMatchObject({ outcome: 'pending', status: 'pending' })
    await applyGatewayStatus(t.db, order, paid(order, null), 'status check', now)
    expect(await getOrder(t.db, order.id)).toMatchObject({ status: 'pending', gatewayTxnId: null })
    const warnings = (await listOrderEvents(t.db, order.id)).filter(
      (event) => event.type === 'payment_without_id',
    )
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.message).toContain('without its id')
    const mails = await shopMails(order.id)
    expect(mails).toHaveLength(1)
    expect(mails[0]).toMatchObject({ to: 'owner@example.test' })
  })

  it('with an id that already paid another order: not paid, one warning, one mail', async () => {
    const { product, order } = await setUp()
    const other = await makePaidOrder(t.db, product.id)
    const reused = paid(order, other.gatewayTxnId)
    const [first, same] = await Promise.all([
      applyGatewayStatus(t.db, order, reused, 'webhook', now),
      applyGatewayStatus(t.db, order, reused, 'return', now),
    ])
    expect(first).toMatchObject({ outcome: 'unchanged', status: 'pending' })
    expect(same).toMatchObject({ outcome: 'unchanged', status: 'pending' })
    expect(await getOrder(t.db, order.id)).toMatchObject({ status: 'pending', gatewayTxnId: null })
    expect(await getOrder(t.db, other.id)).toMatchObject({ status: other.status })
    const warnings = (await listOrderEvents(t.db, order.id)).filter(
      (event) => event.type === 'duplicate_txn_id',
    )
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.message).toContain(`${other.gatewayTxnId} already paid another order`)
    const mails = await shopMails(order.id)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.text).toContain(other.gatewayTxnId!)
  })

  it('in test mode: the warning is kept, the shop is not mailed', async () => {
    const { order } = await setUp(true)
    await applyGatewayStatus(t.db, order, paid(order, null), 'webhook', now)
    expect((await listOrderEvents(t.db, order.id)).map((event) => event.type)).toContain(
      'payment_without_id',
    )
    expect(await shopMails(order.id)).toEqual([])
  })
})
