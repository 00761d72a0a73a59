import fs from 'node:fs/promises'
import path from 'node:path'
import nodemailer, { type Transporter } from 'nodemailer'
import { z } from 'zod'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './data-dir.server'
import type { DB } from './db.server'
import { getEnv, type Env } from './env.server'
import { enqueueJob, type JobHandlers } from './jobs.server'
import { isUndeliverable } from './mail-address'

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

/**
 * Sends through `mailer`, except to an address that cannot receive mail: that mail is logged
 * and dropped (null), instead of failing against the SMTP server until its job gives up.
 */
export async function deliverMail(
  mailer: Mailer,
  message: MailMessage,
  log: (line: string) => void = (line) => console.log(line),
): Promise<SentMail | null> {
  if (isUndeliverable(message.to)) {
    log(`[mail] "${message.subject}" not sent: ${message.to} cannot receive mail`)
    return null
  }
  return mailer.send(message)
}

/** Queues a mail; pass the transaction of the change that causes it. */
export async function enqueueMail(db: DB, message: MailMessage): Promise<string> {
  return enqueueJob(db, MAIL_JOB, mailMessageSchema.parse(message))
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
      await deliverMail(mailer, message)
    },
  }
}
