import { describe, expect, it } from 'vitest'
import { getOrder } from '~/data/order.server'
import { makeOrder, makeProduct } from '../tests/factories'
import { fileTestDb } from '../tests/helpers/db'
import * as ownWords from './migrations/0135_gateway_answers_in_own_words'

/** Orders paid or failed before each gateway's answer was kept in its own words (both engines). */
const t = fileTestDb()

type Answer = { gateway: string; gatewayStatus: string; gatewayRespCode: string; paid?: boolean }

async function orderAnswering(answer: Answer): Promise<string> {
  const product = await makeProduct(t.db)
  const order = await makeOrder(t.db, product.id)
  await t.db
    .updateTable('order')
    .set({
      gateway: answer.gateway,
      gatewayStatus: answer.gatewayStatus,
      gatewayRespCode: answer.gatewayRespCode,
      status: answer.paid ? 'delivered' : 'failed',
      paidAt: answer.paid ? new Date().toISOString() : null,
    })
    .where('id', '=', order.id)
    .execute()
  return order.id
}

const answerOf = async (id: string) => {
  const order = await getOrder(t.db, id)
  return [order!.gatewayStatus, order!.gatewayRespCode]
}

describe(`gateway answers in their own words (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it("rewrites Razorpay's and PhonePe's answers kept in Paytm's words, and leaves Paytm's", async () => {
    const before: [Answer, string[]][] = [
      [
        {
          gateway: 'razorpay',
          gatewayStatus: 'TXN_SUCCESS',
          gatewayRespCode: 'captured',
          paid: true,
        },
        ['captured', 'captured'],
      ],
      [
        {
          gateway: 'razorpay',
          gatewayStatus: 'TXN_SUCCESS',
          gatewayRespCode: 'refunded',
          paid: true,
        },
        ['refunded', 'refunded'],
      ],
      [
        { gateway: 'razorpay', gatewayStatus: 'TXN_FAILURE', gatewayRespCode: 'BAD_REQUEST_ERROR' },
        ['failed', 'BAD_REQUEST_ERROR'],
      ],
      [
        {
          gateway: 'phonepe',
          gatewayStatus: 'TXN_SUCCESS',
          gatewayRespCode: 'SUCCESS',
          paid: true,
        },
        ['COMPLETED', 'COMPLETED'],
      ],
      [
        { gateway: 'phonepe', gatewayStatus: 'TXN_FAILURE', gatewayRespCode: 'PAYMENT_DECLINED' },
        ['FAILED', 'PAYMENT_DECLINED'],
      ],
      [
        { gateway: 'paytm', gatewayStatus: 'TXN_SUCCESS', gatewayRespCode: '01', paid: true },
        ['TXN_SUCCESS', '01'],
      ],
      [
        { gateway: 'paytm', gatewayStatus: 'TXN_FAILURE', gatewayRespCode: '227' },
        ['TXN_FAILURE', '227'],
      ],
    ]
    const ids = []
    for (const [answer] of before) ids.push(await orderAnswering(answer))
    await ownWords.up(t.db)
    for (const [i, [, after]] of before.entries()) expect(await answerOf(ids[i]!)).toEqual(after)
    // Down gives back the earlier words.
    await ownWords.down(t.db)
    for (const [i, [answer]] of before.entries())
      expect(await answerOf(ids[i]!)).toEqual([answer.gatewayStatus, answer.gatewayRespCode])
  })
})
