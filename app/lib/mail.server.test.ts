import os from 'node:os'
import nodemailer from 'nodemailer'
import { describe, expect, it, vi } from 'vitest'
import { createMailer, mailStartupWarnings } from './mail.server'

/** The start-up log says when mail is set to go out but could not arrive well. */
describe('mail start-up warnings', () => {
  const live = { SMTP_URL: 'smtp://mail.example.in:587', MAIL_FROM: undefined }

  it('say nothing while mail stays in DATA_DIR/mail', () => {
    expect(
      mailStartupWarnings({ ...live, SMTP_URL: undefined, PUBLIC_URL: 'http://localhost:3000' }),
    ).toEqual([])
  })

  it('say nothing for a shop on its own domain, or with MAIL_FROM on one', () => {
    expect(mailStartupWarnings({ ...live, PUBLIC_URL: 'https://shop.example.in' })).toEqual([])
    expect(
      mailStartupWarnings({
        ...live,
        MAIL_FROM: 'Shop <orders@shop.example.in>',
        PUBLIC_URL: 'https://203.0.113.7',
      }),
    ).toEqual([])
  })

  it('name a From address at localhost and links to localhost', () => {
    const warnings = mailStartupWarnings({ ...live, PUBLIC_URL: 'http://localhost:3000' })
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toContain('no-reply@localhost: set MAIL_FROM')
    expect(warnings[1]).toContain('PUBLIC_URL is http://localhost:3000')
    expect(mailStartupWarnings({ ...live, PUBLIC_URL: 'http://10.0.0.5:3000' })).toEqual([
      expect.stringContaining('no-reply@localhost'),
    ])
  })
})

/**
 * The SMTP timeouts must reach the transport that opens the connections: nodemailer's own socket
 * timeout (10 minutes) outlasts the job lease (5 minutes), and a mail to a hung server would then
 * be taken and sent again by another process (docs/auth.md, "Jobs").
 */
describe('the SMTP transport', () => {
  it('opens its connections with timeouts well under the job lease', () => {
    const made = vi.spyOn(nodemailer, 'createTransport')
    try {
      createMailer({
        SMTP_URL: 'smtp://user:pass@127.0.0.1:2525',
        MAIL_FROM: undefined,
        PUBLIC_URL: 'https://shop.example.in',
        DATA_DIR: os.tmpdir(),
      })
      const transport = made.mock.results[0]?.value as {
        transporter: { options: Record<string, unknown> }
      }
      expect(transport.transporter.options).toMatchObject({
        host: '127.0.0.1',
        connectionTimeout: 30_000,
        greetingTimeout: 30_000,
        socketTimeout: 60_000,
      })
    } finally {
      made.mockRestore()
    }
  })
})
