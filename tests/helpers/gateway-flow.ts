import { afterAll, afterEach, beforeAll, expect } from 'vitest'
import { listOrderEvents, type Order } from '~/data/order.server'
import type { DB } from '~/lib/db.server'
import { runDueJobs } from '~/lib/jobs.server'
import { gatewayJobHandlers, type ReconcilingGateway } from '~/services/payment/gateway-flow.server'
import { makeProduct } from '../factories'
import { fileTestDb } from './db'
import { existingOrder, webhookRecorder } from './payments'

/**
 * What a gateway's flow test (app/services/payment/*-flow.db.test.ts) runs against: a test
 * database, the gateway's simulator started once with its webhooks captured in `sent`, the
 * shop's setup for that simulator, and a ₹1,499 product. The simulator's outage is switched
 * off after every test. `order` reads an order the test made, `runJobs` runs the background
 * reconciliation due at a time, with the gateway's `reconciler`.
 */
export function gatewayFlowHarness<Sim extends { close(): Promise<void> }, Setup>(options: {
  /** Starts the simulator, sending its webhooks through `fetch`. */
  start: (fetch: typeof globalThis.fetch) => Promise<Sim>
  setup: (sim: Sim) => Setup
  endOutage: (sim: Sim) => Promise<unknown>
  reconciler: (db: DB, setup: Setup) => ReconcilingGateway
}) {
  const t = fileTestDb()
  const webhooks = webhookRecorder()
  const flow = {
    t,
    sent: webhooks.sent,
    order: (id: string): Promise<Order> => existingOrder(t.db, id),
    /**
     * Runs the jobs due at `at` (a check may queue the next one), at most five rounds, with the
     * gateway's reconciler or `gateway` (null: the gateway is switched off).
     */
    async runJobs(at: Date, gateway?: ReconcilingGateway | null): Promise<void> {
      const handlers = gatewayJobHandlers(t.db, {
        resolveGateway: async () =>
          gateway === undefined ? options.reconciler(t.db, flow.setup) : gateway,
        now: () => at,
        log: () => {},
      })
      for (
        let i = 0;
        i < 5 &&
        (await runDueJobs(t.db, handlers, { now: at, workerId: 'test', log: () => {} })) > 0;
        i++
      );
    },
  } as {
    t: typeof t
    sent: typeof webhooks.sent
    order: (id: string) => Promise<Order>
    runJobs: (at: Date, gateway?: ReconcilingGateway | null) => Promise<void>
    sim: Sim
    setup: Setup
    productId: string
  }
  beforeAll(async () => {
    flow.sim = await options.start(webhooks.fetch)
    flow.setup = options.setup(flow.sim)
    flow.productId = (await makeProduct(t.db, { price: 149_900 })).id
  })
  afterAll(async () => {
    await flow.sim.close()
  })
  afterEach(async () => {
    await options.endOutage(flow.sim)
  })
  return flow
}

/**
 * After a storm of duplicate webhooks for `orderIds`, all bought from `productId`: each order
 * was paid once (one 'paid' event), is no longer pending and got an item of its own,
 * `orderIds.length` items in all.
 */
export async function expectEachPaidOnceWithItsOwnItem(
  db: DB,
  productId: string,
  orderIds: readonly string[],
): Promise<void> {
  const delivered = await db
    .selectFrom('stockItem')
    .select(['orderId'])
    .where('productId', '=', productId)
    .where('status', '!=', 'available')
    .execute()
  expect(delivered).toHaveLength(orderIds.length)
  expect(new Set(delivered.map((d) => d.orderId)).size).toBe(orderIds.length)
  for (const orderId of orderIds) {
    const events = await listOrderEvents(db, orderId)
    expect(events.filter((e) => e.type === 'paid')).toHaveLength(1)
    expect((await existingOrder(db, orderId)).status).not.toBe('pending')
  }
}
