import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDb, type TestDb } from '../../tests/helpers/db'
import {
  claimWebhookEvent,
  markWebhookEventHandled,
  pruneWebhookEvents,
  releaseWebhookEvent,
  WEBHOOK_CLAIM_TIMEOUT_MS,
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

  it('a claim whose handler never finished (the process died) is taken over by a later retry', async () => {
    const at = new Date('2026-11-20T12:00:00.000Z')
    const after = (ms: number) => new Date(at.getTime() + ms)
    expect(await claimWebhookEvent(t.db, event('evt_crash'), at)).toBe(true)
    // Still being handled, as far as anyone can tell: a concurrent delivery does not act.
    expect(await claimWebhookEvent(t.db, event('evt_crash'), after(30_000))).toBe(false)
    // Long after, nobody finished it: Razorpay's retry acts, once.
    const later = after(WEBHOOK_CLAIM_TIMEOUT_MS + 1_000)
    const retries = await Promise.all([
      claimWebhookEvent(t.db, event('evt_crash'), later),
      claimWebhookEvent(t.db, event('evt_crash'), later),
    ])
    expect(retries.sort()).toEqual([false, true])
    await markWebhookEventHandled(t.db, 'razorpay', 'evt_crash', later)
    // Handled: never again, however late the replay.
    expect(await claimWebhookEvent(t.db, event('evt_crash'), after(24 * 3600_000))).toBe(false)
  })

  it('forgets events older than the retention, long after the gateways stop retrying', async () => {
    const now = new Date('2026-11-20T12:00:00.000Z')
    const old = new Date(now.getTime() - WEBHOOK_EVENT_RETENTION_MS - 60_000)
    const recent = new Date(now.getTime() - WEBHOOK_EVENT_RETENTION_MS + 60_000)
    expect(await claimWebhookEvent(t.db, event('evt_old'), old)).toBe(true)
    expect(await claimWebhookEvent(t.db, event('evt_recent'), recent)).toBe(true)
    await markWebhookEventHandled(t.db, 'razorpay', 'evt_recent', recent)

    expect(await pruneWebhookEvents(t.db, now)).toBeGreaterThanOrEqual(1)
    // The old one may act again (the gateway would not send it any more); the recent one not.
    expect(await claimWebhookEvent(t.db, event('evt_old'))).toBe(true)
    expect(await claimWebhookEvent(t.db, event('evt_recent'))).toBe(false)
  })
})
