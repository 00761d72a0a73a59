import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDb, type TestDb } from '../../tests/helpers/db'
import {
  claimWebhookEvent,
  pruneWebhookEvents,
  releaseWebhookEvent,
  WEBHOOK_EVENT_RETENTION_MS,
} from './payment-webhook.server'

let t: TestDb
beforeAll(async () => {
  t = await createTestDb()
})
afterAll(async () => {
  await t.destroy()
})

const event = (eventId: string) => ({
  gateway: 'razorpay',
  eventId,
  event: 'payment.captured',
  orderId: null,
})

describe('webhook deliveries already handled', () => {
  it('claims an event once, and again after the claim is released', async () => {
    expect(await claimWebhookEvent(t.db, event('evt_claim'))).toBe(true)
    expect(await claimWebhookEvent(t.db, event('evt_claim'))).toBe(false)
    // The same id from another gateway is another event.
    expect(await claimWebhookEvent(t.db, { ...event('evt_claim'), gateway: 'phonepe' })).toBe(true)
    await releaseWebhookEvent(t.db, 'razorpay', 'evt_claim')
    expect(await claimWebhookEvent(t.db, event('evt_claim'))).toBe(true)
  })

  it('forgets events older than the retention, long after the gateways stop retrying', async () => {
    const now = new Date('2026-11-20T12:00:00.000Z')
    const old = new Date(now.getTime() - WEBHOOK_EVENT_RETENTION_MS - 60_000)
    const recent = new Date(now.getTime() - WEBHOOK_EVENT_RETENTION_MS + 60_000)
    expect(await claimWebhookEvent(t.db, event('evt_old'), old)).toBe(true)
    expect(await claimWebhookEvent(t.db, event('evt_recent'), recent)).toBe(true)

    expect(await pruneWebhookEvents(t.db, now)).toBeGreaterThanOrEqual(1)
    // The old one may act again (the gateway would not send it any more); the recent one not.
    expect(await claimWebhookEvent(t.db, event('evt_old'))).toBe(true)
    expect(await claimWebhookEvent(t.db, event('evt_recent'))).toBe(false)
  })
})
