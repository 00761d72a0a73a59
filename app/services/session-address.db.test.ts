import { createEmailVerificationToken } from 'better-auth/api'
import { hashPassword } from 'better-auth/crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { makeCustomer } from '../../tests/factories'
import { setPasswordHash } from '~/data/user-admin.server'
import { action as settingsAction } from '~/routes/account/settings'
import { action as loginAction } from '~/routes/auth/login'
import { action as verifyEmailAction } from '~/routes/auth/verify-email'

/**
 * better-auth stores the client address it reads from X-Forwarded-For with every session it
 * opens. Each route that has it open one (sign-in, the confirmation link's form, Change
 * password) hands it the address the server trusts, `context.clientIp` (docs/security.md,
 * "Trusted proxies"), never the header the visitor sent.
 */
const t = fileTestDb()
const PUBLIC_URL = 'http://shop.example.test'
const APP_SECRET = 'test-secret-test-secret-test-secret-0123'
// The routes reach better-auth and the database through services()
// (app/lib/app-context.server.ts): here, this file's test database and settings.
const holder = globalThis as typeof globalThis & { __keybazaar?: unknown }
beforeAll(() => {
  holder.__keybazaar = {
    db: t.db,
    engine: t.engine,
    env: {
      PUBLIC_URL,
      APP_SECRET,
      ADMIN_EMAILS: [],
      GOOGLE_CLIENT_ID: undefined,
      GOOGLE_CLIENT_SECRET: undefined,
      GOOGLE_ISSUER: undefined,
    },
  }
})
afterAll(() => {
  holder.__keybazaar = undefined
})

/** What a visitor would like to be recorded as. */
const SPOOFED = '192.0.2.66'

/** A form post to `path` carrying a forged X-Forwarded-For (and `cookie`, if any). */
function post(path: string, form: Record<string, string>, cookie?: string): Request {
  return new Request(`${PUBLIC_URL}${path}`, {
    method: 'POST',
    headers: {
      'x-forwarded-for': SPOOFED,
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(form),
  })
}

/** Runs a route action that ends in a redirect; the redirect it throws or returns. */
async function redirected(run: () => Promise<unknown>): Promise<Response> {
  let answer: unknown
  try {
    answer = await run()
  } catch (thrown) {
    answer = thrown
  }
  if (!(answer instanceof Response))
    throw new Error(`expected a redirect: ${JSON.stringify(answer)}`)
  expect([302, 303]).toContain(answer.status)
  return answer
}

const cookieOf = (response: Response) => response.headers.getSetCookie()[0]!.split(';')[0]!

/** The addresses stored with the account's sessions. */
async function sessionAddresses(userId: string): Promise<Array<string | null>> {
  const rows = await t.db
    .selectFrom('session')
    .select('ipAddress')
    .where('userId', '=', userId)
    .execute()
  return rows.map((row) => row.ipAddress)
}

describe(`the address stored with a session (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('is the trusted client address on confirming, signing in and changing the password', async () => {
    const customer = await makeCustomer(t.db)
    await setPasswordHash(t.db, customer.id, await hashPassword('first-secret'))

    // The confirmation link's form signs in.
    const token = await createEmailVerificationToken(APP_SECRET, customer.email, undefined, 600, {
      userId: customer.id,
    })
    const confirmed = await redirected(() =>
      verifyEmailAction({
        request: post('/verify-email', { token, password: 'first-secret', redirectTo: '' }),
        params: {},
        context: { clientIp: '203.0.113.20' },
      } as never),
    )
    expect(confirmed.headers.getSetCookie()).toHaveLength(1)
    expect(await sessionAddresses(customer.id)).toEqual(['203.0.113.20'])

    // Signing in with the password.
    const signedIn = await redirected(() =>
      loginAction({
        request: post('/login', {
          email: customer.email,
          password: 'first-secret',
          redirectTo: '',
        }),
        params: {},
        context: { clientIp: '203.0.113.21' },
      } as never),
    )
    expect((await sessionAddresses(customer.id)).sort()).toEqual(['203.0.113.20', '203.0.113.21'])

    // Change password ends the other sessions and opens a new one for this browser.
    await redirected(() =>
      settingsAction({
        request: post(
          '/dashboard/settings',
          {
            intent: 'password',
            currentPassword: 'first-secret',
            password: 'second-secret',
            confirmPassword: 'second-secret',
          },
          cookieOf(signedIn),
        ),
        params: {},
        context: { clientIp: '203.0.113.22' },
      } as never),
    )
    expect(await sessionAddresses(customer.id)).toEqual(['203.0.113.22'])
  })

  it("is never the visitor's header when the server knows no address", async () => {
    const customer = await makeCustomer(t.db)
    await setPasswordHash(t.db, customer.id, await hashPassword('first-secret'))
    const token = await createEmailVerificationToken(APP_SECRET, customer.email, undefined, 600, {
      userId: customer.id,
    })
    await redirected(() =>
      verifyEmailAction({
        request: post('/verify-email', { token, password: 'first-secret', redirectTo: '' }),
        params: {},
        context: {},
      } as never),
    )
    const stored = await sessionAddresses(customer.id)
    expect(stored).toHaveLength(1)
    expect(stored).not.toContain(SPOOFED)
  })
})
