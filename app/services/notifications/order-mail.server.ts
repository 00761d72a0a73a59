import { href } from 'react-router'
import { shopDateTime } from '~/lib/date-format'
import {
  listCreditNotes,
  TEST_CREDIT_NOTE_NUMBER,
  type CreditNoteSummary,
} from '~/data/credit-note.server'
import { invoicePaidOrder } from '~/data/invoice.server'
import { appendOrderEvent } from '~/data/order-event.server'
import {
  getOrder,
  issueOrderAccessToken,
  listOrderEvents,
  takeOrderRows,
  type Order,
} from '~/data/order.server'
import { getSiteSettings, type SiteSettings } from '~/data/settings.server'
import { getDeliveredSecret, secretAsText } from '~/data/stock.server'
import { SecretDecryptionError } from '~/lib/crypto.server'
import type { DB } from '~/lib/db.server'
import { z } from 'zod'
import type { Job, JobType } from '~/lib/jobs.server'
import {
  deliverMail,
  enqueueMailJob,
  mailErrorInPlainWords,
  sharedMailer,
  type MailMessage,
  type Mailer,
} from '~/lib/mail.server'
import { formatRupees } from '~/lib/money'
import { orderHelpMessage } from '~/lib/whatsapp'
import { PAID_PRODUCT_GONE } from '~/lib/order-status'
import { renderMail } from './render-mail.server'

/**
 * Mails about an order (delivery, replacement, the shop's reply to a report) are queued as
 * `order.mail` jobs that carry only the order id and the kind: the job renders the mail when it
 * runs, from the order as it is then, and issues the order page link's token at that moment, so
 * no token or secret sits in the outbox.
 */
export const ORDER_MAIL_JOB = 'order.mail'
export const ORDER_MAIL_KINDS = [
  'delivered',
  'awaiting_stock',
  'paid',
  'replaced',
  'reply',
  'refunded',
  'credit_note',
] as const
export type OrderMailKind = (typeof ORDER_MAIL_KINDS)[number]
export const orderMailPayloadSchema = z.object({
  orderId: z.string().min(1),
  kind: z.enum(ORDER_MAIL_KINDS),
  /**
   * For `reply`: the shop's answer to a problem report; for `refunded`: what was refunded.
   */
  message: z.string().max(5000).optional(),
  /**
   * For `refunded`: the refund's credit note (app/data/credit-note.server.ts); for
   * `credit_note`: the one issued late, or none when several were.
   */
  creditNoteId: z.string().max(100).optional(),
})
export type OrderMailPayload = z.infer<typeof orderMailPayloadSchema>

/**
 * Queues a mail about an order; pass the transaction of the change that causes it. Retried for
 * about three days while the SMTP server is down (MAIL_MAX_ATTEMPTS in app/lib/mail.server.ts).
 */
export async function enqueueOrderMail(db: DB, payload: OrderMailPayload): Promise<string> {
  return enqueueMailJob(db, ORDER_MAIL_JOB, orderMailPayloadSchema.parse(payload))
}

/**
 * The buyer's mails about an order: payment received, delivered, waiting for stock,
 * item replaced, the shop's reply to a report, refunded, a credit note issued late. Each is rendered when the job runs,
 * from the order as it is then. The link to the order page carries a token issued at that
 * moment (only its hash is stored), so no token and no credential sits in the job table.
 * Credentials go into the mail only when the owner turned on `deliveryMailIncludesSecret`.
 */
export interface OrderMailOptions {
  publicUrl: string
  appSecret: string
  mailer?: Mailer
}

/** The order page link with a fresh token: /orders/{id}/{token}. */
export function orderLinkFor(publicUrl: string, orderId: string, token: string): string {
  const path = href('/orders/:orderId/:token', { orderId: encodeURIComponent(orderId), token })
  return `${publicUrl.replace(/\/$/, '')}${path}`
}

function summary(order: Order, settings: SiteSettings): string[] {
  const paidAt = order.paidAt
    ? shopDateTime(settings.timezone).format(new Date(order.paidAt))
    : null
  return [
    `Order: ${order.id}`,
    `Product: ${order.productName}`,
    `Amount: ${formatRupees(order.paidAmount ?? order.amount)}`,
    ...(paidAt ? [`Paid on: ${paidAt}`] : []),
    ...(order.gatewayTxnId ? [`Transaction ID: ${order.gatewayTxnId}`] : []),
  ]
}

interface Content {
  subject: string
  paragraphs: string[]
  label: string
  note?: string
}

function contentFor(
  kind: OrderMailKind,
  order: Order,
  settings: SiteSettings,
  extra: { secret: string | null; message?: string; creditNote?: CreditNoteSummary },
): Content {
  const lines = summary(order, settings).join('\n')
  const secretParagraphs = extra.secret ? [`Your account details / key:\n${extra.secret}`] : []
  const linkNote =
    'This link is private to you: anyone with it can open your order. Do not forward this e-mail.'
  switch (kind) {
    case 'delivered':
      return {
        subject: `Your order ${order.id} is ready: ${order.productName}`,
        paragraphs: [
          `Thank you for your purchase. Your ${order.productName} has been delivered.`,
          lines,
          ...secretParagraphs,
          extra.secret
            ? 'You can also see these details on your order page at any time.'
            : 'Open your order page to see your account details or licence key. They are not sent by e-mail, to keep them safe.',
        ],
        label: 'View your order',
        note: linkNote,
      }
    case 'replaced':
      return {
        subject: `Replacement for order ${order.id}: ${order.productName}`,
        paragraphs: [
          `We have replaced the item delivered for your ${order.productName}. The previous one no longer works; please use the new one.`,
          lines,
          ...secretParagraphs,
          extra.secret
            ? 'The new details are also on your order page.'
            : 'Open your order page to see the new details.',
        ],
        label: 'View your order',
        note: linkNote,
      }
    case 'awaiting_stock':
      return {
        subject: `Payment received for order ${order.id}: delivery shortly`,
        paragraphs: [
          `We have received your payment for ${order.productName}. It is briefly out of stock: your order is first in line and will be delivered automatically as soon as new stock arrives. You will get another e-mail then.`,
          lines,
        ],
        label: 'Check your order',
        note: linkNote,
      }
    case 'paid':
      return {
        subject: `Payment received for order ${order.id}`,
        paragraphs: [
          // A product deleted before the payment landed is delivered another way or refunded.
          `We have received your payment for ${order.productName}. ${order.productId === null ? PAID_PRODUCT_GONE : 'Our team is preparing your account details and will deliver them shortly; you will get another e-mail when they are ready.'}`,
          lines,
        ],
        label: 'Check your order',
        note: linkNote,
      }
    case 'reply':
      return {
        subject: `About your report on order ${order.id}`,
        paragraphs: [
          `We looked into the problem you reported with ${order.productName}.`,
          extra.message ?? '',
          lines,
        ].filter(Boolean),
        label: 'View your order',
        note: linkNote,
      }
    case 'refunded':
      return {
        subject: `Refund for order ${order.id}`,
        paragraphs: [
          // A refund through the gateway says how much went back (all of it, or a part).
          extra.message ??
            `Your payment for ${order.productName} has been refunded. Refunds usually reach your account within 5 to 7 working days, depending on your bank.`,
          lines,
          ...(extra.creditNote
            ? [
                `Our credit note${extra.creditNote.number === TEST_CREDIT_NOTE_NUMBER ? '' : ` ${extra.creditNote.number}`} for ${formatRupees(extra.creditNote.amount)} is on your order page, beside your invoice.`,
              ]
            : []),
        ],
        label: 'View your order',
        note: linkNote,
      }
    case 'credit_note':
      return {
        subject: `Credit note for order ${order.id}`,
        paragraphs: [
          extra.creditNote
            ? `Our credit note${extra.creditNote.number === TEST_CREDIT_NOTE_NUMBER ? '' : ` ${extra.creditNote.number}`} for the ${formatRupees(extra.creditNote.amount)} we refunded for ${order.productName} is now on your order page, beside your invoice.`
            : `Our credit notes for the refunds of your payment for ${order.productName} are now on your order page, beside your invoice.`,
          lines,
        ],
        label: 'View your order',
        note: linkNote,
      }
  }
}

/**
 * The order's item for the mail, or null when the shop can no longer decrypt it (APP_SECRET
 * changed since it was stored): the mail then goes without it, with its link to the order page,
 * rather than failing on every retry.
 */
async function readableSecret(db: DB, appSecret: string, orderId: string) {
  try {
    return await getDeliveredSecret(db, appSecret, orderId)
  } catch (error) {
    if (!(error instanceof SecretDecryptionError)) throw error
    console.error(`[mail] the item of order ${orderId} cannot be decrypted: mailed without it`)
    return null
  }
}

/**
 * Whether a mail queued earlier no longer says what is true of the order when its job runs (the
 * SMTP server was down for hours, docs/delivery.md "Order mails"): a delivery or replacement mail
 * for an order no longer delivered (refunded since), a payment mail ("preparing", "waiting for
 * stock") for an order refunded since. Such a mail is dropped, not sent.
 */
function mailOutdated(kind: OrderMailKind, status: Order['status']): boolean {
  if (kind === 'delivered' || kind === 'replaced') return status !== 'delivered'
  if (kind === 'paid' || kind === 'awaiting_stock') return status === 'refunded'
  return false
}

/**
 * Renders the mail for an order (issuing the link's token), or null when the order is gone or
 * the mail no longer says what is true of it (mailOutdated): the job then ends without a mail.
 */
export async function renderOrderMail(
  db: DB,
  options: OrderMailOptions,
  payload: OrderMailPayload,
  settings?: SiteSettings,
): Promise<MailMessage | null> {
  const order = await getOrder(db, payload.orderId)
  if (!order) return null
  if (mailOutdated(payload.kind, order.status)) {
    console.log(
      `[mail] the ${payload.kind} mail of order ${order.id} was not sent: the order is ${order.status} now`,
    )
    return null
  }
  settings ??= await getSiteSettings(db)
  // Rendered when the job runs: only a delivered order's mail carries the item.
  const withSecret =
    (payload.kind === 'delivered' || payload.kind === 'replaced') &&
    order.status === 'delivered' &&
    settings.deliveryMailIncludesSecret
  const secret = withSecret ? await readableSecret(db, options.appSecret, order.id) : null
  const creditNote = payload.creditNoteId
    ? (await listCreditNotes(db, order.id)).find((note) => note.id === payload.creditNoteId)
    : undefined
  const content = contentFor(payload.kind, order, settings, {
    secret: secret ? secretAsText(secret) : null,
    message: payload.message,
    creditNote,
  })
  const token = await issueOrderAccessToken(db, order.id, `mail:${payload.kind}`)
  return renderMail(settings, options.publicUrl, {
    to: order.customerEmail,
    subject: content.subject,
    greeting: `Hello ${order.customerName.trim() || 'there'},`,
    paragraphs: content.paragraphs,
    action: { label: content.label, url: orderLinkFor(options.publicUrl, order.id, token) },
    note: content.note,
    // The footer's WhatsApp link asks about this order, as the order page's does.
    whatsappText: orderHelpMessage(settings.siteName, order),
  })
}

/** The mails queued in the transaction that marks an order paid (fulfilPaidOrder). */
const INVOICED_ON = new Set<OrderMailKind>(['paid', 'delivered', 'awaiting_stock'])

/** The timeline entry of an order mail the job runner gave up on. */
export const MAIL_FAILED_EVENT = 'mail_failed'

/** What the admin's timeline calls each order mail. */
const KIND_LABELS: Record<OrderMailKind, string> = {
  delivered: 'The delivery e-mail',
  awaiting_stock: 'The "payment received, waiting for stock" e-mail',
  paid: 'The "payment received" e-mail',
  replaced: 'The replacement e-mail',
  reply: "The e-mail with the shop's reply to the report",
  refunded: 'The refund e-mail',
  credit_note: 'The credit note e-mail',
}

/**
 * Puts an order mail that failed for good on its order's timeline (`mail_failed`, by the system;
 * docs/delivery.md, "Order mails"): which mail, to whom, the last error in plain words, and what
 * the admin can do. The "Resend delivery e-mail" action is offered for a delivered order only
 * (app/services/order-actions.server.ts, resendDeliveryMail); it sends a fresh link to the order
 * page, where the buyer sees everything the lost mail told. One entry per job: giving a job up
 * may run twice (jobs.server.ts, JobType), so an entry already written for the job is kept, and
 * the order's row is taken first so that two runs cannot both miss it. Returns whether it wrote
 * one.
 */
export async function recordOrderMailFailed(
  db: DB,
  job: Pick<Job, 'id' | 'attempt' | 'payload'>,
  reason: string,
  now = new Date(),
): Promise<boolean> {
  const parsed = orderMailPayloadSchema.safeParse(job.payload)
  if (!parsed.success) return false
  const payload = parsed.data
  return db.transaction().execute(async (trx) => {
    const order = await takeOrderRows(trx)
      .where('id', '=', payload.orderId)
      .returning(['id', 'status', 'customerEmail'])
      .executeTakeFirst()
    if (!order) return false
    const written = (await listOrderEvents(trx, order.id)).some(
      (event) =>
        event.type === MAIL_FAILED_EVENT &&
        (event.data as { jobId?: unknown } | null)?.jobId === job.id,
    )
    if (written) return false
    const advice =
      order.status === 'delivered'
        ? 'Check the SMTP settings (SMTP_URL); once mail works again, "Resend delivery e-mail" on this page sends the buyer a fresh link to this order.'
        : 'Check the SMTP settings (SMTP_URL), and tell the buyer another way: this e-mail cannot be resent from here.'
    await appendOrderEvent(
      trx,
      order.id,
      {
        type: MAIL_FAILED_EVENT,
        message: `${KIND_LABELS[payload.kind]} to ${order.customerEmail} could not be sent after ${job.attempt} ${job.attempt === 1 ? 'try' : 'tries'}: ${mailErrorInPlainWords(reason)}. ${advice}`,
        data: { jobId: job.id, kind: payload.kind, attempts: job.attempt, error: reason },
        actor: 'system',
      },
      now,
    )
    return true
  })
}

/**
 * The `order.mail` job: the handler sends the mail; when the job fails for good (its last attempt
 * failed, or its runner stopped during it) the order's timeline says so (recordOrderMailFailed).
 */
export function orderMailJobHandlers(
  db: DB,
  options: () => OrderMailOptions,
): Record<typeof ORDER_MAIL_JOB, JobType> {
  return {
    [ORDER_MAIL_JOB]: {
      run: async (job) => {
        const payload = orderMailPayloadSchema.parse(job.payload)
        const resolved = options()
        const settings = await getSiteSettings(db)
        // The payment's mail is the sale's first step after it commits: the invoice is numbered
        // here, not at its first download (docs/delivery.md, "Invoice"). Done before the mail, so
        // a retried job numbers it once (issueInvoiceNumber gives an order one number).
        if (INVOICED_ON.has(payload.kind)) await invoicePaidOrder(db, payload.orderId, settings)
        const message = await renderOrderMail(db, resolved, payload, settings)
        if (!message) return
        const mailer = resolved.mailer ?? sharedMailer(settings)
        await deliverMail(mailer, message, { key: job.id })
      },
      failed: async (job, reason) => {
        await recordOrderMailFailed(db, job, reason)
      },
    },
  }
}
