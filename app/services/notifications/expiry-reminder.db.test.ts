import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { dueReminderKind, listExpiryReminders } from '~/data/expiry-reminder.server'
import { savePreferences } from '~/data/preferences.server'
import { updateProduct } from '~/data/product.server'
import { deleteUserAccount } from '~/data/user.server'
import { updateSiteSettings } from '~/data/settings.server'
import type { DB } from '~/lib/db.server'
import { runDueJobs } from '~/lib/jobs.server'
import { createMailer, mailJobHandlers } from '~/lib/mail.server'
import { orderIdFromRenewToken, renewToken } from '~/lib/renew-link.server'
import {
  makeCustomer,
  makeOrder,
  makeStockedProduct,
  payOrder,
  productInput,
} from '../../../tests/factories'
import { openSecondConnection, fileTestDb } from '../../../tests/helpers/db'
import { startSmtpServer, type TestSmtpServer } from '../../../tests/helpers/smtp'
import { renewalPrefill, sendExpiryReminders } from './expiry-reminder.server'

const APP_SECRET = 'r'.repeat(64)
const PUBLIC_URL = 'https://shop.example.in'
const DAY = 24 * 60 * 60 * 1000
/** Every test order is delivered at this instant; the product lasts 30 days from it. */
const DELIVERED = Date.parse('2026-03-01T10:00:00.000Z')
const at = (days: number) => new Date(DELIVERED + days * DAY)

const t = fileTestDb()
let other: DB
let smtp: TestSmtpServer
beforeAll(async () => {
  // A second connection to the same database, as another process of the shop would open.
  other = openSecondConnection(t, { maxConnections: 4 })
  smtp = await startSmtpServer()
})
afterAll(async () => {
  await other?.destroy()
  await smtp?.close()
})
beforeEach(async () => {
  // Each test looks at its own orders only: earlier tests' reminders are all sent by now.
  await sendExpiryReminders(t.db, { now: at(29.9), publicUrl: PUBLIC_URL, appSecret: APP_SECRET })
  await deliverMail()
  smtp.mails.length = 0
})

/** Sends the queued mails through the real SMTP server, as the job runner would. */
async function deliverMail() {
  const mailer = createMailer({
    SMTP_URL: smtp.url,
    MAIL_FROM: undefined,
    PUBLIC_URL,
    DATA_DIR: '/nonexistent',
  })
  while ((await runDueJobs(t.db, mailJobHandlers({ mailer }), { log: () => {} })) > 0) {
    // Until the outbox is empty.
  }
}

async function deliveredOrder(options: {
  validity?: string
  email?: string
  userId?: string
  deliveredAt?: number
}) {
  const product = await makeStockedProduct(t.db, APP_SECRET, [`user${Math.random()}@x.in:pw`], {
    title: `Cinema ${Math.random().toString(36).slice(2, 7)}`,
    validity: options.validity ?? '30 days',
  })
  const order = await payOrder(
    t.db,
    await makeOrder(t.db, product.id, {
      userId: options.userId ?? null,
      customer: {
        name: 'Asha Verma',
        email: options.email ?? `guest.${Math.random().toString(36).slice(2, 8)}@example.in`,
        phone: '9876543210',
      },
    }),
  )
  expect(order.status).toBe('delivered')
  await t.db
    .updateTable('orderEvent')
    .set({ createdAt: new Date(options.deliveredAt ?? DELIVERED).toISOString() })
    .where('orderId', '=', order.id)
    .where('type', '=', 'delivered')
    .execute()
  return { order, product }
}

const send = (now: Date, db: DB = t.db) =>
  sendExpiryReminders(db, { now, publicUrl: PUBLIC_URL, appSecret: APP_SECRET })

const mailsTo = (email: string) => smtp.mails.filter((mail) => mail.to.includes(email))

describe('when a reminder is due', () => {
  const term = {
    deliveredAt: new Date(DELIVERED).toISOString(),
    expiresAt: at(30).toISOString(),
  }
  it('is the 7-day one from 7 days before the end, then the 1-day one, then none', () => {
    expect(dueReminderKind(term, at(22.9))).toBeNull()
    expect(dueReminderKind(term, at(23))).toBe('7d')
    expect(dueReminderKind(term, at(28.9))).toBe('7d')
    expect(dueReminderKind(term, at(29))).toBe('1d')
    expect(dueReminderKind(term, at(29.99))).toBe('1d')
    expect(dueReminderKind(term, at(30))).toBeNull()
  })

  it('is never one whose window began before the item was delivered', () => {
    const short = { deliveredAt: term.deliveredAt, expiresAt: at(5).toISOString() }
    expect(dueReminderKind(short, at(1))).toBeNull()
    expect(dueReminderKind(short, at(4.5))).toBe('1d')
  })
})

describe(`expiry reminders (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('mails 7 days and 1 day before the end, once each, with a Renew link to the checkout', async () => {
    const email = 'renew.me@example.in'
    await updateSiteSettings(t.db, { whatsappNumber: '919876543210' })
    const { order, product } = await deliveredOrder({ email })

    expect(await send(at(22))).toBe(0)
    expect(await send(at(23.5))).toBe(1)
    await deliverMail()
    expect(mailsTo(email)).toHaveLength(1)
    const week = mailsTo(email)[0]!
    expect(week.subject).toBe(`Your ${product.title} expires in 7 days`)
    expect(week.text).toContain('Hello Asha Verma,')
    expect(week.text).toContain(`(order ${order.id}) runs out on 31 March 2026, in 7 days.`)
    expect(week.text).toContain(`${PUBLIC_URL}/dashboard/settings`)
    const link = /https:\/\/\S+\/checkout\/\S+/.exec(week.text)![0]
    const url = new URL(link)
    expect(url.pathname).toBe(`/checkout/${product.slug}`)
    expect(orderIdFromRenewToken(APP_SECRET, url.searchParams.get('renew'))).toBe(order.id)
    expect(week.html).toContain('>Renew</a>')
    // Its WhatsApp link names the order, as the order's own mails do.
    expect(week.text).toMatch(
      new RegExp(`https://wa\\.me/919876543210\\?text=\\S*${encodeURIComponent(order.id)}`),
    )

    // Checked again (a restart, the next run): nothing new.
    expect(await send(at(24))).toBe(0)
    expect(await send(at(28.9))).toBe(0)

    expect(await send(at(29.2))).toBe(1)
    expect(await send(at(29.5))).toBe(0)
    expect(await send(at(31))).toBe(0)
    await deliverMail()
    expect(mailsTo(email).map((mail) => mail.subject)).toEqual([
      `Your ${product.title} expires in 7 days`,
      `Your ${product.title} expires in 1 day`,
    ])
    expect((await listExpiryReminders(t.db, order.id)).map((row) => row.kind)).toEqual(['7d', '1d'])
  })

  it('sends each reminder once when two processes check at the same moment', async () => {
    const emails = ['twin.a@example.in', 'twin.b@example.in', 'twin.c@example.in']
    for (const email of emails) await deliveredOrder({ email })
    // PostgreSQL: truly at once, on two connection pools. SQLite has one writer at a time, so
    // the second process's check runs right after the first.
    const counts =
      t.engine === 'postgres'
        ? await Promise.all([send(at(23.5), t.db), send(at(23.5), other)])
        : [await send(at(23.5), t.db), await send(at(23.5), other)]
    expect(counts[0]! + counts[1]!).toBe(3)
    await deliverMail()
    for (const email of emails) expect(mailsTo(email)).toHaveLength(1)
  })

  it("honours the buyer's notification preference, signed in or as a guest with an account", async () => {
    const quiet = await makeCustomer(t.db, { email: 'quiet@example.in' })
    await savePreferences(t.db, quiet.id, { notifications: false })
    const keen = await makeCustomer(t.db, { email: 'keen@example.in' })
    await deliveredOrder({ email: quiet.email, userId: quiet.id })
    // A guest order by the address of an account that turned notifications off.
    await deliveredOrder({ email: 'quiet@example.in' })
    await deliveredOrder({ email: keen.email, userId: keen.id })
    await deliveredOrder({ email: 'no.account@example.in' })

    expect(await send(at(23.5))).toBe(2)
    await deliverMail()
    expect(mailsTo('quiet@example.in')).toHaveLength(0)
    expect(mailsTo('keen@example.in')).toHaveLength(1)
    expect(mailsTo('no.account@example.in')).toHaveLength(1)

    // Turned back on in time: the reminder still due is sent.
    await savePreferences(t.db, quiet.id, { notifications: true })
    expect(await send(at(24))).toBe(2)
  })

  it('sends nothing for the orders of a deleted account', async () => {
    const leaving = await makeCustomer(t.db, { email: 'leaving.soon@example.in' })
    await deliveredOrder({ email: leaving.email, userId: leaving.id })
    expect((await deleteUserAccount(t.db, leaving.id)).ordersAnonymised).toBe(1)
    expect(await send(at(23.5))).toBe(0)
    const jobs = await t.db
      .selectFrom('job')
      .select('payload')
      .where('status', '=', 'pending')
      .execute()
    expect(jobs.filter((job) => String(job.payload).includes('.invalid'))).toEqual([])
  })

  it('sends nothing for a test-mode order (a simulator purchase, the demo buyers)', async () => {
    const { order } = await deliveredOrder({ email: 'simulated.buyer@example.in' })
    await t.db.updateTable('order').set({ testMode: 1 }).where('id', '=', order.id).execute()
    expect(await send(at(23.5))).toBe(0)
    await deliverMail()
    expect(mailsTo('simulated.buyer@example.in')).toHaveLength(0)
  })

  it('sends nothing while the shop has reminders switched off, and nothing for open-ended items', async () => {
    await deliveredOrder({ email: 'switched.off@example.in' })
    await deliveredOrder({ email: 'lifetime@example.in', validity: 'Lifetime' })
    await updateSiteSettings(t.db, { expiryReminders: false })
    try {
      expect(await send(at(23.5))).toBe(0)
    } finally {
      await updateSiteSettings(t.db, { expiryReminders: true })
    }
    expect(await send(at(23.5))).toBe(1)
    await deliverMail()
    expect(mailsTo('switched.off@example.in')).toHaveLength(1)
    expect(mailsTo('lifetime@example.in')).toHaveLength(0)
  })

  it("counts the term the order was sold with, not the product's validity edited since", async () => {
    const email = 'sold.term@example.in'
    const { order, product } = await deliveredOrder({ email, validity: '30 days' })
    await updateProduct(
      t.db,
      product.id,
      productInput({ title: product.title, slug: product.slug, validity: '60 days' }),
    )
    expect(await send(at(23.5))).toBe(1)
    await deliverMail()
    expect(mailsTo(email)).toHaveLength(1)
    expect(mailsTo(email)[0]!.text).toContain(
      `(order ${order.id}) runs out on 31 March 2026, in 7 days.`,
    )
    expect((await listExpiryReminders(t.db, order.id)).map((row) => row.expiresAt)).toEqual([
      at(30).toISOString(),
    ])
  })

  it('reminds the buyer of an item sold without a validity a year after its delivery', async () => {
    const email = 'no.validity@example.in'
    const { order, product } = await deliveredOrder({ email, validity: '' })
    const yearLater = Date.parse('2027-03-01T10:00:00.000Z')
    expect(await send(at(23.5))).toBe(0)
    expect(await send(new Date(yearLater - 6.5 * DAY))).toBe(1)
    await deliverMail()
    expect(await send(new Date(yearLater - 0.5 * DAY))).toBe(1)
    await deliverMail()
    expect(mailsTo(email).map((mail) => mail.subject)).toEqual([
      `Your ${product.title} expires in 7 days`,
      `Your ${product.title} expires in 1 day`,
    ])
    expect(await listExpiryReminders(t.db, order.id)).toEqual([
      expect.objectContaining({ kind: '7d', expiresAt: new Date(yearLater).toISOString() }),
      expect.objectContaining({ kind: '1d', expiresAt: new Date(yearLater).toISOString() }),
    ])
  })

  it("counts the term on the shop's calendar: a month from 01:00 on 1 March in India ends on 1 April", async () => {
    const email = 'early.morning@example.in'
    // 01:00 on 1 March in the shop's time zone (Asia/Kolkata by default), 28 February in UTC.
    const early = Date.parse('2026-02-28T19:30:00.000Z')
    const { order, product } = await deliveredOrder({
      email,
      validity: '1 month',
      deliveredAt: early,
    })
    const end = '2026-03-31T19:30:00.000Z'
    await send(new Date(Date.parse(end) - 6.5 * DAY))
    await deliverMail()
    expect(mailsTo(email).map((mail) => mail.subject)).toEqual([
      `Your ${product.title} expires in 7 days`,
    ])
    expect(mailsTo(email)[0]!.text).toContain(
      `(order ${order.id}) runs out on 1 April 2026, in 7 days.`,
    )
    expect((await listExpiryReminders(t.db, order.id)).map((row) => row.expiresAt)).toEqual([end])
  })

  it("prefills the checkout only from a genuine link for the order's own product", async () => {
    const { order, product } = await deliveredOrder({ email: 'prefill@example.in' })
    const { product: another } = await deliveredOrder({})
    await send(at(23.5))
    await deliverMail()
    const link = new URL(
      /https:\/\/\S+\/checkout\/\S+/.exec(mailsTo('prefill@example.in')[0]!.text)![0],
    )
    const token = link.searchParams.get('renew')
    expect(await renewalPrefill(t.db, APP_SECRET, token, product.id)).toEqual({
      name: 'Asha Verma',
      email: 'prefill@example.in',
      phone: '9876543210',
    })
    expect(await renewalPrefill(t.db, APP_SECRET, token, another.id)).toBeNull()
    expect(await renewalPrefill(t.db, 'x'.repeat(64), token, product.id)).toBeNull()
    expect(await renewalPrefill(t.db, APP_SECRET, `${order.id}.forged`, product.id)).toBeNull()
    expect(await renewalPrefill(t.db, APP_SECRET, null, product.id)).toBeNull()
  })

  it("fills in nothing from the Renew link of a deleted account's order", async () => {
    const leaving = await makeCustomer(t.db, { email: 'renew.then.leave@example.in' })
    const { order, product } = await deliveredOrder({ email: leaving.email, userId: leaving.id })
    const token = renewToken(APP_SECRET, order.id)
    expect(await renewalPrefill(t.db, APP_SECRET, token, product.id)).toMatchObject({
      email: leaving.email,
    })
    await deleteUserAccount(t.db, leaving.id)
    expect(await renewalPrefill(t.db, APP_SECRET, token, product.id)).toBeNull()
  })
})
