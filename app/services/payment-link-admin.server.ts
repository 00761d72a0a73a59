import {
  cancelPaymentLink,
  createPaymentLinkOnce,
  getPaymentLink,
  type CancelPaymentLinkResult,
  type CreatePaymentLinkResult,
  type NewPaymentLink,
  type PaymentLink,
} from '~/data/payment-link.server'
import type { DB } from '~/lib/db.server'
import { newId } from '~/lib/id.server'
import { formatRupees } from '~/lib/money'
import { hitPolicy, startCooldown } from '~/lib/rate-limit.server'
import { normaliseMailAddress } from '~/lib/unsubscribe-link.server'
import { recordAdminChange } from './audit.server'
import { enqueuePaymentLinkMail } from './notifications/payment-link-mail.server'
import type { AdminWho } from './product-admin.server'

/**
 * A payment-link mail refused because its customer's address has had as many as the
 * `paymentLinkMailRecipient` limit allows (app/lib/rate-limit.server.ts), whatever the links:
 * thrown inside the transaction of the mail, so nothing at all is written, queued or recorded,
 * the refused attempt's own count included.
 */
export class PaymentLinkMailLimitError extends Error {
  override name = 'PaymentLinkMailLimitError'
  constructor(
    /** The address as the link has it. */
    readonly email: string,
    readonly retryAfterSeconds: number,
  ) {
    super(`Too many payment-link mails to ${email}`)
  }
}

/**
 * Counts one payment-link mail to `email` (one counter per address, any case: the address as the
 * accounts and opt-outs keep it); over the limit, throws PaymentLinkMailLimitError, which rolls
 * back the caller's transaction. Called in the mail's transaction, a send rolled back for any
 * reason counts for nothing.
 */
async function countMailTo(db: DB, email: string, now: Date): Promise<void> {
  const hit = await hitPolicy(db, 'paymentLinkMailRecipient', normaliseMailAddress(email), now)
  if (!hit.allowed) throw new PaymentLinkMailLimitError(email, hit.retryAfterSeconds)
}

/**
 * Creates a payment link with its pending order, and records who did: the link and its audit
 * entry land together (docs/audit.md). With `emailToCustomer` its mail to the customer is queued
 * in the same transaction (rendered when it is sent: a link cancelled before then sends nothing),
 * and the link's once-a-minute mail cooldown starts, so "Send by e-mail" right after it does not
 * mail again. An unknown product throws OrderError and records nothing; so does a mail its
 * customer's address may not get any more this hour (PaymentLinkMailLimitError: no link either,
 * the admin may create it without the mail). `id` is the admin form's one-time key
 * (docs/admin.md, "Payment links"): a link made with it before is answered `repeated`, and
 * nothing is written, queued or recorded again.
 */
export async function createPaymentLinkAudited(
  db: DB,
  input: Omit<NewPaymentLink, 'createdBy'> & { id?: string; emailToCustomer?: boolean },
  who: AdminWho,
  publicUrl: string,
  now = new Date(),
): Promise<CreatePaymentLinkResult> {
  const { emailToCustomer = false, id = newId(), ...link } = input
  return db.transaction().execute(async (trx) => {
    const result = await createPaymentLinkOnce(
      trx,
      { ...link, id, createdBy: who.actor.id },
      publicUrl,
    )
    if (result.repeated) return result
    const created = result.link
    if (emailToCustomer) {
      await countMailTo(trx, created.customerEmail, now)
      await startCooldown(trx, 'paymentLinkMail', created.id, now)
      await enqueuePaymentLinkMail(trx, created.id)
    }
    await recordAdminChange(trx, {
      ...who,
      action: 'payment-link.create',
      target: { type: 'payment-link', id: created.id },
      summary: `Created a payment link of ${formatRupees(created.amount)} for ${created.productName} to ${created.customerEmail} (order ${created.orderId})${emailToCustomer ? ' and e-mailed it' : ''}`,
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
        ...(emailToCustomer ? { emailedTo: created.customerEmail } : {}),
      },
    })
    return result
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

export type EmailPaymentLinkResult =
  | { status: 'queued'; link: PaymentLink }
  | { status: 'missing' }
  | { status: 'not-active'; current: PaymentLink['status'] }
  /** E-mailed less than a minute ago (`paymentLinkMail` in app/lib/rate-limit.server.ts). */
  | { status: 'too-soon'; retryAfterSeconds: number }
  /** Its customer's address had all the payment-link mails it may get this hour (any links). */
  | { status: 'recipient-limit'; email: string; retryAfterSeconds: number }

/**
 * "Send by e-mail": queues an active link's mail to its customer again, and records who did, in
 * one transaction (docs/audit.md). At most once a minute per link, counting the mail of its
 * creation: a double click, or two admins at once, send one mail. And at most a few an hour per
 * customer address, over every link (`paymentLinkMailRecipient`): over it, `recipient-limit`.
 * A paid, cancelled or missing link, or a refused send, queues nothing and records nothing. The
 * mail is rendered when it is sent, and not sent if the link was paid or cancelled meanwhile
 * (app/services/notifications/payment-link-mail.server.ts).
 */
export async function emailPaymentLinkAudited(
  db: DB,
  linkId: string,
  who: AdminWho,
  publicUrl: string,
  now = new Date(),
): Promise<EmailPaymentLinkResult> {
  try {
    return await emailPaymentLink(db, linkId, who, publicUrl, now)
  } catch (error) {
    // Rolled back: the link's cooldown is not started either.
    if (!(error instanceof PaymentLinkMailLimitError)) throw error
    const { email, retryAfterSeconds } = error
    return { status: 'recipient-limit', email, retryAfterSeconds }
  }
}

async function emailPaymentLink(
  db: DB,
  linkId: string,
  who: AdminWho,
  publicUrl: string,
  now: Date,
): Promise<EmailPaymentLinkResult> {
  return db.transaction().execute(async (trx) => {
    const link = await getPaymentLink(trx, linkId, publicUrl)
    if (!link) return { status: 'missing' }
    if (link.status !== 'active') return { status: 'not-active', current: link.status }
    const cooldown = await startCooldown(trx, 'paymentLinkMail', link.id, now)
    if (!cooldown.allowed)
      return { status: 'too-soon', retryAfterSeconds: cooldown.retryAfterSeconds }
    await countMailTo(trx, link.customerEmail, now)
    await enqueuePaymentLinkMail(trx, link.id)
    await recordAdminChange(
      trx,
      {
        ...who,
        action: 'payment-link.email',
        target: { type: 'payment-link', id: link.id },
        summary: `E-mailed the payment link of ${formatRupees(link.amount)} for ${link.productName} to ${link.customerEmail} (order ${link.orderId})`,
      },
      now,
    )
    return { status: 'queued', link }
  })
}
