import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDb, type TestDb } from '../../tests/helpers/db'
import { createDatabase, type DB } from './db.server'
import {
  clearRateLimit,
  hitRateLimit,
  hitRateLimits,
  pruneRateLimits,
  releaseRateLimit,
  tooManyAttemptsMessage,
} from './rate-limit.server'

/** Rate limits live in the database, so several app processes share them. */
let t: TestDb
let other: DB

beforeAll(async () => {
  t = await createTestDb()
  other =
    t.engine === 'postgres'
      ? createDatabase({ databaseUrl: process.env.TEST_DATABASE_URL!, pgSchema: t.location })
      : createDatabase({ sqlitePath: t.location })
})
afterAll(async () => {
  await other?.destroy()
  await t.destroy()
})

const rule = { limit: 3, windowSeconds: 60 }
const at = (iso: string) => new Date(iso)

describe(`rate limits (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('allows N attempts in a window and refuses the next, until the window ends', async () => {
    const results = []
    for (const second of ['00', '10', '20', '30']) {
      results.push(
        await hitRateLimit(
          t.db,
          'login:account:a@example.test',
          rule,
          at(`2030-01-01T10:00:${second}.000Z`),
        ),
      )
    }
    expect(results.map((hit) => [hit.count, hit.allowed])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, false],
    ])
    expect(results[3]!.retryAfterSeconds).toBe(30)
    const next = await hitRateLimit(
      t.db,
      'login:account:a@example.test',
      rule,
      at('2030-01-01T10:01:00.000Z'),
    )
    expect(next).toMatchObject({ count: 1, allowed: true })
  })

  it('counts each key on its own', async () => {
    const now = at('2030-01-01T11:00:00.000Z')
    for (let i = 0; i < 3; i++) await hitRateLimit(t.db, 'login:ip:203.0.113.1', rule, now)
    expect((await hitRateLimit(t.db, 'login:ip:203.0.113.1', rule, now)).allowed).toBe(false)
    expect((await hitRateLimit(t.db, 'login:ip:203.0.113.2', rule, now)).allowed).toBe(true)
  })

  it('counts every attempt exactly when many arrive at once from two processes', async () => {
    const now = at('2030-01-01T12:00:00.000Z')
    const wide = { limit: 25, windowSeconds: 60 }
    const hits = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        hitRateLimit(i % 2 ? t.db : other, 'signup:ip:198.51.100.9', wide, now),
      ),
    )
    expect(hits.map((hit) => hit.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    )
    expect(hits.filter((hit) => hit.allowed)).toHaveLength(25)
  })

  it('reports the first rule a request breaks, after counting it against all', async () => {
    const now = at('2030-01-01T13:00:00.000Z')
    const checks = [
      { key: 'login:account:b@example.test', rule: { limit: 1, windowSeconds: 60 } },
      { key: 'login:ip:192.0.2.1', rule: { limit: 10, windowSeconds: 60 } },
    ]
    expect((await hitRateLimits(t.db, checks, now)).blocked).toBeNull()
    const second = await hitRateLimits(t.db, checks, now)
    expect(second.blocked?.key).toBe('login:account:b@example.test')
    expect(second.hits.map((hit) => hit.count)).toEqual([2, 2])
  })

  it('gives an attempt back, and clears a key', async () => {
    const now = at('2030-01-01T14:00:00.000Z')
    const first = await hitRateLimit(t.db, 'login:ip:192.0.2.7', rule, now)
    await hitRateLimit(t.db, 'login:ip:192.0.2.7', rule, now)
    await releaseRateLimit(t.db, first)
    expect((await hitRateLimit(t.db, 'login:ip:192.0.2.7', rule, now)).count).toBe(2)
    await clearRateLimit(t.db, 'login:ip:192.0.2.7')
    expect((await hitRateLimit(t.db, 'login:ip:192.0.2.7', rule, now)).count).toBe(1)
  })

  it('prunes counters whose window has ended', async () => {
    await hitRateLimit(t.db, 'prune:old', rule, at('2020-01-01T00:00:00.000Z'))
    await hitRateLimit(t.db, 'prune:current', rule, at('2099-01-01T00:00:00.000Z'))
    expect(await pruneRateLimits(t.db, at('2050-01-01T00:00:00.000Z'))).toBeGreaterThanOrEqual(1)
    const keys = (await t.db.selectFrom('rateLimit').select('key').execute()).map((row) => row.key)
    expect(keys).toContain('prune:current')
    expect(keys).not.toContain('prune:old')
  })

  it('says how long to wait in plain words', () => {
    expect(tooManyAttemptsMessage(30)).toBe(
      'Too many attempts. Please wait 1 minute and try again.',
    )
    expect(tooManyAttemptsMessage(601)).toBe(
      'Too many attempts. Please wait 11 minutes and try again.',
    )
  })
})
