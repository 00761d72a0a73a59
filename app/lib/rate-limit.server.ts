import { isIPv4, isIPv6 } from 'node:net'
import { sql, type RawBuilder } from 'kysely'
import type { DB } from './db.server'

/**
 * Abuse limits: counters in the database (table rate_limit), so every app process behind a
 * load balancer shares them. Each limit is a named policy in RATE_LIMIT_POLICIES, the one
 * table of limits; callers name the policy and the subject (an address, an e-mail, a user id):
 *
 *   const hit = await hitPolicy(db, 'checkoutIp', ip)            // a fixed-window counter
 *   if (!hit.allowed) ... 429, tooManyAttemptsMessage(hit.retryAfterSeconds)
 *
 * Sign-in is different (`signInAccountIp`, a back-off): failures are counted per account and
 * client address, and after a few of them each further attempt from that address waits
 * 2^failures seconds, up to a cap. Nobody can lock the owner out from another address; the
 * per-address ceiling `signInIp` stops one address trying many accounts.
 *
 * A cooldown (`paymentLinkMail`) lets a subject through once, then not again until its time
 * has passed since that one: `startCooldown` (a double click, or two admins at once, sends one
 * mail).
 *
 * Per-IP limits are generous on purpose: Indian mobile carriers put many customers behind
 * one address (CGNAT). They count an IPv6 client by its /64 and an IPv4-mapped IPv6 address as
 * its IPv4 address (`addressKey`, applied by `rateLimitKey`). See docs/auth.md ("Abuse
 * protection") and docs/security.md.
 */
export interface RateLimitRule {
  limit: number
  windowSeconds: number
}

export interface BackoffRule {
  /** Failures allowed before any wait. */
  freeFailures: number
  /** The longest wait, in seconds. */
  capSeconds: number
  /** A subject with no failure for this long starts again from zero. */
  forgetAfterSeconds: number
}

export interface CooldownRule {
  /** After one allowed attempt, how long the next ones are refused. */
  cooldownSeconds: number
}

export const RATE_LIMIT_POLICIES = {
  /** Failed sign-ins for one account from one address: back-off, never a lockout. */
  signInAccountIp: { freeFailures: 5, capSeconds: 15 * 60, forgetAfterSeconds: 24 * 60 * 60 },
  /** Failed sign-ins from one address, whatever the accounts. */
  signInIp: { limit: 50, windowSeconds: 15 * 60 },
  /** Sign-up forms from one address. */
  signUpIp: { limit: 30, windowSeconds: 15 * 60 },
  /** Sign-up forms for one e-mail address (each one mails that address). */
  signUpEmail: { limit: 5, windowSeconds: 15 * 60 },
  /** "Forgot password" requests from one address. */
  passwordResetIp: { limit: 20, windowSeconds: 60 * 60 },
  /** "Forgot password" mails to one e-mail address. */
  passwordResetEmail: { limit: 3, windowSeconds: 60 * 60 },
  /** Attempts to use a reset link from one address (guessing tokens). */
  passwordResetLinkIp: { limit: 20, windowSeconds: 15 * 60 },
  /** Orders started from one address (each one reserves a payment at the gateway); generous,
   * since mobile carriers put many buyers behind one address. */
  checkoutIp: { limit: 40, windowSeconds: 10 * 60 },
  /** Orders started for one buyer e-mail address: what a buyer retrying a failed payment needs. */
  checkoutEmail: { limit: 10, windowSeconds: 10 * 60 },
  /** Order tokens (a secret link or ?token=) and payment links tried from one address; working
   * ones give theirs back. */
  orderTokenIp: { limit: 30, windowSeconds: 15 * 60 },
  /** Unsubscribe links that failed, from one address; working ones are not counted (nor refused),
   * so the mail providers' servers, which post many readers' one-click unsubscribes, and readers
   * behind an address where someone guessed are not held up. */
  unsubscribeLinkIp: { limit: 30, windowSeconds: 15 * 60 },
  /** Checks of a signed-in user's current password (changing it, deleting the account), per
   * user: someone at a session left open guessing the password. */
  passwordCheckUser: { limit: 10, windowSeconds: 15 * 60 },
  /** Reviews written or changed by one user. */
  reviewUser: { limit: 10, windowSeconds: 60 * 60 },
  /** "Helpful" votes by one user. */
  reviewVoteUser: { limit: 120, windowSeconds: 60 * 60 },
  /** Wishlist additions and removals by one user. */
  wishlistUser: { limit: 120, windowSeconds: 60 * 60 },
  /** Profile photo uploads by one user: each one is decoded and resized, which costs the server
   * far more than the few bytes a plain picture of many pixels takes to send. */
  profilePhotoUser: { limit: 10, windowSeconds: 60 * 60 },
  /** Display name changes by one user: a reviewer's new name empties the storefront's page
   * cache (docs/page-cache.md). Far more than anyone renames themselves. */
  profileNameUser: { limit: 20, windowSeconds: 60 * 60 },
  /** Paytm callbacks for a pending order that arrive within moments of another status check
   * (the buyer landing right after a verify-payment check); a signed form replayed beyond this
   * is answered from our record instead of asking Paytm again. */
  paytmPendingCallbackOrder: { limit: 10, windowSeconds: 10 * 60 },
  /** A payment link e-mailed to its customer (on creation, or "Send by e-mail"), per link: once a
   * minute, so a double click or two admins at once send one mail (docs/payments.md). */
  paymentLinkMail: { cooldownSeconds: 60 },
  /** Payment-link mails to one customer address (trimmed, lower-cased), whatever the links: many
   * links made out to one address cannot mail it without end. A refused send counts for nothing
   * (docs/payments.md, "Payment links"). */
  paymentLinkMailRecipient: { limit: 5, windowSeconds: 60 * 60 },
  /** The mail that confirms an account's address (on sign-up, and on a sign-in with the right
   * password before it is confirmed), per user id: once in 10 minutes, so whoever signed up with
   * another's address cannot have the shop mail its owner on every login (docs/auth.md). */
  confirmMailUser: { cooldownSeconds: 10 * 60 },
  /** The mail to an account's owner that someone tried to sign up with its address, per user id:
   * once in 10 minutes, so sign-ups with a taken address cannot mail its owner over and over
   * (docs/auth.md). */
  signUpNoticeUser: { cooldownSeconds: 10 * 60 },
} as const satisfies Record<string, RateLimitRule | BackoffRule | CooldownRule>

type Policies = typeof RATE_LIMIT_POLICIES
export type WindowPolicyName = {
  [K in keyof Policies]: Policies[K] extends RateLimitRule ? K : never
}[keyof Policies]
export type BackoffPolicyName = {
  [K in keyof Policies]: Policies[K] extends BackoffRule ? K : never
}[keyof Policies]
export type CooldownPolicyName = {
  [K in keyof Policies]: Policies[K] extends CooldownRule ? K : never
}[keyof Policies]

/**
 * Policies counted per client address. Their subject is the address (`clientIp`), or for
 * `signInAccountIp` the account and the address as `account|address`; either way the address is
 * what follows the last '|' (an address never holds one).
 */
const ADDRESS_POLICIES: ReadonlySet<keyof Policies> = new Set<keyof Policies>([
  'signInAccountIp',
  'signInIp',
  'signUpIp',
  'passwordResetIp',
  'passwordResetLinkIp',
  'checkoutIp',
  'orderTokenIp',
  'unsubscribeLinkIp',
])

/**
 * The counter's key: the policy name and its subject (lower-cased e-mail, address, user id).
 * For a per-address policy the address is counted as `addressKey` gives it, so every hit, check,
 * release and reset of one client lands on one counter (releaseRateLimit reuses the hit's key).
 */
export function rateLimitKey(policy: keyof Policies, subject: string): string {
  if (!ADDRESS_POLICIES.has(policy)) return `${policy}:${subject}`
  const cut = subject.lastIndexOf('|') + 1
  return `${policy}:${subject.slice(0, cut)}${addressKey(subject.slice(cut))}`
}

/**
 * What a per-address limit counts for a client address (docs/security.md, "How addresses are
 * counted"). One IPv6 client is given a whole /64 (a mobile carrier such as Jio gives each phone
 * its own) and can pick any source address in it, so an IPv6 address counts as its first 64 bits,
 * written canonically: `2001:db8:1:2::/64`. An IPv4-mapped IPv6 address (`::ffff:198.51.100.7`) is
 * the IPv4 client it stands for, and counts as `198.51.100.7`. A zone id (`fe80::1%eth0`) is
 * dropped. IPv4 addresses, and anything that is not an address ('unknown'), are kept as they are.
 * Only for limit keys: logs and orders keep the full address from `clientIp`.
 */
export function addressKey(ip: string): string {
  if (isIPv4(ip)) return ip
  const address = ip.split('%', 1)[0] ?? ''
  if (!isIPv6(address)) return ip
  const groups = ipv6Groups(address)
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6)
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.')
  }
  return `${formatIPv6([...groups.slice(0, 4), 0, 0, 0, 0])}/64`
}

/** The eight 16-bit groups of an address that `isIPv6` accepts (no zone id). */
function ipv6Groups(address: string): number[] {
  // A dotted IPv4 tail (::ffff:198.51.100.7) is the last two groups.
  const tail = address.slice(address.lastIndexOf(':') + 1)
  let text = address
  if (isIPv4(tail)) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number)
    text = `${address.slice(0, address.length - tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((hex) => parseInt(hex, 16))
  const [head = '', rest] = text.split('::')
  if (rest === undefined) return parse(head)
  const left = parse(head)
  const right = parse(rest)
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right]
}

/** Eight groups written as RFC 5952 does: lower case, the longest run of zero groups as '::'. */
function formatIPv6(groups: number[]): string {
  let start = -1
  let length = 0
  for (let i = 0; i < groups.length;) {
    let j = i
    while (j < groups.length && groups[j] === 0) j++
    if (j - i > length) [start, length] = [i, j - i]
    i = j > i ? j : i + 1
  }
  const hex = (part: number[]) => part.map((group) => group.toString(16)).join(':')
  if (length < 2) return hex(groups)
  return `${hex(groups.slice(0, start))}::${hex(groups.slice(start + length))}`
}

export interface RateLimitHit {
  key: string
  count: number
  allowed: boolean
  /** Seconds until the window ends (for Retry-After). */
  retryAfterSeconds: number
  windowStart: string
}

function windowOf(rule: RateLimitRule, now: Date) {
  const size = rule.windowSeconds * 1000
  const start = Math.floor(now.getTime() / size) * size
  return {
    windowStart: new Date(start).toISOString(),
    expiresAt: new Date(start + size).toISOString(),
    retryAfterSeconds: Math.max(1, Math.ceil((start + size - now.getTime()) / 1000)),
  }
}

/**
 * Counts one attempt against `key` and says whether it is within the rule. Atomic (one
 * upsert), so concurrent requests in several processes cannot all slip through.
 */
export async function hitRateLimit(
  db: DB,
  key: string,
  rule: RateLimitRule,
  now = new Date(),
): Promise<RateLimitHit> {
  const { windowStart, expiresAt, retryAfterSeconds } = windowOf(rule, now)
  const row = await db
    .insertInto('rateLimit')
    .values({ key, windowStart, count: 1, expiresAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        // A new window starts the count again.
        count: sql<number>`case when rate_limit.window_start = ${windowStart} then rate_limit.count + 1 else 1 end`,
        windowStart,
        expiresAt,
      }),
    )
    .returning('count')
    .executeTakeFirstOrThrow()
  const count = Number(row.count)
  return { key, count, allowed: count <= rule.limit, retryAfterSeconds, windowStart }
}

/** Gives an attempt back (e.g. a sign-in that succeeded counts only as far as it must). */
export async function releaseRateLimit(db: DB, hit: RateLimitHit): Promise<void> {
  await db
    .updateTable('rateLimit')
    .set({ count: sql<number>`count - 1` })
    .where('key', '=', hit.key)
    .where('windowStart', '=', hit.windowStart)
    .where('count', '>', 0)
    .execute()
}

export async function clearRateLimit(db: DB, key: string): Promise<void> {
  await db.deleteFrom('rateLimit').where('key', '=', key).execute()
}

/**
 * Counts one attempt against each rule; the result is the first one over its limit, or
 * null when all allow it. Every counter is hit, so a blocked caller keeps being counted.
 */
export async function hitRateLimits(
  db: DB,
  checks: Array<{ key: string; rule: RateLimitRule }>,
  now = new Date(),
): Promise<{ hits: RateLimitHit[]; blocked: RateLimitHit | null }> {
  const keys = new Set(checks.map((check) => check.key))
  let hits: RateLimitHit[]
  if (checks.length < 2 || keys.size < checks.length) {
    // One key twice must be counted twice: one statement per check.
    hits = []
    for (const { key, rule } of checks) hits.push(await hitRateLimit(db, key, rule, now))
  } else {
    hits = await hitDistinctRateLimits(db, checks, now)
  }
  return { hits, blocked: hits.find((hit) => !hit.allowed) ?? null }
}

/**
 * hitRateLimit for several different keys in one statement (a checkout counts two): each row's
 * count as hitRateLimit's upsert makes it, with the row's own window (`excluded`). Rows go in in
 * key order, so two of these statements on the same keys take their row locks in the same order.
 */
async function hitDistinctRateLimits(
  db: DB,
  checks: Array<{ key: string; rule: RateLimitRule }>,
  now: Date,
): Promise<RateLimitHit[]> {
  const windows = checks.map(({ key, rule }) => ({ key, rule, ...windowOf(rule, now) }))
  const rows = await db
    .insertInto('rateLimit')
    .values(
      [...windows]
        .sort((a, b) => (a.key < b.key ? -1 : 1))
        .map(({ key, windowStart, expiresAt }) => ({ key, windowStart, count: 1, expiresAt })),
    )
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limit.window_start = excluded.window_start then rate_limit.count + 1 else 1 end`,
        windowStart: (eb) => eb.ref('excluded.windowStart'),
        expiresAt: (eb) => eb.ref('excluded.expiresAt'),
      }),
    )
    .returning(['key', 'count'])
    .execute()
  const counts = new Map(rows.map((row) => [row.key, Number(row.count)]))
  return windows.map(({ key, rule, windowStart, retryAfterSeconds }) => {
    const count = counts.get(key)
    if (count === undefined) throw new Error(`rate limit ${key} was not counted`)
    return { key, count, allowed: count <= rule.limit, retryAfterSeconds, windowStart }
  })
}

/** Counts one attempt of a window policy for `subject` (see RATE_LIMIT_POLICIES). */
export function hitPolicy(
  db: DB,
  policy: WindowPolicyName,
  subject: string,
  now = new Date(),
): Promise<RateLimitHit> {
  return hitRateLimit(db, rateLimitKey(policy, subject), RATE_LIMIT_POLICIES[policy], now)
}

/**
 * Counts one attempt against each policy; `blocked` is the first one over its limit, or null.
 * Every counter is hit, so a blocked caller keeps being counted.
 */
export function hitPolicies(
  db: DB,
  checks: ReadonlyArray<readonly [policy: WindowPolicyName, subject: string]>,
  now = new Date(),
): Promise<{ hits: RateLimitHit[]; blocked: RateLimitHit | null }> {
  return hitRateLimits(
    db,
    checks.map(([policy, subject]) => ({
      key: rateLimitKey(policy, subject),
      rule: RATE_LIMIT_POLICIES[policy],
    })),
    now,
  )
}

/**
 * Lets `subject` through under a cooldown policy if its last allowed attempt is at least the
 * policy's time ago (or there was none), and starts the cooldown again from `now`; otherwise
 * refuses it and says how long is left. One atomic upsert that changes the row only when the
 * cooldown has passed, so of two attempts at once, in any processes, one is allowed. A refused
 * attempt does not make the wait longer. Called in the transaction of what it guards, the
 * cooldown starts only if that commits.
 */
export async function startCooldown(
  db: DB,
  policy: CooldownPolicyName,
  subject: string,
  now = new Date(),
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const { cooldownSeconds } = RATE_LIMIT_POLICIES[policy]
  const key = rateLimitKey(policy, subject)
  const nowIso = now.toISOString()
  // For a cooldown row, window_start is the allowed attempt and expires_at the end of its wait.
  const expiresAt = new Date(now.getTime() + cooldownSeconds * 1000).toISOString()
  const started = await db
    .insertInto('rateLimit')
    .values({ key, windowStart: nowIso, count: 1, expiresAt })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({ windowStart: nowIso, count: 1, expiresAt })
        .where('rateLimit.expiresAt', '<=', nowIso),
    )
    .returning('key')
    .executeTakeFirst()
  if (started) return { allowed: true, retryAfterSeconds: 0 }
  const row = await db
    .selectFrom('rateLimit')
    .select('expiresAt')
    .where('key', '=', key)
    .executeTakeFirst()
  const leftMs = row ? new Date(row.expiresAt).getTime() - now.getTime() : 0
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(leftMs / 1000)) }
}

/** Seconds a back-off subject must wait after `failures` failures (0: may try now). */
export function backoffSeconds(rule: BackoffRule, failures: number): number {
  if (failures < rule.freeFailures) return 0
  return Math.min(rule.capSeconds, 2 ** failures)
}

/**
 * How long `subject` must wait before its next attempt under a back-off policy (0: now).
 * Only reads: a refused attempt does not make the wait longer.
 */
export async function backoffWait(
  db: DB,
  policy: BackoffPolicyName,
  subject: string,
  now = new Date(),
): Promise<number> {
  const row = await db
    .selectFrom('rateLimit')
    // For back-off rows window_start holds the time of the next allowed attempt.
    .select('windowStart')
    .where('key', '=', rateLimitKey(policy, subject))
    .where('expiresAt', '>', now.toISOString())
    .executeTakeFirst()
  if (!row) return 0
  const waitMs = new Date(row.windowStart).getTime() - now.getTime()
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0
}

/**
 * Records one failure under a back-off policy and returns the failures so far and the wait
 * before the next attempt. One atomic upsert: the wait for each possible count is computed
 * here and picked by the database, so failures from several processes all count.
 */
export async function recordBackoffFailure(
  db: DB,
  policy: BackoffPolicyName,
  subject: string,
  now = new Date(),
): Promise<{ failures: number; waitSeconds: number }> {
  const rule: BackoffRule = RATE_LIMIT_POLICIES[policy]
  const nowIso = now.toISOString()
  const expiresAt = new Date(now.getTime() + rule.forgetAfterSeconds * 1000).toISOString()
  const after = (failures: number) =>
    new Date(now.getTime() + backoffSeconds(rule, failures) * 1000).toISOString()
  // The count after this failure; a forgotten (expired) row starts again.
  const next = sql<number>`(case when rate_limit.expires_at <= ${nowIso} then 1 else rate_limit.count + 1 end)`
  // Past this count the wait is the cap.
  const lastStep = Math.ceil(Math.log2(rule.capSeconds))
  const steps: RawBuilder<unknown>[] = []
  for (let failures = rule.freeFailures; failures < lastStep; failures++) {
    steps.push(sql`when ${next} = ${failures} then ${after(failures)}`)
  }
  const row = await db
    .insertInto('rateLimit')
    .values({ key: rateLimitKey(policy, subject), windowStart: after(1), count: 1, expiresAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: next,
        windowStart: sql<string>`case when ${next} < ${rule.freeFailures} then ${nowIso} ${sql.join(steps, sql` `)} else ${after(lastStep)} end`,
        expiresAt,
      }),
    )
    .returning('count')
    .executeTakeFirstOrThrow()
  const failures = Number(row.count)
  return { failures, waitSeconds: backoffSeconds(rule, failures) }
}

/** Forgets a subject's counter under a policy (e.g. after a successful sign-in). */
export function clearPolicy(db: DB, policy: keyof Policies, subject: string): Promise<void> {
  return clearRateLimit(db, rateLimitKey(policy, subject))
}

/** Removes counters whose window has ended (run from the job runner's housekeeping). */
export async function pruneRateLimits(db: DB, now = new Date()): Promise<number> {
  const result = await db
    .deleteFrom('rateLimit')
    .where('expiresAt', '<=', now.toISOString())
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** "Please wait 32 seconds" under a minute, whole minutes (rounded up) from there. */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds))
  if (seconds < 60) {
    return `Too many attempts. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`
  }
  const minutes = Math.ceil(seconds / 60)
  return `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`
}

declare module 'react-router' {
  interface AppLoadContext {
    /** The client's address as the server saw it (set by server/index.ts). */
    clientIp?: string
  }
}

/**
 * The client's address from the load context ('unknown' when the server did not set it), in full:
 * logs and orders store it as it is. Per-address limits count it through `addressKey`.
 */
export function clientIp(context: { clientIp?: string } | undefined): string {
  return context?.clientIp || 'unknown'
}
