import fs from 'node:fs/promises'
import path from 'node:path'
import nodemailer, { type Transporter } from 'nodemailer'
import { z } from 'zod'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './data-dir.server'
import type { DB } from './db.server'
import { getEnv, type Env } from './env.server'
import {
  enqueueJob,
  PermanentJobError,
  RUNNER_STOPPED_ERROR,
  type EnqueueOptions,
  type JobHandlers,
} from './jobs.server'
import { isUndeliverable } from './mail-address'
import type { MailJobType } from './mail-jobs'

/**
 * Transactional e-mail. Mails are never sent inline: `enqueueMail(trx, mail)` writes a job
 * in the caller's transaction and the job runner sends it (retried with backoff while the
 * SMTP server is down, for about three days: MAIL_MAX_ATTEMPTS). With SMTP_URL unset each mail
 * becomes an .eml file in DATA_DIR/mail/ and one log line with its subject, so a new install can
 * still read them.
 */
export const MAIL_JOB = 'mail.send' satisfies MailJobType

/**
 * Attempts of a mail job, far more than other jobs' 8 (about 32 minutes): 15 s, 30 s, 1 min, ...
 * doubling up to the job runner's cap of 1 hour (backoffMs in app/lib/jobs.server.ts), so the 79
 * waits add up to 1 h 3 min 45 s for the first eight and 71 hours for the rest: about 72 hours,
 * each wait +-20%. SMTP credentials that expire on a Friday evening are fixed on Monday without a
 * mail lost. After the last attempt the job is kept as failed, the dashboard counts it, and an
 * order mail says so on its order's timeline (docs/auth.md, "Mail").
 */
export const MAIL_MAX_ATTEMPTS = 80

/**
 * Queues a job that sends a mail, with the attempts of a mail (MAIL_MAX_ATTEMPTS); pass the
 * transaction of the change that causes it.
 */
export async function enqueueMailJob(
  db: DB,
  type: MailJobType,
  payload: unknown,
  options: Omit<EnqueueOptions, 'maxAttempts'> = {},
): Promise<string> {
  return enqueueJob(db, type, payload, { ...options, maxAttempts: MAIL_MAX_ATTEMPTS })
}

/**
 * What a sending error means, for the admin: nodemailer's messages name the socket's error
 * (ECONNREFUSED, ENOTFOUND...) or quote the SMTP server's reply (535 for a refused login).
 */
const PLAIN_MAIL_ERRORS: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /invalid login|authenticat|\b53[45]\b|EAUTH/i,
    "the mail server refused the shop's login (the user name or password in SMTP_URL)",
  ],
  [
    /ENOTFOUND|EAI_AGAIN|getaddrinfo/i,
    "the mail server's name was not found (the host in SMTP_URL)",
  ],
  [/ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH/i, 'the mail server could not be reached'],
  [
    /timeout|timed out|ETIMEDOUT|greeting never received/i,
    'the mail server did not answer in time',
  ],
  [
    /certificate|self[- ]signed|\bTLS\b|\bSSL\b/i,
    'the secure connection to the mail server failed (its certificate, or the TLS setting in SMTP_URL)',
  ],
  [
    /recipients? (were |was )?rejected|\b55[0-3]\b/i,
    'the mail server refused the address it was for',
  ],
]

/**
 * A failed mail's last error in plain words, the error itself after it in brackets (cut to 300
 * characters, without a final full stop), or the error alone when it is none of the usual ones.
 */
export function mailErrorInPlainWords(error: string): string {
  const raw = error
    .replace(/\s+/g, ' ')
    .slice(0, 300)
    .replace(/[\s.]+$/, '')
    .trim()
  const plain = error.startsWith(RUNNER_STOPPED_ERROR)
    ? 'the shop stopped while sending it'
    : PLAIN_MAIL_ERRORS.find(([pattern]) => pattern.test(error))?.[1]
  return plain ? `${plain} (${raw})` : raw
}

export const mailMessageSchema = z.object({
  to: z.email(),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string(),
  /** More headers, such as List-Unsubscribe on mail its reader may switch off. */
  headers: z.record(z.string(), z.string()).optional(),
})
export type MailMessage = z.infer<typeof mailMessageSchema>

/** How one mail is sent. */
export interface Sending {
  /**
   * What makes the mail's Message-ID (`<key@the From address's domain>`): the job's id, so a
   * retry after an attempt the SMTP server had in fact accepted (a timeout on its answer, a
   * crash before the job was marked done) carries the same Message-ID and mail systems can
   * drop the copy. Without it, nodemailer makes a new one.
   */
  key?: string
}

/**
 * Sends through `mailer`, except to an address that cannot receive mail: that mail is logged
 * and dropped (null), instead of failing against the SMTP server until its job gives up.
 */
export async function deliverMail(
  mailer: Mailer,
  message: MailMessage,
  sending: Sending = {},
  log: (line: string) => void = (line) => console.log(line),
): Promise<SentMail | null> {
  if (isUndeliverable(message.to)) {
    log(`[mail] "${message.subject}" not sent: ${message.to} cannot receive mail`)
    return null
  }
  try {
    return await mailer.send(message, sending)
  } catch (error) {
    if (!isRecipientRejected(error)) throw error
    throw new PermanentJobError((error as Error).message)
  }
}

/**
 * Whether the SMTP server refused the recipient for good: a 5xx answer to RCPT TO (550 5.1.1
 * "user unknown", a misspelt domain). No retry can help, so the job fails at once and an order
 * mail says so on its timeline, for the shop to reach the buyer another way; retrying it for days
 * would only hurt the shop's standing with mail providers. A refusal about the shop itself
 * (5.7.x: relaying denied, authentication needed) is the configuration's, and is retried.
 */
export function isRecipientRejected(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const { command, responseCode, response } = error as Error & {
    command?: string
    responseCode?: number
    response?: string
  }
  if (command !== 'RCPT TO' || !responseCode || responseCode < 500 || responseCode > 599)
    return false
  return !/\b5\.7\.\d|relay|auth/i.test(response ?? error.message)
}

/** Queues a mail; pass the transaction of the change that causes it. */
export async function enqueueMail(db: DB, message: MailMessage): Promise<string> {
  return enqueueMailJob(db, MAIL_JOB, mailMessageSchema.parse(message))
}

export interface SentMail {
  messageId: string
  /** The .eml file, when there is no SMTP server. */
  file?: string
}

export interface Mailer {
  send(message: MailMessage, sending?: Sending): Promise<SentMail>
}

/** The domain the shop's mail comes from: MAIL_FROM's, else PUBLIC_URL's host. */
function fromDomain(env: Pick<Env, 'MAIL_FROM' | 'PUBLIC_URL'>): string {
  const configured = env.MAIL_FROM && /@([^\s@<>"]+)>?\s*$/.exec(env.MAIL_FROM)?.[1]
  if (configured) return configured
  const host = new URL(env.PUBLIC_URL).hostname
  return host.includes('.') && !/^[\d.]+$/.test(host) ? host : 'localhost'
}

/**
 * MAIL_FROM as written, else the site name at no-reply@ the shop's domain. The name is given to
 * nodemailer apart from the address, so it quotes and encodes it: a name with a quote or a
 * backslash cannot break the header or the envelope.
 */
function defaultFrom(
  env: Pick<Env, 'MAIL_FROM' | 'PUBLIC_URL'>,
  siteName: string,
): string | { name: string; address: string } {
  if (env.MAIL_FROM) return env.MAIL_FROM
  return { name: siteName, address: `no-reply@${fromDomain(env)}` }
}

/**
 * Warnings for the start-up log when mail is set to go out but could not arrive well: a From
 * address at no-reply@localhost (receivers refuse it, and SPF/DMARC cannot align), or links
 * in every mail pointing at localhost. Empty when mail stays in DATA_DIR/mail.
 */
export function mailStartupWarnings(
  env: Pick<Env, 'SMTP_URL' | 'MAIL_FROM' | 'PUBLIC_URL'>,
): string[] {
  if (!env.SMTP_URL) return []
  const warnings: string[] = []
  if (fromDomain(env) === 'localhost') {
    warnings.push(
      '[mail] SMTP_URL is set, but mail would come from no-reply@localhost: set MAIL_FROM (such as "Shop <orders@shop.example.in>") or PUBLIC_URL to the shop\'s domain',
    )
  }
  const host = new URL(env.PUBLIC_URL).hostname
  if (host === 'localhost' || host === '127.0.0.1' || host === '::1' || host === '[::1]') {
    warnings.push(
      `[mail] SMTP_URL is set, but PUBLIC_URL is ${env.PUBLIC_URL}: the links in every mail would point there; set PUBLIC_URL to the shop's address`,
    )
  }
  return warnings
}

export interface MailerOptions {
  siteName?: string
  /** Where buyers' answers go: the shop's contact e-mail (Settings), instead of no-reply. */
  replyTo?: string
  log?: (line: string) => void
}

export function createMailer(
  env: Pick<Env, 'SMTP_URL' | 'MAIL_FROM' | 'PUBLIC_URL' | 'DATA_DIR'>,
  options: MailerOptions = {},
): Mailer {
  const log = options.log ?? ((line: string) => console.log(line))
  const domain = fromDomain(env)
  const envelope = (message: MailMessage, sending: Sending = {}) => ({
    from: defaultFrom(env, options.siteName ?? 'KeyBazaar'),
    ...(options.replyTo ? { replyTo: options.replyTo } : {}),
    ...(sending.key ? { messageId: `<${sending.key}@${domain}>` } : {}),
    ...message,
  })
  if (env.SMTP_URL) {
    const transport: Transporter = nodemailer.createTransport(env.SMTP_URL, {})
    // Well under the job lease (docs/auth.md, "Jobs"), so a hung server fails the attempt instead
    // of outlasting the lease and having another process send the mail again. Set on the SMTP
    // transport itself: it copies the URL's options when made and reads its own copy on every
    // connection (the mailer's `options` is not read); nodemailer's own socket timeout is 10 min.
    Object.assign((transport.transporter as unknown as { options: object }).options, {
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    })
    return {
      async send(message, sending) {
        const info = await transport.sendMail(envelope(message, sending))
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
    async send(message, sending) {
      const info = await transport.sendMail(envelope(message, sending))
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

/** What of the shop's settings a mail's envelope shows: the From name and the Reply-To. */
export interface MailSender {
  siteName: string
  contactEmail: string
}

/** The process's mailer for the configured SMTP server and this sender (reused). */
export function sharedMailer(sender: MailSender): Mailer {
  const env = getEnv()
  const replyTo = sender.contactEmail.trim()
  const key = `${env.SMTP_URL ?? ''}|${sender.siteName}|${replyTo}`
  if (cachedMailer?.key !== key) {
    cachedMailer = {
      key,
      mailer: createMailer(env, { siteName: sender.siteName, replyTo: replyTo || undefined }),
    }
  }
  return cachedMailer.mailer
}

/** The job handlers for mail; the sender is read when a mail is sent (Settings). */
export function mailJobHandlers(
  options: { getSender?: () => Promise<MailSender>; mailer?: Mailer } = {},
): JobHandlers {
  return {
    [MAIL_JOB]: async (job) => {
      const message = mailMessageSchema.parse(job.payload)
      const mailer =
        options.mailer ??
        sharedMailer((await options.getSender?.()) ?? { siteName: 'KeyBazaar', contactEmail: '' })
      await deliverMail(mailer, message, { key: job.id })
    },
  }
}
