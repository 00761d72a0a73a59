import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { makeCustomer } from '../../tests/factories'
import { RATE_LIMIT_POLICIES } from '~/lib/rate-limit.server'
import { action, checkInboxMessage } from '~/routes/auth/signup'
import { SIGNUP_ATTEMPT_JOB, signUpWithPassword } from './auth.server'

/**
 * The mail to an account's owner that someone tried to sign up with its address goes at most
 * once per account in 10 minutes (`signUpNoticeUser`, docs/auth.md "Sign-up"): sign-ups with a
 * taken address must not be a way to mail its owner hundreds of times a day. Whether or not a
 * mail went, the sign-up answers exactly as for a new address
 * (docs/decisions/0008-sign-up-by-mailed-link.md).
 */
const t = fileTestDb()
// The sign-up route and signUpWithPassword reach better-auth and the database through
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

const MINUTE = 60 * 1000

/** The sign-up notices queued for the account `userId`. */
async function notices(userId: string): Promise<number> {
  const jobs = await t.db
    .selectFrom('job')
    .select('payload')
    .where('type', '=', SIGNUP_ATTEMPT_JOB)
    .execute()
  return jobs.filter((job) => (JSON.parse(job.payload) as { userId?: string }).userId === userId)
    .length
}

/** The sign-up form as the server runs it, from `ip`: its answer, whatever it is. */
async function submitSignUp(email: string, ip: string): Promise<unknown> {
  const request = new Request('http://shop.example.test/signup', {
    method: 'POST',
    body: new URLSearchParams({
      name: 'Someone Else',
      email,
      password: 'not-the-owners',
      confirmPassword: 'not-the-owners',
    }),
  })
  try {
    return await action({ request, params: {}, context: { clientIp: ip } } as never)
  } catch (thrown) {
    return thrown
  }
}

describe(`the notice of a sign-up with a taken address (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('mails the owner once in 10 minutes, then once more, answering every sign-up alike', async () => {
    expect(RATE_LIMIT_POLICIES.signUpNoticeUser.cooldownSeconds).toBe(10 * 60)
    const start = new Date()
    vi.useFakeTimers({ toFake: ['Date'], now: start })
    const owner = await makeCustomer(t.db, { email: 'owner.taken@example.test' })

    // What a new address is answered: the answer every sign-up of the taken one must get.
    const fresh = await submitSignUp('nobody.yet@example.test', '198.51.100.70')
    const expected: unknown = JSON.parse(JSON.stringify(fresh).replace('nobody.yet', 'owner.taken'))
    expect(expected).toMatchObject({
      data: { message: checkInboxMessage('owner.taken@example.test') },
    })

    const first = await submitSignUp('owner.taken@example.test', '198.51.100.71')
    expect(await notices(owner.id)).toBe(1)
    // Again a minute later, and from another address: no further mail, the same answer.
    vi.setSystemTime(new Date(start.getTime() + MINUTE))
    const second = await submitSignUp('owner.taken@example.test', '198.51.100.72')
    expect(await notices(owner.id)).toBe(1)
    for (const answer of [first, second]) expect(answer).toEqual(expected)

    // Ten minutes after the first mail, one more goes; then none again.
    vi.setSystemTime(new Date(start.getTime() + 10 * MINUTE))
    const third = await submitSignUp('owner.taken@example.test', '198.51.100.73')
    expect(await notices(owner.id)).toBe(2)
    const fourth = await submitSignUp('owner.taken@example.test', '198.51.100.74')
    expect(await notices(owner.id)).toBe(2)
    for (const answer of [third, fourth]) expect(answer).toEqual(expected)
  })

  it('answers signUpWithPassword identically whether or not the notice was mailed', async () => {
    const owner = await makeCustomer(t.db, { email: 'owner.direct@example.test' })
    const request = () => new Request('http://shop.example.test/signup', { method: 'POST' })
    const input = { name: 'Someone', email: owner.email, password: 'not-the-owners' }
    const mailed = await signUpWithPassword(request(), '198.51.100.80', input)
    const skipped = await signUpWithPassword(request(), '198.51.100.80', input)
    expect(await notices(owner.id)).toBe(1)
    expect(skipped).toEqual(mailed)
    expect(mailed).toMatchObject({ ok: true })
    expect([...(mailed as { headers: Headers }).headers]).toEqual([])
    expect([...(skipped as { headers: Headers }).headers]).toEqual([])
  })

  it('counts each account on its own', async () => {
    const a = await makeCustomer(t.db, { email: 'owner.a@example.test' })
    const b = await makeCustomer(t.db, { email: 'owner.b@example.test' })
    await submitSignUp(a.email, '198.51.100.90')
    await submitSignUp(b.email, '198.51.100.90')
    expect(await notices(a.id)).toBe(1)
    expect(await notices(b.id)).toBe(1)
  })
})
