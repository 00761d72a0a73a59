import { z } from 'zod'
import { getPaymentLink, type PaymentLink } from '~/data/payment-link.server'
import { getSiteSettings } from '~/data/settings.server'
import type { DB } from '~/lib/db.server'
import type { JobHandlers } from '~/lib/jobs.server'
import type { MailJobType } from '~/lib/mail-jobs'
import {
  deliverMail,
  enqueueMailJob,
  sharedMailer,
  type MailMessage,
  type Mailer,
} from '~/lib/mail.server'
import { formatRupees } from '~/lib/money'
import { orderHelpMessage } from '~/lib/whatsapp'
import { greetingFor, renderMail, type MailSettings } from './render-mail.server'

/**
 * A payment link e-mailed to its customer (the admin's Payment Links page, docs/payments.md,
 * "Payment links"). The job carries only the link's id: the mail is rendered when the job runs,
 * from the link as it is then, so a link paid or cancelled before its mail went out sends
 * nothing, and the mail shows the link's current details.
 */
export const PAYMENT_LINK_MAIL_JOB = 'payment-link.mail' satisfies MailJobType

const payloadSchema = z.object({ linkId: z.string().min(1) })

/** Queues the mail of a payment link; pass the transaction of the change that causes it. */
export async function enqueuePaymentLinkMail(db: DB, linkId: string): Promise<string> {
  return enqueueMailJob(db, PAYMENT_LINK_MAIL_JOB, payloadSchema.parse({ linkId }))
}

export interface PaymentLinkMailOptions {
  publicUrl: string
  mailer?: Mailer
  log?: (line: string) => void
}

/** The mail asking the customer to pay: the amount, the product, the Pay button. */
export function paymentLinkMail(
  settings: MailSettings,
  publicUrl: string,
  link: Pick<
    PaymentLink,
    | 'orderId'
    | 'amount'
    | 'productName'
    | 'customerName'
    | 'customerEmail'
    | 'paymentUrl'
    | 'buyerBusinessName'
    | 'buyerGstin'
  >,
): MailMessage {
  const amount = formatRupees(link.amount)
  const details = [
    `Order: ${link.orderId}`,
    `Product: ${link.productName}`,
    `Amount: ${amount}`,
    // As the link's own page shows it (app/routes/checkout/pay.tsx).
    ...(link.buyerGstin ? [`Invoice to: ${link.buyerBusinessName}, GSTIN ${link.buyerGstin}`] : []),
  ].join('\n')
  return renderMail(settings, publicUrl, {
    to: link.customerEmail,
    subject: `Pay ${amount} for ${link.productName} at ${settings.siteName}`,
    greeting: greetingFor(link.customerName),
    paragraphs: [
      `Here is your link to pay ${amount} for ${link.productName}. Open it on your phone or computer and choose how to pay.`,
      details,
      ...(link.buyerGstin
        ? ['Your invoice will name this business. If a detail is wrong, contact us before you pay.']
        : []),
    ],
    action: { label: `Pay ${amount}`, url: link.paymentUrl },
    note: `This link is for ${link.customerName.trim() || 'you'} only: please do not forward this e-mail. If you did not expect it, ignore it; nothing is charged unless you pay.`,
    // The footer's WhatsApp link asks about this order, as the link's page does.
    whatsappText: orderHelpMessage(settings.siteName, {
      id: link.orderId,
      productName: link.productName,
    }),
  })
}

/** The `payment-link.mail` job handler. */
export function paymentLinkMailJobHandlers(
  db: DB,
  options: () => PaymentLinkMailOptions,
): JobHandlers {
  return {
    [PAYMENT_LINK_MAIL_JOB]: async (job) => {
      const { linkId } = payloadSchema.parse(job.payload)
      const { publicUrl, mailer, log = (line: string) => console.log(line) } = options()
      const link = await getPaymentLink(db, linkId, publicUrl)
      if (!link) return
      // Paid or cancelled since the mail was queued: nothing to pay, nothing sent.
      if (link.status !== 'active') {
        log(`[mail] payment link ${link.orderId} is ${link.status}: its mail was not sent`)
        return
      }
      const settings = await getSiteSettings(db)
      const message = paymentLinkMail(settings, publicUrl, link)
      // An address that cannot receive mail (a deleted account's) is dropped by deliverMail.
      await deliverMail(mailer ?? sharedMailer(settings), message, { key: job.id })
    },
  }
}
