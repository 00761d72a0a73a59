import {
  cancelPaymentLink,
  createPaymentLink,
  type CancelPaymentLinkResult,
  type NewPaymentLink,
  type PaymentLink,
} from '~/data/payment-link.server'
import type { DB } from '~/lib/db.server'
import { formatRupees } from '~/lib/money'
import { recordAdminChange } from './audit.server'
import type { AdminWho } from './product-admin.server'

/**
 * Creates a payment link with its pending order, and records who did: the link and its audit
 * entry land together (docs/audit.md). An unknown product throws OrderError and records nothing.
 */
export async function createPaymentLinkAudited(
  db: DB,
  input: Omit<NewPaymentLink, 'createdBy'>,
  who: AdminWho,
  publicUrl: string,
): Promise<PaymentLink> {
  return db.transaction().execute(async (trx) => {
    const created = await createPaymentLink(trx, { ...input, createdBy: who.actor.id }, publicUrl)
    await recordAdminChange(trx, {
      ...who,
      action: 'payment-link.create',
      target: { type: 'payment-link', id: created.id },
      summary: `Created a payment link of ${formatRupees(created.amount)} for ${created.productName} to ${created.customerEmail} (order ${created.orderId})`,
      after: {
        orderId: created.orderId,
        product: created.productName,
        amount: created.amount,
        customerName: created.customerName,
        customerEmail: created.customerEmail,
        customerPhone: created.customerPhone,
        ...(created.buyerGstin
          ? {
              businessName: created.buyerBusinessName,
              gstin: created.buyerGstin,
              businessAddress: created.buyerAddress,
            }
          : {}),
      },
    })
    return created
  })
}

/**
 * Cancels an active payment link (docs/payments.md) and records who did: the link and its
 * audit entry land together (docs/audit.md). A link already paid, cancelled or missing changes
 * nothing and records nothing.
 */
export async function cancelPaymentLinkAudited(
  db: DB,
  linkId: string,
  who: AdminWho,
  now = new Date(),
): Promise<CancelPaymentLinkResult> {
  return db.transaction().execute(async (trx) => {
    const cancelled = await cancelPaymentLink(trx, linkId, now)
    if (cancelled.status !== 'cancelled') return cancelled
    const { link } = cancelled
    await recordAdminChange(trx, {
      ...who,
      action: 'payment-link.cancel',
      target: { type: 'payment-link', id: link.id },
      summary: `Cancelled the payment link of ${formatRupees(link.amount)} for ${link.productName} to ${link.customerEmail} (order ${link.orderId})`,
      before: { status: 'active' },
      after: { status: 'cancelled' },
    })
    return cancelled
  })
}
