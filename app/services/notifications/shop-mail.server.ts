import { getSiteSettings } from '~/data/settings.server'
import type { DB } from '~/lib/db.server'
import { getEnv } from '~/lib/env.server'
import { enqueueMail } from '~/lib/mail.server'
import { formatRupees } from '~/lib/money'
import { adminOrderPath } from '~/lib/order-status'
import { renderMail } from './render-mail.server'

/**
 * Mail to the shop itself (stock, a buyer's problem report, an order or a payment to see to):
 * the alert recipients from Settings, or when none are set the contact address and every admin
 * (stored role, or an account listed in ADMIN_EMAILS; active accounts only), each once. With
 * shop alerts switched off in Settings only what the shop owes a buyer is sent (`owed`); buyers'
 * order mails are not shop mails and always go. Queued in the caller's transaction (the
 * outbox), and laid out by the one renderMail like every mail to a buyer.
 */
export async function notifyShop(
  db: DB,
  mail: {
    subject: string
    paragraphs: string[]
    /** A button to the admin page the mail is about (a path of this shop). */
    action?: { label: string; path: string }
    /**
     * What the shop owes a buyer (a paid order to deliver by hand, a payment or a refund to
     * check): sent even with shop alerts switched off, which silence only the advice (stock,
     * reports).
     */
    owed?: boolean
  },
): Promise<number> {
  const env = getEnv()
  const adminEmails = env.ADMIN_EMAILS
  const [settings, admins] = await Promise.all([
    getSiteSettings(db),
    db
      .selectFrom('user')
      .select('email')
      .where((eb) =>
        adminEmails.length
          ? eb.or([eb('role', '=', 'admin'), eb('email', 'in', [...adminEmails])])
          : eb('role', '=', 'admin'),
      )
      // A suspended or inactive account hears nothing of the shop's orders and buyers.
      .where('status', '=', 'active')
      .execute(),
  ])
  if (!settings.enableNotifications && !mail.owed) return 0
  const chosen = settings.alertRecipients.length
    ? settings.alertRecipients
    : [settings.contactEmail, ...admins.map((admin) => admin.email)]
  const recipients = new Set(chosen.map((email) => email.trim().toLowerCase()).filter(Boolean))
  const { action, owed: _owed, ...content } = mail
  const button = action && { label: action.label, url: new URL(action.path, env.PUBLIC_URL).href }
  for (const to of recipients)
    await enqueueMail(
      db,
      renderMail(settings, env.PUBLIC_URL, { to, greeting: 'Hello,', ...content, action: button }),
    )
  return recipients.size
}

/** The first paid order of a product waits for stock. */
export function mailOutOfStock(db: DB, title: string): Promise<number> {
  return notifyShop(db, {
    subject: `Out of stock: ${title} has paid orders waiting`,
    paragraphs: [
      `A paid order for "${title}" is waiting because the product is out of stock.`,
      'Add stock items to the product in the admin; waiting orders are delivered automatically, oldest first.',
    ],
  })
}

/** A sale left the product with exactly the low-stock threshold. */
export function mailLowStock(db: DB, title: string, threshold: number): Promise<number> {
  const items = threshold === 1 ? '1 item' : `${threshold} items`
  return notifyShop(db, {
    subject: `Low stock: ${items} left of ${title}`,
    paragraphs: [
      `"${title}" has ${items} left in stock.`,
      'Add stock items in the admin (Products > Stock) before it runs out; paid orders would then wait for stock.',
    ],
  })
}

/** A sale took the product's last item: checkout shows it out of stock until more is added. */
export function mailSoldOut(db: DB, title: string): Promise<number> {
  return notifyShop(db, {
    subject: `Sold out: ${title}`,
    paragraphs: [
      `The last item of "${title}" was just sold. The shop shows it as out of stock, and buyers cannot order it.`,
      'Add stock items in the admin (Products > Stock) to sell it again.',
    ],
  })
}

/** A buyer reports a problem with a delivered order. */
export function mailProblemReported(
  db: DB,
  report: { orderId: string; productName: string; reason: string },
): Promise<number> {
  return notifyShop(db, {
    subject: `Problem reported on order ${report.orderId}: ${report.productName}`,
    paragraphs: [
      `The buyer of order ${report.orderId} (${report.productName}) reports:`,
      report.reason,
      `Resolve it in the admin: Orders > ${report.orderId}.`,
    ],
  })
}

/**
 * A gateway refund needs the shop's eyes (docs/payments.md, "Refunds"): the gateway reported
 * one processed that may have paid the buyer twice, refused one (the buyer is still owed the
 * money), or never answered about one and KeyBazaar stopped asking. `why` is the order
 * timeline's words.
 */
export function mailRefundNeedsCheck(
  db: DB,
  refund: {
    orderId: string
    subject: string
    why: string
    todo: string
    /** A buyer may be owed money (the default): sent even with shop alerts switched off. */
    owed?: boolean
  },
): Promise<number> {
  return notifyShop(db, {
    subject: `Order ${refund.orderId}: ${refund.subject}`,
    paragraphs: [refund.why, refund.todo],
    action: { label: 'Open the order', path: adminOrderPath(refund.orderId) },
    owed: refund.owed ?? true,
  })
}

/**
 * The gateway reports money taken for an order that could not accept it (another amount, no
 * payment id, an id that paid another order): the order stays unpaid, and the buyer may have
 * paid for nothing. `why` is the order timeline's words.
 */
export function mailPaymentNeedsCheck(
  db: DB,
  payment: { orderId: string; why: string },
): Promise<number> {
  return notifyShop(db, {
    subject: `Order ${payment.orderId}: a payment to check`,
    paragraphs: [
      payment.why,
      "The order was not marked paid and nothing was delivered. Compare it with the payment in the gateway's dashboard: refund the buyer there, or deliver by hand once the payment is right.",
    ],
    action: { label: 'Open the order', path: adminOrderPath(payment.orderId) },
    owed: true,
  })
}

/**
 * A payment link paid through a second of its orders (an earlier attempt's payment approved
 * late): both orders are paid and delivered, and the customer is owed a refund of one.
 */
export function mailLinkPaidTwice(db: DB, orderId: string): Promise<number> {
  return notifyShop(db, {
    subject: `Order ${orderId}: a payment link paid twice`,
    paragraphs: [
      `Order ${orderId} was paid through a payment link that another of its orders had already paid: the customer paid twice.`,
      'Both orders are delivered as paid. Refund one of the two payments from its order page.',
    ],
    action: { label: 'Open the order', path: adminOrderPath(orderId) },
    owed: true,
  })
}

/** Why a paid order waits for the shop to deliver it by hand. */
export type HandDeliveryReason = 'manual' | 'no-shared-details' | 'product-deleted'

const HAND_DELIVERY_TODO: Record<HandDeliveryReason, (product: string) => string> = {
  manual: (product) =>
    `"${product}" is delivered by hand: open the order and enter the account details or licence key under Deliver manually. The buyer has been told it is on its way and gets them by e-mail.`,
  'no-shared-details': (product) =>
    `"${product}" is a shared account with no account details saved, so nothing could be delivered automatically. Deliver this order from its page, and save the details on the product so the next ones are delivered at once.`,
  'product-deleted': (product) =>
    `The product "${product}" was deleted after this order was placed, so nothing could be delivered automatically. Deliver it by hand from the order page, or refund the buyer.`,
}

/**
 * A real order was paid and waits for the shop to deliver it by hand. The buyer's name and
 * contact stay on the order page, for admins who may open orders; the mail may reach others.
 */
export function mailDeliverByHand(
  db: DB,
  order: {
    orderId: string
    productName: string
    amount: number
    reason: HandDeliveryReason
  },
): Promise<number> {
  return notifyShop(db, {
    subject: `Order ${order.orderId}: paid, deliver ${order.productName} by hand`,
    paragraphs: [
      `Order ${order.orderId} of ${order.productName} was paid (${formatRupees(order.amount)}).`,
      HAND_DELIVERY_TODO[order.reason](order.productName),
    ],
    action: { label: 'Open the order', path: adminOrderPath(order.orderId) },
    owed: true,
  })
}
