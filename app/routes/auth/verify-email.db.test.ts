import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fileTestDb } from '../../../tests/helpers/db'
import { RATE_LIMIT_POLICIES } from '~/lib/rate-limit.server'
import { createEmailVerificationToken } from 'better-auth/api'
import { setPasswordHash } from '~/data/user-admin.server'
import { setUserStatus } from '~/data/user.server'
import { AUTH_MESSAGES } from '~/lib/validation/auth'
import { hashPassword } from 'better-auth/crypto'
import { makeCustomer } from '../../../tests/factories'
import {
  action,
  CONFIRM_LINK_FAILED,
  CONFIRM_NEEDS_PASSWORD,
  CONFIRM_WRONG_PASSWORD,
  loader,
  VERIFY_EMAIL_TITLES,
} from './verify-email'

const t = fileTestDb()
const SECRET = 's'.repeat(64)
// The loader reads the database through services() (app/lib/app-context.server.ts), which
// answers whatever the process opened: here, this file's test database.
const holder = globalThis as typeof globalThis & { __keybazaar?: unknown }
beforeAll(() => {
  holder.__keybazaar = {
    db: t.db,
    engine: t.engine,
    env: { APP_SECRET: SECRET, PUBLIC_URL: 'http://shop.test' },
  }
})
afterAll(() => {
  holder.__keybazaar = undefined
})

/** An unconfirmed customer who signed up with `password`, and a link to confirm them. */
async function signedUp(password: string) {
  const customer = await makeCustomer(t.db)
  await setPasswordHash(t.db, customer.id, await hashPassword(password))
  const token = await createEmailVerificationToken(SECRET, customer.email, undefined, 3600, {
    userId: customer.id,
  })
  return { customer, token }
}

/** The form sent with `password`: the action's status and whether it confirmed. */
async function send(ip: string, token: string, password: string) {
  let status = 200
  try {
    const answer: unknown = await action({
      request: new Request(`http://shop.test/verify-email?token=${token}`, {
        method: 'POST',
        body: new URLSearchParams({ token, password, redirectTo: '' }),
      }),
      context: { clientIp: ip },
      params: {},
    } as unknown as Parameters<typeof action>[0])
    const { data, init } = answer as { data: unknown; init: ResponseInit | null }
    status = init?.status ?? 200
    return { status, data }
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, data: null }
    throw thrown
  }
}

/** The loader's answer as the page gets it: its data, status and headers. */
async function open(ip: string, token = '') {
  const answer: unknown = await loader({
    request: new Request(`http://shop.test/verify-email?token=${token}`),
    context: { clientIp: ip },
    params: {},
  } as unknown as Parameters<typeof loader>[0])
  if (answer && typeof answer === 'object' && 'init' in answer && 'data' in answer) {
    const { data, init } = answer as { data: unknown; init: ResponseInit | null }
    return { data, status: init?.status ?? 200, headers: new Headers(init?.headers) }
  }
  return { data: answer, status: 200, headers: new Headers() }
}

describe(`/verify-email (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('says a failed link expired, and answers too many attempts with their own heading and 429', async () => {
    const ip = '203.0.113.7'
    for (let i = 0; i < RATE_LIMIT_POLICIES.passwordResetLinkIp.limit; i++) {
      expect(await open(ip)).toMatchObject({
        status: 200,
        data: { title: VERIFY_EMAIL_TITLES.failed, error: CONFIRM_LINK_FAILED },
      })
    }
    const limited = await open(ip)
    expect(limited.status).toBe(429)
    expect(limited.data).toMatchObject({ title: 'Too many attempts' })
    expect((limited.data as { error: string }).error).toMatch(/^Too many attempts\. Please wait /)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    // Another address is not held back.
    expect((await open('203.0.113.8')).data).toMatchObject({ title: 'Link expired' })
  })

  it('opens a good link as a form, changing nothing, and counts only links that fail', async () => {
    const { customer, token } = await signedUp('first-secret')
    // More good opens from one address than its budget of failed ones.
    for (let i = 0; i <= RATE_LIMIT_POLICIES.passwordResetLinkIp.limit + 2; i++) {
      const opened = await open('203.0.113.40', token)
      expect(opened.status).toBe(200)
      expect(opened.data).toMatchObject({
        title: VERIFY_EMAIL_TITLES.confirm,
        form: { email: customer.email },
      })
    }
    const stored = await t.db
      .selectFrom('user')
      .select('emailVerified')
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow()
    expect(Boolean(stored.emailVerified)).toBe(false)
    // A link signed with another secret is not one.
    const forged = await createEmailVerificationToken('x'.repeat(64), customer.email)
    expect((await open('203.0.113.41', forged)).data).toMatchObject({
      title: VERIFY_EMAIL_TITLES.failed,
    })
  })

  it("says a suspended account's link is refused for that, not that it expired", async () => {
    const customer = await makeCustomer(t.db)
    await setUserStatus(t.db, customer.id, 'suspended')
    const token = await createEmailVerificationToken(SECRET, customer.email)
    expect((await open('203.0.113.42', token)).data).toMatchObject({
      title: VERIFY_EMAIL_TITLES.suspended,
      error: AUTH_MESSAGES.accountSuspended,
    })
  })

  it('refuses a wrong password, counting it, and a link naming another account', async () => {
    const { customer, token } = await signedUp('first-secret')
    const ip = '203.0.113.50'
    for (let i = 0; i < RATE_LIMIT_POLICIES.passwordResetLinkIp.limit; i++) {
      const wrong = await send(ip, token, 'not-the-one')
      expect(wrong.status).toBe(400)
      expect(JSON.stringify(wrong.data)).toContain(CONFIRM_WRONG_PASSWORD)
    }
    expect((await send(ip, token, 'first-secret')).status).toBe(429)
    const stored = await t.db
      .selectFrom('user')
      .select('emailVerified')
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow()
    expect(Boolean(stored.emailVerified)).toBe(false)
    // A link whose account id is not this address's account (deleted, signed up again).
    const stale = await createEmailVerificationToken(SECRET, customer.email, undefined, 3600, {
      userId: 'someone-else',
    })
    expect((await open('203.0.113.51', stale)).data).toMatchObject({
      title: VERIFY_EMAIL_TITLES.failed,
    })
  })

  it('sends an account without a password to set one by mail, confirming nothing', async () => {
    const customer = await makeCustomer(t.db)
    const token = await createEmailVerificationToken(SECRET, customer.email, undefined, 3600, {
      userId: customer.id,
    })
    expect((await open('203.0.113.52', token)).data).toMatchObject({
      title: VERIFY_EMAIL_TITLES.needsPassword,
      error: CONFIRM_NEEDS_PASSWORD,
    })
    expect((await send('203.0.113.52', token, '')).status).toBe(302)
    const stored = await t.db
      .selectFrom('user')
      .select('emailVerified')
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow()
    expect(Boolean(stored.emailVerified)).toBe(false)
  })
})
