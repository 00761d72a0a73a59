import { beforeEach, describe, expect, it } from 'vitest'
import { getCreditNoteData, listCreditNotes } from '~/data/credit-note.server'
import { getInvoiceData } from '~/data/invoice.server'
import { getOrder, listOrderEvents } from '~/data/order.server'
import { updateSiteSettings } from '~/data/settings.server'
import { listOrderRefunds, newRefundId, refundableAmount } from '~/data/refund.server'
import { enqueueJob, runDueJobs } from '~/lib/jobs.server'
import { MAIL_JOB } from '~/lib/mail.server'
import { ORDER_MAIL_JOB } from '~/services/notifications/order-mail.server'
import { markRefunded } from '~/services/order-actions.server'
import {
  GatewayRefusedError,
  GatewayUnreachableError,
  type GatewayRefund,
  type GatewayRefundRequest,
} from '~/lib/payments/gateway.server'
import { fileTestDb } from '../../../tests/helpers/db'
import { makePaidOrder, makeStockedProduct } from '../../../tests/factories'
import { importStock } from '~/services/fulfilment.server'
import {
  confirmRefundFromGateway,
  REFUND_JOB,
  refundJobHandlers,
  requestGatewayRefund,
  runRefund,
  unansweredRefunds,
  type RefundingGateway,
} from './refunds.server'

/**
 * The refund workflow on the real database, on SQLite and on PostgreSQL, against a gateway
 * that behaves as the refund APIs do: one refund per idempotency key (a repeat answers with the
 * first), refused beyond what was paid. A double request, two requests at once, a job retried
 * after a lost answer and a job run twice each refund once, and the buyer is e-mailed once.
 */
const APP_SECRET = 'a'.repeat(64)
const actor = 'user:admin-1'
const quiet = (line: string) => {
  if (process.env.DEBUG_REFUNDS) console.log(line)
}
const t = fileTestDb()

// Each test runs only its own refund jobs.
beforeEach(async () => {
  await t.db.deleteFrom('job').where('type', '=', REFUND_JOB).execute()
})

/** A refund API in memory: refunds by key; `loseNextAnswer` makes the next call fail after refunding. */
function fakeGateway(options: { settleOnStatus?: boolean; refusesRepeats?: boolean } = {}) {
  const refunds = new Map<string, GatewayRefund & { paymentId: string; orderId: string }>()
  const gateway = {
    testMode: false,
    calls: 0,
    loseNextAnswer: false,
    refuseWith: null as string | null,
    /** The status API refuses (e.g. 401 after the keys were changed). */
    refuseStatusWith: null as string | null,
    /** The status API reports the refund failed at the bank. */
    failOnStatus: false,
    async refund(request: GatewayRefundRequest): Promise<GatewayRefund> {
      gateway.calls++
      if (gateway.refuseWith) throw new GatewayRefusedError(gateway.refuseWith, 400)
      let refund = refunds.get(request.refundId)
      // Some refund APIs refuse an id they have seen instead of answering with its refund.
      if (refund && options.refusesRepeats)
        throw new GatewayRefusedError('A refund with this id exists already', 400)
      if (!refund) {
        const refunded = [...refunds.values()]
          .filter((r) => r.paymentId === request.paymentId)
          .reduce((sum, r) => sum + r.amountPaise, 0)
        if (refunded + request.amountPaise > request.order.amountPaise)
          throw new GatewayRefusedError('The refund amount is greater than the amount paid', 400)
        refund = {
          refundId: `rfnd_${newRefundId().slice(4)}`,
          status: options.settleOnStatus ? 'pending' : 'processed',
          amountPaise: request.amountPaise,
          message: 'accepted',
          paymentId: request.paymentId,
          orderId: request.order.id,
        }
        refunds.set(request.refundId, refund)
      }
      if (gateway.loseNextAnswer) {
        gateway.loseNextAnswer = false
        throw new GatewayUnreachableError('timed out')
      }
      return { ...refund }
    },
    async refundStatus(query: { refundId: string }): Promise<GatewayRefund | null> {
      if (gateway.refuseStatusWith) throw new GatewayRefusedError(gateway.refuseStatusWith, 401)
      const refund = refunds.get(query.refundId)
      if (!refund) return null
      refund.status = gateway.failOnStatus ? 'failed' : 'processed'
      return { ...refund, message: refund.status }
    },
    /** Refunds the gateway really made for an order (not calls). */
    made: (orderId: string) => [...refunds.values()].filter((r) => r.orderId === orderId).length,
  }
  return gateway satisfies RefundingGateway
}

async function paidOrder(price = 50_000) {
  const product = await makeStockedProduct(t.db, APP_SECRET, [`KEY-${newRefundId()}`], { price })
  return makePaidOrder(t.db, product.id)
}

async function mails(orderId: string) {
  const rows = await t.db
    .selectFrom('job')
    .select('payload')
    .where('type', '=', ORDER_MAIL_JOB)
    .execute()
  return rows
    .map((row) => JSON.parse(row.payload) as { orderId: string; kind: string; message?: string })
    .filter((payload) => payload.orderId === orderId)
}

/** What of the order's refunds is unanswered, still asked about or no longer (unansweredRefunds). */
const unanswered = async (orderId: string) =>
  unansweredRefunds(t.db, await listOrderRefunds(t.db, orderId))

/** Mails to the shop about an order (subject and text). */
async function shopMails(orderId: string) {
  const rows = await t.db.selectFrom('job').select('payload').where('type', '=', MAIL_JOB).execute()
  return rows
    .map((row) => JSON.parse(row.payload) as { to: string; subject: string; text: string })
    .filter(
      (mail) => mail.to === 'owner@example.test' && mail.subject.startsWith(`Order ${orderId}:`),
    )
    .map(({ subject, text }) => ({ subject, text }))
}

async function refundJobs(refundId: string) {
  const rows = await t.db
    .selectFrom('job')
    .select(['payload', 'status'])
    .where('type', '=', REFUND_JOB)
    .execute()
  return rows.filter(
    (row) => (JSON.parse(row.payload) as { refundId: string }).refundId === refundId,
  )
}

const sequenceOf = (number: string) => Number(number.split('/')[2])

async function itemStatus(orderId: string) {
  const row = await t.db
    .selectFrom('stockItem')
    .select('status')
    .where('orderId', '=', orderId)
    .executeTakeFirst()
  return row?.status
}

/** The admin's Refund of `amountPaise` (no reason given), under `refundId` (a new one). */
const askRefund = (orderId: string, amountPaise: number, refundId = newRefundId()) =>
  requestGatewayRefund(t.db, { refundId, orderId, amountPaise, reason: '', actor })

/**
 * Runs the refund jobs that are due at `at` (the runner's own claim, retry and backoff);
 * `gateway` null: the gateway is switched off.
 */
function runJobs(gateway: RefundingGateway | null, at: Date) {
  return runDueJobs(
    t.db,
    refundJobHandlers(t.db, { resolveGateway: async () => gateway, now: () => at, log: quiet }),
    {
      now: at,
      log: quiet,
    },
  )
}

/**
 * A paid order of ₹200 refunded in full through a gateway that accepted the refund and then, at
 * its status check, called it failed; with the webhook that later says it was processed.
 */
async function refundRecordedFailed() {
  const order = await paidOrder(20_000)
  const gateway = fakeGateway({ settleOnStatus: true })
  await askRefund(order.id, 20_000)
  const start = new Date()
  await runJobs(gateway, start)
  gateway.failOnStatus = true
  await runJobs(gateway, new Date(start.getTime() + 11_000))
  const failed = (await listOrderRefunds(t.db, order.id))[0]!
  expect(failed.status).toBe('failed')
  const confirmation = {
    gatewayRefundId: failed.gatewayRefundId!,
    status: 'processed' as const,
    amountPaise: 20_000,
    message: 'refund.processed',
  }
  return { order, failed, confirmation }
}

describe(`refunds through a gateway (${process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'})`, () => {
  it('a double click (the same form twice, even at once) writes one refund and one job', async () => {
    const order = await paidOrder()
    expect(order.status).toBe('delivered')
    const refundId = newRefundId()
    const input = {
      refundId,
      orderId: order.id,
      amountPaise: order.amount,
      reason: 'Wrong region',
      actor,
    }
    const results = await Promise.all([
      requestGatewayRefund(t.db, input),
      requestGatewayRefund(t.db, input),
    ])
    expect(results.map((r) => r.ok)).toEqual([true, true])
    expect(results.filter((r) => r.message.includes('already requested'))).toHaveLength(1)
    expect(await requestGatewayRefund(t.db, input)).toMatchObject({
      ok: true,
      repeated: true,
      message: expect.stringContaining('not sent again'),
    })
    expect(await listOrderRefunds(t.db, order.id)).toHaveLength(1)
    expect(await refundJobs(refundId)).toHaveLength(1)
    expect(
      (await listOrderEvents(t.db, order.id)).filter((e) => e.type === 'refund_requested'),
    ).toHaveLength(1)
  })

  it('two different refunds at once never add up to more than was paid', async () => {
    const order = await paidOrder(50_000)
    const ask = () => askRefund(order.id, 30_000)
    const results = await Promise.all([ask(), ask()])
    expect(results.filter((r) => r.ok)).toHaveLength(1)
    expect(results.find((r) => !r.ok)).toEqual({
      ok: false,
      field: 'amount',
      message: 'At most ₹200 is left to refund on this order.',
    })
    expect(await refundableAmount(t.db, order.id)).toBe(20_000)
  })

  it('a job retried after a lost answer refunds once; the order is refunded, its item revoked, the buyer e-mailed once', async () => {
    const order = await paidOrder(49_900)
    const gateway = fakeGateway()
    gateway.loseNextAnswer = true
    const refundId = newRefundId()
    await requestGatewayRefund(t.db, {
      refundId,
      orderId: order.id,
      amountPaise: order.amount,
      reason: 'Duplicate purchase',
      actor,
    })
    const start = new Date()
    await runJobs(gateway, start)
    // The gateway refunded, but its answer was lost: the refund is still only requested.
    expect(gateway.made(order.id)).toBe(1)
    expect((await listOrderRefunds(t.db, order.id))[0]).toMatchObject({ status: 'requested' })
    expect((await getOrder(t.db, order.id))?.status).toBe('delivered')
    // The runner retries with backoff; the same key answers with the same refund.
    await runJobs(gateway, new Date(start.getTime() + 10 * 60_000))
    expect(gateway.made(order.id)).toBe(1)
    expect((await listOrderRefunds(t.db, order.id))[0]).toMatchObject({
      status: 'processed',
      gatewayRefundId: expect.stringMatching(/^rfnd_/),
      amount: 49_900,
    })
    expect((await getOrder(t.db, order.id))?.status).toBe('refunded')
    expect(await itemStatus(order.id)).toBe('revoked')
    const refunded = await mails(order.id)
    expect(refunded.filter((m) => m.kind === 'refunded')).toEqual([
      expect.objectContaining({ message: expect.stringContaining('We have refunded ₹499') }),
    ])
    // Running the refund again (a job delivered twice) changes nothing and mails nothing more.
    expect(await runRefund(t.db, gateway, refundId)).toEqual({ kind: 'final', status: 'processed' })
    expect((await mails(order.id)).filter((m) => m.kind === 'refunded')).toHaveLength(1)
    expect(
      (await listOrderEvents(t.db, order.id)).filter((e) => e.type === 'refunded'),
    ).toHaveLength(1)
  })

  it('a retried job asks what became of the refund before asking again, so a gateway that refuses repeated ids refunds once', async () => {
    const order = await paidOrder(30_000)
    const gateway = fakeGateway({ refusesRepeats: true })
    gateway.loseNextAnswer = true
    await askRefund(order.id, 30_000)
    const start = new Date()
    await runJobs(gateway, start)
    expect((await listOrderRefunds(t.db, order.id))[0]).toMatchObject({ status: 'requested' })
    await runJobs(gateway, new Date(start.getTime() + 10 * 60_000))
    expect(gateway.made(order.id)).toBe(1)
    expect(gateway.calls).toBe(1)
    expect((await listOrderRefunds(t.db, order.id))[0]).toMatchObject({ status: 'processed' })
    expect((await getOrder(t.db, order.id))?.status).toBe('refunded')
  })

  it('a pending refund is confirmed by its status check; a partial one keeps the order and its item', async () => {
    const order = await paidOrder(100_000)
    const gateway = fakeGateway({ settleOnStatus: true })
    const first = newRefundId()
    await requestGatewayRefund(t.db, {
      refundId: first,
      orderId: order.id,
      amountPaise: 25_050,
      reason: 'Late delivery',
      actor,
    })
    const start = new Date()
    await runJobs(gateway, start)
    expect((await listOrderRefunds(t.db, order.id))[0]).toMatchObject({
      status: 'pending',
      gatewayRefundId: expect.stringMatching(/^rfnd_/),
    })
    // The next check is scheduled 10 s later and finds it processed.
    await runJobs(gateway, new Date(start.getTime() + 11_000))
    expect((await listOrderRefunds(t.db, order.id))[0]).toMatchObject({ status: 'processed' })
    expect((await getOrder(t.db, order.id))?.status).toBe('delivered')
    expect(await itemStatus(order.id)).toBe('delivered')
    expect((await mails(order.id)).find((m) => m.kind === 'refunded')?.message).toContain(
      'We have refunded ₹250.50 of your payment of ₹1,000',
    )
    expect(await refundableAmount(t.db, order.id)).toBe(74_950)
    // The rest: the order becomes refunded.
    await askRefund(order.id, 74_950)
    await runJobs(gateway, new Date(start.getTime() + 20_000))
    await runJobs(gateway, new Date(start.getTime() + 40_000))
    expect((await getOrder(t.db, order.id))?.status).toBe('refunded')
    expect(await itemStatus(order.id)).toBe('revoked')
    expect(await refundableAmount(t.db, order.id)).toBe(0)
    expect(await askRefund(order.id, 100)).toEqual({
      ok: false,
      message: 'Refund does not apply to an order that is refunded. Nothing was changed.',
    })
  })

  it('each processed refund issues its credit note; the parts reverse exactly the invoice’s GST', async () => {
    await updateSiteSettings(t.db, { sellerGstin: '29ABCDE1234F1Z5', gstRate: 18 })
    try {
      const order = await paidOrder(100_000)
      const gateway = fakeGateway()
      await askRefund(order.id, 25_050)
      const start = new Date()
      await runJobs(gateway, start)
      const refunded = await listOrderRefunds(t.db, order.id)
      expect(refunded.map((refund) => refund.status)).toEqual(['processed'])
      // The sale had no invoice yet: numbered with the first credit note.
      const invoice = (await getInvoiceData(t.db, order.id))!
      expect(invoice.tax).toMatchObject({ centralTax: 7_627, stateTax: 7_627 })
      await askRefund(order.id, 74_950)
      await runJobs(gateway, new Date(start.getTime() + 1_000))
      // Run again: nothing more is issued.
      await runJobs(gateway, new Date(start.getTime() + 60_000))
      expect((await getOrder(t.db, order.id))?.status).toBe('refunded')
      const notes = await listCreditNotes(t.db, order.id)
      expect(notes.map((note) => note.amount)).toEqual([25_050, 74_950])
      const [first, second] = await Promise.all(
        notes.map((note) => getCreditNoteData(t.db, order.id, note.id)),
      )
      expect(first).toMatchObject({ invoiceNumber: invoice.invoiceNumber })
      expect(first?.refundReference).toMatch(/^rfnd_/)
      // 250.50 at 18 %: 19.11 each; the second part's share is the rest of the invoice's 76.27,
      // not its own 57.17 (74,950 x 9/118 rounds up), so the two add up to the invoice.
      expect(first?.tax).toMatchObject({ taxableValue: 21_228, centralTax: 1_911, stateTax: 1_911 })
      expect(second?.tax).toMatchObject({
        taxableValue: 63_518,
        centralTax: 5_716,
        stateTax: 5_716,
      })
      expect(sequenceOf(notes[1]!.number)).toBe(sequenceOf(notes[0]!.number) + 1)
      // The refunded sale keeps its invoice.
      expect((await getInvoiceData(t.db, order.id))?.invoiceNumber).toBe(invoice.invoiceNumber)
    } finally {
      await updateSiteSettings(t.db, { sellerGstin: '' })
    }
  })

  it('a refusal fails the refund with the gateway’s words and changes nothing else', async () => {
    const order = await paidOrder(30_000)
    const gateway = fakeGateway()
    gateway.refuseWith = 'Paytm refused the refund: Invalid refund amount (619)'
    await askRefund(order.id, 30_000)
    await runJobs(gateway, new Date())
    expect((await listOrderRefunds(t.db, order.id))[0]).toMatchObject({
      status: 'failed',
      gatewayMessage: 'Paytm refused the refund: Invalid refund amount (619)',
    })
    expect((await getOrder(t.db, order.id))?.status).toBe('delivered')
    expect((await mails(order.id)).filter((m) => m.kind === 'refunded')).toHaveLength(0)
    expect((await listOrderEvents(t.db, order.id)).map((e) => e.type)).toContain('refund_failed')
    // A failed refund does not count: the whole amount may be refunded again.
    expect(await refundableAmount(t.db, order.id)).toBe(30_000)
  })

  it('a refund the gateway refuses or fails is mailed to the shop once, however often its job runs', async () => {
    await updateSiteSettings(t.db, {
      contactEmail: 'owner@example.test',
      enableNotifications: false,
    })
    // Refused by the refund API (the merchant's balance too low), with the job run twice at
    // once and then again: one failure, one mail, even with shop alerts off (the buyer is owed).
    const order = await paidOrder(35_000)
    const gateway = fakeGateway()
    gateway.refuseWith = 'Razorpay refused the refund: Your account does not have enough balance'
    const refundId = newRefundId()
    await askRefund(order.id, 35_000, refundId)
    const now = new Date()
    await Promise.all([
      runRefund(t.db, gateway, refundId, now),
      runRefund(t.db, gateway, refundId, now),
    ])
    await runJobs(gateway, now)
    await enqueueJob(t.db, REFUND_JOB, { refundId, check: 0 })
    await runJobs(gateway, new Date(now.getTime() + 1000))
    expect((await listOrderRefunds(t.db, order.id))[0]?.status).toBe('failed')
    const failed = (await listOrderEvents(t.db, order.id)).filter((e) => e.type === 'refund_failed')
    expect(failed).toHaveLength(1)
    expect(await shopMails(order.id)).toEqual([
      {
        subject: `Order ${order.id}: a refund through Paytm failed`,
        text: expect.stringContaining(failed[0]!.message),
      },
    ])
    expect((await shopMails(order.id))[0]!.text).toContain('refund again from the order page')

    // A test order took no money: its failure is an alert like others, off here, ...
    const product = await makeStockedProduct(t.db, APP_SECRET, [])
    await importStock(t.db, {
      productId: product.id,
      content: `TEST-KEY-${newRefundId()}\nTEST-KEY-${newRefundId()}`,
      format: 'lines',
      appSecret: APP_SECRET,
      testItems: true,
    })
    const testOrder = await makePaidOrder(t.db, product.id, { testMode: true })
    const testGateway = fakeGateway()
    testGateway.testMode = true
    testGateway.refuseWith = 'Paytm refused the refund: Simulated failure'
    await askRefund(testOrder.id, testOrder.amount)
    await runJobs(testGateway, new Date())
    expect((await listOrderRefunds(t.db, testOrder.id))[0]?.status).toBe('failed')
    expect(await shopMails(testOrder.id)).toEqual([])
    // ... and with alerts on it says nobody is owed anything.
    await updateSiteSettings(t.db, { enableNotifications: true })
    const another = await makePaidOrder(t.db, product.id, { testMode: true })
    await askRefund(another.id, another.amount)
    await runJobs(testGateway, new Date())
    const [testMail] = await shopMails(another.id)
    expect(testMail?.text).toContain('This is a test order: no real money was taken')
    expect(testMail?.text).not.toContain('No money went back to the buyer')
    await updateSiteSettings(t.db, { enableNotifications: false })

    // Accepted, then reported failed by its status check: mailed once too.
    const { order: second } = await refundRecordedFailed()
    expect((await shopMails(second.id)).map((mail) => mail.subject)).toEqual([
      `Order ${second.id}: a refund through Paytm failed`,
    ])
    await updateSiteSettings(t.db, { enableNotifications: true })
  })

  it('a refusal while checking an accepted refund keeps it pending, and the gateway’s confirmation settles it', async () => {
    const order = await paidOrder(40_000)
    const gateway = fakeGateway({ settleOnStatus: true })
    const refundId = newRefundId()
    await askRefund(order.id, 40_000, refundId)
    const start = new Date()
    await runJobs(gateway, start)
    const accepted = (await listOrderRefunds(t.db, order.id))[0]!
    expect(accepted).toMatchObject({ status: 'pending', gatewayRefundId: expect.any(String) })
    // The keys were changed in the gateway's dashboard: its status API answers 401.
    gateway.refuseStatusWith = 'Razorpay GET /v1/payments/pay_x/refunds/rfnd_x: HTTP 401'
    await runJobs(gateway, new Date(start.getTime() + 11_000))
    expect((await listOrderRefunds(t.db, order.id))[0]).toMatchObject({
      status: 'pending',
      gatewayMessage: expect.stringContaining('HTTP 401'),
    })
    expect(await refundableAmount(t.db, order.id)).toBe(0)
    expect((await refundJobs(refundId)).filter((j) => j.status === 'pending')).toHaveLength(1)
    expect((await listOrderEvents(t.db, order.id)).map((e) => e.type)).not.toContain(
      'refund_failed',
    )
    // The gateway's webhook says the money went back: the refund settles, the order is refunded.
    expect(
      await confirmRefundFromGateway(t.db, accepted.gateway, {
        gatewayRefundId: accepted.gatewayRefundId!,
        status: 'processed',
        amountPaise: 40_000,
        message: 'refund.processed',
      }),
    ).toBe(true)
    expect((await listOrderRefunds(t.db, order.id))[0]).toMatchObject({ status: 'processed' })
    expect((await getOrder(t.db, order.id))?.status).toBe('refunded')
    expect(await itemStatus(order.id)).toBe('revoked')
  })

  it('a refund the gateway accepted stays pending through a switch to the simulator and back', async () => {
    const order = await paidOrder(25_000)
    const gateway = fakeGateway({ settleOnStatus: true })
    await askRefund(order.id, 25_000)
    const start = new Date()
    await runJobs(gateway, start)
    expect((await listOrderRefunds(t.db, order.id))[0]).toMatchObject({ status: 'pending' })
    gateway.testMode = true
    await runJobs(gateway, new Date(start.getTime() + 11_000))
    expect((await listOrderRefunds(t.db, order.id))[0]).toMatchObject({
      status: 'pending',
      gatewayMessage: expect.stringContaining(
        'the gateway now configured takes test payments only',
      ),
    })
    // Nothing became refundable again, so it cannot be refunded twice.
    expect(await refundableAmount(t.db, order.id)).toBe(0)
    gateway.testMode = false
    await runJobs(gateway, new Date(start.getTime() + 60_000))
    expect((await listOrderRefunds(t.db, order.id))[0]).toMatchObject({ status: 'processed' })
    expect((await getOrder(t.db, order.id))?.status).toBe('refunded')
  })

  it('a refund whose gateway is switched off, or down past every retry, is asked about again later', async () => {
    const order = await paidOrder(15_000)
    const gateway = fakeGateway()
    const refundId = newRefundId()
    await askRefund(order.id, 15_000, refundId)
    const start = new Date()
    await runJobs(null, start)
    expect((await listOrderRefunds(t.db, order.id))[0]).toMatchObject({ status: 'requested' })
    const queued = (await refundJobs(refundId)).filter((j) => j.status === 'pending')
    expect(queued.map((j) => JSON.parse(j.payload) as { check: number })).toEqual([
      expect.objectContaining({ check: 1 }),
    ])
    // Back on, but down: the runner retries; when it would give up, the next check is queued.
    const down: RefundingGateway = {
      testMode: false,
      refund: () => Promise.reject(new GatewayUnreachableError('timed out')),
      refundStatus: () => Promise.reject(new GatewayUnreachableError('timed out')),
    }
    for (let minutes = 1; minutes <= 24 * 60; minutes *= 2)
      await runJobs(down, new Date(start.getTime() + minutes * 60_000))
    expect((await listOrderRefunds(t.db, order.id))[0]).toMatchObject({ status: 'requested' })
    expect((await refundJobs(refundId)).filter((j) => j.status === 'pending')).toHaveLength(1)
    // The gateway answers again: the refund goes through.
    await runJobs(gateway, new Date(start.getTime() + 7 * 24 * 3600_000))
    expect((await listOrderRefunds(t.db, order.id))[0]).toMatchObject({ status: 'processed' })
    expect(gateway.made(order.id)).toBe(1)
  })

  it('a refund recorded failed that the gateway later reports processed counts, with a warning', async () => {
    const { order, failed, confirmation } = await refundRecordedFailed()
    expect(await refundableAmount(t.db, order.id)).toBe(20_000)
    // The money did go back after all (the gateway's word on its own refund is final).
    expect(await confirmRefundFromGateway(t.db, failed.gateway, confirmation)).toBe(true)
    expect((await listOrderRefunds(t.db, order.id))[0]).toMatchObject({ status: 'processed' })
    expect((await getOrder(t.db, order.id))?.status).toBe('refunded')
    expect(await itemStatus(order.id)).toBe('revoked')
    expect(await refundableAmount(t.db, order.id)).toBe(0)
    const events = await listOrderEvents(t.db, order.id)
    expect(events.find((e) => e.type === 'refund_warning')?.message).toMatch(
      /reports refund .+ processed after it was recorded as failed/,
    )
    // Delivered again, the same confirmation changes nothing.
    expect(await confirmRefundFromGateway(t.db, failed.gateway, confirmation)).toBe(true)
    expect(await listOrderEvents(t.db, order.id)).toHaveLength(events.length)
  })

  it('the parts of a refund settling at once make the order refunded (each sees the other)', async () => {
    for (let round = 0; round < 3; round++) {
      const order = await paidOrder(20_000)
      const gateway = fakeGateway({ settleOnStatus: true })
      await askRefund(order.id, 10_000)
      await askRefund(order.id, 10_000)
      await runJobs(gateway, new Date())
      const refunds = await listOrderRefunds(t.db, order.id)
      expect(refunds.map((refund) => refund.status)).toEqual(['pending', 'pending'])
      await Promise.all(
        refunds.map((refund) =>
          confirmRefundFromGateway(t.db, refund.gateway, {
            gatewayRefundId: refund.gatewayRefundId!,
            status: 'processed',
            amountPaise: 10_000,
            message: 'refund.processed',
          }),
        ),
      )
      expect((await getOrder(t.db, order.id))?.status).toBe('refunded')
      expect(await itemStatus(order.id)).toBe('revoked')
      const refundMails = (await mails(order.id)).filter((mail) => mail.kind === 'refunded')
      // One part is told as a part, the other as the whole that is now refunded.
      expect(refundMails.map((mail) => mail.message).sort()).toEqual([
        expect.stringMatching(/^We have refunded ₹100 for .+, ₹200 in all\./),
        expect.stringMatching(/^We have refunded ₹100 of your payment of ₹200 for /),
      ])
    }
  })

  it('Mark refunded waits while a refund waits for the gateway, and changes nothing', async () => {
    const order = await paidOrder(30_000)
    const gateway = fakeGateway({ settleOnStatus: true })
    await askRefund(order.id, 10_000)
    const start = new Date()
    const refused = {
      ok: false,
      message:
        'A refund of ₹100 through Paytm is still waiting for its answer. Mark refunded records money returned outside KeyBazaar: use it once that refund is answered. Nothing was changed.',
    }
    // Requested, then accepted and pending: refused both times.
    expect(await markRefunded(t.db, { orderId: order.id, note: 'bank transfer', actor })).toEqual(
      refused,
    )
    await runJobs(gateway, start)
    expect((await listOrderRefunds(t.db, order.id))[0]?.status).toBe('pending')
    const events = await listOrderEvents(t.db, order.id)
    expect(await markRefunded(t.db, { orderId: order.id, note: 'bank transfer', actor })).toEqual(
      refused,
    )
    expect((await getOrder(t.db, order.id))?.status).toBe('delivered')
    expect(await itemStatus(order.id)).toBe('delivered')
    expect(await listOrderEvents(t.db, order.id)).toHaveLength(events.length)
    expect(await listCreditNotes(t.db, order.id)).toHaveLength(0)
    expect((await mails(order.id)).filter((m) => m.kind === 'refunded')).toHaveLength(0)
    // Answered: the rest may be marked refunded, with a credit note for the ₹200 left.
    await runJobs(gateway, new Date(start.getTime() + 11_000))
    expect(
      await markRefunded(t.db, { orderId: order.id, note: 'bank transfer', actor }),
    ).toMatchObject({ ok: true })
    expect((await getOrder(t.db, order.id))?.status).toBe('refunded')
    // The job ran at a later clock than the action, so its credit note is listed second.
    expect((await listCreditNotes(t.db, order.id)).map((note) => note.amount)).toEqual([
      20_000, 10_000,
    ])
  })

  it('a refund never answered: after its last check, or an error on every try, the shop is told', async () => {
    await updateSiteSettings(t.db, {
      contactEmail: 'owner@example.test',
      enableNotifications: true,
    })
    // A gateway that accepts the refund and never says more.
    const silent: RefundingGateway = {
      testMode: false,
      refund: async (request) => ({
        refundId: `rfnd_${request.refundId.slice(4)}`,
        status: 'pending',
        amountPaise: request.amountPaise,
        message: 'accepted',
      }),
      refundStatus: async (query) => ({
        refundId: `rfnd_${query.refundId.slice(4)}`,
        status: 'pending',
        amountPaise: 0,
        message: 'still pending',
      }),
    }
    const order = await paidOrder(12_000)
    await askRefund(order.id, 12_000)
    let at = Date.now()
    for (let run = 0; run < 60; run++) {
      await runJobs(silent, new Date(at))
      at += 5 * 3600_000
    }
    expect((await listOrderRefunds(t.db, order.id))[0]?.status).toBe('pending')
    expect(await unanswered(order.id)).toEqual({ checking: 0, stopped: 12_000 })
    const warning = (await listOrderEvents(t.db, order.id)).filter(
      (e) => e.type === 'refund_warning',
    )
    expect(warning.map((e) => e.message)).toEqual([
      expect.stringMatching(
        /^Paytm gave no final answer about the refund of ₹120 \(rfnd_\w+\) after 50 checks over about a week; KeyBazaar has stopped asking\.$/,
      ),
    ])
    expect((await listOrderRefunds(t.db, order.id))[0]?.checksStoppedAt).not.toBeNull()
    // The last check run again (a process that died before the runner recorded it) tells no
    // one twice.
    await enqueueJob(
      t.db,
      REFUND_JOB,
      { refundId: (await listOrderRefunds(t.db, order.id))[0]!.id, check: 49 },
      { runAt: new Date(at) },
    )
    await runJobs(silent, new Date(at))
    expect(
      (await listOrderEvents(t.db, order.id)).filter((e) => e.type === 'refund_warning'),
    ).toHaveLength(1)
    expect(await shopMails(order.id)).toEqual([
      {
        subject: `Order ${order.id}: no answer from Paytm about a refund`,
        text: expect.stringContaining(
          'If the money went back to the buyer, or you return it yourself, record it with Mark refunded',
        ),
      },
    ])

    // A refund whose every try fails with an error that is not the gateway being down.
    const broken: RefundingGateway = {
      testMode: false,
      refund: () => Promise.reject(new Error('The merchant key cannot sign')),
      refundStatus: () => Promise.reject(new Error('The merchant key cannot sign')),
    }
    const second = await paidOrder(8_000)
    await askRefund(second.id, 8_000)
    at = Date.now()
    for (let run = 0; run < 12; run++) {
      await runJobs(broken, new Date(at))
      at += 24 * 3600_000
    }
    expect((await listOrderRefunds(t.db, second.id))[0]?.status).toBe('requested')
    expect(await unanswered(second.id)).toEqual({ checking: 0, stopped: 8_000 })
    expect(
      (await listOrderEvents(t.db, second.id))
        .filter((e) => e.type === 'refund_warning')
        .map((e) => e.message),
    ).toEqual([
      'Paytm gave no final answer about the refund of ₹80: each try ended in an error (The merchant key cannot sign); KeyBazaar has stopped asking.',
    ])
    expect((await shopMails(second.id)).map((mail) => mail.subject)).toEqual([
      `Order ${second.id}: no answer from Paytm about a refund`,
    ])

    // An order with no payment at the gateway to refund: told at once, not after a week.
    const third = await paidOrder(5_000)
    await askRefund(third.id, 5_000)
    await t.db.updateTable('order').set({ gatewayTxnId: null }).where('id', '=', third.id).execute()
    await runJobs(silent, new Date())
    expect(await unanswered(third.id)).toEqual({ checking: 0, stopped: 5_000 })
    expect((await shopMails(third.id)).map((mail) => mail.text)).toEqual([
      expect.stringContaining(
        'Paytm gave no final answer about the refund of ₹50: each try ended in an error (the order has no payment at the gateway to refund)',
      ),
    ])
  })

  it('a refund no longer asked about (its job failed, its checks ran out) does not hold up Mark refunded', async () => {
    const order = await paidOrder(30_000)
    const gateway = fakeGateway({ settleOnStatus: true })
    await askRefund(order.id, 10_000)
    await runJobs(gateway, new Date())
    expect(await unanswered(order.id)).toEqual({ checking: 10_000, stopped: 0 })
    // Its job is left running by a process that died: live while the runner may claim it
    // again (attempts left), not once every attempt is spent.
    const lapsed = new Date(Date.now() - 60_000).toISOString()
    const job = t.db
      .updateTable('job')
      .where('type', '=', REFUND_JOB)
      .where('status', 'in', ['pending', 'running'])
    await job.set({ status: 'running', lockedUntil: lapsed, attempts: 3, maxAttempts: 8 }).execute()
    expect(await unanswered(order.id)).toEqual({ checking: 10_000, stopped: 0 })
    await job.set({ attempts: 8 }).execute()
    expect(await unanswered(order.id)).toEqual({ checking: 0, stopped: 10_000 })
    // Or it gives up for good (as the runner leaves a job that failed every attempt).
    await job.set({ status: 'failed' }).execute()
    expect(await unanswered(order.id)).toEqual({ checking: 0, stopped: 10_000 })
    expect(await markRefunded(t.db, { orderId: order.id, note: 'NEFT 77', actor })).toMatchObject({
      ok: true,
    })
    expect((await getOrder(t.db, order.id))?.status).toBe('refunded')
    // The whole payment is recorded refunded: the stuck refund never counted as processed.
    expect((await listCreditNotes(t.db, order.id)).map((note) => note.amount)).toEqual([30_000])
  })

  it('a refund processed after the order was marked refunded warns the shop and mails the buyer no more', async () => {
    await updateSiteSettings(t.db, {
      contactEmail: 'owner@example.test',
      enableNotifications: true,
    })
    const { order, failed, confirmation } = await refundRecordedFailed()
    // The shop refunds by bank transfer and records it.
    expect(await markRefunded(t.db, { orderId: order.id, note: 'NEFT 1234', actor })).toMatchObject(
      { ok: true },
    )
    expect((await mails(order.id)).filter((m) => m.kind === 'refunded')).toHaveLength(1)
    // Then the gateway says its refund went through after all.
    expect(await confirmRefundFromGateway(t.db, failed.gateway, confirmation)).toBe(true)
    expect((await listOrderRefunds(t.db, order.id))[0]).toMatchObject({ status: 'processed' })
    expect((await getOrder(t.db, order.id))?.status).toBe('refunded')
    const events = await listOrderEvents(t.db, order.id)
    const warnings = events.filter((e) => e.type === 'refund_warning')
    expect(warnings.map((e) => e.message)).toEqual([
      expect.stringMatching(
        /^Paytm reports a refund of ₹200 \(rfnd_\w+\) processed \(webhook\) after the order was already refunded; the buyer is not e-mailed again\. Check that the buyer was not refunded twice\.$/,
      ),
    ])
    expect(events.filter((e) => e.type === 'refund_processed')).toHaveLength(0)
    // The shop is mailed to look, with the timeline's words (after the mail about the failure).
    expect((await shopMails(order.id)).filter((mail) => !mail.subject.endsWith('failed'))).toEqual([
      {
        subject: `Order ${order.id}: the buyer may have been refunded twice`,
        text: expect.stringContaining(warnings[0]!.message),
      },
    ])
    // One refund mail, the one Mark refunded sent; one credit note, Mark refunded's.
    expect((await mails(order.id)).filter((m) => m.kind === 'refunded')).toHaveLength(1)
    expect((await listCreditNotes(t.db, order.id)).map((note) => note.amount)).toEqual([20_000])
  })

  it('refuses amounts beyond what is left, an unpaid order and a missing one', async () => {
    const order = await paidOrder(10_000)
    expect(await askRefund(order.id, 10_001)).toEqual({
      ok: false,
      field: 'amount',
      message: 'At most ₹100 is left to refund on this order.',
    })
    expect(
      await requestGatewayRefund(t.db, {
        refundId: newRefundId(),
        orderId: 'ORD_NOPE',
        amountPaise: 100,
        reason: '',
        actor,
      }),
    ).toEqual({
      ok: false,
      message: 'Order not found',
    })
    expect(await listOrderRefunds(t.db, order.id)).toEqual([])
  })
})
