import crypto from 'node:crypto'
import { sql } from 'kysely'
import { engineOf, type DB } from './db.server'
import { newId } from './id.server'

/**
 * A durable outbox of background work (transactional outbox pattern).
 *
 * - `enqueueJob(trx, type, payload)` writes a row in the caller's transaction, so the job
 *   exists exactly when the change that causes it was committed.
 * - Runners (one per app process; any number of processes) claim due jobs with a lease:
 *   `FOR UPDATE SKIP LOCKED` on PostgreSQL; on SQLite the claiming UPDATE is one statement
 *   under the database's single write lock. A runner renews the leases of the jobs it is
 *   running (holdLeases), so a job whose runner crashed is claimed again when its lease lapses
 *   and nothing is lost (delivery is at least once), while a slow job is never run twice at once.
 * - A failed attempt is retried with exponential backoff until `maxAttempts`, then the job
 *   is kept as `failed` with its last error for an operator to see.
 * - A job whose runner stopped during its last attempt has none left to be claimed for: once its
 *   lease lapses it is failed ("runner stopped during the last attempt"; looked for about once a
 *   minute), after its type's `abandoned` hook, if it has one, did what the handler does when a
 *   last attempt fails.
 * - A job type's `failed` hook runs whenever one of its jobs is failed for good, either way: its
 *   last attempt threw, or its runner stopped during that attempt (docs/auth.md, "Jobs").
 *
 * Handlers are registered by type (see app/services/background.server.ts); a process only claims
 * the types it has handlers for.
 */
export interface Job<Payload = unknown> {
  id: string
  type: string
  payload: Payload
  /** This attempt's number, from 1. */
  attempt: number
  maxAttempts: number
}

export type JobHandler = (job: Job) => Promise<void>

/**
 * A job type that does something of its own when one of its jobs is given up. Both hooks run with
 * the error the job is failed with, before the job is marked failed, and like a handler they may
 * run twice (a runner that stops while running one leaves the job running, and it is given up
 * again once its lease lapses), so they must be idempotent.
 *
 * - `abandoned`: for a handler that does the give-up work itself when it sees its last attempt
 *   fail (tells the shop, goes on with a chain of checks); this does it for a job whose runner
 *   stopped during the last attempt, so the handler never got to.
 * - `failed`: for a job type whose give-up work does not belong in its handler (an order mail puts
 *   it on the order's timeline): called whenever a job is failed for good, after its last
 *   attempt threw as well as after its runner stopped during it (then after `abandoned`).
 */
export interface JobType {
  run: JobHandler
  abandoned?: (job: Job, reason: string) => Promise<void>
  failed?: (job: Job, reason: string) => Promise<void>
}

export type JobHandlers = Readonly<Record<string, JobHandler | JobType>>

/** The last error of a job whose runner stopped during its last attempt. */
export const RUNNER_STOPPED_ERROR = 'runner stopped during the last attempt'

export interface EnqueueOptions {
  runAt?: Date
  maxAttempts?: number
}

export const DEFAULT_MAX_ATTEMPTS = 8

/** How long a claim holds a job unless the runner says otherwise (JOB_LEASE_SECONDS). */
const DEFAULT_LEASE_MS = 5 * 60_000

/** Writes a job; pass the transaction of the change that causes it. Returns its id. */
export async function enqueueJob(
  db: DB,
  type: string,
  payload: unknown,
  options: EnqueueOptions = {},
): Promise<string> {
  const now = new Date().toISOString()
  const id = newId()
  await db
    .insertInto('job')
    .values({
      id,
      type,
      payload: JSON.stringify(payload ?? null),
      maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      runAt: (options.runAt ?? new Date()).toISOString(),
      createdAt: now,
      updatedAt: now,
    })
    .execute()
  return id
}

/**
 * Schedules periodic work of `type` (a sweep) for the period `now` falls in, unless it is
 * scheduled already. Periods are `periodMs` long, counted from the Unix epoch, so every process
 * agrees on them; the job's id is the type and the period's start, and inserting that id again
 * does nothing. Any number of processes may call this as often as they like (each runner's
 * housekeeping does): the cluster gets one job a period, due at once, run by one runner under its
 * lease like any other job. Returns whether this call added it.
 */
export async function schedulePeriodicJob(
  db: DB,
  type: string,
  periodMs: number,
  options: { now?: Date; maxAttempts?: number; payload?: unknown } = {},
): Promise<boolean> {
  const now = options.now ?? new Date()
  const periodStart = new Date(Math.floor(now.getTime() / periodMs) * periodMs)
  const result = await db
    .insertInto('job')
    .values({
      id: `${type}@${periodStart.toISOString()}`,
      type,
      payload: JSON.stringify(options.payload ?? null),
      maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      runAt: now.toISOString(),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
}

/** Delay before attempt `attempt + 1`: 15 s, 30 s, 1 min, ... capped at 1 hour, with jitter. */
export function backoffMs(attempt: number, baseMs = 15_000, capMs = 60 * 60_000): number {
  const exact = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1))
  // +-20% so that many jobs failing together (SMTP down) do not retry in lockstep.
  return Math.round(exact * (0.8 + Math.random() * 0.4))
}

interface ClaimOptions {
  types: readonly string[]
  workerId: string
  limit?: number
  leaseMs?: number
  now?: Date
}

/** Claims up to `limit` due jobs of the given types for this worker. */
export async function claimJobs(db: DB, options: ClaimOptions): Promise<Job[]> {
  if (options.types.length === 0) return []
  const now = options.now ?? new Date()
  const nowIso = now.toISOString()
  const due = db
    .selectFrom('job')
    .select('id')
    .where('type', 'in', options.types)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'pending'), eb('runAt', '<=', nowIso)]),
        // A runner that crashed (or hung past its lease) gives the job back.
        eb.and([
          eb('status', '=', 'running'),
          eb('lockedUntil', '<=', nowIso),
          eb('attempts', '<', eb.ref('maxAttempts')),
        ]),
      ]),
    )
    .orderBy('runAt')
    .limit(options.limit ?? 5)
  const rows = await db
    .updateTable('job')
    .set((eb) => ({
      status: 'running',
      attempts: eb('attempts', '+', 1),
      lockedBy: options.workerId,
      lockedUntil: new Date(now.getTime() + (options.leaseMs ?? DEFAULT_LEASE_MS)).toISOString(),
      updatedAt: nowIso,
    }))
    .where('id', 'in', engineOf(db) === 'postgres' ? due.forUpdate().skipLocked() : due)
    .returning(['id', 'type', 'payload', 'attempts', 'maxAttempts'])
    .execute()
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    payload: JSON.parse(row.payload) as unknown,
    attempt: Number(row.attempts),
    maxAttempts: Number(row.maxAttempts),
  }))
}

/**
 * Claims, for `workerId` to give up, up to `limit` jobs of the given types whose runner stopped
 * during their last attempt: still `running`, the lease lapsed, no attempt left (claimJobs takes
 * only jobs with attempts left). The claim is a lease like claimJobs's, so one runner gives each
 * up, and a job whose giving up is cut short is taken again when that lease lapses.
 */
export async function claimAbandonedJobs(db: DB, options: ClaimOptions): Promise<Job[]> {
  if (options.types.length === 0) return []
  const now = options.now ?? new Date()
  const nowIso = now.toISOString()
  const abandoned = db
    .selectFrom('job')
    .select('id')
    .where('type', 'in', options.types)
    .where('status', '=', 'running')
    .where('lockedUntil', '<=', nowIso)
    .where((eb) => eb('attempts', '>=', eb.ref('maxAttempts')))
    .orderBy('runAt')
    .limit(options.limit ?? 5)
  const rows = await db
    .updateTable('job')
    .set({
      lockedBy: options.workerId,
      lockedUntil: new Date(now.getTime() + (options.leaseMs ?? DEFAULT_LEASE_MS)).toISOString(),
      updatedAt: nowIso,
    })
    .where('id', 'in', engineOf(db) === 'postgres' ? abandoned.forUpdate().skipLocked() : abandoned)
    .where('status', '=', 'running')
    .where('lockedUntil', '<=', nowIso)
    .returning(['id', 'type', 'payload', 'attempts', 'maxAttempts'])
    .execute()
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    payload: JSON.parse(row.payload) as unknown,
    attempt: Number(row.attempts),
    maxAttempts: Number(row.maxAttempts),
  }))
}

/**
 * The payloads of the jobs of `type` that will still run: pending ones, running ones, and ones
 * left running by a runner that died while claimJobs may still give them back (attempts left).
 */
export async function livePayloads(db: DB, type: string, now = new Date()): Promise<unknown[]> {
  const nowIso = now.toISOString()
  const rows = await db
    .selectFrom('job')
    .select('payload')
    .where('type', '=', type)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'pending'),
        eb.and([
          eb('status', '=', 'running'),
          eb.or([eb('lockedUntil', '>', nowIso), eb('attempts', '<', eb.ref('maxAttempts'))]),
        ]),
      ]),
    )
    .execute()
  return rows.map((row) => JSON.parse(row.payload) as unknown)
}

/** Marks a claimed job done (only if this worker still holds it). */
export async function completeJob(
  db: DB,
  job: Job,
  workerId: string,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable('job')
    .set({
      status: 'done',
      finishedAt: now.toISOString(),
      updatedAt: now.toISOString(),
      lockedUntil: null,
      lastError: null,
    })
    .where('id', '=', job.id)
    .where('lockedBy', '=', workerId)
    .where('status', '=', 'running')
    .execute()
}

/** Records a failed attempt: retried later with backoff, or given up after the last attempt. */
/**
 * An error no later attempt can cure (a mail server that refuses the recipient's address): a
 * handler throws it to have its job failed for good at once, its give-up hooks run, instead of
 * retried until its attempts run out.
 */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError'
}

/** Whether this failure of `job` is its last: no attempt left, or an error no retry cures. */
export const failsForGood = (job: Job, error: unknown) =>
  job.attempt >= job.maxAttempts || error instanceof PermanentJobError

export async function failJob(
  db: DB,
  job: Job,
  workerId: string,
  error: unknown,
  options: { now?: Date; baseBackoffMs?: number; forGood?: boolean } = {},
): Promise<{ retryAt: string | null }> {
  const now = options.now ?? new Date()
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000)
  const giveUp = options.forGood ?? failsForGood(job, error)
  const retryAt = giveUp
    ? null
    : new Date(now.getTime() + backoffMs(job.attempt, options.baseBackoffMs)).toISOString()
  await db
    .updateTable('job')
    .set({
      status: giveUp ? 'failed' : 'pending',
      runAt: retryAt ?? now.toISOString(),
      finishedAt: giveUp ? now.toISOString() : null,
      lockedUntil: null,
      lastError: message,
      updatedAt: now.toISOString(),
    })
    .where('id', '=', job.id)
    .where('lockedBy', '=', workerId)
    .where('status', '=', 'running')
    .execute()
  return { retryAt }
}

export interface RunOptions {
  workerId?: string
  batchSize?: number
  leaseMs?: number
  baseBackoffMs?: number
  now?: Date
  log?: (line: string) => void
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * Runs a job type's give-up hooks (`abandoned` only for a job whose runner stopped, then
 * `failed`) for a job about to be failed for good with `reason`. Returns the last error to keep:
 * `reason`, with the error of any hook that failed added, since the job is failed all the same,
 * never left running.
 */
async function runGiveUpHooks(
  entry: JobHandler | JobType | undefined,
  job: Job,
  reason: string,
  runnerStopped: boolean,
): Promise<string> {
  if (!entry || typeof entry === 'function') return reason
  const hooks = [runnerStopped ? entry.abandoned : undefined, entry.failed]
  const errors: string[] = []
  for (const hook of hooks) {
    if (!hook) continue
    try {
      await hook(job, reason)
    } catch (error) {
      errors.push(messageOf(error))
    }
  }
  return errors.length ? `${reason}; then its give-up step failed: ${errors.join('; ')}` : reason
}

/**
 * Fails a job whose runner stopped during its last attempt (claimed by claimAbandonedJobs),
 * after its type's give-up hooks. A hook that fails is logged and named in the job's last
 * error: the job is failed all the same, never left running.
 */
async function giveUpAbandoned(
  db: DB,
  entry: JobHandler | JobType | undefined,
  job: Job,
  workerId: string,
  options: RunOptions,
  log: (line: string) => void,
): Promise<void> {
  const reason = await runGiveUpHooks(entry, job, RUNNER_STOPPED_ERROR, true)
  await failJob(db, job, workerId, new Error(reason), { now: options.now })
  log(`[jobs] ${job.type} ${job.id} failed for good after ${job.attempt} attempts: ${reason}`)
}

function claimOptions(handlers: JobHandlers, options: RunOptions): ClaimOptions {
  return {
    types: Object.keys(handlers),
    workerId: options.workerId ?? defaultWorkerId,
    limit: options.batchSize,
    leaseMs: options.leaseMs,
    now: options.now,
  }
}

/**
 * Gives up one batch of jobs whose runner stopped during their last attempt; returns how many.
 * The runner does this about once a minute (startJobRunner), not on every pass: such a job is
 * rare, and every pass would otherwise send one more statement.
 */
export async function giveUpAbandonedJobs(
  db: DB,
  handlers: JobHandlers,
  options: RunOptions = {},
): Promise<number> {
  const claim = claimOptions(handlers, options)
  const log = options.log ?? ((line: string) => console.log(line))
  const abandoned = await claimAbandonedJobs(db, claim)
  await Promise.all(
    abandoned.map((job) =>
      giveUpAbandoned(db, handlers[job.type], job, claim.workerId, options, log),
    ),
  )
  return abandoned.length
}

/**
 * Keeps the leases of `jobs` while this runner works on them: every third of the lease, each one
 * not yet finished (`release`) gets a whole lease again from now. A job then lapses only when its
 * runner stopped (crashed, killed), never while a live runner is still at it, so a mail that
 * takes longer than JOB_LEASE_SECONDS is not taken and sent a second time by another process
 * (docs/decisions/0014-workers.md: each job is done by one process).
 */
function holdLeases(db: DB, jobs: readonly Job[], workerId: string, leaseMs: number) {
  const held = new Set(jobs.map((job) => job.id))
  let renewing: Promise<void> | undefined
  const renew = () => {
    if (renewing || held.size === 0) return
    const now = new Date()
    renewing = db
      .updateTable('job')
      .set({
        lockedUntil: new Date(now.getTime() + leaseMs).toISOString(),
        updatedAt: now.toISOString(),
      })
      .where('id', 'in', [...held])
      .where('lockedBy', '=', workerId)
      .where('status', '=', 'running')
      .execute()
      .then(
        () => undefined,
        (error: unknown) => console.error('[jobs] could not renew leases:', messageOf(error)),
      )
      .finally(() => {
        renewing = undefined
      })
  }
  const timer = setInterval(renew, Math.max(10, Math.floor(leaseMs / 3)))
  return {
    release: (job: Job) => held.delete(job.id),
    async stop() {
      clearInterval(timer)
      await renewing
    },
  }
}

/** Claims one batch of due jobs and runs them; returns how many it ran. */
export async function runDueJobs(
  db: DB,
  handlers: JobHandlers,
  options: RunOptions = {},
): Promise<number> {
  const claim = claimOptions(handlers, options)
  const workerId = claim.workerId
  const log = options.log ?? ((line: string) => console.log(line))
  const jobs = await claimJobs(db, claim)
  if (jobs.length === 0) return 0
  const leases = holdLeases(db, jobs, workerId, claim.leaseMs ?? DEFAULT_LEASE_MS)
  try {
    await runClaimed(db, handlers, jobs, workerId, options, log, leases.release)
  } finally {
    await leases.stop()
  }
  return jobs.length
}

async function runClaimed(
  db: DB,
  handlers: JobHandlers,
  jobs: readonly Job[],
  workerId: string,
  options: RunOptions,
  log: (line: string) => void,
  release: (job: Job) => void,
): Promise<void> {
  await Promise.all(
    jobs.map(async (job) => {
      const entry = handlers[job.type]
      const handler = typeof entry === 'function' ? entry : entry?.run
      try {
        if (!handler) throw new Error(`No handler for job type ${job.type}`)
        await handler(job)
        release(job)
        await completeJob(db, job, workerId, options.now)
      } catch (error) {
        release(job)
        let reason = messageOf(error)
        // The last attempt: the type's `failed` hook runs before the job is marked failed, so a
        // runner that stops in between leaves the job to be given up (and the hook run) again.
        const forGood = failsForGood(job, error)
        if (forGood) reason = await runGiveUpHooks(entry, job, reason, false)
        const { retryAt } = await failJob(db, job, workerId, new Error(reason), {
          now: options.now,
          baseBackoffMs: options.baseBackoffMs,
          forGood,
        })
        log(
          retryAt
            ? `[jobs] ${job.type} ${job.id} failed (attempt ${job.attempt} of ${job.maxAttempts}): ${reason}; retrying at ${retryAt}`
            : `[jobs] ${job.type} ${job.id} failed for good after ${job.attempt} attempts: ${reason}`,
        )
      }
    }),
  )
}

/** Deletes finished jobs older than `days` (failed ones are kept for inspection). */
export async function pruneJobs(db: DB, days = 14, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - days * 86_400_000).toISOString()
  const result = await db
    .deleteFrom('job')
    .where('status', '=', 'done')
    .where('finishedAt', '<', before)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

export interface JobRunner {
  /** Look for due jobs now (e.g. right after a transaction that enqueued one). */
  wake(): void
  /** Stops polling and waits for the jobs in progress. */
  stop(): Promise<void>
}

const defaultWorkerId = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`

export interface RunnerOptions extends RunOptions {
  /** Poll interval while idle. */
  pollMs?: number
  /** Periodic clean-up tasks, run about every `housekeepingMs`. */
  housekeeping?: Array<(db: DB) => Promise<unknown>>
  housekeepingMs?: number
  /** Safety nets that should run more often (e.g. filling orders that wait for stock). */
  frequent?: Array<(db: DB) => Promise<unknown>>
  frequentMs?: number
  /**
   * Groups of job types run apart from the rest, each in its own lane: its own batches, its own
   * loop. Jobs that can all be slow at once (every mail waiting out the SMTP timeout while the
   * server is unreachable) then hold back only each other, never the other lane's jobs (a
   * payment to reconcile). Types in no group share the main lane, which also runs the periodic
   * tasks.
   */
  lanes?: ReadonlyArray<readonly string[]>
}

const holder = globalThis as typeof globalThis & { __keybazaarJobRunner?: JobRunner }

/** The handlers of each lane: the main lane (every type in no group) first. */
function splitLanes(
  handlers: JobHandlers,
  groups: ReadonlyArray<readonly string[]>,
): JobHandlers[] {
  const grouped = new Set(groups.flat())
  const pick = (keep: (type: string) => boolean): JobHandlers =>
    Object.fromEntries(Object.entries(handlers).filter(([type]) => keep(type)))
  const lanes = groups.map((group) => pick((type) => group.includes(type)))
  return [pick((type) => !grouped.has(type)), ...lanes.filter((lane) => Object.keys(lane).length)]
}

/** One lane's polling loop; `extra` runs after each drain (the main lane's periodic tasks). */
function startLane(
  db: DB,
  handlers: JobHandlers,
  options: RunnerOptions,
  extra?: (stopped: () => boolean) => Promise<void>,
) {
  const pollMs = options.pollMs ?? 1000
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let active: Promise<void> | undefined

  const loop = async () => {
    try {
      // Drain: keep going while full batches come back.
      while (!stopped && (await runDueJobs(db, handlers, options)) > 0) {
        // Continue with the next batch.
      }
      if (extra && !stopped) await extra(() => stopped)
    } catch (error) {
      // A database hiccup must not stop the runner; the next tick tries again.
      if (!stopped)
        console.error('[jobs] runner error:', error instanceof Error ? error.message : error)
    }
  }

  // A wake-up during a pass may come after that pass looked for jobs: look once more.
  let wokenDuringPass = false
  const tick = () => {
    if (stopped) return
    if (active) {
      wokenDuringPass = true
      return
    }
    clearTimeout(timer)
    wokenDuringPass = false
    active = loop().finally(() => {
      active = undefined
      if (stopped) return
      if (wokenDuringPass) tick()
      else timer = setTimeout(tick, pollMs)
    })
  }
  timer = setTimeout(tick, 0)
  return {
    tick,
    async stop() {
      stopped = true
      clearTimeout(timer)
      await active
    },
  }
}

/** Starts polling for jobs in this process: one loop per lane (`RunnerOptions.lanes`). */
export function startJobRunner(
  db: DB,
  handlers: JobHandlers,
  options: RunnerOptions = {},
): JobRunner {
  const housekeepingMs = options.housekeepingMs ?? 10 * 60_000
  const frequentMs = options.frequentMs ?? 60_000
  let lastHousekeeping = 0
  let lastFrequent = 0

  const periodic = async (stopped: () => boolean) => {
    if (!stopped() && Date.now() - lastHousekeeping >= housekeepingMs) {
      lastHousekeeping = Date.now()
      for (const task of options.housekeeping ?? []) await task(db)
    }
    if (!stopped() && Date.now() - lastFrequent >= frequentMs) {
      lastFrequent = Date.now()
      for (const task of options.frequent ?? []) await task(db)
      // After the sweeps, and on its own: a job it cannot give up must not hold them back.
      // Every type's give-up hooks are known here, whichever lane runs the type.
      try {
        while (!stopped() && (await giveUpAbandonedJobs(db, handlers, options)) > 0) {
          // Until none is left.
        }
      } catch (error) {
        console.error(
          '[jobs] could not give up abandoned jobs:',
          error instanceof Error ? error.message : error,
        )
      }
    }
  }

  const [main = {}, ...others] = splitLanes(handlers, options.lanes ?? [])
  const lanes = [
    startLane(db, main, options, periodic),
    ...others.map((lane) => startLane(db, lane, options)),
  ]

  const runner: JobRunner = {
    wake: () => lanes.forEach((lane) => lane.tick()),
    async stop() {
      await Promise.all(lanes.map((lane) => lane.stop()))
      if (holder.__keybazaarJobRunner === runner) holder.__keybazaarJobRunner = undefined
    },
  }
  holder.__keybazaarJobRunner = runner
  return runner
}

/** Nudges this process's runner, if one runs (jobs are found by polling anyway). */
export function wakeJobRunner(): void {
  holder.__keybazaarJobRunner?.wake()
}

/**
 * Withdraws the pending jobs of one type whose JSON payload has `field` equal to `value` (for
 * work queued for something that must not happen, such as the demo seed's fictional buyers'
 * order mails). Jobs already running or done are left alone. Returns how many were withdrawn.
 */
export async function withdrawPendingJobs(
  db: DB,
  type: string,
  field: string,
  value: string,
): Promise<number> {
  const pending = await db
    .selectFrom('job')
    .select(['id', 'payload'])
    .where('type', '=', type)
    .where('status', '=', 'pending')
    // The value taken literally (its % and _ escaped with !); the JSON check below decides.
    .where(sql<boolean>`payload like ${`%${value.replace(/[!%_]/g, (c) => `!${c}`)}%`} escape '!'`)
    .execute()
  const ids = pending
    .filter((job) => {
      try {
        return (JSON.parse(job.payload) as Record<string, unknown> | null)?.[field] === value
      } catch {
        return false
      }
    })
    .map((job) => job.id)
  if (ids.length === 0) return 0
  const result = await db
    .deleteFrom('job')
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
