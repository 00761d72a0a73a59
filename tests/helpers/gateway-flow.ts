import { afterAll, afterEach, beforeAll } from 'vitest'
import { makeProduct } from '../factories'
import { fileTestDb } from './db'
import { webhookRecorder } from './payments'

/**
 * What a gateway's flow test (app/services/payment/*-flow.db.test.ts) runs against: a test
 * database, the gateway's simulator started once with its webhooks captured in `sent`, the
 * shop's setup for that simulator, and a ₹1,499 product. The simulator's outage is switched
 * off after every test.
 */
export function gatewayFlowHarness<Sim extends { close(): Promise<void> }, Setup>(options: {
  /** Starts the simulator, sending its webhooks through `fetch`. */
  start: (fetch: typeof globalThis.fetch) => Promise<Sim>
  setup: (sim: Sim) => Setup
  endOutage: (sim: Sim) => Promise<unknown>
}) {
  const t = fileTestDb()
  const webhooks = webhookRecorder()
  const flow = { t, sent: webhooks.sent } as {
    t: typeof t
    sent: typeof webhooks.sent
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
