import { sql } from 'kysely'
import type { DB } from './db.server'

/**
 * Abuse protection for sign-in, sign-up and password reset: fixed-window counters in the
 * database (table rate_limit), so every app process behind a load balancer shares them.
 *
 * Per-IP limits are generous on purpose: Indian mobile carriers put many customers behind
 * one address (CGNAT). Per-account limits are strict: they stop password guessing.
 */
export interface RateLimitRule {
  limit: number
  windowSeconds: number
}

export const AUTH_RATE_LIMITS = {
  /** Failed sign-ins for one e-mail address. */
  loginAccount: { limit: 5, windowSeconds: 15 * 60 },
  /** Failed sign-ins from one address. */
  loginIp: { limit: 50, windowSeconds: 15 * 60 },
  signupAccount: { limit: 5, windowSeconds: 15 * 60 },
  signupIp: { limit: 30, windowSeconds: 15 * 60 },
  /** "Forgot password" mails for one e-mail address. */
  resetAccount: { limit: 3, windowSeconds: 60 * 60 },
  resetIp: { limit: 20, windowSeconds: 60 * 60 },
  /** Attempts to use a reset link (guessing tokens). */
  resetTokenIp: { limit: 20, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimitRule>

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
  const hits: RateLimitHit[] = []
  for (const { key, rule } of checks) hits.push(await hitRateLimit(db, key, rule, now))
  return { hits, blocked: hits.find((hit) => !hit.allowed) ?? null }
}

/** Removes counters whose window has ended (run from the job runner's housekeeping). */
export async function pruneRateLimits(db: DB, now = new Date()): Promise<number> {
  const result = await db
    .deleteFrom('rateLimit')
    .where('expiresAt', '<=', now.toISOString())
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60)
  return `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`
}

declare module 'react-router' {
  interface AppLoadContext {
    /** The client's address as the server saw it (set by server/index.ts). */
    clientIp?: string
  }
}

/** The client's address from the load context ('unknown' when the server did not set it). */
export function clientIp(context: { clientIp?: string } | undefined): string {
  return context?.clientIp || 'unknown'
}
