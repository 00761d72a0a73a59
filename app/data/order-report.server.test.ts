import { beforeAll, describe, expect, it } from 'vitest'
import { MAIL_JOB } from '~/lib/mail.server'
import { ORDER_MAIL_JOB } from '~/services/notifications/order-mail.server'
import { fileTestDb } from '../../tests/helpers/db'
import { BUYER, makeProduct } from '../../tests/factories'
import {
  createOrder,
  listOrderEvents,
  type CustomerDetails,
  type OrderStatus,
} from './order.server'
import {
  countOpenReports,
  listOpenReports,
  listOrderReports,
  REPORT_MESSAGES,
  REPORT_REASON_MAX,
  resolveOrderReport,
} from './order-report.server'
import { createOrderReport } from '~/services/order-reports.server'
import { updateSiteSettings } from './settings.server'
import { createUser } from './user.server'

const t = fileTestDb()
let productId: string
let owner: string
let helper: string
let buyer: string
beforeAll(async () => {
  productId = (await makeProduct(t.db, { title: 'CloudBox 1 TB' })).id
  await updateSiteSettings(t.db, { contactEmail: 'help@shop.example' })
  owner = (await createUser(t.db, { email: 'owner@shop.example', name: 'Owner', admin: true })).id
  helper = (await createUser(t.db, { email: 'help@shop.example', name: 'Helper', admin: true })).id
  buyer = (await createUser(t.db, { email: 'buyer@example.in', name: 'Buyer' })).id
})

async function order(
  status: OrderStatus,
  customer: CustomerDetails = BUYER,
  createdAt?: Date,
): Promise<string> {
  const created = await createOrder(
    t.db,
    { productId, customer },
    createdAt ? { now: () => createdAt.getTime() } : {},
  )
  await t.db.updateTable('order').set({ status }).where('id', '=', created.order.id).execute()
  return created.order.id
}

async function jobs(type: string) {
  const rows = await t.db.selectFrom('job').select(['payload']).where('type', '=', type).execute()
  return rows.map((row) => JSON.parse(row.payload) as Record<string, unknown>)
}

describe(`problem reports (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('refuses a reason that is too short or too long, and changes nothing', async () => {
    const id = await order('delivered')
    expect(
      await createOrderReport(t.db, { orderId: id, reason: '  broken  ', reportedBy: 'customer' }),
    ).toEqual({
      ok: false,
      error: REPORT_MESSAGES.tooShort,
    })
    expect(REPORT_MESSAGES.tooShort).toBe('Please describe the problem in at least 10 characters.')
    expect(
      await createOrderReport(t.db, {
        orderId: id,
        reason: 'x'.repeat(REPORT_REASON_MAX + 1),
        reportedBy: 'customer',
      }),
    ).toEqual({ ok: false, error: 'Please keep the description under 2000 characters.' })
    expect(await listOrderReports(t.db, id)).toEqual([])
    expect((await listOrderEvents(t.db, id)).map((event) => event.type)).toEqual(['created'])
  })

  it('accepts reports only for delivered orders', async () => {
    for (const status of ['pending', 'paid', 'awaiting_stock', 'refunded', 'failed'] as const) {
      const id = await order(status)
      const result = await createOrderReport(t.db, {
        orderId: id,
        reason: 'The password does not work',
        reportedBy: 'customer',
      })
      expect(result, status).toEqual({
        ok: false,
        error: 'Only a delivered order can be reported.',
      })
    }
    expect(
      await createOrderReport(t.db, {
        orderId: 'ORD_0_0',
        reason: 'The password does not work',
        reportedBy: 'customer',
      }),
    ).toEqual({
      ok: false,
      error: REPORT_MESSAGES.notDelivered,
    })
  })

  it('opens a report with a timeline entry and mails the shop once per address', async () => {
    const id = await order('delivered')
    const mailsBefore = (await jobs(MAIL_JOB)).length
    const result = await createOrderReport(t.db, {
      orderId: id,
      reason: '  The password does not work any more  ',
      reportedBy: `user:${buyer}`,
    })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.report).toMatchObject({
      orderId: id,
      reason: 'The password does not work any more',
      status: 'open',
      reportedBy: `user:${buyer}`,
      resolution: null,
    })
    const events = await listOrderEvents(t.db, id)
    expect(events.at(-1)).toMatchObject({
      type: 'problem_reported',
      actor: `user:${buyer}`,
      message: 'Buyer reported a problem: The password does not work any more',
      data: { reportId: result.report.id },
    })
    // The contact address is also an admin's: one mail to it, one to the other admin.
    const mails = (await jobs(MAIL_JOB)).slice(mailsBefore)
    expect(mails.map((mail) => mail.to).sort()).toEqual(['help@shop.example', 'owner@shop.example'])
    expect(mails[0]).toMatchObject({ subject: `Problem reported on order ${id}: CloudBox 1 TB` })
    expect(String(mails[0]!.text)).toContain('The password does not work any more')
  })

  it('keeps one open report per order, also when two arrive at once', async () => {
    const id = await order('delivered')
    const results = await Promise.all(
      [1, 2, 3].map((n) =>
        createOrderReport(t.db, {
          orderId: id,
          reason: `Attempt ${n}: it does not work`,
          reportedBy: 'customer',
        }),
      ),
    )
    expect(results.filter((result) => result.ok)).toHaveLength(1)
    expect(results.filter((result) => !result.ok)).toEqual([
      { ok: false, error: REPORT_MESSAGES.alreadyOpen },
      { ok: false, error: REPORT_MESSAGES.alreadyOpen },
    ])
    expect(await listOrderReports(t.db, id)).toHaveLength(1)
  })

  it('resolves the open report once, with a timeline entry and the reply (mailed by the caller)', async () => {
    const id = await order('delivered')
    const created = await createOrderReport(t.db, {
      orderId: id,
      reason: 'The key was already used',
      reportedBy: 'customer',
    })
    expect(created.ok).toBe(true)
    const repliesBefore = (await jobs(ORDER_MAIL_JOB)).length
    const at = new Date('2026-11-20T10:00:00.000Z')
    expect(
      await resolveOrderReport(
        t.db,
        {
          orderId: id,
          resolution: 'replied',
          actor: `user:${owner}`,
          reply: '  Please try the key again now.  ',
        },
        at,
      ),
    ).toBe(true)
    expect(
      await resolveOrderReport(t.db, {
        orderId: id,
        resolution: 'replied',
        actor: `user:${owner}`,
        reply: 'Again',
      }),
    ).toBe(false)
    const [report] = await listOrderReports(t.db, id)
    expect(report).toMatchObject({
      status: 'resolved',
      resolution: 'replied',
      reply: 'Please try the key again now.',
      resolvedBy: `user:${owner}`,
      resolvedAt: at.toISOString(),
    })
    expect((await listOrderEvents(t.db, id)).at(-1)).toMatchObject({
      type: 'report_resolved',
      actor: `user:${owner}`,
      message: 'Report resolved (replied): Please try the key again now.',
    })
    // Mail is a workflow's business (replyToReport in app/services/order-actions.server.ts).
    expect((await jobs(ORDER_MAIL_JOB)).slice(repliesBefore)).toEqual([])
    // Resolved: the buyer may report again.
    expect(
      (
        await createOrderReport(t.db, {
          orderId: id,
          reason: 'Still does not work',
          reportedBy: 'customer',
        })
      ).ok,
    ).toBe(true)
    expect((await listOrderReports(t.db, id)).map((r) => r.status)).toEqual(['open', 'resolved'])
  })

  it('resolves without a reply mail when the resolution is the action itself', async () => {
    const id = await order('delivered')
    await createOrderReport(t.db, {
      orderId: id,
      reason: 'Account locked, please help',
      reportedBy: 'customer',
    })
    const before = (await jobs(ORDER_MAIL_JOB)).length
    expect(
      await resolveOrderReport(t.db, {
        orderId: id,
        resolution: 'replaced',
        actor: `user:${helper}`,
      }),
    ).toBe(true)
    expect((await jobs(ORDER_MAIL_JOB)).length).toBe(before)
    expect((await listOrderReports(t.db, id))[0]).toMatchObject({
      resolution: 'replaced',
      reply: null,
    })
  })

  it('lists open reports across the shop oldest first, with the order, and counts them', async () => {
    // Reports made earlier in this file may still be open; look at a fresh set by id.
    const before = await countOpenReports(t.db)
    const customer = { name: 'Ravi Kumar', email: 'ravi@example.in', phone: '9123456780' }
    const first = await order('delivered', customer)
    const second = await order('delivered', customer)
    await createOrderReport(
      t.db,
      { orderId: first, reason: 'First: profile missing', reportedBy: 'customer' },
      new Date('2026-01-01T00:00:00.000Z'),
    )
    await createOrderReport(
      t.db,
      { orderId: second, reason: 'Second: wrong region', reportedBy: 'customer' },
      new Date('2026-01-02T00:00:00.000Z'),
    )
    expect(await countOpenReports(t.db)).toBe(before + 2)
    const open = await listOpenReports(t.db)
    const ours = open.filter((report) => report.orderId === first || report.orderId === second)
    expect(ours.map((report) => report.orderId)).toEqual([first, second])
    expect(ours[0]).toMatchObject({
      productName: 'CloudBox 1 TB',
      customerName: 'Ravi Kumar',
      customerEmail: 'ravi@example.in',
      orderStatus: 'delivered',
    })
    // Oldest first across the whole shop, and the limit applies.
    expect(open.map((report) => report.createdAt)).toEqual(
      [...open.map((report) => report.createdAt)].sort(),
    )
    expect(await listOpenReports(t.db, { limit: 1 })).toHaveLength(1)
    await resolveOrderReport(t.db, {
      orderId: first,
      resolution: 'refunded',
      actor: `user:${owner}`,
    })
    expect(await countOpenReports(t.db)).toBe(before + 1)
    expect((await listOpenReports(t.db)).some((report) => report.orderId === first)).toBe(false)
  })
})
