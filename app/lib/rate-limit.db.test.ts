import { describe, expect, it } from 'vitest'
import { fileSecondConnection, fileTestDb } from '../../tests/helpers/db'
import {
  addressKey,
  backoffWait,
  clearPolicy,
  clearRateLimit,
  hitPolicies,
  hitPolicy,
  hitRateLimit,
  hitRateLimits,
  pruneRateLimits,
  RATE_LIMIT_POLICIES,
  rateLimitKey,
  recordBackoffFailure,
  releaseRateLimit,
  startCooldown,
  tooManyAttemptsMessage,
} from './rate-limit.server'

/** Rate limits live in the database, so several app processes share them. */
const t = fileTestDb()
const other = fileSecondConnection(t)

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
        hitRateLimit(i % 2 ? t.db : other.db, 'signup:ip:198.51.100.9', wide, now),
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

  it('counts several keys with windows of their own at once, each as it would alone', async () => {
    // 'z…' before 'a…': the hits answer in the order asked, whatever order the rows went in.
    const short = { key: 'z-short:192.0.2.2', rule: { limit: 2, windowSeconds: 60 } }
    const checks = [
      short,
      { key: 'a-long:c@example.test', rule: { limit: 5, windowSeconds: 3600 } },
    ]
    const counts = async (iso: string) =>
      (await hitRateLimits(t.db, checks, at(iso))).hits.map((hit) => [hit.key, hit.count])
    expect(await counts('2030-01-01T15:00:10.000Z')).toEqual([
      ['z-short:192.0.2.2', 1],
      ['a-long:c@example.test', 1],
    ])
    const second = await hitRateLimits(t.db, checks, at('2030-01-01T15:00:20.000Z'))
    expect(second.hits.map((hit) => hit.count)).toEqual([2, 2])
    expect(second.blocked).toBeNull()
    const third = await hitRateLimits(t.db, checks, at('2030-01-01T15:00:30.000Z'))
    expect(third.blocked).toMatchObject({ key: 'z-short:192.0.2.2', count: 3, allowed: false })
    expect(third.hits[1]).toMatchObject({ count: 3, allowed: true })
    // A new minute restarts the short window only; the hour's count goes on.
    expect(await counts('2030-01-01T15:01:05.000Z')).toEqual([
      ['z-short:192.0.2.2', 1],
      ['a-long:c@example.test', 4],
    ])
    // The same key twice is counted twice, as two separate hits would be.
    const twice = await hitRateLimits(t.db, [short, short], at('2030-01-01T15:01:06.000Z'))
    expect(twice.hits.map((hit) => hit.count)).toEqual([2, 3])
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
    expect(tooManyAttemptsMessage(1)).toBe('Too many attempts. Please wait 1 second and try again.')
    expect(tooManyAttemptsMessage(32)).toBe(
      'Too many attempts. Please wait 32 seconds and try again.',
    )
    expect(tooManyAttemptsMessage(60)).toBe(
      'Too many attempts. Please wait 1 minute and try again.',
    )
    expect(tooManyAttemptsMessage(601)).toBe(
      'Too many attempts. Please wait 11 minutes and try again.',
    )
  })

  it('counts a named policy per subject, and the checkout policies count together from two processes', async () => {
    const now = at('2030-02-01T10:00:00.000Z')
    const { limit } = RATE_LIMIT_POLICIES.checkoutIp
    const hits = await Promise.all(
      Array.from({ length: limit + 6 }, (_, i) =>
        hitPolicy(i % 2 ? t.db : other.db, 'checkoutIp', '198.51.100.20', now),
      ),
    )
    expect(hits.filter((hit) => hit.allowed)).toHaveLength(limit)
    expect((await hitPolicy(t.db, 'checkoutIp', '198.51.100.21', now)).allowed).toBe(true)
    const both = await hitPolicies(
      other.db,
      [
        ['checkoutIp', '198.51.100.20'],
        ['checkoutEmail', 'buyer@example.test'],
      ],
      now,
    )
    expect(both.blocked?.key).toBe('checkoutIp:198.51.100.20')
    expect(both.hits.map((hit) => hit.count)).toEqual([limit + 7, 1])
  })

  it('defines a limit for every abuse-prone write, including reviews and the wishlist', () => {
    for (const name of [
      'signUpIp',
      'passwordResetIp',
      'passwordResetEmail',
      'checkoutIp',
      'checkoutEmail',
      'orderTokenIp',
      'reviewUser',
      'reviewVoteUser',
      'wishlistUser',
    ] as const) {
      expect(RATE_LIMIT_POLICIES[name].limit, name).toBeGreaterThan(0)
    }
  })
})

describe(`cooldowns (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  const start = at('2030-04-01T10:00:59.000Z')
  const later = (seconds: number) => new Date(start.getTime() + seconds * 1000)

  it('lets a subject through once a cooldown, measured from the attempt, not a clock window', async () => {
    const { cooldownSeconds } = RATE_LIMIT_POLICIES.paymentLinkMail
    expect(cooldownSeconds).toBe(60)
    expect(await startCooldown(t.db, 'paymentLinkMail', 'link-a', start)).toEqual({
      allowed: true,
      retryAfterSeconds: 0,
    })
    // A fixed one-minute window would start again at 10:01:00, one second later.
    expect(await startCooldown(t.db, 'paymentLinkMail', 'link-a', later(1))).toEqual({
      allowed: false,
      retryAfterSeconds: 59,
    })
    // A refused attempt does not make the wait longer; another subject has its own.
    expect(await startCooldown(t.db, 'paymentLinkMail', 'link-a', later(59.5))).toEqual({
      allowed: false,
      retryAfterSeconds: 1,
    })
    expect((await startCooldown(t.db, 'paymentLinkMail', 'link-b', later(1))).allowed).toBe(true)
    // Once it has passed, the next attempt is allowed and starts it again.
    expect((await startCooldown(t.db, 'paymentLinkMail', 'link-a', later(60))).allowed).toBe(true)
    expect(await startCooldown(t.db, 'paymentLinkMail', 'link-a', later(90))).toEqual({
      allowed: false,
      retryAfterSeconds: 30,
    })
  })

  it('allows one of many attempts at once from two processes', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        startCooldown(i % 2 ? t.db : other.db, 'paymentLinkMail', 'link-race', start),
      ),
    )
    expect(results.filter((result) => result.allowed)).toHaveLength(1)
  })
})

describe(`sign-in back-off per account and address (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  const start = at('2030-03-01T10:00:00.000Z')
  const later = (seconds: number) => new Date(start.getTime() + seconds * 1000)

  it('lets five failures through, then makes each further attempt wait 2^failures seconds up to 15 minutes', async () => {
    const subject = 'owner@example.test|203.0.113.50'
    const waits: number[] = []
    let clock = 0
    for (let failure = 1; failure <= 12; failure++) {
      expect(await backoffWait(t.db, 'signInAccountIp', subject, later(clock))).toBe(0)
      const { waitSeconds, failures } = await recordBackoffFailure(
        t.db,
        'signInAccountIp',
        subject,
        later(clock),
      )
      expect(failures).toBe(failure)
      waits.push(waitSeconds)
      expect(await backoffWait(t.db, 'signInAccountIp', subject, later(clock))).toBe(waitSeconds)
      if (waitSeconds > 1) {
        expect(
          await backoffWait(t.db, 'signInAccountIp', subject, later(clock + waitSeconds - 1)),
        ).toBe(1)
      }
      clock += waitSeconds
    }
    expect(waits).toEqual([0, 0, 0, 0, 32, 64, 128, 256, 512, 900, 900, 900])
  })

  it('does not hold back the owner signing in from another address', async () => {
    const attacker = 'victim@example.test|203.0.113.66'
    for (let i = 0; i < 9; i++) await recordBackoffFailure(t.db, 'signInAccountIp', attacker, start)
    expect(await backoffWait(t.db, 'signInAccountIp', attacker, start)).toBe(512)
    expect(
      await backoffWait(t.db, 'signInAccountIp', 'victim@example.test|198.51.100.3', start),
    ).toBe(0)
  })

  it('forgets the failures after a quiet day, and after a successful sign-in', async () => {
    const subject = 'forgetful@example.test|192.0.2.40'
    for (let i = 0; i < 6; i++) await recordBackoffFailure(t.db, 'signInAccountIp', subject, start)
    const nextDay = later(RATE_LIMIT_POLICIES.signInAccountIp.forgetAfterSeconds)
    expect(await backoffWait(t.db, 'signInAccountIp', subject, nextDay)).toBe(0)
    expect((await recordBackoffFailure(t.db, 'signInAccountIp', subject, nextDay)).failures).toBe(1)

    for (let i = 0; i < 6; i++)
      await recordBackoffFailure(t.db, 'signInAccountIp', subject, nextDay)
    await clearPolicy(t.db, 'signInAccountIp', subject)
    expect(await backoffWait(t.db, 'signInAccountIp', subject, nextDay)).toBe(0)
  })

  it('counts every failure when they arrive at once from two processes', async () => {
    const subject = 'parallel@example.test|198.51.100.77'
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        recordBackoffFailure(i % 2 ? t.db : other.db, 'signInAccountIp', subject, start),
      ),
    )
    expect(results.map((result) => result.failures).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    )
    expect(await backoffWait(other.db, 'signInAccountIp', subject, start)).toBe(900)
  })
})

describe('addressKey: what a per-address limit counts', () => {
  it('counts an IPv6 address as its /64, written canonically', () => {
    expect(addressKey('2001:0DB8:0001:0002:0003:0004:0005:0006')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:db8:1:2::7')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:db8::1')).toBe('2001:db8::/64')
    expect(addressKey('2001:db8:0:0:1::')).toBe('2001:db8::/64')
    expect(addressKey('2001:0:0:1::5')).toBe('2001:0:0:1::/64')
    expect(addressKey('0:0:0:1::')).toBe('0:0:0:1::/64')
    expect(addressKey('2409:4042:2d8e:5c1a:1c9f:7e2b:a4d0:93f1')).toBe('2409:4042:2d8e:5c1a::/64')
    expect(addressKey('::1')).toBe('::/64')
    expect(addressKey('::')).toBe('::/64')
  })

  it('drops a zone id', () => {
    expect(addressKey('fe80::1%eth0')).toBe('fe80::/64')
    expect(addressKey('fe80::a:b:c:d%2')).toBe('fe80::/64')
  })

  it('counts an IPv4-mapped IPv6 address as its IPv4 address, and IPv4 as it is', () => {
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7')
    expect(addressKey('::FFFF:c633:6407')).toBe('198.51.100.7')
    expect(addressKey('0:0:0:0:0:ffff:198.51.100.7')).toBe('198.51.100.7')
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7')
    expect(addressKey('127.0.0.1')).toBe('127.0.0.1')
  })

  it('keeps anything that is not an address as it is, without failing', () => {
    for (const garbage of [
      'unknown',
      '',
      '1::2::3',
      '2001:db8:0:0:0:0:0:1:2',
      '12345::',
      '[2001:db8::1]',
      ' 2001:db8::1',
      '%eth0',
      '198.51.100.256',
      'a|b',
      '::ffff:',
    ]) {
      expect(addressKey(garbage), garbage).toBe(garbage)
    }
  })

  it('is what every per-address policy keys by, and only those', () => {
    for (const policy of Object.keys(RATE_LIMIT_POLICIES) as Array<
      keyof typeof RATE_LIMIT_POLICIES
    >) {
      const key = rateLimitKey(policy, '2001:db8:1:2::99')
      if (policy.endsWith('Ip')) expect(key, policy).toBe(`${policy}:2001:db8:1:2::/64`)
      else expect(key, policy).toBe(`${policy}:2001:db8:1:2::99`)
    }
    // Sign-in's back-off is per account and address: only the address part is counted so.
    expect(rateLimitKey('signInAccountIp', 'a|b@example.test|::ffff:203.0.113.9')).toBe(
      'signInAccountIp:a|b@example.test|203.0.113.9',
    )
    expect(rateLimitKey('signInAccountIp', 'owner@example.test|2001:db8:1:2::5')).toBe(
      'signInAccountIp:owner@example.test|2001:db8:1:2::/64',
    )
  })
})

describe(`per-address limits count a client's whole /64 (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  const now = at('2030-05-01T10:00:00.000Z')
  const { limit } = RATE_LIMIT_POLICIES.signInIp

  it('gives every address of one /64 one budget, and another /64 its own', async () => {
    // A new source address in the same /64 for every attempt, as a phone on Jio can pick.
    const hits = []
    for (let i = 0; i <= limit; i++) {
      hits.push(
        await hitPolicy(
          i % 2 ? t.db : other.db,
          'signInIp',
          `2409:4042:2d8e:5c1a::${(i + 1).toString(16)}`,
          now,
        ),
      )
    }
    expect(hits.filter((hit) => hit.allowed)).toHaveLength(limit)
    expect(hits.at(-1)).toMatchObject({ key: 'signInIp:2409:4042:2d8e:5c1a::/64', allowed: false })
    expect(
      (await hitPolicy(t.db, 'signInIp', '2409:4042:2d8e:5c1a:ffff:1234:abcd:9', now)).allowed,
    ).toBe(false)
    // The neighbouring /64 is another client.
    expect(await hitPolicy(t.db, 'signInIp', '2409:4042:2d8e:5c1b::1', now)).toMatchObject({
      count: 1,
      allowed: true,
    })
  })

  it('counts ::ffff:198.51.100.7 and 198.51.100.7 as one address', async () => {
    const checks = Array.from({ length: limit }, (_, i) =>
      i % 2 ? '::ffff:198.51.100.7' : '198.51.100.7',
    )
    for (const ip of checks) await hitPolicy(t.db, 'signInIp', ip, now)
    expect(await hitPolicy(t.db, 'signInIp', '::ffff:198.51.100.7', now)).toMatchObject({
      key: 'signInIp:198.51.100.7',
      count: limit + 1,
      allowed: false,
    })
    expect((await hitPolicy(t.db, 'signInIp', '198.51.100.8', now)).allowed).toBe(true)
  })

  it('counts several policies at once by the /64, and gives a released attempt back to it', async () => {
    const first = await hitPolicies(t.db, [
      ['checkoutIp', '2001:db8:aa:1::1'],
      ['checkoutEmail', 'buyer64@example.test'],
    ])
    const second = await hitPolicies(other.db, [
      ['checkoutIp', '2001:db8:aa:1:2:3:4:5'],
      ['checkoutEmail', 'other64@example.test'],
    ])
    expect(second.hits[0]).toMatchObject({ key: 'checkoutIp:2001:db8:aa:1::/64', count: 2 })
    // A working token gives its try back, whichever address of the /64 made it.
    const tried = await hitPolicy(t.db, 'orderTokenIp', '2001:db8:aa:1::1', now)
    await hitPolicy(t.db, 'orderTokenIp', '2001:db8:aa:1::2', now)
    await releaseRateLimit(t.db, tried)
    expect((await hitPolicy(t.db, 'orderTokenIp', '2001:db8:aa:1::3', now)).count).toBe(2)
    expect(first.blocked).toBeNull()
  })

  it('slows down sign-in to one account from the whole /64, and forgets it for the whole /64', async () => {
    const from = (ip: string) => `victim64@example.test|${ip}`
    for (let i = 1; i <= 9; i++) {
      await recordBackoffFailure(t.db, 'signInAccountIp', from(`2001:db8:bb:1::${i}`), now)
    }
    expect(await backoffWait(t.db, 'signInAccountIp', from('2001:db8:bb:1::ab'), now)).toBe(512)
    expect(await backoffWait(t.db, 'signInAccountIp', from('2001:db8:bb:2::1'), now)).toBe(0)
    await clearPolicy(t.db, 'signInAccountIp', from('2001:db8:bb:1::cd'))
    expect(await backoffWait(t.db, 'signInAccountIp', from('2001:db8:bb:1::1'), now)).toBe(0)
  })
})
