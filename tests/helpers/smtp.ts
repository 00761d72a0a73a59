import type { WorkerFixture } from '@playwright/test'
import { SMTPServer } from 'smtp-server'
import { freePort } from './app'

/**
 * A real SMTP server for tests (the npm smtp-server package): the app sends to it over SMTP
 * like to any mail server, and the test reads what arrived.
 */
export interface ReceivedMail {
  to: string[]
  subject: string
  /** The text/plain part, decoded. */
  text: string
  /** The text/html part, decoded. */
  html: string
  raw: string
}

export interface TestSmtpServer {
  port: number
  /** For SMTP_URL. */
  url: string
  mails: ReceivedMail[]
  close(): Promise<void>
}

function decodeQuotedPrintable(value: string): string {
  const bytes: number[] = []
  const soft = value.replace(/=\r?\n/g, '')
  for (let i = 0; i < soft.length; i++) {
    const char = soft[i]!
    const hex = soft.slice(i + 1, i + 3)
    if (char === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16))
      i += 2
    } else {
      bytes.push(...Buffer.from(char, 'utf8'))
    }
  }
  return Buffer.from(bytes).toString('utf8')
}

function decodeBody(headers: string, body: string): string {
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase()
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body)
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  return body
}

/** Enough MIME for what nodemailer writes: a single part or multipart/alternative. */
export function parseMail(raw: string): Omit<ReceivedMail, 'to'> {
  const split = raw.search(/\r?\n\r?\n/)
  const headers = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ')
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '')
  const subject = /^subject:\s*(.*)$/im.exec(headers)?.[1]?.trim() ?? ''
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1]
  let text = ''
  let html = ''
  const parts = boundary ? body.split(`--${boundary}`).slice(1, -1) : [`${headers}\n\n${body}`]
  for (const part of parts) {
    const cut = part.search(/\r?\n\r?\n/)
    const partHeaders = part.slice(0, cut)
    const partBody = part
      .slice(cut)
      .replace(/^\r?\n\r?\n/, '')
      .replace(/\r?\n$/, '')
    if (/content-type:\s*text\/plain/i.test(partHeaders)) text = decodeBody(partHeaders, partBody)
    else if (/content-type:\s*text\/html/i.test(partHeaders))
      html = decodeBody(partHeaders, partBody)
  }
  return { subject, text, html, raw }
}

/** Addresses starting with this are refused by the test server as unknown mailboxes. */
export const UNKNOWN_MAILBOX_PREFIX = 'no-such-mailbox'

export async function startSmtpServer(port?: number): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // A mailbox that does not exist, as a real server answers it: 550 5.1.1 at RCPT TO.
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith(UNKNOWN_MAILBOX_PREFIX)) {
        return callback(
          Object.assign(new Error('5.1.1 <' + address.address + '>: user unknown'), {
            responseCode: 550,
          }),
        )
      }
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        mails.push({ ...parseMail(raw), to: session.envelope.rcptTo.map((rcpt) => rcpt.address) })
        callback()
      })
    },
  })
  const listenPort = port ?? (await freePort())
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(listenPort, '127.0.0.1', () => resolve())
  })
  return {
    port: listenPort,
    url: `smtp://127.0.0.1:${listenPort}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/**
 * A worker-scoped Playwright fixture (`smtp: smtpServerFixture` in `test.extend`): one test
 * SMTP server for the worker's tests, closed after them.
 */
export const smtpServerFixture: [WorkerFixture<TestSmtpServer, object>, { scope: 'worker' }] = [
  // eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring form
  async ({}, use) => {
    const smtp = await startSmtpServer()
    await use(smtp)
    await smtp.close()
  },
  { scope: 'worker' },
]
