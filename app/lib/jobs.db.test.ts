import { beforeEach, describe, expect, it } from 'vitest'
import { fileSecondConnection, fileTestDb } from '../../tests/helpers/db'
import type { DB } from './db.server'
import {
  backoffMs,
  claimJobs,
  completeJob,
  enqueueJob,
  failJob,
  pruneJobs,
  runDueJobs,
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
