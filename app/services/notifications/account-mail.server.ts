import { href } from 'react-router'
import { z } from 'zod'
import { getSiteSettings } from '~/data/settings.server'
import {
  createPasswordResetToken,
  findUserByEmail,
  getUserProfile,
  RESET_TOKEN_TTL_SECONDS,
} from '~/data/user.server'
import { createEmailVerificationToken } from 'better-auth/api'
import {
  PASSWORD_CHANGED_JOB,
  type PasswordChange,
  SIGNUP_ATTEMPT_JOB,
  VERIFY_EMAIL_JOB,
  VERIFY_EMAIL_TTL_SECONDS,
} from '~/services/auth.server'
import type { DB } from '~/lib/db.server'
import type { JobHandlers } from '~/lib/jobs.server'
import { safeRedirect } from '~/lib/safe-redirect'
import {
  deliverMail,
  enqueueMailJob,
  sharedMailer,
  type MailMessage,
  type Mailer,
} from '~/lib/mail.server'
import { greetingFor, renderMail, type MailSettings } from './render-mail.server'

/**
 * The account mails (reset link, address confirmation, "someone tried to sign up with your
 * address"). Their jobs carry only a user id: each link's token is issued when the job runs
 * and exists nowhere but in the mail (the database keeps a hash of a reset token; a
 * confirmation link is signed with APP_SECRET and not stored at all). A job may run twice;
 * then two working links go out, each as safe as the other.
 *
 * They are retried as long as any mail (MAIL_MAX_ATTEMPTS in app/lib/mail.server.ts, about
 * three days), the reset and confirmation mails too: their links are made on each attempt, so
 * the one that gets through works for its whole lifetime (RESET_TOKEN_TTL_SECONDS,
 * VERIFY_EMAIL_TTL_SECONDS) from the moment it is sent, however late that is; there is no
 * expired link to hold back. And a late link still helps: until it comes the owner cannot set a
 * new password, and a new account cannot sign in (docs/auth.md, "Mail").
 */
/** The mail telling an account's owner that an admin set a new password for them. */
export const PASSWORD_CHANGED_BY_ADMIN_JOB = 'account.password-changed-by-admin'

export interface AccountMailOptions {
  publicUrl: string
  appSecret: string
  mailer?: Mailer
}

const payloadSchema = z.object({ userId: z.string().min(1) })
const verifyPayloadSchema = payloadSchema.extend({ redirectTo: z.string().optional() })
const passwordChangedSchema = payloadSchema.extend({ how: z.enum(['changed', 'set', 'reset']) })

export function resetPasswordUrl(publicUrl: string, token: string): string {
  return `${publicUrl}${href('/reset-password')}?token=${encodeURIComponent(token)}`
}

/** The job that mails a reset link; it issues the token when it runs. */
export const PASSWORD_RESET_MAIL_JOB = 'account.password-reset'

/**
 * "Forgot password": when the address belongs to an account, queues the mail that will
 * carry a new reset link (the job holds only the user id). Says nothing about whether it exists.
 */
export async function requestPasswordReset(db: DB, email: string): Promise<{ queued: boolean }> {
  const user = await findUserByEmail(db, email)
  if (!user || user.status === 'suspended') return { queued: false }
  await enqueueMailJob(db, PASSWORD_RESET_MAIL_JOB, { userId: user.id })
  return { queued: true }
}

/** The confirmation page's link: /verify-email?token=... (a JWT better-auth checks). */
export function verifyEmailUrl(publicUrl: string, token: string, redirectTo?: string): string {
  const back = redirectTo
    ? `&redirectTo=${encodeURIComponent(safeRedirect(redirectTo, href('/')))}`
    : ''
  return `${publicUrl}${href('/verify-email')}?token=${encodeURIComponent(token)}${back}`
}

/**
 * The name an account mail greets: only one its owner gave, on an address they confirmed. An
 * unconfirmed account's name was typed by whoever signed up with the address, maybe a stranger,
 * and the shop's mail must not carry their words to it ("Hello," then).
 */
export function greetedName(user: { name: string; emailVerified: boolean }): string {
  return user.emailVerified ? user.name.trim() : ''
}

export function accountMailJobHandlers(db: DB, options: () => AccountMailOptions): JobHandlers {
  // `key`: the job's id, the mail's Message-ID on every attempt (deliverMail).
  async function send(
    key: string,
    build: (settings: Awaited<ReturnType<typeof getSiteSettings>>) => MailMessage,
  ) {
    const settings = await getSiteSettings(db)
    const mailer = options().mailer ?? sharedMailer(settings)
    await deliverMail(mailer, build(settings), { key })
  }
  /** The mail telling the owner their password was set: by an admin, or by them. */
  async function sendPasswordMail(key: string, userId: string, how: PasswordChange | 'admin') {
    const user = await getUserProfile(db, userId)
    if (!user) return
    const { publicUrl } = options()
    await send(key, (settings) =>
      renderMail(settings, publicUrl, {
        to: user.email,
        greeting: greetingFor(greetedName(user)),
        ...passwordMailText(settings.siteName, how),
        action: { label: 'Log in', url: `${publicUrl}${href('/login')}` },
      }),
    )
  }
  return {
    [PASSWORD_RESET_MAIL_JOB]: async (job) => {
      const { userId } = payloadSchema.parse(job.payload)
      const user = await getUserProfile(db, userId)
      // Suspended since the request, or deleted: no link.
      if (!user || user.status === 'suspended') return
      const { publicUrl } = options()
      const token = await createPasswordResetToken(db, user.id)
      await send(job.id, (settings) =>
        passwordResetMail(settings, publicUrl, {
          to: user.email,
          name: greetedName(user),
          url: resetPasswordUrl(publicUrl, token),
          expiresInMinutes: RESET_TOKEN_TTL_SECONDS / 60,
        }),
      )
    },
    [VERIFY_EMAIL_JOB]: async (job) => {
      const { userId, redirectTo } = verifyPayloadSchema.parse(job.payload)
      const user = await getUserProfile(db, userId)
      if (!user || user.emailVerified || user.status === 'suspended') return
      const { publicUrl, appSecret } = options()
      // The token better-auth's verifyEmail accepts: bound to this address and account.
      const token = await createEmailVerificationToken(
        appSecret,
        user.email,
        undefined,
        VERIFY_EMAIL_TTL_SECONDS,
        { userId: user.id },
      )
      await send(job.id, (settings) =>
        confirmEmailMail(settings, publicUrl, {
          to: user.email,
          name: greetedName(user),
          url: verifyEmailUrl(publicUrl, token, redirectTo),
          expiresInHours: VERIFY_EMAIL_TTL_SECONDS / 3600,
        }),
      )
    },
    // No password in the admin's mail: the admin tells the owner by another way, or the owner
    // chooses their own with "Forgot password".
    [PASSWORD_CHANGED_BY_ADMIN_JOB]: async (job) => {
      const { userId } = payloadSchema.parse(job.payload)
      await sendPasswordMail(job.id, userId, 'admin')
    },
    [PASSWORD_CHANGED_JOB]: async (job) => {
      const { userId, how } = passwordChangedSchema.parse(job.payload)
      await sendPasswordMail(job.id, userId, how)
    },
    [SIGNUP_ATTEMPT_JOB]: async (job) => {
      const { userId } = payloadSchema.parse(job.payload)
      const user = await getUserProfile(db, userId)
      if (!user) return
      const { publicUrl } = options()
      await send(job.id, (settings) =>
        signupAttemptMail(settings, publicUrl, {
          to: user.email,
          name: greetedName(user),
          confirmed: user.emailVerified,
          loginUrl: `${publicUrl}${href('/login')}`,
          forgotUrl: `${publicUrl}${href('/forgot-password')}`,
        }),
      )
    },
  }
}

/** The subject and paragraphs of the mail saying an account's password was set, and how. */
function passwordMailText(
  siteName: string,
  how: PasswordChange | 'admin',
): { subject: string; paragraphs: string[] } {
  const ifNotYou =
    'If this was not you, choose a new password with "Forgot password" on the login page right away, and contact us.'
  switch (how) {
    case 'admin':
      return {
        subject: `Your ${siteName} password was changed`,
        paragraphs: [
          `An administrator of ${siteName} has set a new password for your account, and every device signed in to it has been signed out.`,
          'If you did not ask for this, choose a new password yourself with "Forgot password" on the login page, and contact us.',
        ],
      }
    case 'set':
      return {
        subject: `A password was set for your ${siteName} account`,
        paragraphs: [
          `A password was set for your ${siteName} account: it can now be used to log in with your e-mail address, as well as Google.`,
          ifNotYou,
        ],
      }
    case 'reset':
      return {
        subject: `Your ${siteName} password was changed`,
        paragraphs: [
          `The password of your ${siteName} account was reset with the link we e-mailed you, and every device signed in to it has been signed out.`,
          ifNotYou,
        ],
      }
    case 'changed':
      return {
        subject: `Your ${siteName} password was changed`,
        paragraphs: [
          `The password of your ${siteName} account was changed, and every other device signed in to it has been signed out.`,
          ifNotYou,
        ],
      }
  }
}

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

/**
 * The confirmation link for a new account. Its page asks for the password chosen at sign-up
 * before it confirms the address and signs in (docs/decisions/0021), and the mail says so.
 * `name` is the account's as `greetedName` lets it through ("Hello," without one).
 */
export function confirmEmailMail(
  settings: MailSettings,
  publicUrl: string,
  data: { to: string; name: string; url: string; expiresInHours: number },
): MailMessage {
  return renderMail(settings, publicUrl, {
    to: data.to,
    subject: `Confirm your ${settings.siteName} account`,
    greeting: data.name.trim() ? greetingFor(data.name) : 'Hello,',
    paragraphs: [
      `Thank you for signing up at ${settings.siteName}. Confirm that this is your address to finish creating your account.`,
      'The link below opens a page that asks for the password you chose when you signed up: enter it there to confirm your address and log in. If you forgot it, that page has a link to set a new one.',
      'If you did not sign up, ignore this e-mail: no account is opened without this link.',
    ],
    action: { label: 'Confirm my address', url: data.url },
    note: `The link expires in ${data.expiresInHours} hours.`,
  })
}

/**
 * "Someone tried to sign up with your address". An account never confirmed cannot log in (a
 * sign-in answers like a wrong password), so its owner is told the way that works: a new
 * password through the mailed link, which confirms the address too (docs/auth.md, "Sign-up").
 */
export function signupAttemptMail(
  settings: MailSettings,
  publicUrl: string,
  data: { to: string; name: string; confirmed: boolean; loginUrl: string; forgotUrl: string },
): MailMessage {
  const tried = `Someone (hopefully you) tried to create a ${settings.siteName} account with this e-mail address`
  return renderMail(settings, publicUrl, {
    to: data.to,
    subject: `Someone tried to create a ${settings.siteName} account with your address`,
    greeting: greetingFor(data.name),
    ...(data.confirmed
      ? {
          paragraphs: [
            `${tried}, but you already have one. No new account was created and nothing was changed.`,
            'Sign in with your password. If you forgot it, use "Forgot password?" on the login form to set a new one.',
          ],
          action: { label: 'Sign in', url: data.loginUrl },
        }
      : {
          paragraphs: [
            `${tried}, but an account with it was already started and never confirmed. No new account was created and nothing was changed.`,
            'To finish that account, open the link in the confirmation e-mail we sent you and enter the password chosen when signing up. If you cannot find that e-mail or do not know the password, set a new password with the link below: that confirms your address too, and you then log in with the new password.',
          ],
          action: { label: 'Set a new password', url: data.forgotUrl },
        }),
  })
}
