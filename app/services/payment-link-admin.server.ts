import { cancelPaymentLink, type CancelPaymentLinkResult } from '~/data/payment-link.server'
import type { DB } from '~/lib/db.server'
import { formatRupees } from '~/lib/money'
import { recordAdminChange } from './audit.server'
import type { AdminWho } from './product-admin.server'

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
