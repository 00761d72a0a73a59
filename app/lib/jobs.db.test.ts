import { beforeEach, describe, expect, it } from 'vitest'
import { fileSecondConnection, fileTestDb } from '../../tests/helpers/db'
import type { DB } from './db.server'
import {
  backoffMs,
  claimJobs,
  completeJob,
  enqueueJob,
  failJob,
  livePayloads,
  pruneJobs,
  giveUpAbandonedJobs,
  runDueJobs,
  RUNNER_STOPPED_ERROR,
  schedulePeriodicJob,
  startJobRunner,
  type Job,
} from './jobs.server'

/** The durable job queue on both engines: transactional enqueue, safe claims, retries. */
const t = fileTestDb()
/** A second connection to the same database, as a second app process would have. */
const other = fileSecondConnection(t)
beforeEach(async () => {
  await t.db.deleteFrom('job').execute()
})

const quiet = () => {}
const jobRow = (id: string) =>
  t.db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

describe(`jobs (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('exists exactly when the transaction that wrote it commits', async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await enqueueJob(trx, 'test.rolled-back', { n: 1 })
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    const id = await t.db
      .transaction()
      .execute((trx) => enqueueJob(trx, 'test.committed', { n: 2 }))
    const rows = await t.db
      .selectFrom('job')
      .select(['id', 'type', 'payload', 'status', 'attempts'])
      .execute()
    expect(rows).toEqual([
      { id, type: 'test.committed', payload: '{"n":2}', status: 'pending', attempts: 0 },
    ])
  })

  it('runs due jobs of the types it handles, in order, and leaves the rest', async () => {
    const seen: unknown[] = []
    const first = await enqueueJob(
      t.db,
      'test.echo',
      { n: 1 },
      { runAt: new Date(Date.now() - 2000) },
    )
    const second = await enqueueJob(
      t.db,
      'test.echo',
      { n: 2 },
      { runAt: new Date(Date.now() - 1000) },
    )
    const later = await enqueueJob(
      t.db,
      'test.echo',
      { n: 3 },
      { runAt: new Date(Date.now() + 60_000) },
    )
    const foreign = await enqueueJob(t.db, 'test.someone-else', { n: 4 })
    const ran = await runDueJobs(
      t.db,
      { 'test.echo': async (job) => void seen.push(job.payload) },
      { batchSize: 1, log: quiet },
    )
    expect(ran).toBe(1)
    await runDueJobs(
      t.db,
      { 'test.echo': async (job) => void seen.push(job.payload) },
      { log: quiet },
    )
    expect(seen).toEqual([{ n: 1 }, { n: 2 }])
    expect((await jobRow(first)).status).toBe('done')
    expect((await jobRow(second)).finishedAt).not.toBeNull()
    expect((await jobRow(later)).status).toBe('pending')
    expect((await jobRow(foreign)).status).toBe('pending')
  })

  it('retries a failing job with exponential backoff, then keeps it as failed', async () => {
    const id = await enqueueJob(t.db, 'test.flaky', {}, { maxAttempts: 3 })
    const handlers = {
      'test.flaky': async () => {
        throw new Error('SMTP server is down')
      },
    }
    let now = new Date()
    const delays: number[] = []
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await runDueJobs(t.db, handlers, { now, baseBackoffMs: 10_000, log: quiet })).toBe(1)
      const row = await jobRow(id)
      expect(row.attempts).toBe(attempt)
      expect(row.lastError).toBe('SMTP server is down')
      if (attempt < 3) {
        expect(row.status).toBe('pending')
        delays.push(new Date(row.runAt).getTime() - now.getTime())
        // Not before its time.
        expect(
          await runDueJobs(t.db, handlers, {
            now: new Date(new Date(row.runAt).getTime() - 1),
            log: quiet,
          }),
        ).toBe(0)
        now = new Date(row.runAt)
      } else {
        expect(row.status).toBe('failed')
        expect(row.finishedAt).not.toBeNull()
      }
    }
    // 10 s then 20 s, each within the +-20% jitter.
    expect(delays[0]).toBeGreaterThanOrEqual(8_000)
    expect(delays[0]).toBeLessThanOrEqual(12_000)
    expect(delays[1]).toBeGreaterThanOrEqual(16_000)
    expect(delays[1]).toBeLessThanOrEqual(24_000)
    expect(
      await runDueJobs(t.db, handlers, { now: new Date(now.getTime() + 86_400_000), log: quiet }),
    ).toBe(0)
  })

  it('never gives one job to two workers, even from two connections at once', async () => {
    const ids = new Set<string>()
    for (let i = 0; i < 40; i++) ids.add(await enqueueJob(t.db, 'test.contended', { i }))
    const claimed: string[] = []
    const worker = async (db: DB, workerId: string) => {
      for (;;) {
        const jobs = await claimJobs(db, { types: ['test.contended'], workerId, limit: 3 })
        if (jobs.length === 0) return
        claimed.push(...jobs.map((job) => job.id))
      }
    }
    await Promise.all([
      worker(t.db, 'a'),
      worker(other.db, 'b'),
      worker(t.db, 'c'),
      worker(other.db, 'd'),
    ])
    expect(claimed).toHaveLength(40)
    expect(new Set(claimed)).toEqual(ids)
  })

  it('takes back the job of a runner that crashed once its lease lapses, and ignores the late runner', async () => {
    const id = await enqueueJob(t.db, 'test.crash', {})
    const t0 = new Date()
    const [crashed] = await claimJobs(t.db, {
      types: ['test.crash'],
      workerId: 'crashed',
      leaseMs: 60_000,
      now: t0,
    })
    expect(crashed?.id).toBe(id)
    // Still leased: nobody else gets it.
    expect(
      await claimJobs(other.db, {
        types: ['test.crash'],
        workerId: 'rescuer',
        now: new Date(t0.getTime() + 30_000),
      }),
    ).toEqual([])
    const [rescued] = await claimJobs(other.db, {
      types: ['test.crash'],
      workerId: 'rescuer',
      now: new Date(t0.getTime() + 61_000),
    })
    expect(rescued).toMatchObject({ id, attempt: 2 })
    // The first runner wakes up late: its outcome no longer counts.
    await failJob(t.db, crashed as Job, 'crashed', new Error('too late'))
    await completeJob(t.db, crashed as Job, 'crashed')
    expect(await jobRow(id)).toMatchObject({ status: 'running', lockedBy: 'rescuer' })
    await completeJob(other.db, rescued as Job, 'rescuer')
    expect((await jobRow(id)).status).toBe('done')
  })

  it('keeps the lease of a job its runner is still running, however long it takes', async () => {
    const id = await enqueueJob(t.db, 'test.slow', {})
    let runs = 0
    let finish = () => {}
    const running = runDueJobs(
      t.db,
      {
        'test.slow': async () => {
          runs++
          await new Promise<void>((resolve) => (finish = resolve))
        },
      },
      { workerId: 'slow', leaseMs: 300, log: quiet },
    )
    await expect.poll(() => runs).toBe(1)
    // Three leases later the job is still held: no other process takes it and runs it again.
    await new Promise((resolve) => setTimeout(resolve, 900))
    expect(await claimJobs(other.db, { types: ['test.slow'], workerId: 'other' })).toEqual([])
    expect(await jobRow(id)).toMatchObject({ status: 'running', lockedBy: 'slow', attempts: 1 })
    finish()
    await running
    expect((await jobRow(id)).status).toBe('done')
    // A runner that stopped holds nothing: its job lapses as before (the test above).
  })

  it('fails a job whose runner stopped during its last attempt, after its type’s own give-up step', async () => {
    const gaveUp: Array<{ id: string; attempt: number; reason: string }> = []
    const ran: string[] = []
    const handlers = {
      'test.last-hooked': {
        run: async (job: Job) => void ran.push(job.id),
        abandoned: async (job: Job, reason: string) =>
          void gaveUp.push({ id: job.id, attempt: job.attempt, reason }),
      },
      'test.last-plain': async (job: Job) => void ran.push(job.id),
    }
    const hooked = await enqueueJob(t.db, 'test.last-hooked', { n: 1 }, { maxAttempts: 2 })
    const plain = await enqueueJob(t.db, 'test.last-plain', { n: 2 }, { maxAttempts: 1 })
    const t0 = new Date()
    const later = (ms: number) => new Date(t0.getTime() + ms)
    // Attempt 1 of the hooked job fails; attempt 2 (its last) and the plain job's only attempt
    // are claimed by a runner that then stops.
    const [first] = await claimJobs(t.db, { types: ['test.last-hooked'], workerId: 'w', now: t0 })
    await failJob(t.db, first!, 'w', new Error('SMTP down'), { now: t0, baseBackoffMs: 1000 })
    const lost = await claimJobs(t.db, {
      types: ['test.last-hooked', 'test.last-plain'],
      workerId: 'stopped',
      leaseMs: 60_000,
      now: later(5_000),
    })
    expect(lost.map((job) => job.id).sort()).toEqual([hooked, plain].sort())
    // Still leased: nothing happens to them.
    expect(await giveUpAbandonedJobs(t.db, handlers, { now: later(30_000), log: quiet })).toBe(0)
    expect((await livePayloads(t.db, 'test.last-hooked', later(30_000))).length).toBe(1)

    const lines: string[] = []
    expect(
      await giveUpAbandonedJobs(t.db, handlers, {
        now: later(70_000),
        log: (line) => lines.push(line),
      }),
    ).toBe(2)
    expect(ran).toEqual([])
    expect(gaveUp).toEqual([{ id: hooked, attempt: 2, reason: RUNNER_STOPPED_ERROR }])
    for (const id of [hooked, plain])
      expect(await jobRow(id)).toMatchObject({
        status: 'failed',
        lastError: RUNNER_STOPPED_ERROR,
        lockedUntil: null,
      })
    expect((await jobRow(hooked)).finishedAt).not.toBeNull()
    expect(lines).toEqual(
      expect.arrayContaining([
        `[jobs] test.last-hooked ${hooked} failed for good after 2 attempts: ${RUNNER_STOPPED_ERROR}`,
      ]),
    )
    expect(await livePayloads(t.db, 'test.last-hooked', later(70_000))).toEqual([])
    // Given up once: nothing more happens later.
    expect(await giveUpAbandonedJobs(t.db, handlers, { now: later(600_000), log: quiet })).toBe(0)
    expect(gaveUp).toHaveLength(1)
  })

  it('fails such a job even when its give-up step fails, saying so, and gives each up once across runners', async () => {
    let calls = 0
    const handlers = {
      'test.last-broken': {
        run: async () => {},
        abandoned: async () => {
          calls++
          await new Promise((resolve) => setTimeout(resolve, 20))
          throw new Error('the shop could not be told')
        },
      },
    }
    const ids: string[] = []
    for (let i = 0; i < 6; i++)
      ids.push(await enqueueJob(t.db, 'test.last-broken', { i }, { maxAttempts: 1 }))
    const t0 = new Date()
    await claimJobs(t.db, {
      types: ['test.last-broken'],
      workerId: 'stopped',
      limit: 10,
      leaseMs: 1_000,
      now: t0,
    })
    const now = new Date(t0.getTime() + 2_000)
    const counts = await Promise.all([
      giveUpAbandonedJobs(t.db, handlers, { workerId: 'a', now, batchSize: 10, log: quiet }),
      giveUpAbandonedJobs(other.db, handlers, { workerId: 'b', now, batchSize: 10, log: quiet }),
    ])
    expect(counts[0]! + counts[1]!).toBe(6)
    expect(calls).toBe(6)
    for (const id of ids)
      expect(await jobRow(id)).toMatchObject({
        status: 'failed',
        lastError: `${RUNNER_STOPPED_ERROR}; then its give-up step failed: the shop could not be told`,
      })
  })

  it("runs its type's `failed` step once a job fails for good, whichever way, never before", async () => {
    const calls: Array<{ id: string; attempt: number; reason: string }> = []
    const order: string[] = []
    const handlers = {
      'test.told': {
        run: async () => {
          throw new Error('SMTP server is down')
        },
        abandoned: async (job: Job) => void order.push(`abandoned ${job.id}`),
        failed: async (job: Job, reason: string) => {
          order.push(`failed ${job.id}`)
          calls.push({ id: job.id, attempt: job.attempt, reason })
          // The job is still running while its step runs: a stop here leaves it to be given up again.
          expect((await jobRow(job.id)).status).toBe('running')
        },
      },
    }
    // Its last attempt throws: the step runs after that attempt only, with the error.
    const thrown = await enqueueJob(t.db, 'test.told', {}, { maxAttempts: 3 })
    let now = new Date()
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await runDueJobs(t.db, handlers, { now, log: quiet })).toBe(1)
      expect(calls).toHaveLength(attempt < 3 ? 0 : 1)
      now = new Date((await jobRow(thrown)).runAt)
    }
    expect(calls).toEqual([{ id: thrown, attempt: 3, reason: 'SMTP server is down' }])
    expect(await jobRow(thrown)).toMatchObject({
      status: 'failed',
      lastError: 'SMTP server is down',
    })
    expect(order).toEqual([`failed ${thrown}`])

    // Its runner stops during the last attempt: the step runs after `abandoned`.
    const lost = await enqueueJob(t.db, 'test.told', {}, { maxAttempts: 1 })
    const t0 = new Date()
    await claimJobs(t.db, { types: ['test.told'], workerId: 'stopped', leaseMs: 1_000, now: t0 })
    expect(
      await giveUpAbandonedJobs(t.db, handlers, {
        now: new Date(t0.getTime() + 2_000),
        log: quiet,
      }),
    ).toBe(1)
    expect(calls.at(-1)).toEqual({ id: lost, attempt: 1, reason: RUNNER_STOPPED_ERROR })
    expect(order.slice(1)).toEqual([`abandoned ${lost}`, `failed ${lost}`])
    expect((await jobRow(lost)).status).toBe('failed')
  })

  it('fails a job for good even when its `failed` step throws, naming that error', async () => {
    const handlers = {
      'test.told-broken': {
        run: async () => {
          throw new Error('SMTP server is down')
        },
        failed: async () => {
          throw new Error('the timeline could not be written')
        },
      },
    }
    const id = await enqueueJob(t.db, 'test.told-broken', {}, { maxAttempts: 1 })
    const lines: string[] = []
    expect(await runDueJobs(t.db, handlers, { log: (line) => lines.push(line) })).toBe(1)
    const reason =
      'SMTP server is down; then its give-up step failed: the timeline could not be written'
    expect(await jobRow(id)).toMatchObject({ status: 'failed', lastError: reason })
    expect(lines).toEqual([
      `[jobs] test.told-broken ${id} failed for good after 1 attempts: ${reason}`,
    ])
  })

  it('runs in the background: woken after a commit, stopped cleanly', async () => {
    let resolve!: (payload: unknown) => void
    const handled = new Promise((done) => (resolve = done))
    const runner = startJobRunner(
      t.db,
      { 'test.background': async (job) => resolve(job.payload) },
      { pollMs: 60_000, log: quiet },
    )
    try {
      await t.db
        .transaction()
        .execute((trx) => enqueueJob(trx, 'test.background', { hello: 'world' }))
      runner.wake()
      expect(await handled).toEqual({ hello: 'world' })
    } finally {
      await runner.stop()
    }
    await expect
      .poll(
        async () =>
          (await t.db.selectFrom('job').select('status').executeTakeFirstOrThrow()).status,
      )
      .toBe('done')
  })

  it('runs a lane apart: slow jobs of one group hold back no job of another type', async () => {
    // Five mails stuck on an unreachable SMTP server fill a whole batch (five by default); the
    // payment job queued after them still runs, in its own lane.
    const old = new Date(Date.now() - 60_000)
    for (let n = 0; n < 5; n++) await enqueueJob(t.db, 'test.slow-mail', { n }, { runAt: old })
    const payment = await enqueueJob(t.db, 'test.payment', {})
    let release!: () => void
    const stuck = new Promise<void>((done) => (release = done))
    let mailsStarted = 0
    const runner = startJobRunner(
      t.db,
      {
        'test.slow-mail': async () => {
          mailsStarted++
          await stuck
        },
        'test.payment': async () => {},
      },
      { pollMs: 50, log: quiet, lanes: [['test.slow-mail']] },
    )
    try {
      await expect.poll(() => mailsStarted, { timeout: 5_000 }).toBe(5)
      await expect.poll(async () => (await jobRow(payment)).status, { timeout: 5_000 }).toBe('done')
    } finally {
      release()
      await runner.stop()
    }
    const statuses = await t.db.selectFrom('job').select('status').execute()
    expect(statuses.map((row) => row.status)).toEqual(Array(6).fill('done'))
  })

  it('gives up, in the background, a job whose runner stopped during its last attempt', async () => {
    const id = await enqueueJob(
      t.db,
      'test.background-lost',
      {},
      { maxAttempts: 1, runAt: new Date(Date.now() - 60_000) },
    )
    // A runner that stopped: claimed with a lease that has lapsed already.
    await claimJobs(t.db, {
      types: ['test.background-lost'],
      workerId: 'stopped',
      leaseMs: 1,
      now: new Date(Date.now() - 1_000),
    })
    const runner = startJobRunner(
      t.db,
      { 'test.background-lost': async () => {} },
      { pollMs: 60_000, log: quiet },
    )
    try {
      await expect.poll(async () => (await jobRow(id)).status, { timeout: 5_000 }).toBe('failed')
      expect((await jobRow(id)).lastError).toBe(RUNNER_STOPPED_ERROR)
    } finally {
      await runner.stop()
    }
  })

  it('schedules periodic work once a period, however many processes ask at once', async () => {
    const hour = 60 * 60_000
    const at = new Date('2026-05-01T10:17:00Z')
    const asks = await Promise.all(
      [t.db, other.db, t.db, other.db].map((db) =>
        schedulePeriodicJob(db, 'test.sweep', hour, { now: at, maxAttempts: 1 }),
      ),
    )
    expect(asks.filter(Boolean)).toHaveLength(1)
    // Later in the same hour: nothing more.
    expect(
      await schedulePeriodicJob(t.db, 'test.sweep', hour, {
        now: new Date(at.getTime() + 40 * 60_000),
      }),
    ).toBe(false)
    const rows = await t.db.selectFrom('job').selectAll().where('type', '=', 'test.sweep').execute()
    expect(rows).toEqual([
      expect.objectContaining({
        id: 'test.sweep@2026-05-01T10:00:00.000Z',
        status: 'pending',
        runAt: at.toISOString(),
        maxAttempts: 1,
        payload: 'null',
      }),
    ])
    // Done or not, the next hour has a job of its own, claimed by one runner.
    const next = new Date('2026-05-01T11:00:00Z')
    expect(await schedulePeriodicJob(other.db, 'test.sweep', hour, { now: next })).toBe(true)
    const claimed = await Promise.all(
      [t.db, other.db].map((db, n) =>
        claimJobs(db, { types: ['test.sweep'], workerId: `w${n}`, now: next, limit: 5 }),
      ),
    )
    expect(
      claimed
        .flat()
        .map((job) => job.id)
        .sort(),
    ).toEqual(['test.sweep@2026-05-01T10:00:00.000Z', 'test.sweep@2026-05-01T11:00:00.000Z'])
  })

  it('prunes finished jobs after a while but keeps failed ones', async () => {
    const old = new Date(Date.now() - 30 * 86_400_000)
    const done = await enqueueJob(t.db, 'test.prune', {}, { runAt: old })
    const failed = await enqueueJob(t.db, 'test.prune', {}, { maxAttempts: 1, runAt: old })
    await runDueJobs(
      t.db,
      {
        'test.prune': async (job) => {
          if (job.id === failed) throw new Error('no')
        },
      },
      { now: old, log: quiet },
    )
    await t.db.updateTable('job').set({ finishedAt: old.toISOString() }).execute()
    expect(await pruneJobs(t.db, 14)).toBe(1)
    const left = await t.db.selectFrom('job').select(['id', 'status']).execute()
    expect(left).toEqual([{ id: failed, status: 'failed' }])
    expect(done).not.toBe(failed)
  })

  it('backs off 15 s, 30 s, 1 min ... up to an hour', () => {
    const exact = (attempt: number) => {
      const samples = Array.from({ length: 50 }, () => backoffMs(attempt))
      return { min: Math.min(...samples), max: Math.max(...samples) }
    }
    expect(exact(1).min).toBeGreaterThanOrEqual(12_000)
    expect(exact(1).max).toBeLessThanOrEqual(18_000)
    expect(exact(3).min).toBeGreaterThanOrEqual(48_000)
    expect(exact(20).max).toBeLessThanOrEqual(72 * 60_000)
  })
})
