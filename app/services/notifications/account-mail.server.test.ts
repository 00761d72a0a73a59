import { describe, expect, it } from 'vitest'
import {
  confirmEmailMail,
  greetedName,
  passwordResetMail,
  signupAttemptMail,
} from './account-mail.server'

/** The account mails' words: what their links really do, and whom they greet. */
const settings = {
  siteName: 'Chai Keys',
  contactEmail: 'help@chaikeys.example',
  phoneNumber: '+91 98765 43210',
  whatsappNumber: '919876543210',
}
const PUBLIC_URL = 'https://chaikeys.example'

describe('the confirmation mail', () => {
  const confirm = (name: string) =>
    confirmEmailMail(settings, PUBLIC_URL, {
      to: 'asha@example.test',
      name,
      url: `${PUBLIC_URL}/verify-email?token=abc`,
      expiresInHours: 24,
    })

  it('says that its page asks for the sign-up password before it confirms and logs in', () => {
    const mail = confirm('Asha')
    for (const part of [mail.text, mail.html]) {
      expect(part).not.toContain('signs you in')
      expect(part).toContain(
        'The link below opens a page that asks for the password you chose when you signed up: enter it there to confirm your address and log in.',
      )
      expect(part).toContain('The link expires in 24 hours.')
    }
  })

  it('greets the name, escaped in the HTML part, and says "Hello," without one', () => {
    const named = confirm("Anaïs O'Brien")
    expect(named.text).toMatch(/^Hello Anaïs O'Brien,$/m)
    expect(named.html).toContain('>Hello Anaïs O&#39;Brien,</p>')
    const blank = confirm('')
    expect(blank.text).toMatch(/^Hello,$/m)
    expect(blank.html).toContain('>Hello,</p>')
  })
})

describe('the other account mails', () => {
  it('escape the name they greet in the HTML part', () => {
    const mail = passwordResetMail(settings, PUBLIC_URL, {
      to: 'asha@example.test',
      name: 'Asha <b>&</b> Co',
      url: `${PUBLIC_URL}/reset-password?token=abc`,
      expiresInMinutes: 60,
    })
    expect(mail.text).toMatch(/^Hello Asha <b>&<\/b> Co,$/m)
    expect(mail.html).toContain('>Hello Asha &lt;b&gt;&amp;&lt;/b&gt; Co,</p>')
    expect(mail.html).not.toContain('<b>&</b>')
  })

  it('tell the owner of a taken address the way in that works: log in, or a new password when never confirmed', () => {
    const data = {
      to: 'asha@example.test',
      name: 'Asha',
      loginUrl: `${PUBLIC_URL}/login`,
      forgotUrl: `${PUBLIC_URL}/forgot-password`,
    }
    const confirmed = signupAttemptMail(settings, PUBLIC_URL, { ...data, confirmed: true })
    expect(confirmed.text).toContain('but you already have one.')
    expect(confirmed.text).toContain(`Sign in:\n${PUBLIC_URL}/login\n`)
    const unconfirmed = signupAttemptMail(settings, PUBLIC_URL, { ...data, confirmed: false })
    expect(unconfirmed.text).toMatch(/^Hello Asha,$/m)
    expect(unconfirmed.text).toContain('already started and never confirmed')
    expect(unconfirmed.text).not.toContain('Sign in with your password')
    expect(unconfirmed.text).toContain(`Set a new password:\n${PUBLIC_URL}/forgot-password\n`)
  })
})

describe('greetedName', () => {
  it("keeps a confirmed owner's name as it is", () => {
    expect(greetedName({ name: ' Asha <b>Verma</b> ', emailVerified: true })).toBe(
      'Asha <b>Verma</b>',
    )
  })

  it('greets no unconfirmed account by name: whoever signed up typed it', () => {
    for (const name of ['Asha', 'Ravi Kumar', 'Claim a prize at evil.example', 'Call 9876543210']) {
      expect(greetedName({ name, emailVerified: false })).toBe('')
    }
  })
})
