import fs from 'node:fs/promises'
import path from 'node:path'
import nodemailer, { type Transporter } from 'nodemailer'
import { z } from 'zod'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './data-dir.server'
import type { DB } from './db.server'
import { getEnv, type Env } from './env.server'
import { enqueueJob, type JobHandlers } from './jobs.server'
import { escapeHtml } from './html'

/**
 * Transactional e-mail. Mails are never sent inline: `enqueueMail(trx, mail)` writes a job
 * in the caller's transaction and the job runner sends it (retried with backoff while the
 * SMTP server is down). With SMTP_URL unset each mail becomes an .eml file in
 * DATA_DIR/mail/ and one log line with its subject, so a new install can still read them.
 */
export const MAIL_JOB = 'mail.send'

export const mailMessageSchema = z.object({
  to: z.email(),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string(),
})
export type MailMessage = z.infer<typeof mailMessageSchema>

/** Queues a mail; pass the transaction of the change that causes it. */
export async function enqueueMail(db: DB, message: MailMessage): Promise<string> {
  return enqueueJob(db, MAIL_JOB, mailMessageSchema.parse(message))
}

/**
 * Mails about an order (delivery, replacement, the shop's reply to a report) are queued as
 * `order.mail` jobs that carry only the order id and the kind: the job renders the mail when it
 * runs, from the order as it is then, and issues the order page link's token at that moment, so
 * no token or secret sits in the outbox. See app/services/notifications/order-mail.server.ts.
 */
export const ORDER_MAIL_JOB = 'order.mail'
export const ORDER_MAIL_KINDS = [
  'delivered',
  'awaiting_stock',
  'paid',
  'replaced',
  'reply',
  'refunded',
] as const
export type OrderMailKind = (typeof ORDER_MAIL_KINDS)[number]
export const orderMailPayloadSchema = z.object({
  orderId: z.string().min(1),
  kind: z.enum(ORDER_MAIL_KINDS),
  /** For `reply`: the shop's answer to a problem report; for `refunded`: what was refunded. */
  message: z.string().max(5000).optional(),
})
export type OrderMailPayload = z.infer<typeof orderMailPayloadSchema>

/** Queues a mail about an order; pass the transaction of the change that causes it. */
export async function enqueueOrderMail(db: DB, payload: OrderMailPayload): Promise<string> {
  return enqueueJob(db, ORDER_MAIL_JOB, orderMailPayloadSchema.parse(payload))
}

export interface SentMail {
  messageId: string
  /** The .eml file, when there is no SMTP server. */
  file?: string
}

export interface Mailer {
  send(message: MailMessage): Promise<SentMail>
}

function defaultFrom(env: Pick<Env, 'MAIL_FROM' | 'PUBLIC_URL'>, siteName: string): string {
  if (env.MAIL_FROM) return env.MAIL_FROM
  const host = new URL(env.PUBLIC_URL).hostname
  const domain = host.includes('.') && !/^[\d.]+$/.test(host) ? host : 'localhost'
  return `"${siteName.replace(/"/g, '')}" <no-reply@${domain}>`
}

export function createMailer(
  env: Pick<Env, 'SMTP_URL' | 'MAIL_FROM' | 'PUBLIC_URL' | 'DATA_DIR'>,
  options: { siteName?: string; log?: (line: string) => void } = {},
): Mailer {
  const log = options.log ?? ((line: string) => console.log(line))
  const from = () => defaultFrom(env, options.siteName ?? 'KeyBazaar')
  if (env.SMTP_URL) {
    const transport: Transporter = nodemailer.createTransport(env.SMTP_URL, {})
    // Well under the job lease, so a hung server fails the attempt instead of the lease.
    Object.assign(transport.options, {
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    })
    return {
      async send(message) {
        const info = await transport.sendMail({ from: from(), ...message })
        return { messageId: String(info.messageId) }
      },
    }
  }
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  })
  const dir = path.join(env.DATA_DIR, 'mail')
  return {
    async send(message) {
      const info = await transport.sendMail({ from: from(), ...message })
      const stamp = new Date().toISOString().replace(/[:.]/g, '-')
      const file = path.join(dir, `${stamp}-${Math.random().toString(36).slice(2, 8)}.eml`)
      // Reset links and delivered keys: readable by the shop's account only.
      const write = () => fs.writeFile(file, info.message as Buffer, { mode: PRIVATE_FILE_MODE })
      // The folder is made when a write finds it missing (the first mail, or after a clean-up),
      // not checked before every mail.
      await write().catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error
        await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
        await write()
      })
      log(`[mail] SMTP_URL is not set: "${message.subject}" to ${message.to} written to ${file}`)
      return { messageId: String(info.messageId), file }
    },
  }
}

let cachedMailer: { key: string; mailer: Mailer } | undefined

/** The process's mailer for the configured SMTP server and this site name (reused). */
export function sharedMailer(siteName: string): Mailer {
  const env = getEnv()
  const key = `${env.SMTP_URL ?? ''}|${siteName}`
  if (cachedMailer?.key !== key) cachedMailer = { key, mailer: createMailer(env, { siteName }) }
  return cachedMailer.mailer
}

/** The job handlers for mail; `siteName` is read when a mail is sent (for the From name). */
export function mailJobHandlers(
  options: { getSiteName?: () => Promise<string>; mailer?: Mailer } = {},
): JobHandlers {
  return {
    [MAIL_JOB]: async (job) => {
      const message = mailMessageSchema.parse(job.payload)
      const mailer = options.mailer ?? sharedMailer((await options.getSiteName?.()) ?? 'KeyBazaar')
      await mailer.send(message)
    },
  }
}

// ---------------------------------------------------------------------------------------
// Templates: every mail has an HTML and a text version, the site name, and the support
// contacts from the site settings.

export interface MailContent {
  to: string
  subject: string
  greeting: string
  paragraphs: string[]
  action?: { label: string; url: string }
  /** Shown after the button, e.g. how long a link lasts. */
  note?: string
}

/** What a mail shows of the site settings (app/data/settings.server.ts passes its own). */
export interface MailSettings {
  siteName: string
  contactEmail: string
  phoneNumber: string
  whatsappNumber: string
}

function supportLines(settings: MailSettings): string[] {
  const lines: string[] = []
  if (settings.contactEmail) lines.push(`E-mail: ${settings.contactEmail}`)
  if (settings.phoneNumber) lines.push(`Phone: ${settings.phoneNumber}`)
  if (settings.whatsappNumber) lines.push(`WhatsApp: https://wa.me/${settings.whatsappNumber}`)
  return lines
}

export function renderMail(
  settings: MailSettings,
  publicUrl: string,
  content: MailContent,
): MailMessage {
  const support = supportLines(settings)
  const text = [
    content.greeting,
    '',
    ...content.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(content.action ? [`${content.action.label}:`, content.action.url, ''] : []),
    ...(content.note ? [content.note, ''] : []),
    '--',
    `${settings.siteName} - ${publicUrl}`,
    ...(support.length ? ['Need help? Contact us:', ...support] : []),
    '',
  ].join('\n')

  const paragraphHtml = content.paragraphs
    .map((paragraph) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(paragraph)}</p>`)
    .join('')
  const actionHtml = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:8px">${escapeHtml(content.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#475569">If the button does not work, open this link:<br><a href="${escapeHtml(content.action.url)}" style="color:#4f46e5;word-break:break-all">${escapeHtml(content.action.url)}</a></p>`
    : ''
  const noteHtml = content.note
    ? `<p style="margin:0 0 16px;font-size:13px;color:#475569">${escapeHtml(content.note)}</p>`
    : ''
  const supportHtml = support.length
    ? `<p style="margin:8px 0 0">Need help? Contact us:<br>${support.map((line) => escapeHtml(line)).join('<br>')}</p>`
    : ''
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:-apple-system,'Segoe UI',Roboto,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f5f9;padding:24px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td>
<p style="margin:0 0 24px;font-size:20px;font-weight:800;color:#4338ca">${escapeHtml(settings.siteName)}</p>
<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(content.greeting)}</p>
${paragraphHtml}${actionHtml}${noteHtml}
<hr style="border:none;border-top:1px solid #e2e8f0;margin:24px 0">
<p style="margin:0;font-size:13px;color:#475569"><a href="${escapeHtml(publicUrl)}" style="color:#4f46e5">${escapeHtml(settings.siteName)}</a></p>
<div style="font-size:13px;color:#475569">${supportHtml}</div>
</td></tr></table>
</td></tr></table>
</body></html>`
  return { to: content.to, subject: content.subject, text, html }
}

const greetingFor = (name: string) => `Hello ${name.trim() || 'there'},`

export function passwordResetMail(
  settings: MailSettings,
  publicUrl: string,
  data: { to: string; name: string; url: string; expiresInMinutes: number },
): MailMessage {
  return renderMail(settings, publicUrl, {
    to: data.to,
    subject: `Reset your ${settings.siteName} password`,
    greeting: greetingFor(data.name),
    paragraphs: [
      `Someone (hopefully you) asked to reset the password of your ${settings.siteName} account.`,
      'Choose a new password with the link below. If you did not ask for this, ignore this e-mail: your password stays as it is.',
    ],
    action: { label: 'Set a new password', url: data.url },
    note: `The link works once and expires in ${data.expiresInMinutes} minutes.`,
  })
}

export function confirmEmailMail(
  settings: MailSettings,
  publicUrl: string,
  data: { to: string; name: string; url: string; expiresInHours: number },
): MailMessage {
  return renderMail(settings, publicUrl, {
    to: data.to,
    subject: `Confirm your ${settings.siteName} account`,
    greeting: greetingFor(data.name),
    paragraphs: [
      `Thank you for signing up at ${settings.siteName}. Confirm that this is your address to finish creating your account.`,
      'If you did not sign up, ignore this e-mail: no account is opened without this link.',
    ],
    action: { label: 'Confirm my address', url: data.url },
    note: `The link signs you in and expires in ${data.expiresInHours} hours.`,
  })
}

export function signupAttemptMail(
  settings: MailSettings,
  publicUrl: string,
  data: { to: string; name: string; loginUrl: string },
): MailMessage {
  return renderMail(settings, publicUrl, {
    to: data.to,
    subject: `Someone tried to create a ${settings.siteName} account with your address`,
    greeting: greetingFor(data.name),
    paragraphs: [
      `Someone (hopefully you) tried to create a ${settings.siteName} account with this e-mail address, but you already have one. No new account was created and nothing was changed.`,
      'Sign in with your password. If you forgot it, use "Forgot password?" on the login form to set a new one.',
    ],
    action: { label: 'Sign in', url: data.loginUrl },
  })
}
