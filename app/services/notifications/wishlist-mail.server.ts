import { href } from 'react-router'
import { getSiteSettings } from '~/data/settings.server'
import { takeRestockedWishes, type RestockedWish } from '~/data/wishlist.server'
import type { DB } from '~/lib/db.server'
import { getEnv, type Env } from '~/lib/env.server'
import { wakeJobRunner } from '~/lib/jobs.server'
import { enqueueMail, type MailMessage } from '~/lib/mail.server'
import { formatRupees } from '~/lib/money'
import { productPath } from '~/lib/paths'
import { unsubscribeUrl } from '~/lib/unsubscribe-link.server'
import { testModeOnly } from '~/services/payment/offered-gateways.server'
import { renderMail, type MailSettings } from './render-mail.server'

/**
 * The back-in-stock mail: a wished-for product that was out of stock can be bought again.
 * Sent once per return to stock (app/data/wishlist.server.ts keeps the state), only to
 * customers who left the notice on, and queued in the same transaction as the state change
 * (the job outbox), so a crash never loses nor doubles a mail. It carries the one-click
 * unsubscribe link of reminders and offers (app/lib/unsubscribe-link.server.ts).
 */
export function backInStockMail(
  settings: MailSettings,
  options: { publicUrl: string; appSecret: string },
  wish: Pick<RestockedWish, 'email' | 'name' | 'title' | 'slug' | 'price'>,
): MailMessage {
  const { publicUrl } = options
  const productUrl = `${publicUrl}${productPath(wish.slug)}`
  return renderMail(settings, publicUrl, {
    to: wish.email,
    subject: `Back in stock: ${wish.title}`,
    greeting: `Hello ${wish.name.trim() || 'there'},`,
    paragraphs: [
      `Good news: "${wish.title}" from your wishlist is back in stock at ${settings.siteName}, for ${formatRupees(wish.price)}.`,
      'Stock can run out again, so order soon if you still want it.',
    ],
    action: { label: 'View the product', url: productUrl },
    note: `You get this because the product is on your wishlist. Turn these e-mails off for a product on ${publicUrl}${href('/dashboard/wishlist')}, or with reminders and offers on ${publicUrl}${href('/dashboard/settings')}.`,
    // Stops these and the expiry reminders, signed in or not (docs/notifications.md, "Unsubscribing").
    unsubscribeUrl: unsubscribeUrl(publicUrl, options.appSecret, wish.email, 'offers'),
  })
}

/**
 * Checks the wished-for products (all, or the given ones after a change to them) and queues
 * the back-in-stock mails. Run every minute by the background work and right after an admin
 * changes a product or adds stock.
 */
export async function sendBackInStockMails(
  db: DB,
  options: { productIds?: readonly string[]; now?: Date; env?: Env } = {},
): Promise<number> {
  const env = options.env ?? getEnv()
  // Test items bring a mail only while the whole shop is in test mode, and then only they do:
  // checkout sells nothing else (docs/delivery.md).
  const testItems = (await testModeOnly(db, env)) ? 'only' : false
  const mailed = await db.transaction().execute(async (trx) => {
    // Read only when a mail is due: most runs find nothing to send.
    let settings: MailSettings | undefined
    const links = { publicUrl: env.PUBLIC_URL, appSecret: env.APP_SECRET }
    return takeRestockedWishes(
      trx,
      async (wish) => {
        settings ??= await getSiteSettings(trx)
        return enqueueMail(trx, backInStockMail(settings, links, wish))
      },
      { ...options, testItems },
    )
  })
  if (mailed > 0) wakeJobRunner()
  return mailed
}
