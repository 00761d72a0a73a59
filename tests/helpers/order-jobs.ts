import type { DB } from '~/lib/db.server'
import { newRefundId } from '~/data/refund.server'
import { ORDER_MAIL_JOB } from '~/services/notifications/order-mail.server'
import { requestGatewayRefund } from '~/services/payment/refunds.server'

/** The kinds of the order's buyer mails queued so far (jobs of any status), sorted. */
export async function queuedOrderMailKinds(db: DB, orderId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('job')
    .select('payload')
    .where('type', '=', ORDER_MAIL_JOB)
    .execute()
  return rows
    .map((row) => JSON.parse(row.payload) as { orderId: string; kind: string })
    .filter((payload) => payload.orderId === orderId)
    .map((payload) => payload.kind)
    .sort()
}

/** An admin's Refund of `amountPaise` through the order's gateway, which must be accepted. */
export async function requestRefundAccepted(
  db: DB,
  orderId: string,
  amountPaise: number,
  actor: string,
): Promise<string> {
  const refundId = newRefundId()
  const result = await requestGatewayRefund(db, {
    refundId,
    orderId,
    amountPaise,
    reason: 'Buyer asked',
    actor,
  })
  if (!result.ok) throw new Error(`the refund was refused: ${result.message}`)
  return refundId
}
