import { href } from 'react-router'
import { orderHelpMessage } from '~/lib/whatsapp'
import { getOrder } from '~/data/order.server'
import { takeDueExpiryReminders, type DueReminder } from '~/data/expiry-reminder.server'
import { getSiteSettings, type SiteSettings } from '~/data/settings.server'
import { shopLongDate } from '~/lib/date-format'
import type { DB } from '~/lib/db.server'
import { getEnv } from '~/lib/env.server'
import { wakeJobRunner } from '~/lib/jobs.server'
import { isUndeliverable } from '~/lib/mail-address'
import { enqueueMail, type MailMessage } from '~/lib/mail.server'
import { orderIdFromRenewToken, renewUrl } from '~/lib/renew-link.server'
import { unsubscribeUrl } from '~/lib/unsubscribe-link.server'
import { renderMail } from './render-mail.server'

/**
 * Expiry reminders (docs/notifications.md): 7 days and 1 day before a delivered item's validity
 * runs out, the buyer gets a mail with a Renew button that opens the same product's checkout
 * with their details filled in. Checked by the background work (app/services/background.server.ts);
 * each mail is queued in the short transaction that records the reminder, so it goes exactly
 * once, and a check reads only the orders ending about now (app/data/expiry-reminder.server.ts). The shop's switch is `expiryReminders` in Settings;
 * the buyer's, the mail's own unsubscribe link or the account's settings.
 */
const DAY_MS = 24 * 60 * 60 * 1000

export function expiryReminderMail(
  settings: Pick<
    SiteSettings,
    'siteName' | 'contactEmail' | 'phoneNumber' | 'whatsappNumber' | 'timezone'
  >,
  options: { publicUrl: string; appSecret: string; now: Date },
  reminder: Pick<
    DueReminder,
    'orderId' | 'productName' | 'productSlug' | 'expiresAt' | 'customerName' | 'customerEmail'
  >,
): MailMessage {
  const publicUrl = options.publicUrl.replace(/\/$/, '')
  const end = new Date(reminder.expiresAt)
  const days = Math.max(1, Math.round((end.getTime() - options.now.getTime()) / DAY_MS))
  const left = days === 1 ? 'in 1 day' : `in ${days} days`
  const date = shopLongDate(settings.timezone).format(end)
  return renderMail(settings, publicUrl, {
    to: reminder.customerEmail,
    subject: `Your ${reminder.productName} expires ${left}`,
    greeting: `Hello ${reminder.customerName.trim() || 'there'},`,
    paragraphs: [
      `Your ${reminder.productName} (order ${reminder.orderId}) runs out on ${date}, ${left}.`,
      'Renew now to keep using it without a break: the button opens the checkout for the same product with your details filled in. You pay the price shown there; nothing is charged until you do.',
    ],
    action: {
      label: 'Renew',
      url: renewUrl(publicUrl, options.appSecret, reminder.productSlug, reminder.orderId),
    },
    whatsappText: orderHelpMessage(settings.siteName, {
      id: reminder.orderId,
      productName: reminder.productName,
    }),
    note: `You get this reminder because you bought ${reminder.productName} at ${settings.siteName}. To stop reminders, sign in with this e-mail address and turn off e-mail notifications in your account settings: ${publicUrl}${href('/dashboard/settings')}`,
    // One click, no account needed (docs/notifications.md, "Unsubscribing").
    unsubscribeUrl: unsubscribeUrl(publicUrl, options.appSecret, reminder.customerEmail, 'offers'),
  })
}

/**
 * Queues the reminders due now (none while the shop's switch is off). Returns how many were
 * queued. Safe to run from any number of processes at once.
 */
export async function sendExpiryReminders(
  db: DB,
  options: { now?: Date; publicUrl?: string; appSecret?: string } = {},
): Promise<number> {
  const settings = await getSiteSettings(db)
  if (!settings.expiryReminders) return 0
  const now = options.now ?? new Date()
  const publicUrl = options.publicUrl ?? getEnv().PUBLIC_URL
  const appSecret = options.appSecret ?? getEnv().APP_SECRET
  // Read outside any transaction; each reminder is claimed and its mail queued in a short
  // transaction of its own (app/data/expiry-reminder.server.ts).
  const queued = await takeDueExpiryReminders(
    db,
    (trx, reminder) =>
      enqueueMail(trx, expiryReminderMail(settings, { publicUrl, appSecret, now }, reminder)),
    { timeZone: settings.timezone, now },
  )
  if (queued > 0) wakeJobRunner()
  return queued
}

/**
 * What the checkout fills in for a Renew link: the name, e-mail and phone of the order the
 * link was mailed for, when the token is genuine and the order is of this product; else null.
 */
export async function renewalPrefill(
  db: DB,
  appSecret: string,
  token: string | null,
  productId: string,
): Promise<{ name: string; email: string; phone: string } | null> {
  const orderId = orderIdFromRenewToken(appSecret, token)
  if (!orderId) return null
  const order = await getOrder(db, orderId)
  if (!order || order.productId !== productId) return null
  // A deleted account's order keeps no details worth filling in (app/data/user.server.ts).
  if (isUndeliverable(order.customerEmail)) return null
  return { name: order.customerName, email: order.customerEmail, phone: order.customerPhone }
}
