import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadEnv } from '~/lib/env.server'
import { runDueJobs } from '~/lib/jobs.server'
import {
  createMailer,
  enqueueMail,
  MAIL_MAX_ATTEMPTS,
  mailErrorInPlainWords,
  mailJobHandlers,
} from '~/lib/mail.server'
import { MAIL_JOB_TYPES } from '~/lib/mail-jobs'
import { freePort } from '../../../tests/helpers/app'
import { fileTestDb } from '../../../tests/helpers/db'
import { makeCustomer } from '../../../tests/factories'
import {
  startSmtpServer,
  UNKNOWN_MAILBOX_PREFIX,
  type TestSmtpServer,
} from '../../../tests/helpers/smtp'
import { passwordResetMail, requestPasswordReset } from './account-mail.server'
import { enqueueOrderMail } from './order-mail.server'
import { renderMail } from './render-mail.server'

/**
 * Mail leaves through the outbox and a real SMTP server; nothing is lost while it is down for up
 * to about three days (MAIL_MAX_ATTEMPTS).
 */
const t = fileTestDb()
let smtp: TestSmtpServer
const settings = {
  siteName: 'Chai Keys',
  contactEmail: 'help@chaikeys.example',
  phoneNumber: '+91 98765 43210',
  whatsappNumber: '919876543210',
}
const env = (smtpUrl?: string, dataDir = os.tmpdir()) => ({
  SMTP_URL: smtpUrl,
  MAIL_FROM: undefined,
  PUBLIC_URL: 'https://chaikeys.example',
  DATA_DIR: dataDir,
})
const quiet = () => {}

beforeAll(async () => {
  smtp = await startSmtpServer()
})
afterAll(async () => {
  await smtp.close()
})

const resetMail = (to: string) =>
  passwordResetMail(settings, 'https://chaikeys.example', {
    to,
    name: 'Asha',
    url: 'https://chaikeys.example/reset-password?token=abc_DEF-123',
    expiresInMinutes: 60,
  })

describe(`mail (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('sends a queued mail over SMTP with HTML and text, the site name and the support contacts', async () => {
    await t.db.transaction().execute((trx) => enqueueMail(trx, resetMail('asha@example.test')))
    const handlers = mailJobHandlers({
      mailer: createMailer(env(smtp.url), { siteName: settings.siteName }),
    })
    expect(await runDueJobs(t.db, handlers, { log: quiet })).toBe(1)
    const mail = smtp.mails.find((received) => received.to.includes('asha@example.test'))!
    expect(mail.subject).toBe('Reset your Chai Keys password')
    expect(mail.raw).toMatch(/^From: "?Chai Keys"? <no-reply@chaikeys\.example>/m)
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('Hello Asha,')
      expect(part).toContain('https://chaikeys.example/reset-password?token=abc_DEF-123')
      expect(part).toContain('help@chaikeys.example')
      expect(part).toContain('+91 98765 43210')
      expect(part).toContain('https://wa.me/919876543210')
      expect(part).toContain('expires in 60 minutes')
    }
    expect(mail.html).toContain(
      '<a href="https://chaikeys.example/reset-password?token=abc_DEF-123"',
    )
  })

  it("answers go to the shop's contact address, and an odd site name cannot break the From header", async () => {
    await t.db.transaction().execute((trx) => enqueueMail(trx, resetMail('reply@example.test')))
    const handlers = mailJobHandlers({
      mailer: createMailer(env(smtp.url), {
        siteName: 'Chai "Keys" \\',
        replyTo: settings.contactEmail,
      }),
    })
    expect(await runDueJobs(t.db, handlers, { log: quiet })).toBe(1)
    const mail = smtp.mails.find((received) => received.to.includes('reply@example.test'))!
    expect(mail.raw).toMatch(/^Reply-To: help@chaikeys\.example\r?$/m)
    const from = /^From: (.*)$/m.exec(mail.raw)?.[1] ?? ''
    expect(from).toMatch(/<no-reply@chaikeys\.example>\r?$/)
    expect(from).toContain('Chai \\"Keys\\" \\\\')
  })

  it("the job runner's own mailer takes the From name and the Reply-To from the shop's settings", async () => {
    // The process's configuration, as the server loads it at start-up.
    loadEnv({
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://chaikeys.example',
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'kb-mail-env-')),
      APP_SECRET: 'e'.repeat(64),
    })
    await t.db.transaction().execute((trx) => enqueueMail(trx, resetMail('sender@example.test')))
    const handlers = mailJobHandlers({
      getSender: async () => ({ siteName: 'Chai Keys', contactEmail: 'help@chaikeys.example' }),
    })
    expect(await runDueJobs(t.db, handlers, { log: quiet })).toBe(1)
    const mail = smtp.mails.find((received) => received.to.includes('sender@example.test'))!
    expect(mail.raw).toMatch(/^From: "?Chai Keys"? <no-reply@chaikeys\.example>/m)
    expect(mail.raw).toMatch(/^Reply-To: help@chaikeys\.example\r?$/m)
  })

  it("gives every attempt of a mail the job's Message-ID, so a resent copy can be recognised", async () => {
    const id = await t.db
      .transaction()
      .execute((trx) => enqueueMail(trx, resetMail('twice@example.test')))
    const handlers = mailJobHandlers({
      mailer: createMailer(env(smtp.url), { siteName: settings.siteName }),
    })
    expect(await runDueJobs(t.db, handlers, { log: quiet })).toBe(1)
    // The same job run again, as after a crash before it was marked done.
    await t.db.updateTable('job').set({ status: 'pending' }).where('id', '=', id).execute()
    expect(await runDueJobs(t.db, handlers, { log: quiet })).toBe(1)
    const ids = smtp.mails
      .filter((received) => received.to.includes('twice@example.test'))
      .map((received) => /^Message-ID: (.*?)\r?$/im.exec(received.raw)?.[1])
    expect(ids).toEqual([`<${id}@chaikeys.example>`, `<${id}@chaikeys.example>`])
  })

  it('fails at once, without retries, a mail whose address the server refuses for good', async () => {
    const handlers = mailJobHandlers({
      mailer: createMailer(env(smtp.url), { siteName: settings.siteName }),
    })
    const id = await t.db
      .transaction()
      .execute((trx) => enqueueMail(trx, resetMail(`${UNKNOWN_MAILBOX_PREFIX}@example.test`)))
    expect(await runDueJobs(t.db, handlers, { log: quiet })).toBe(1)
    const job = await t.db
      .selectFrom('job')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(job).toMatchObject({ status: 'failed', attempts: 1 })
    expect(mailErrorInPlainWords(job.lastError!)).toMatch(
      /^the mail server refused the address it was for \(.*550.*user unknown/,
    )
  })

  it('keeps the mail while the SMTP server is down and delivers it on a later attempt', async () => {
    const port = await freePort()
    const handlers = mailJobHandlers({
      mailer: createMailer(env(`smtp://127.0.0.1:${port}`), { siteName: settings.siteName }),
    })
    const id = await t.db
      .transaction()
      .execute((trx) => enqueueMail(trx, resetMail('patient@example.test')))

    expect(await runDueJobs(t.db, handlers, { log: quiet })).toBe(1)
    const failed = await t.db
      .selectFrom('job')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 })
    expect(failed.lastError).toMatch(/ECONNREFUSED|connect/i)
    expect(new Date(failed.runAt).getTime()).toBeGreaterThan(Date.now())

    const revived = await startSmtpServer(port)
    try {
      expect(await runDueJobs(t.db, handlers, { now: new Date(failed.runAt), log: quiet })).toBe(1)
      expect(revived.mails.map((mail) => mail.to)).toEqual([['patient@example.test']])
      expect(
        (
          await t.db
            .selectFrom('job')
            .select('status')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).status,
      ).toBe('done')
    } finally {
      await revived.close()
    }
  })

  it('keeps a mail through three days of SMTP outage, 79 failed attempts, and delivers it when the server is back', async () => {
    const port = await freePort()
    const handlers = mailJobHandlers({
      mailer: createMailer(env(`smtp://127.0.0.1:${port}`), { siteName: settings.siteName }),
    })
    const id = await t.db
      .transaction()
      .execute((trx) => enqueueMail(trx, resetMail('weekend@example.test')))
    const row = () =>
      t.db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    expect((await row()).maxAttempts).toBe(MAIL_MAX_ATTEMPTS)

    // Down from the first attempt (a Friday evening) through every attempt but the last, each
    // run at the moment its retry is due: far past the 8 attempts other jobs get.
    const start = new Date()
    let now = start
    for (let attempt = 1; attempt < MAIL_MAX_ATTEMPTS; attempt++) {
      expect(await runDueJobs(t.db, handlers, { now, log: quiet })).toBe(1)
      const failed = await row()
      expect(failed).toMatchObject({ status: 'pending', attempts: attempt })
      expect(failed.lastError).toMatch(/ECONNREFUSED|connect/i)
      now = new Date(failed.runAt)
    }
    // The waits add up to 72 h 4 min (docs/auth.md, "Mail"), each +-20%: about three days.
    const hours = (now.getTime() - start.getTime()) / 3_600_000
    expect(hours).toBeGreaterThan(65)
    expect(hours).toBeLessThan(80)

    const revived = await startSmtpServer(port)
    try {
      expect(await runDueJobs(t.db, handlers, { now, log: quiet })).toBe(1)
      expect(revived.mails.map((mail) => mail.to)).toEqual([['weekend@example.test']])
      expect(await row()).toMatchObject({ status: 'done', attempts: MAIL_MAX_ATTEMPTS })
    } finally {
      await revived.close()
    }
  })

  it('queues every kind of mail with the attempts of a mail', async () => {
    await t.db.deleteFrom('job').execute()
    const customer = await makeCustomer(t.db)
    await enqueueMail(t.db, resetMail('plain@example.test'))
    await enqueueOrderMail(t.db, { orderId: 'KB-ANY', kind: 'delivered' })
    expect(await requestPasswordReset(t.db, customer.email)).toEqual({ queued: true })
    const jobs = await t.db.selectFrom('job').select(['type', 'maxAttempts']).execute()
    expect(jobs.map((job) => job.type).sort()).toEqual(
      ['account.password-reset', 'mail.send', 'order.mail'].sort(),
    )
    for (const job of jobs) {
      expect(MAIL_JOB_TYPES).toContain(job.type)
      expect(job.maxAttempts).toBe(MAIL_MAX_ATTEMPTS)
    }
    // Not for the tests below to send.
    await t.db.deleteFrom('job').execute()
  })

  it("says in plain words why a mail failed, for the admin, with the server's own words", () => {
    expect(mailErrorInPlainWords('connect ECONNREFUSED 127.0.0.1:587')).toBe(
      'the mail server could not be reached (connect ECONNREFUSED 127.0.0.1:587)',
    )
    expect(mailErrorInPlainWords('getaddrinfo ENOTFOUND smtp.example.invalid')).toBe(
      "the mail server's name was not found (the host in SMTP_URL) (getaddrinfo ENOTFOUND smtp.example.invalid)",
    )
    expect(mailErrorInPlainWords('Invalid login: 535 5.7.8 Authentication failed')).toMatch(
      /^the mail server refused the shop's login/,
    )
    expect(mailErrorInPlainWords('Greeting never received')).toMatch(/did not answer in time/)
    // Anything else is given as it is, without its full stop (the sentence goes on).
    expect(mailErrorInPlainWords('Something odd happened.\n')).toBe('Something odd happened')
  })

  it("drops a mail to an address that cannot receive one (a deleted account's) instead of retrying it", async () => {
    const handlers = mailJobHandlers({
      mailer: createMailer(env(smtp.url), { siteName: settings.siteName }),
    })
    const id = await t.db
      .transaction()
      .execute((trx) => enqueueMail(trx, resetMail('deleted-abc123@deleted.invalid')))
    const before = smtp.mails.length
    expect(await runDueJobs(t.db, handlers, { log: quiet })).toBe(1)
    const job = await t.db
      .selectFrom('job')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(job).toMatchObject({ status: 'done', attempts: 1 })
    expect(smtp.mails.length).toBe(before)
  })

  it('without SMTP_URL writes an .eml file into DATA_DIR/mail and logs the subject', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-mail-'))
    try {
      const lines: string[] = []
      const mailer = createMailer(env(undefined, dataDir), {
        siteName: settings.siteName,
        log: (line) => lines.push(line),
      })
      const sent = await mailer.send(resetMail('offline@example.test'))
      expect(sent.file).toMatch(new RegExp(`^${dataDir}/mail/.+\\.eml$`))
      const raw = fs.readFileSync(sent.file!, 'utf8')
      expect(raw).toContain('Subject: Reset your Chai Keys password')
      expect(raw).toContain('Content-Type: text/html')
      expect(raw).toContain('Content-Type: text/plain')
      expect(lines).toEqual([
        expect.stringContaining('"Reset your Chai Keys password" to offline@example.test'),
      ])
      expect(fs.statSync(path.dirname(sent.file!)).mode & 0o777).toBe(0o700)
      // The folder removed while the shop runs (a clean-up): the next mail makes it again.
      fs.rmSync(path.join(dataDir, 'mail'), { recursive: true })
      const again = await mailer.send(resetMail('offline@example.test'))
      expect(fs.readFileSync(again.file!, 'utf8')).toContain('Subject: Reset your Chai Keys')
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('escapes names and links in the HTML', () => {
    const mail = renderMail(settings, 'https://chaikeys.example', {
      to: 'x@example.test',
      subject: 'Hi',
      greeting: 'Hello <b>Mallory</b>,',
      paragraphs: ['"quoted" & <i>tagged</i>'],
    })
    expect(mail.html).toContain('Hello &lt;b&gt;Mallory&lt;/b&gt;,')
    expect(mail.html).toContain('&quot;quoted&quot; &amp; &lt;i&gt;tagged&lt;/i&gt;')
    expect(mail.text).toContain('Hello <b>Mallory</b>,')
  })
})
