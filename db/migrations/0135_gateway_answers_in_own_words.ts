import type { Kysely } from 'kysely'

/**
 * An order keeps its gateway's last answer (the order page's "Gateway's last answer"). Until
 * now a Razorpay or PhonePe payment was recorded in Paytm's words: TXN_SUCCESS for a payment
 * that went through, TXN_FAILURE for one that failed, and PhonePe's success code as SUCCESS,
 * which PhonePe never sends. Orders are now written in each gateway's own words
 * (app/data/order.server.ts, recordOrderPaid), and this puts the earlier ones into them. The old
 * words map back exactly: a Razorpay payment counted as paid only when its status was captured
 * or refunded, and that status is the code kept beside it; failed only when it was failed;
 * PhonePe's paid only when its state was COMPLETED, failed only when it was FAILED.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .updateTable('order')
    .set((eb) => ({ gateway_status: eb.ref('gateway_resp_code') }))
    .where('gateway', '=', 'razorpay')
    .where('gateway_status', '=', 'TXN_SUCCESS')
    .where('gateway_resp_code', 'in', ['captured', 'refunded'])
    .execute()
  await db
    .updateTable('order')
    .set({ gateway_status: 'failed' })
    .where('gateway', '=', 'razorpay')
    .where('gateway_status', '=', 'TXN_FAILURE')
    .execute()
  await db
    .updateTable('order')
    .set({ gateway_status: 'COMPLETED', gateway_resp_code: 'COMPLETED' })
    .where('gateway', '=', 'phonepe')
    .where('gateway_status', '=', 'TXN_SUCCESS')
    .execute()
  await db
    .updateTable('order')
    .set({ gateway_status: 'FAILED' })
    .where('gateway', '=', 'phonepe')
    .where('gateway_status', '=', 'TXN_FAILURE')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .updateTable('order')
    .set({ gateway_status: 'TXN_SUCCESS' })
    .where('gateway', '=', 'razorpay')
    .where('gateway_status', 'in', ['captured', 'refunded'])
    .where('paid_at', 'is not', null)
    .execute()
  await db
    .updateTable('order')
    .set({ gateway_status: 'TXN_FAILURE' })
    .where('gateway', '=', 'razorpay')
    .where('gateway_status', '=', 'failed')
    .execute()
  await db
    .updateTable('order')
    .set({ gateway_status: 'TXN_SUCCESS', gateway_resp_code: 'SUCCESS' })
    .where('gateway', '=', 'phonepe')
    .where('gateway_status', '=', 'COMPLETED')
    .where('paid_at', 'is not', null)
    .execute()
  await db
    .updateTable('order')
    .set({ gateway_status: 'TXN_FAILURE' })
    .where('gateway', '=', 'phonepe')
    .where('gateway_status', '=', 'FAILED')
    .execute()
}
