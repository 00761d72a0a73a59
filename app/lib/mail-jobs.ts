/**
 * Every job type that sends a mail: plain mails (`mail.send`, `enqueueMail` in
 * app/lib/mail.server.ts), the buyer's order mails
 * (app/services/notifications/order-mail.server.ts) and the account mails
 * (app/services/notifications/account-mail.server.ts, app/services/auth.server.ts) and a payment
 * link mailed to its customer (app/services/notifications/payment-link-mail.server.ts). They are
 * queued with `enqueueMailJob` (app/lib/mail.server.ts), which takes only these types and gives
 * them a mail's attempts, and the admin dashboard counts the ones that failed
 * (app/data/dashboard.server.ts, which may read this list but queues no mail): a new mail job type
 * is added here (docs/auth.md, "Mail").
 */
export const MAIL_JOB_TYPES = [
  'mail.send',
  'order.mail',
  'account.password-reset',
  'account.verify-email',
  'account.signup-attempt',
  'account.password-changed-by-admin',
  'account.password-changed',
  'payment-link.mail',
] as const
export type MailJobType = (typeof MAIL_JOB_TYPES)[number]
