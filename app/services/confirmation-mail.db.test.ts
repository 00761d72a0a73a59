import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { RATE_LIMIT_POLICIES } from '~/lib/rate-limit.server'
import {
  INVALID_LOGIN_MESSAGE,
  signInWithPassword,
  signUpWithPassword,
  VERIFY_EMAIL_JOB,
} from './auth.server'

/**
 * The mail that confirms an address goes at most once per account in 10 minutes
 * (`confirmMailUser`, docs/auth.md "Sign-up"), whether sign-up or a sign-in with the right
 * password before confirming asked for it; the sign-in's answer does not change.
 */
const t = fileTestDb()
// signUpWithPassword and signInWithPassword reach better-auth and the database through
// services() (app/lib/app-context.server.ts): here, this file's test database and settings.
const holder = globalThis as typeof globalThis & { __keybazaar?: unknown }
beforeAll(() => {
  holder.__keybazaar = {
    db: t.db,
    engine: t.engine,
    env: {
      PUBLIC_URL: 'http://shop.example.test',
      APP_SECRET: 'test-secret-test-secret-test-secret-0123',
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
afterEach(() => {
  vi.useRealTimers()
})

const request = () => new Request('http://shop.example.test/login', { method: 'POST' })
const IP = '198.51.100.60'
const PASSWORD = 'squatters-secret'
const REFUSED = {
  ok: false,
  status: 401,
  message: INVALID_LOGIN_MESSAGE,
  code: 'INVALID_EMAIL_OR_PASSWORD',
}

/** The confirmation mails queued for the account with `email`. */
async function confirmationMails(email: string): Promise<number> {
  const user = await t.db
    .selectFrom('user')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow()
  const jobs = await t.db
    .selectFrom('job')
    .select('payload')
    .where('type', '=', VERIFY_EMAIL_JOB)
    .execute()
  return jobs.filter((job) => (JSON.parse(job.payload) as { userId?: string }).userId === user.id)
    .length
}

async function signUp(email: string) {
  const result = await signUpWithPassword(request(), IP, {
    name: 'Squatter',
    email,
    password: PASSWORD,
  })
  expect(result.ok).toBe(true)
}

describe(`confirmation mails of an unconfirmed account (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('mails one link in 10 minutes however often the right password signs in, answering as ever', async () => {
    expect(RATE_LIMIT_POLICIES.confirmMailUser.cooldownSeconds).toBe(10 * 60)
    const start = new Date()
    vi.useFakeTimers({ toFake: ['Date'], now: start })
    const email = 'victim@example.test'
    await signUp(email)
    expect(await confirmationMails(email)).toBe(1)

    // Someone who signed up with another's address logs in again and again: no more mail.
    for (let i = 0; i < 5; i++) {
      expect(await signInWithPassword(request(), IP, { email, password: PASSWORD })).toEqual(
        REFUSED,
      )
    }
    expect(await confirmationMails(email)).toBe(1)
    // The same answer as a wrong password: nothing tells that the account exists.
    expect(await signInWithPassword(request(), IP, { email, password: 'not-the-one' })).toEqual(
      REFUSED,
    )

    // Ten minutes after the sign-up's mail, one sign-in may ask for a fresh link, then not again.
    vi.setSystemTime(new Date(start.getTime() + 10 * 60 * 1000))
    expect(await signInWithPassword(request(), IP, { email, password: PASSWORD })).toEqual(REFUSED)
    expect(await signInWithPassword(request(), IP, { email, password: PASSWORD })).toEqual(REFUSED)
    expect(await confirmationMails(email)).toBe(2)
  })

  it('counts each account on its own', async () => {
    await signUp('first.unconfirmed@example.test')
    await signUp('second.unconfirmed@example.test')
    for (const email of ['first.unconfirmed@example.test', 'second.unconfirmed@example.test']) {
      expect(await signInWithPassword(request(), IP, { email, password: PASSWORD })).toEqual(
        REFUSED,
      )
      expect(await confirmationMails(email)).toBe(1)
    }
  })
})
