import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import path from 'node:path'
import {
  CompiledQuery,
  SelectQueryNode,
  TableNode,
  UpdateQueryNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  dueReminderKind,
  listExpiryReminders,
  NEVER_ENDS,
  storeValidityEnds,
} from '~/data/expiry-reminder.server'
import { savePreferences, unsubscribeAddress } from '~/data/preferences.server'
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
  makeProduct,
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

/** Reads of the `order` table (queries and rows they returned) and updates of it. */
class OrderReads implements KyselyPlugin {
  queries = 0
  rows = 0
  updates = 0
  /** The SQL of each read, as the engine runs it. */
  readonly statements: CompiledQuery[] = []
  readonly #reads = new WeakSet<object>()
  constructor(private readonly db: DB) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const { node, queryId } = args
    if (SelectQueryNode.is(node) && (node.from?.froms ?? []).some(isOrderTable)) {
      this.queries++
      this.#reads.add(queryId)
      this.statements.push(this.db.getExecutor().compileQuery(node, queryId))
    } else if (UpdateQueryNode.is(node) && isOrderTable(node.table)) {
      this.updates++
    }
    return node
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#reads.has(args.queryId)) this.rows += args.result.rows.length
    return args.result
  }
}

const isOrderTable = (node: OperationNode | undefined) =>
  !!node && TableNode.is(node) && node.table.identifier.name === 'order'

/** A check at `now` that counts what it read of the orders. */
async function countedSend(now: Date) {
  const reads = new OrderReads(t.db)
  const queued = await send(now, t.db.withPlugin(reads))
  return { queued, reads }
}

/**
 * `count` orders of the product delivered at `deliveredAt`, written straight to the tables (as
 * years of sales would have left them), each with its own buyer `${prefix}.{n}@example.in`.
 */
async function seedDeliveredOrders(
  product: { id: string; title: string },
  count: number,
  options: { validity: string; deliveredAt: number; prefix: string },
): Promise<string[]> {
  const at = new Date(options.deliveredAt).toISOString()
  const tag = crypto.randomBytes(4).toString('hex')
  const ids = Array.from({ length: count }, (_, n) => `ORD_SEED_${tag}_${n}`)
  for (let i = 0; i < ids.length; i += 200) {
    const chunk = ids.slice(i, i + 200)
    await t.db
      .insertInto('order')
      .values(
        chunk.map((id, n) => ({
          id,
          status: 'delivered' as const,
          productId: product.id,
          productName: product.title,
          amount: 19_900,
          customerName: 'Seed Buyer',
          customerEmail: `${options.prefix}.${i + n}@example.in`,
          customerPhone: '9876543210',
          accessTokenHash: crypto.randomBytes(16).toString('hex'),
          validity: options.validity,
          createdAt: at,
          updatedAt: at,
          paidAt: at,
        })),
      )
      .execute()
    await t.db
      .insertInto('orderEvent')
      .values(chunk.map((orderId) => ({ orderId, type: 'delivered', createdAt: at })))
      .execute()
  }
  return ids
}

const storedEndOf = async (orderId: string) =>
  (
    await t.db
      .selectFrom('order')
      .select('validityEndsAt')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
  ).validityEndsAt

describe(`what a check reads (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('reads only the orders ending about now, however many others were delivered', async () => {
    // What a check with nothing new due reads: the earlier tests' orders still in the window.
    const before = await countedSend(at(23.5))
    expect(before.queued).toBe(0)

    // Years of sales that can never be due now: terms that ended long ago without a 1-day
    // reminder, lifetime items, long terms ending years ahead, and due ones of a buyer who
    // unsubscribed.
    const product = await makeProduct(t.db, { title: 'Seeded Cinema', validity: '30 days' })
    const longAgo = DELIVERED - 400 * DAY
    const ended = await seedDeliveredOrders(product, 1500, {
      validity: '30 days',
      deliveredAt: longAgo,
      prefix: 'ended',
    })
    const lifetime = await seedDeliveredOrders(product, 1500, {
      validity: 'Lifetime',
      deliveredAt: DELIVERED,
      prefix: 'lifetime',
    })
    const years = await seedDeliveredOrders(product, 1000, {
      validity: '10 years',
      deliveredAt: DELIVERED,
      prefix: 'years',
    })
    // Their ends are counted once, by the next check.
    const counting = await countedSend(at(0))
    expect(counting.queued).toBe(0)
    expect(counting.reads.updates).toBeGreaterThanOrEqual(8)
    expect(await storedEndOf(ended[0]!)).toBe(new Date(longAgo + 30 * DAY).toISOString())
    expect(await storedEndOf(lifetime[0]!)).toBe(NEVER_ENDS)
    expect(await storedEndOf(years[0]!)).toBe('2036-03-01T10:00:00.000Z')

    // From then on none of the 4,000 is read, and nothing is counted again.
    const after = await countedSend(at(23.5))
    expect(after.queued).toBe(0)
    expect(after.reads.updates).toBe(0)
    expect(after.reads.queries).toBe(before.reads.queries)
    expect(after.reads.rows).toBe(before.reads.rows)
    expect(after.reads.rows).toBeLessThan(50)

    // Orders that are due are still found among them, at the cost of reading just those.
    const due = await seedDeliveredOrders(product, 3, {
      validity: '30 days',
      deliveredAt: DELIVERED,
      prefix: 'due.seeded',
    })
    await seedDeliveredOrders(product, 1, {
      validity: '30 days',
      deliveredAt: DELIVERED,
      prefix: 'due.optedout',
    })
    await unsubscribeAddress(t.db, 'due.optedout.0@example.in', 'offers')
    const sent = await countedSend(at(23.5))
    expect(sent.queued).toBe(3)
    expect(sent.reads.rows).toBeLessThanOrEqual(before.reads.rows + 4 + 4)
    for (const id of due) {
      expect((await listExpiryReminders(t.db, id)).map((row) => row.kind)).toEqual(['7d'])
    }

    // The database finds the window through the index, not by reading every delivered order.
    const window = sent.reads.statements.find((query) => query.sql.includes('"validity_ends_at" >'))
    expect(window).toBeDefined()
    if (t.engine === 'postgres') await t.db.executeQuery(CompiledQuery.raw('analyze "order"'))
    const plan = await t.db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(
        `${t.engine === 'postgres' ? 'explain' : 'explain query plan'} ${window!.sql}`,
        [...window!.parameters],
      ),
    )
    const text = plan.rows.map((row) => Object.values(row).join(' ')).join('\n')
    expect(text).toContain('order_status_validity_ends_at_idx')
    expect(text).not.toMatch(/SCAN "?order"?(?! USING)|Seq Scan on "?order"?/)
  })

  it("still finds a term after the shop's time zone changed since its end was counted", async () => {
    // 01:30 on 31 January in India, 15:00 on 30 January in New York: a month ends on 28 February
    // either way, a day apart (27 February 20:00 UTC in India, 28 February 20:00 UTC in New York).
    const email = 'moved.zone@example.in'
    const { order } = await deliveredOrder({
      email,
      validity: '1 month',
      deliveredAt: Date.parse('2026-01-30T20:00:00.000Z'),
    })
    expect(await send(new Date('2026-02-10T00:00:00.000Z'))).toBe(0)
    expect(await storedEndOf(order.id)).toBe('2026-02-27T20:00:00.000Z')
    await updateSiteSettings(t.db, { timezone: 'America/New_York' })
    try {
      // Past the end counted in India, within the last day of the term counted in New York.
      expect(await send(new Date('2026-02-28T10:00:00.000Z'))).toBe(1)
    } finally {
      await updateSiteSettings(t.db, { timezone: 'Asia/Kolkata' })
    }
    expect(await listExpiryReminders(t.db, order.id)).toEqual([
      expect.objectContaining({ kind: '1d', expiresAt: '2026-02-28T20:00:00.000Z' }),
    ])
  })

  it('counts each end once even when two checks count at the same time', async () => {
    const product = await makeProduct(t.db, { title: 'Counted Twice', validity: '30 days' })
    const ids = await seedDeliveredOrders(product, 1200, {
      validity: '30 days',
      deliveredAt: DELIVERED - 400 * DAY,
      prefix: 'counted.twice',
    })
    const second = t.engine === 'postgres' ? other : t.db
    const uncounted = await t.db
      .selectFrom('order')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'delivered')
      .where('validityEndsAt', 'is', null)
      .executeTakeFirstOrThrow()
    const counts = await Promise.all([
      storeValidityEnds(t.db, 'Asia/Kolkata'),
      storeValidityEnds(second, 'Asia/Kolkata'),
    ])
    // Each order's end stored by one of them, never by both.
    expect(Number(uncounted.n)).toBeGreaterThanOrEqual(1200)
    expect(counts[0]! + counts[1]!).toBe(Number(uncounted.n))
    const left = await t.db
      .selectFrom('order')
      .select('id')
      .where('id', 'in', ids)
      .where('validityEndsAt', 'is', null)
      .execute()
    expect(left).toEqual([])
  })
})

/**
 * Runs a check in a process of its own (as a second server or worker would), started at once
 * when the returned `go` is called, and resolves with how many reminders it queued.
 */
async function sweepInAnotherProcess(now: Date): Promise<{ go: () => Promise<number> }> {
  const root = path.resolve(import.meta.dirname, '../../..')
  const database =
    t.engine === 'postgres'
      ? { databaseUrl: process.env.TEST_DATABASE_URL, pgSchema: t.location, maxConnections: 4 }
      : { sqlitePath: t.location }
  const script = `
    const { createDatabase } = await import(${JSON.stringify(path.join(root, 'app/lib/db.server.ts'))})
    const { sendExpiryReminders } = await import(
      ${JSON.stringify(path.join(root, 'app/services/notifications/expiry-reminder.server.ts'))}
    )
    const db = createDatabase(${JSON.stringify(database)})
    process.stdout.write('ready\\n')
    await new Promise((resolve) => process.stdin.once('data', resolve))
    const queued = await sendExpiryReminders(db, {
      now: new Date(${JSON.stringify(now.toISOString())}),
      publicUrl: ${JSON.stringify(PUBLIC_URL)},
      appSecret: ${JSON.stringify(APP_SECRET)},
    })
    process.stdout.write('queued ' + queued + '\\n')
    await db.destroy()
    process.stdin.destroy()
  `
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '--eval', script],
    { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] },
  )
  let output = ''
  const exited = new Promise<number>((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code) => {
      const queued = /queued (\d+)/.exec(output)?.[1]
      if (code === 0 && queued !== undefined) resolve(Number(queued))
      else reject(new Error(`the other process ended with ${code}: ${output}`))
    })
  })
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('ready')) resolve()
    })
    exited.catch(reject)
  })
  return {
    go: () => {
      child.stdin!.write('go\n')
      return exited
    },
  }
}

describe(`two processes checking at once (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('sends each reminder once', async () => {
    const product = await makeProduct(t.db, { title: 'Raced Cinema', validity: '30 days' })
    const ids = await seedDeliveredOrders(product, 60, {
      validity: '30 days',
      deliveredAt: DELIVERED,
      prefix: 'raced',
    })
    // The other process is loaded and connected; both checks then start together.
    const another = await sweepInAnotherProcess(at(23.5))
    const [theirs, ours] = await Promise.all([another.go(), send(at(23.5))])
    expect(theirs + ours).toBe(60)
    const reminders = await t.db
      .selectFrom('expiryReminder')
      .select(['orderId', 'kind'])
      .where('orderId', 'in', ids)
      .execute()
    expect(reminders).toHaveLength(60)
    await deliverMail()
    for (let n = 0; n < 60; n++) expect(mailsTo(`raced.${n}@example.in`)).toHaveLength(1)
  }, 60_000)
})
