import os from 'node:os'
import { userStats } from './user-admin.server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  accountMailJobHandlers,
  requestPasswordReset,
} from '~/services/notifications/account-mail.server'
import {
  changePassword,
  createAuth,
  resetPasswordWithToken,
  setFirstPassword,
  type Auth,
} from '~/services/auth.server'
import { newId } from '~/lib/id.server'
import { runDueJobs } from '~/lib/jobs.server'
import { createMailer } from '~/lib/mail.server'
import { createTestDb, fileTestDb } from '../../tests/helpers/db'
import { startSmtpServer, type TestSmtpServer } from '../../tests/helpers/smtp'
import {
  adminStartupLines,
  createPasswordResetToken,
  createUser,
  effectiveAccess,
  findUserByEmail,
  forgetResetTokens,
  getUserProfile,
  hasAdmin,
  isResetTokenUsable,
  markEmailVerified,
  setUserPermissions,
  setUserRole,
  setUserStatus,
  storedVerificationIdentifier,
  touchLastActive,
} from './user.server'

/** Profiles and accounts on both engines, through better-auth and our own queries. */
const t = fileTestDb()
let auth: Auth
let smtp: TestSmtpServer
const ADMIN = 'owner@example.test'
const PUBLIC_URL = 'http://shop.example.test'
const APP_SECRET = 'test-secret-test-secret-test-secret-0123'

beforeAll(async () => {
  smtp = await startSmtpServer()
  auth = createAuth(t.db, {
    PUBLIC_URL,
    APP_SECRET,
    ADMIN_EMAILS: [ADMIN],
    GOOGLE_CLIENT_ID: undefined,
    GOOGLE_CLIENT_SECRET: undefined,
    GOOGLE_ISSUER: undefined,
  })
})
afterAll(async () => {
  await smtp?.close()
})

/** Runs the due account-mail jobs, sending over real SMTP. */
async function deliverMail() {
  const mailer = createMailer({
    SMTP_URL: smtp.url,
    MAIL_FROM: undefined,
    PUBLIC_URL,
    DATA_DIR: os.tmpdir(),
  })
  await runDueJobs(
    t.db,
    accountMailJobHandlers(t.db, () => ({ publicUrl: PUBLIC_URL, appSecret: APP_SECRET, mailer })),
    {
      log: () => {},
    },
  )
}

/** The newest mail that reached `to`, after running the queued jobs. */
async function lastMailTo(to: string) {
  await deliverMail()
  const mail = smtp.mails.filter((received) => received.to.includes(to)).at(-1)
  if (!mail) throw new Error(`no mail reached ${to}`)
  return mail
}

/** Confirms the address with the link from its confirmation mail; returns the session cookie. */
async function confirmByMail(email: string) {
  const mail = await lastMailTo(email.toLowerCase())
  const token = /verify-email\?token=([\w.-]+)/.exec(mail.text)![1]!
  const { headers } = await auth.api.verifyEmail({ query: { token }, returnHeaders: true })
  return headers.getSetCookie()[0]!.split(';')[0]!
}

/** Signs up and confirms the address by mail, as a customer does. */
async function signUp(email: string, password = 'secret12', name = 'Test User') {
  const { response } = await auth.api.signUpEmail({
    body: { name, email, password },
    returnHeaders: true,
  })
  const cookie = await confirmByMail(email)
  return { userId: response.user.id, cookie }
}

async function signIn(email: string, password = 'secret12') {
  const { headers } = await auth.api.signInEmail({ body: { email, password }, returnHeaders: true })
  return headers.getSetCookie()[0]!.split(';')[0]!
}

const sessionOf = (cookie: string) => auth.api.getSession({ headers: new Headers({ cookie }) })

describe(`user profiles and accounts (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('creates a customer profile on sign-up: role user, active, no permissions, lower-case e-mail', async () => {
    const { userId } = await signUp('Priya.Sharma@Example.TEST', 'secret12', 'Priya Sharma')
    const profile = await getUserProfile(t.db, userId)
    expect(profile).toMatchObject({
      name: 'Priya Sharma',
      email: 'priya.sharma@example.test',
      role: 'user',
      status: 'active',
      emailVerified: true,
      photo: null,
      permissions: { canCreateProducts: false, canManageOrders: false, canManageUsers: false },
    })
    expect(profile!.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    expect(profile!.lastActiveAt).not.toBeNull()
    // Case-insensitive e-mail: the same address in other letters signs in.
    expect(await signIn('PRIYA.sharma@example.test')).toMatch(/^kb\.session_token=/)
    expect((await findUserByEmail(t.db, ' Priya.Sharma@EXAMPLE.test '))?.id).toBe(userId)
  })

  it('answers a sign-up with a taken address like a new one, and mails the owner instead', async () => {
    const { userId } = await signUp('taken@example.test', 'owners-secret', 'Owner')
    const fresh = await auth.api.signUpEmail({
      body: { name: 'Someone', email: 'fresh@example.test', password: 'secret12' },
    })
    const taken = await auth.api.signUpEmail({
      body: { name: 'Someone', email: 'TAKEN@example.test', password: 'secret12' },
    })
    // The same shape, no session either way, and nothing from the real account.
    expect(Object.keys(taken).sort()).toEqual(Object.keys(fresh).sort())
    expect(taken.token).toBeNull()
    expect(fresh.token).toBeNull()
    expect(taken.user.id).not.toBe(userId)
    expect(taken.user.name).toBe('Someone')

    const notice = await lastMailTo('taken@example.test')
    expect(notice.subject).toBe('Someone tried to create a KeyBazaar account with your address')
    expect(notice.text).toContain(
      'Sign in with your password. If you forgot it, use "Forgot password?"',
    )
    expect(notice.text).not.toContain('verify-email')
    // The owner's password still works, the attempted one does not.
    expect(await signIn('taken@example.test', 'owners-secret')).toMatch(/^kb\.session_token=/)
    await expect(signIn('taken@example.test', 'secret12')).rejects.toThrow()
  })

  it('signs an account in only once its address is confirmed, with a link that works once', async () => {
    await auth.api.signUpEmail({
      body: { name: 'Patient', email: 'patient@example.test', password: 'secret12' },
    })
    await expect(signIn('patient@example.test')).rejects.toThrow()
    const cookie = await confirmByMail('patient@example.test')
    expect(cookie).toMatch(/^kb\.session_token=/)
    expect((await findUserByEmail(t.db, 'patient@example.test'))?.emailVerified).toBe(true)
    // The same link again confirms nothing new and opens no second session.
    const mail = await lastMailTo('patient@example.test')
    const token = /verify-email\?token=([\w.-]+)/.exec(mail.text)![1]!
    const again = await auth.api.verifyEmail({ query: { token }, returnHeaders: true })
    expect(again.headers.getSetCookie()).toEqual([])
    // No usable link sits in the job table: the confirmation job carried only the user id.
    const payloads = (await t.db.selectFrom('job').select('payload').execute()).map(
      (row) => row.payload,
    )
    expect(payloads.some((payload) => payload.includes(token))).toBe(false)
  })

  it('makes a verified ADMIN_EMAILS address an admin with every permission, and again on every sign-in', async () => {
    await auth.api.signUpEmail({
      body: { name: 'Owner', email: ADMIN.toUpperCase(), password: 'secret12' },
    })
    const pending = await findUserByEmail(t.db, ADMIN)
    // Whoever registers the address first is not an admin for it.
    expect(pending).toMatchObject({
      role: 'user',
      emailVerified: false,
      permissions: { canManageUsers: false },
    })
    expect(await adminStartupLines(t.db, [ADMIN])).toContain(
      `[auth] ADMIN_EMAILS waiting for e-mail verification (not admins until the address is confirmed through the link we mailed): ${ADMIN}`,
    )

    const cookie = await confirmByMail(ADMIN)
    const userId = pending!.id
    expect((await sessionOf(cookie))?.user.id).toBe(userId)
    expect(await getUserProfile(t.db, userId)).toMatchObject({
      role: 'admin',
      permissions: { canCreateProducts: true, canManageOrders: true, canManageUsers: true },
    })
    expect(await adminStartupLines(t.db, [ADMIN])).toContain(
      `[auth] Admins: ${ADMIN} (ADMIN_EMAILS)`,
    )
    // Someone took the rights away in the database: the next sign-in restores them.
    await setUserRole(t.db, userId, 'user')
    expect((await getUserProfile(t.db, userId))?.role).toBe('user')
    await signIn(ADMIN)
    expect(await getUserProfile(t.db, userId)).toMatchObject({
      role: 'admin',
      permissions: { canManageUsers: true },
    })
  })

  it('computes access: verified ADMIN_EMAILS always all, otherwise the stored role and flags', () => {
    const none = { canCreateProducts: false, canManageOrders: false, canManageUsers: false }
    expect(
      effectiveAccess({ email: ADMIN, emailVerified: true, role: 'user', permissions: none }, [
        ADMIN,
      ]),
    ).toEqual({
      isAdmin: true,
      permissions: { canCreateProducts: true, canManageOrders: true, canManageUsers: true },
    })
    // Registering a listed address proves nothing until its mail is read.
    expect(
      effectiveAccess({ email: ADMIN, emailVerified: false, role: 'user', permissions: none }, [
        ADMIN,
      ]),
    ).toEqual({
      isAdmin: false,
      permissions: none,
    })
    expect(
      effectiveAccess(
        {
          email: 'x@example.test',
          emailVerified: true,
          role: 'admin',
          permissions: { ...none, canManageOrders: true },
        },
        [ADMIN],
      ),
    ).toEqual({
      isAdmin: true,
      permissions: { ...none, canManageOrders: true },
    })
    // A customer's stray flags grant nothing.
    expect(
      effectiveAccess(
        {
          email: 'x@example.test',
          emailVerified: true,
          role: 'user',
          permissions: { ...none, canManageUsers: true },
        },
        [],
      ),
    ).toEqual({
      isAdmin: false,
      permissions: none,
    })
  })

  it('Make Admin grants every permission; flags can then be taken away one by one', async () => {
    const { userId } = await signUp('promoted@example.test')
    await setUserRole(t.db, userId, 'admin')
    expect((await getUserProfile(t.db, userId))?.permissions).toEqual({
      canCreateProducts: true,
      canManageOrders: true,
      canManageUsers: true,
    })
    await setUserPermissions(t.db, userId, {
      canCreateProducts: true,
      canManageOrders: false,
      canManageUsers: true,
    })
    expect((await getUserProfile(t.db, userId))?.permissions).toEqual({
      canCreateProducts: true,
      canManageOrders: false,
      canManageUsers: true,
    })
  })

  it('suspending ends every session, and a suspended user cannot sign in', async () => {
    const { userId, cookie } = await signUp('suspect@example.test')
    const second = await signIn('suspect@example.test')
    expect((await sessionOf(cookie))?.user.id).toBe(userId)
    await setUserStatus(t.db, userId, 'suspended')
    expect(await sessionOf(cookie)).toBeNull()
    expect(await sessionOf(second)).toBeNull()
    await expect(signIn('suspect@example.test')).rejects.toThrow(
      'Your account has been suspended. Please contact support.',
    )
    await setUserStatus(t.db, userId, 'active')
    expect(await signIn('suspect@example.test')).toMatch(/^kb\.session_token=/)
  })

  it('counts users, active ones and the new ones of this month', async () => {
    const now = new Date()
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
    const countUsers = () => userStats(t.db, monthStart)
    const before = await countUsers()
    const old = await createUser(
      t.db,
      { email: 'old-timer@example.test', name: 'Old Timer' },
      new Date(Date.UTC(2020, 0, 15)),
    )
    await setUserStatus(t.db, old.id, 'suspended')
    const after = await countUsers()
    expect(after.total).toBe(before.total + 1)
    expect(after.suspended).toBe(before.suspended + 1)
    expect(after.active).toBe(before.active)
    expect(after.newThisMonth).toBe(before.newThisMonth)
    await createUser(t.db, { email: 'newcomer@example.test', name: 'Newcomer' }, now)
    expect((await countUsers()).newThisMonth).toBe(before.newThisMonth + 1)
  })

  it('records activity at most every few minutes', async () => {
    const user = await createUser(t.db, { email: 'active@example.test', name: 'Active' })
    const t0 = new Date('2030-01-01T10:00:00.000Z')
    await touchLastActive(t.db, user.id, t0)
    expect((await getUserProfile(t.db, user.id))?.lastActiveAt).toBe(t0.toISOString())
    await touchLastActive(t.db, user.id, new Date(t0.getTime() + 60_000))
    expect((await getUserProfile(t.db, user.id))?.lastActiveAt).toBe(t0.toISOString())
    const later = new Date(t0.getTime() + 6 * 60_000)
    await touchLastActive(t.db, user.id, later)
    expect((await getUserProfile(t.db, user.id))?.lastActiveAt).toBe(later.toISOString())
  })

  it('stores only a hash of the reset token, puts none in the job table, and the token works once', async () => {
    const { userId, cookie } = await signUp('forgetful@example.test', 'old-secret')
    expect(await requestPasswordReset(t.db, 'FORGETFUL@example.test')).toEqual({ queued: true })
    const mail = await lastMailTo('forgetful@example.test')
    expect(mail.subject).toBe('Reset your KeyBazaar password')
    const token = /reset-password\?token=([\w-]+)/.exec(mail.text)![1]!
    expect(await isResetTokenUsable(t.db, token)).toBe(true)

    // Whoever reads a copy of the database finds neither the token nor the link.
    const identifiers = (
      await t.db.selectFrom('verification').select(['identifier', 'value']).execute()
    ).flatMap((row) => [row.identifier, row.value])
    expect(identifiers.some((text) => text.includes(token))).toBe(false)
    const payloads = (await t.db.selectFrom('job').select('payload').execute()).map(
      (row) => row.payload,
    )
    expect(
      payloads.some(
        (payload) => payload.includes(token) || payload.includes('reset-password?token'),
      ),
    ).toBe(false)

    // Same password rules as sign-up.
    await expect(
      auth.api.resetPassword({ body: { token, newPassword: '12345' } }),
    ).rejects.toThrow()
    await auth.api.resetPassword({ body: { token, newPassword: 'new-secret' } })
    expect(await isResetTokenUsable(t.db, token)).toBe(false)
    await expect(
      auth.api.resetPassword({ body: { token, newPassword: 'other-secret' } }),
    ).rejects.toThrow()
    // The reset ended the old sessions; the new password signs in.
    expect(await sessionOf(cookie)).toBeNull()
    await expect(signIn('forgetful@example.test', 'old-secret')).rejects.toThrow()
    expect(await signIn('forgetful@example.test', 'new-secret')).toMatch(/^kb\.session_token=/)
    expect((await getUserProfile(t.db, userId))?.email).toBe('forgetful@example.test')
  })

  it("greets by name only an account whose owner confirmed the address, not a stranger's typed name", async () => {
    await createUser(t.db, {
      email: 'unconfirmed@example.test',
      name: 'Claim a prize at evil.example',
    })
    expect(await requestPasswordReset(t.db, 'unconfirmed@example.test')).toEqual({ queued: true })
    const stranger = await lastMailTo('unconfirmed@example.test')
    expect(stranger.text).toMatch(/^Hello there,$/m)
    expect(stranger.text + stranger.html).not.toContain('evil.example')

    await signUp('confirmed.name@example.test', 'secret12', 'Asha Verma')
    expect(await requestPasswordReset(t.db, 'confirmed.name@example.test')).toEqual({
      queued: true,
    })
    expect((await lastMailTo('confirmed.name@example.test')).text).toMatch(/^Hello Asha Verma,$/m)
  })

  it('the confirmation mail says its page asks for the sign-up password, and greets no one by name', async () => {
    await auth.api.signUpEmail({
      body: { name: "Anaïs O'Brien-Nair", email: 'anais@example.test', password: 'secret12' },
    })
    const mail = await lastMailTo('anais@example.test')
    expect(mail.subject).toBe('Confirm your KeyBazaar account')
    for (const part of [mail.text, mail.html]) {
      expect(part).not.toContain('signs you in')
      expect(part).toContain('asks for the password you chose when you signed up')
      expect(part).toContain('If you forgot it, that page has a link to set a new one.')
      expect(part).toContain('The link expires in 24 hours.')
    }

    // The name was typed by whoever signed up with the address, maybe a stranger: a "name" that
    // carries a message, a link or a number must not reach the address in the shop's mail.
    for (const [email, name] of [
      ['prize@example.test', 'Claim a prize at evil.example'],
      ['call@example.test', 'Call 9876543210'],
      ['markup@example.test', 'Asha <b>Verma</b>'],
    ] as const) {
      await auth.api.signUpEmail({ body: { name, email, password: 'secret12' } })
      const stranger = await lastMailTo(email)
      expect(stranger.text).toMatch(/^Hello,$/m)
      expect(stranger.html).toContain('>Hello,</p>')
      expect(stranger.text + stranger.html).not.toMatch(/evil\.example|9876543210|Verma/)
    }
  })

  it('tells the owner of a never-confirmed account how to finish it when someone signs up again with it', async () => {
    await auth.api.signUpEmail({
      body: { name: 'Ravi Kumar', email: 'again@example.test', password: 'secret12' },
    })
    await lastMailTo('again@example.test')
    await auth.api.signUpEmail({
      body: { name: 'Ravi', email: 'again@example.test', password: 'other-secret' },
    })
    const notice = await lastMailTo('again@example.test')
    expect(notice.subject).toBe('Someone tried to create a KeyBazaar account with your address')
    expect(notice.text).toMatch(/^Hello there,\r?$/m)
    // Signing in would answer like a wrong password: the mail sends the owner to a new password.
    expect(notice.text).toContain('an account with it was already started and never confirmed')
    expect(notice.text).not.toContain('Sign in with your password')
    expect(notice.text).toMatch(
      /^Set a new password:\r?\nhttp:\/\/shop\.example\.test\/forgot-password\r?$/m,
    )
  })

  it('says nothing and writes nothing for an unknown address; an expired token is refused', async () => {
    const count = async () => (await t.db.selectFrom('job').select('id').execute()).length
    const before = await count()
    expect(await requestPasswordReset(t.db, 'nobody@example.test')).toEqual({ queued: false })
    expect(await count()).toBe(before)

    const user = await createUser(t.db, { email: 'late@example.test', name: 'Late' })
    const token = await createPasswordResetToken(t.db, user.id, 60, new Date(Date.now() - 120_000))
    expect(await isResetTokenUsable(t.db, token)).toBe(false)
    await expect(
      auth.api.resetPassword({ body: { token, newPassword: 'new-secret' } }),
    ).rejects.toThrow()
  })

  it('lets an account created without a password (admin:create) set one through its link', async () => {
    const admin = await createUser(t.db, {
      email: 'first-admin@example.test',
      name: 'First Admin',
      admin: true,
    })
    expect(admin).toMatchObject({
      role: 'admin',
      permissions: { canCreateProducts: true, canManageOrders: true, canManageUsers: true },
    })
    const token = await createPasswordResetToken(t.db, admin.id)
    await auth.api.resetPassword({ body: { token, newPassword: 'chosen-password' } })
    // The link came by mail (resetPasswordWithToken does this after better-auth's reset).
    await markEmailVerified(t.db, admin.id)
    expect(await signIn('first-admin@example.test', 'chosen-password')).toMatch(
      /^kb\.session_token=/,
    )
  })

  it('keeps the session in an httpOnly, SameSite=Lax cookie, Secure when PUBLIC_URL is https', async () => {
    await signUp('cookie@example.test')
    const plain = (
      await auth.api.signInEmail({
        body: { email: 'cookie@example.test', password: 'secret12' },
        returnHeaders: true,
      })
    ).headers
      .getSetCookie()
      .find((cookie) => cookie.includes('session_token='))!
    expect(plain).toMatch(/^kb\.session_token=/)
    expect(plain).toMatch(/; HttpOnly/i)
    expect(plain).toMatch(/; SameSite=Lax/i)
    expect(plain).not.toMatch(/; Secure/i)
    const https = createAuth(t.db, {
      PUBLIC_URL: 'https://shop.example.test',
      APP_SECRET: 'test-secret-test-secret-test-secret-0123',
      ADMIN_EMAILS: [],
      GOOGLE_CLIENT_ID: undefined,
      GOOGLE_CLIENT_SECRET: undefined,
      GOOGLE_ISSUER: undefined,
    })
    const secure = (
      await https.api.signInEmail({
        body: { email: 'cookie@example.test', password: 'secret12' },
        returnHeaders: true,
      })
    ).headers
      .getSetCookie()
      .find((cookie) => cookie.includes('session_token='))!
    expect(secure).toMatch(/^__Secure-kb\.session_token=/)
    expect(secure).toMatch(/; Secure/i)
    expect(secure).toMatch(/; HttpOnly/i)
    expect(secure).toMatch(/; SameSite=Lax/i)
    // The session itself is a database row.
    const token = decodeURIComponent(secure.split(';')[0]!.split('=')[1]!).split('.')[0]!
    expect(
      await t.db
        .selectFrom('session')
        .select('userId')
        .where('token', '=', token)
        .executeTakeFirst(),
    ).toBeTruthy()
  })

  it('knows whether there is an admin, and says how to make one when there is not', async () => {
    const fresh = await createTestDb()
    try {
      expect(await hasAdmin(fresh.db, [])).toBe(false)
      expect((await adminStartupLines(fresh.db, [])).join('\n')).toContain(
        'npm run admin:create -- --email you@example.com',
      )
      const listed = await createUser(fresh.db, { email: 'listed@example.test', name: 'Listed' })
      // Listed but not verified: not an admin yet, and the start-up says so.
      expect(await hasAdmin(fresh.db, ['listed@example.test'])).toBe(false)
      expect(await adminStartupLines(fresh.db, ['listed@example.test'])).toEqual([
        '[auth] ADMIN_EMAILS waiting for e-mail verification (not admins until the address is confirmed through the link we mailed): listed@example.test',
        '[auth] There is no admin account yet. Create one with: npm run admin:create -- --email you@example.com or sign up with an address in ADMIN_EMAILS (listed@example.test) and confirm it with the link we mail',
      ])
      await markEmailVerified(fresh.db, listed.id)
      expect(await hasAdmin(fresh.db, ['listed@example.test'])).toBe(true)
      expect(await hasAdmin(fresh.db, [])).toBe(false)
      await setUserRole(fresh.db, listed.id, 'admin')
      expect(await adminStartupLines(fresh.db, [])).toEqual(['[auth] Admins: listed@example.test'])
    } finally {
      await fresh.destroy()
    }
  })
})

/**
 * Verification rows of other kinds that name the user, which setting a password must leave
 * alone: an OAuth state for linking Google (its JSON carries the user id) and a row about
 * confirming the address (its value is the address). Returns their ids.
 */
async function addOtherVerificationRows(userId: string, email: string): Promise<string[]> {
  const at = new Date()
  const expiresAt = new Date(at.getTime() + 10 * 60_000).toISOString()
  const rows = [
    {
      identifier: storedVerificationIdentifier(newId()),
      value: JSON.stringify({
        callbackURL: '/dashboard/settings',
        codeVerifier: newId(),
        link: { email, userId },
        oauthState: newId(),
      }),
    },
    { identifier: storedVerificationIdentifier(`email-verification:${newId()}`), value: email },
  ].map((row) => ({
    ...row,
    id: newId(),
    expiresAt,
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
  }))
  await t.db.insertInto('verification').values(rows).execute()
  return rows.map((row) => row.id)
}

/** How many of these verification rows are still stored. */
async function rowsLeft(ids: string[]): Promise<number> {
  const rows = await t.db.selectFrom('verification').select('id').where('id', 'in', ids).execute()
  return rows.length
}

describe(`setting a password ends the account's other reset links (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  // The auth service functions reach better-auth and the database through services()
  // (app/lib/app-context.server.ts): here, this file's test database and settings.
  const holder = globalThis as typeof globalThis & { __keybazaar?: unknown }
  beforeAll(() => {
    holder.__keybazaar = {
      db: t.db,
      engine: t.engine,
      env: {
        PUBLIC_URL,
        APP_SECRET,
        ADMIN_EMAILS: [ADMIN],
        GOOGLE_CLIENT_ID: undefined,
        GOOGLE_CLIENT_SECRET: undefined,
        GOOGLE_ISSUER: undefined,
      },
    }
  })
  afterAll(() => {
    holder.__keybazaar = undefined
  })

  it("forgetResetTokens deletes the user's reset rows and nothing else", async () => {
    const user = await createUser(t.db, { email: 'two.links@example.test', name: 'Two Links' })
    const other = await createUser(t.db, { email: 'bystander@example.test', name: 'Bystander' })
    const first = await createPasswordResetToken(t.db, user.id)
    const second = await createPasswordResetToken(t.db, user.id)
    const theirs = await createPasswordResetToken(t.db, other.id)
    const kept = await addOtherVerificationRows(user.id, user.email)

    await forgetResetTokens(t.db, user.id)
    expect(await isResetTokenUsable(t.db, first)).toBe(false)
    expect(await isResetTokenUsable(t.db, second)).toBe(false)
    expect(await isResetTokenUsable(t.db, theirs)).toBe(true)
    expect(await rowsLeft(kept)).toBe(kept.length)
  })

  it('refuses the second of two reset links once the first has set a password', async () => {
    await signUp('asked.twice@example.test', 'old-secret')
    const userId = (await findUserByEmail(t.db, 'asked.twice@example.test'))!.id
    const other = await createUser(t.db, { email: 'neighbour@example.test', name: 'Neighbour' })
    const a = await createPasswordResetToken(t.db, userId)
    const b = await createPasswordResetToken(t.db, userId)
    const theirs = await createPasswordResetToken(t.db, other.id)
    const kept = await addOtherVerificationRows(userId, 'asked.twice@example.test')

    expect(await resetPasswordWithToken(a, 'chosen-secret')).toMatchObject({ ok: true })
    // Link B no longer opens "Set a new password", nor sets one.
    expect(await isResetTokenUsable(t.db, b)).toBe(false)
    expect(await resetPasswordWithToken(b, 'attacker-secret')).toMatchObject({
      ok: false,
      message: 'This link has expired or was already used. Request a new one.',
    })
    await expect(signIn('asked.twice@example.test', 'attacker-secret')).rejects.toThrow()
    expect(await signIn('asked.twice@example.test', 'chosen-secret')).toMatch(/^kb\.session_token=/)
    // Another account's link and the user's other verification rows are untouched.
    expect(await isResetTokenUsable(t.db, theirs)).toBe(true)
    expect(await rowsLeft(kept)).toBe(kept.length)
  })

  it('a reset of an unconfirmed account drops the Google identity someone else signed in with', async () => {
    // An account a Google identity made without a verified address (before such identities
    // were refused), its owner resetting through the mailed link.
    const user = await createUser(t.db, { email: 'taken.over@example.test', name: 'Taken' })
    const now = new Date().toISOString()
    const row = (id: string, providerId: string) => ({
      id,
      accountId: `${providerId}-${user.id}`,
      providerId,
      userId: user.id,
      accessToken: null,
      refreshToken: null,
      idToken: null,
      accessTokenExpiresAt: null,
      refreshTokenExpiresAt: null,
      scope: null,
      password: null,
      createdAt: now,
      updatedAt: now,
    })
    await t.db
      .insertInto('account')
      .values(row(`g-${user.id}`, 'google'))
      .execute()
    const link = await createPasswordResetToken(t.db, user.id)
    expect(await resetPasswordWithToken(link, 'owners-secret')).toMatchObject({ ok: true })
    const left = await t.db
      .selectFrom('account')
      .select('providerId')
      .where('userId', '=', user.id)
      .execute()
    expect(left.map((account) => account.providerId)).toEqual(['credential'])
    expect(await signIn('taken.over@example.test', 'owners-secret')).toMatch(/^kb\.session_token=/)
  })

  it('mails the owner when the password is changed, set for the first time or reset', async () => {
    const { userId, cookie } = await signUp('told@example.test', 'old-secret')
    const request = new Request(`${PUBLIC_URL}/dashboard/settings`, {
      method: 'POST',
      headers: { cookie },
    })
    expect(
      await changePassword(request, { currentPassword: 'old-secret', newPassword: 'new-secret' }),
    ).toMatchObject({ ok: true })
    const changed = await lastMailTo('told@example.test')
    expect(changed.subject).toBe('Your KeyBazaar password was changed')
    expect(changed.text).toContain('If this was not you, choose a new password')

    const link = await createPasswordResetToken(t.db, userId)
    expect(await resetPasswordWithToken(link, 'third-secret')).toMatchObject({ ok: true })
    const reset = await lastMailTo('told@example.test')
    expect(reset.text).toContain('was reset with the link we e-mailed you')

    const google = await signUp('first.set@example.test', 'unused-secret')
    await t.db
      .deleteFrom('account')
      .where('userId', '=', google.userId)
      .where('providerId', '=', 'credential')
      .execute()
    const set = new Request(`${PUBLIC_URL}/dashboard/settings`, {
      method: 'POST',
      headers: { cookie: google.cookie },
    })
    expect(await setFirstPassword(set, 'first-secret')).toMatchObject({ ok: true })
    expect((await lastMailTo('first.set@example.test')).subject).toBe(
      'A password was set for your KeyBazaar account',
    )
  })

  it('refuses a reset link mailed before Change password', async () => {
    const { userId, cookie } = await signUp('changer@example.test', 'old-secret')
    const before = await createPasswordResetToken(t.db, userId)
    const kept = await addOtherVerificationRows(userId, 'changer@example.test')

    const request = new Request(`${PUBLIC_URL}/dashboard/settings`, {
      method: 'POST',
      headers: { cookie },
    })
    expect(
      await changePassword(request, { currentPassword: 'old-secret', newPassword: 'new-secret' }),
    ).toMatchObject({ ok: true })
    expect(await isResetTokenUsable(t.db, before)).toBe(false)
    expect((await resetPasswordWithToken(before, 'attacker-secret')).ok).toBe(false)
    expect(await signIn('changer@example.test', 'new-secret')).toMatch(/^kb\.session_token=/)
    expect(await rowsLeft(kept)).toBe(kept.length)
  })

  it('refuses a reset link mailed before a first password was set', async () => {
    const { userId, cookie } = await signUp('google.only@example.test', 'unused-secret')
    // As if signed up with Google: no password yet.
    await t.db
      .deleteFrom('account')
      .where('userId', '=', userId)
      .where('providerId', '=', 'credential')
      .execute()
    const before = await createPasswordResetToken(t.db, userId)
    const kept = await addOtherVerificationRows(userId, 'google.only@example.test')

    const request = new Request(`${PUBLIC_URL}/dashboard/settings`, {
      method: 'POST',
      headers: { cookie },
    })
    expect(await setFirstPassword(request, 'first-secret')).toMatchObject({ ok: true })
    expect(await isResetTokenUsable(t.db, before)).toBe(false)
    expect((await resetPasswordWithToken(before, 'attacker-secret')).ok).toBe(false)
    expect(await signIn('google.only@example.test', 'first-secret')).toMatch(/^kb\.session_token=/)
    expect(await rowsLeft(kept)).toBe(kept.length)
  })
})
