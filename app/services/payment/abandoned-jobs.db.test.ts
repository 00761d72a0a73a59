import { beforeEach, describe, expect, it } from 'vitest'
import { listOrderEvents } from '~/data/order.server'
import { listOrderRefunds, newRefundId } from '~/data/refund.server'
import { updateSiteSettings } from '~/data/settings.server'
import { enqueueJob, giveUpAbandonedJobs, RUNNER_STOPPED_ERROR } from '~/lib/jobs.server'
import { fileTestDb } from '../../../tests/helpers/db'
import { makeOrder, makePaidOrder, makeProduct, makeStockedProduct } from '../../../tests/factories'
import {
  GATEWAY_RECONCILE_JOB,
  gatewayJobHandlers,
  gatewayReconcilePayload,
  reconcileDelayMs,
  RECONCILE_WINDOW_MS,
} from './gateway-flow.server'
import { paymentJobHandlers, RECONCILE_JOB, reconcilePayload } from './paytm-flow.server'
import {
  REFUND_JOB,
  refundJobHandlers,
  requestGatewayRefund,
  unansweredRefunds,
  type RefundingGateway,
} from './refunds.server'

/**
 * Payment jobs whose runner stopped during their last attempt (app/lib/jobs.server.ts): each is
 * failed, and what its handler does when a last attempt fails happens all the same: a refund's
 * shop is told KeyBazaar stopped asking, a reconciliation chain goes on.
 */
const APP_SECRET = 'b'.repeat(64)
const quiet = () => {}
const t = fileTestDb()

beforeEach(async () => {
  await t.db.deleteFrom('job').execute()
})

/** A runner claimed the job for its last attempt and stopped: its lease lapsed a while ago. */
async function lostOnLastAttempt(jobId: string, at: Date) {
  await t.db
    .updateTable('job')
    .set((eb) => ({
      status: 'running',
      attempts: eb.ref('maxAttempts'),
      lockedBy: 'stopped-runner',
      lockedUntil: new Date(at.getTime() - 60_000).toISOString(),
    }))
    .where('id', '=', jobId)
    .execute()
}

async function jobsOf(type: string) {
  const rows = await t.db
    .selectFrom('job')
    .select(['id', 'payload', 'status', 'lastError', 'runAt'])
    .where('type', '=', type)
    .execute()
  return rows.map((row) => ({ ...row, payload: JSON.parse(row.payload) as unknown }))
}

const engine = process.env.TEST_DB_ENGINE ?? 'sqlite'

describe(`payment jobs lost on their last attempt (${engine})`, () => {
  it('a refund job: failed, and the refund asked about again later, once', async () => {
    await updateSiteSettings(t.db, {
      contactEmail: 'owner@example.test',
      enableNotifications: true,
    })
    let calls = 0
    const gateway: RefundingGateway = {
      testMode: false,
      refund: async (request) => {
        calls++
        return {
          refundId: `rfnd_${request.refundId.slice(4)}`,
          status: 'pending',
          amountPaise: request.amountPaise,
          message: 'accepted',
        }
      },
      refundStatus: async () => {
        calls++
        return null
      },
    }
    const refundOf = async (price: number) => {
      const product = await makeStockedProduct(t.db, APP_SECRET, [`KEY-${newRefundId()}`], {
        price,
      })
      const order = await makePaidOrder(t.db, product.id)
      const asked = await requestGatewayRefund(t.db, {
        refundId: newRefundId(),
        orderId: order.id,
        amountPaise: price,
        reason: '',
        actor: 'user:admin-1',
      })
      if (!asked.ok) throw new Error(asked.message)
      const [job] = (await jobsOf(REFUND_JOB)).filter(
        (row) => (row.payload as { refundId: string }).refundId === asked.refundId,
      )
      return { order, jobId: job!.id, refundId: asked.refundId }
    }
    const now = new Date(Date.now() + 60_000)
    const run = () =>
      giveUpAbandonedJobs(
        t.db,
        refundJobHandlers(t.db, {
          resolveGateway: async () => gateway,
          now: () => now,
          log: quiet,
        }),
        { now, log: quiet },
      )

    const lost = await refundOf(12_000)
    await lostOnLastAttempt(lost.jobId, now)
    expect(await run()).toBe(1)
    expect(calls).toBe(0)
    expect((await jobsOf(REFUND_JOB)).find((row) => row.id === lost.jobId)).toMatchObject({
      status: 'failed',
      lastError: RUNNER_STOPPED_ERROR,
    })
    // A stopped runner says nothing about the gateway: the refund is asked about again later,
    // as when the gateway cannot be reached, and the shop is not told it was dropped.
    const refunds = await listOrderRefunds(t.db, lost.order.id)
    expect(refunds[0]?.checksStoppedAt).toBeNull()
    expect(await unansweredRefunds(t.db, refunds, now)).toEqual({ checking: 12_000, stopped: 0 })
    const next = (await jobsOf(REFUND_JOB)).filter(
      (row) =>
        row.status === 'pending' &&
        (row.payload as { refundId: string }).refundId === lost.refundId,
    )
    expect(next.map((row) => row.payload)).toEqual([{ refundId: lost.refundId, check: 1 }])
    expect(
      (await listOrderEvents(t.db, lost.order.id)).filter(
        (event) => event.type === 'refund_warning',
      ),
    ).toEqual([])

    // The run that stopped had queued the refund's next check: that check goes on asking.
    const queued = await refundOf(8_000)
    await enqueueJob(
      t.db,
      REFUND_JOB,
      { refundId: queued.refundId, check: 1 },
      { runAt: new Date(now.getTime() + 3_600_000), maxAttempts: 8 },
    )
    await lostOnLastAttempt(queued.jobId, now)
    expect(await run()).toBe(1)
    expect((await jobsOf(REFUND_JOB)).find((row) => row.id === queued.jobId)?.status).toBe('failed')
    const stillAsked = await listOrderRefunds(t.db, queued.order.id)
    expect(stillAsked[0]?.checksStoppedAt).toBeNull()
    expect(await unansweredRefunds(t.db, stillAsked, now)).toEqual({ checking: 8_000, stopped: 0 })
    expect(
      (await listOrderEvents(t.db, queued.order.id)).filter(
        (event) => event.type === 'refund_warning',
      ),
    ).toEqual([])
  })

  it('a Paytm reconciliation: failed, and its chain goes on as when the last attempt fails', async () => {
    const product = await makeProduct(t.db)
    const order = await makeOrder(t.db, product.id)
    await t.db.deleteFrom('job').execute()
    const now = new Date(Date.now() + 60_000)
    const run = () =>
      giveUpAbandonedJobs(
        t.db,
        paymentJobHandlers(t.db, { resolveSetup: async () => null, now: () => now, log: quiet }),
        { now, log: quiet },
      )
    const chained = await enqueueJob(t.db, RECONCILE_JOB, reconcilePayload(order.id, 3, true), {
      maxAttempts: 3,
    })
    const quick = await enqueueJob(t.db, RECONCILE_JOB, reconcilePayload(order.id, 1, false), {
      maxAttempts: 3,
    })
    await lostOnLastAttempt(chained, now)
    await lostOnLastAttempt(quick, now)
    expect(await run()).toBe(2)
    const jobs = await jobsOf(RECONCILE_JOB)
    expect(
      jobs
        .filter((row) => row.status === 'failed')
        .map((row) => row.id)
        .sort(),
    ).toEqual([chained, quick].sort())
    // The chained check is followed by the next one (a quick check never is).
    const next = jobs.filter((row) => row.status === 'pending')
    expect(next.map((row) => row.payload)).toEqual([reconcilePayload(order.id, 4, true)])
    const deadline = new Date(order.createdAt).getTime() + RECONCILE_WINDOW_MS
    expect(new Date(next[0]!.runAt).getTime()).toBe(
      Math.min(deadline, now.getTime() + reconcileDelayMs(4)),
    )

    // Lost again with its next check queued already (the run got that far): not queued twice.
    const again = await enqueueJob(t.db, RECONCILE_JOB, reconcilePayload(order.id, 3, true), {
      maxAttempts: 3,
    })
    await lostOnLastAttempt(again, now)
    expect(await run()).toBe(1)
    expect(
      (await jobsOf(RECONCILE_JOB)).filter((row) => row.status === 'pending').map((r) => r.payload),
    ).toEqual([reconcilePayload(order.id, 4, true)])
  })

  it('a gateway reconciliation: failed, and its chain goes on, for a pending order only', async () => {
    const product = await makeProduct(t.db)
    const pending = await makeOrder(t.db, product.id)
    const paid = await makePaidOrder(t.db, product.id)
    await t.db.deleteFrom('job').execute()
    const now = new Date(Date.now() + 60_000)
    const lost = []
    for (const order of [pending, paid]) {
      const id = await enqueueJob(
        t.db,
        GATEWAY_RECONCILE_JOB,
        gatewayReconcilePayload(order.id, 2, true),
        { maxAttempts: 3 },
      )
      await lostOnLastAttempt(id, now)
      lost.push(id)
    }
    const handlers = gatewayJobHandlers(t.db, {
      resolveGateway: async () => null,
      now: () => now,
      log: quiet,
    })
    expect(await giveUpAbandonedJobs(t.db, handlers, { now, log: quiet })).toBe(2)
    const jobs = await jobsOf(GATEWAY_RECONCILE_JOB)
    for (const id of lost)
      expect(jobs.find((row) => row.id === id)).toMatchObject({
        status: 'failed',
        lastError: RUNNER_STOPPED_ERROR,
      })
    expect(jobs.filter((row) => row.status === 'pending').map((row) => row.payload)).toEqual([
      gatewayReconcilePayload(pending.id, 3, true),
    ])
  })
})
