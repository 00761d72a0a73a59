import { getEnv } from '~/lib/env.server'
import type { DB } from '~/lib/db.server'
import { enqueueMail } from '~/lib/mail.server'
import { getSiteSettings } from './settings.server'

/**
 * Mail to the shop itself (out of stock, low stock, a buyer's problem report): the contact
 * address from the settings and every admin (stored role, or an account listed in
 * ADMIN_EMAILS), each once. Queued in the caller's transaction (the outbox).
 */
export async function notifyShop(db: DB, mail: { subject: string; text: string; html: string }): Promise<number> {
  const adminEmails = getEnv().ADMIN_EMAILS
  const [settings, admins] = await Promise.all([
    getSiteSettings(db),
    db
      .selectFrom('user')
      .select('email')
      .where((eb) =>
        adminEmails.length ? eb.or([eb('role', '=', 'admin'), eb('email', 'in', [...adminEmails])]) : eb('role', '=', 'admin'),
      )
      .execute(),
  ])
  const recipients = new Set([settings.contactEmail, ...admins.map((admin) => admin.email)].map((email) => email.trim().toLowerCase()).filter(Boolean))
  for (const to of recipients) await enqueueMail(db, { to, ...mail })
  return recipients.size
}

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
