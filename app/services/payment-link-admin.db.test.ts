import { describe, expect, it } from 'vitest'
import { listAuditEntries } from '~/data/audit.server'
import { OrderError } from '~/data/order.server'
import { getPaymentLink } from '~/data/payment-link.server'
import { newId } from '~/lib/id.server'
import { fileSecondConnection, fileTestDb } from '../../tests/helpers/db'
import { BUYER, makeAdmin, makeProduct } from '../../tests/factories'
import { PAYMENT_LINK_MAIL_JOB } from './notifications/payment-link-mail.server'
import {
  cancelPaymentLinkAudited,
  createPaymentLinkAudited,
  emailPaymentLinkAudited,
  PaymentLinkMailLimitError,
} from './payment-link-admin.server'

/** Payment links made, e-mailed and cancelled from the back office, each with its audit entry. */
const t = fileTestDb()
const other = fileSecondConnection(t)
const URL_BASE = 'https://shop.example.in'

async function owner() {
  const admin = await makeAdmin(t.db)
  return { actor: { id: admin.id, name: admin.name, email: admin.email }, ip: '203.0.113.7' }
}

/** The payment-link mails queued for a link. */
async function mailsQueued(linkId: string): Promise<number> {
  const jobs = await t.db
    .selectFrom('job')
    .select('payload')
    .where('type', '=', PAYMENT_LINK_MAIL_JOB)
    .execute()
  return jobs.filter((job) => (JSON.parse(job.payload) as { linkId: string }).linkId === linkId)
    .length
}

async function linkEntries(linkId: string) {
  const { entries } = await listAuditEntries(t.db, { targetType: 'payment-link' })
  return entries.filter((entry) => entry.targetId === linkId)
}

describe(`payment links in the back office (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('creates a link and one audit entry naming who made it', async () => {
    const who = await owner()
    const product = await makeProduct(t.db, { price: 149_900 })
    const { link } = await createPaymentLinkAudited(
      t.db,
      { productId: product.id, amount: 99_900, customer: BUYER },
      who,
      URL_BASE,
    )
    expect(await getPaymentLink(t.db, link.id, URL_BASE)).toMatchObject({
      status: 'active',
      amount: 99_900,
      createdBy: who.actor.id,
    })
    const entries = await linkEntries(link.id)
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({
      action: 'payment-link.create',
      actorId: who.actor.id,
      ip: '203.0.113.7',
      targetId: link.id,
    })
    expect(entries[0]!.summary).toContain('₹999')
    expect(entries[0]!.summary).toContain(BUYER.email)
  })

  it('makes one link for one form key: sent again, or twice at once, nothing more is written, queued or recorded', async () => {
    const who = await owner()
    const product = await makeProduct(t.db, { price: 49_900 })
    // An address of its own: every address gets a few payment-link mails an hour at most.
    const customer = { ...BUYER, email: 'one.key@example.in' }
    const create = (db: typeof t.db, id: string) =>
      createPaymentLinkAudited(
        db,
        { id, productId: product.id, customer, emailToCustomer: true },
        who,
        URL_BASE,
      )
    const key = newId()
    const first = await create(t.db, key)
    expect(first.repeated).toBe(false)
    expect(first.link.id).toBe(key)
    const again = await create(t.db, key)
    expect(again).toEqual({ link: first.link, repeated: true })
    expect(await mailsQueued(key)).toBe(1)
    expect((await linkEntries(key)).map((entry) => entry.action)).toEqual(['payment-link.create'])

    // At once: on PostgreSQL from two connections, as two app processes would take them (the
    // insert that waits on the other's row: app/data/payment-link.server.test.ts).
    const raced = newId()
    const results = await Promise.all(
      (t.engine === 'postgres' ? [t.db, other.db, t.db, other.db] : [t.db, t.db, t.db, t.db]).map(
        (db) => create(db, raced),
      ),
    )
    expect(results.map((result) => result.repeated).sort()).toEqual([false, true, true, true])
    expect(new Set(results.map((result) => result.link.orderId)).size).toBe(1)
    const rows = await t.db.selectFrom('paymentLink').select('id').where('id', '=', raced).execute()
    expect(rows).toHaveLength(1)
    expect(await mailsQueued(raced)).toBe(1)
    expect(await linkEntries(raced)).toHaveLength(1)
  })

  it('records nothing when the product is gone', async () => {
    const who = await owner()
    const before = (await listAuditEntries(t.db, { targetType: 'payment-link' })).total
    await expect(
      createPaymentLinkAudited(
        t.db,
        { productId: 'no-such-product', customer: BUYER },
        who,
        URL_BASE,
      ),
    ).rejects.toBeInstanceOf(OrderError)
    expect((await listAuditEntries(t.db, { targetType: 'payment-link' })).total).toBe(before)
  })

  it('cancels once: a second cancel changes and records nothing', async () => {
    const who = await owner()
    const product = await makeProduct(t.db, { price: 49_900 })
    const { link } = await createPaymentLinkAudited(
      t.db,
      { productId: product.id, customer: BUYER },
      who,
      URL_BASE,
    )
    expect(await cancelPaymentLinkAudited(t.db, link.id, who)).toMatchObject({
      status: 'cancelled',
    })
    expect(await cancelPaymentLinkAudited(t.db, link.id, who)).toMatchObject({
      status: 'not-active',
      current: 'cancelled',
    })
    // Sorted: both may be written in the same millisecond.
    const actions = (await linkEntries(link.id)).map((entry) => entry.action).sort()
    expect(actions).toEqual(['payment-link.cancel', 'payment-link.create'])
  })

  it('queues the mail with the link only when asked, and records that it was e-mailed', async () => {
    const who = await owner()
    const product = await makeProduct(t.db)
    const { link: mailed } = await createPaymentLinkAudited(
      t.db,
      { productId: product.id, customer: BUYER, emailToCustomer: true },
      who,
      URL_BASE,
    )
    const { link: quiet } = await createPaymentLinkAudited(
      t.db,
      { productId: product.id, customer: BUYER },
      who,
      URL_BASE,
    )
    expect(await mailsQueued(mailed.id)).toBe(1)
    expect(await mailsQueued(quiet.id)).toBe(0)
    const [entry] = await linkEntries(mailed.id)
    expect(entry!.summary).toMatch(/ and e-mailed it$/)
    expect(entry!.changes).toMatchObject({ emailedTo: { before: null, after: BUYER.email } })
    expect((await linkEntries(quiet.id))[0]!.summary).not.toContain('e-mailed')
  })

  it('e-mails an active link again at most once a minute, counting the mail of its creation', async () => {
    const who = await owner()
    const product = await makeProduct(t.db)
    const start = new Date()
    const { link } = await createPaymentLinkAudited(
      t.db,
      { productId: product.id, customer: BUYER, emailToCustomer: true },
      who,
      URL_BASE,
    )
    const soon = await emailPaymentLinkAudited(t.db, link.id, who, URL_BASE, start)
    expect(soon).toMatchObject({ status: 'too-soon' })
    expect(soon.status === 'too-soon' && soon.retryAfterSeconds).toBeGreaterThan(0)
    const later = new Date(start.getTime() + 61_000)
    expect(await emailPaymentLinkAudited(t.db, link.id, who, URL_BASE, later)).toMatchObject({
      status: 'queued',
      link: { id: link.id, customerEmail: BUYER.email },
    })
    expect(await mailsQueued(link.id)).toBe(2)
    const actions = (await linkEntries(link.id)).map((entry) => entry.action).sort()
    expect(actions).toEqual(['payment-link.create', 'payment-link.email'])
    const [emailed] = await linkEntries(link.id).then((entries) =>
      entries.filter((entry) => entry.action === 'payment-link.email'),
    )
    expect(emailed).toMatchObject({ actorId: who.actor.id, ip: '203.0.113.7' })
    expect(emailed!.summary).toBe(
      `E-mailed the payment link of ₹1,499 for ${product.title} to ${BUYER.email} (order ${link.orderId})`,
    )
  })

  it('queues one mail for a double click, and for two processes at once', async () => {
    const who = await owner()
    const product = await makeProduct(t.db)
    const { link } = await createPaymentLinkAudited(
      t.db,
      { productId: product.id, customer: { ...BUYER, email: 'double.click@example.in' } },
      who,
      URL_BASE,
    )
    // Four at once: on PostgreSQL from two connections, as two app processes would send them;
    // on SQLite from one (its transactions take the write lock one at a time, and two
    // connections of one test process would wait on each other).
    const dbs =
      t.engine === 'postgres' ? [t.db, other.db, t.db, other.db] : [t.db, t.db, t.db, t.db]
    const results = await Promise.all(
      dbs.map((db) => emailPaymentLinkAudited(db, link.id, who, URL_BASE)),
    )
    expect(results.map((result) => result.status).sort()).toEqual([
      'queued',
      'too-soon',
      'too-soon',
      'too-soon',
    ])
    expect(await mailsQueued(link.id)).toBe(1)
    expect(
      (await linkEntries(link.id)).filter((entry) => entry.action === 'payment-link.email'),
    ).toHaveLength(1)
  })

  it('mails one address at most 5 payment links an hour, over every link; the next is refused and changes nothing', async () => {
    const who = await owner()
    const product = await makeProduct(t.db)
    // Early in a window of the limit, so every send below falls in it.
    const now = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 60_000)
    const at = (ms: number) => new Date(now.getTime() + ms)
    const customer = (email: string) => ({ ...BUYER, email })
    const create = (email: string, emailToCustomer: boolean, id = newId(), when = now) =>
      createPaymentLinkAudited(
        t.db,
        { id, productId: product.id, customer: customer(email), emailToCustomer },
        who,
        URL_BASE,
        when,
      )
    const queued = async () => {
      const jobs = await t.db
        .selectFrom('job')
        .select('id')
        .where('type', '=', PAYMENT_LINK_MAIL_JOB)
        .execute()
      return jobs.length
    }
    // One address however it is written: three links mailed on creation, a fourth made without
    // its mail and sent later, and the first one sent again after its minute.
    const first = await create('Limit.Reached@example.in', true)
    await create('limit.reached@EXAMPLE.in', true)
    await create('LIMIT.REACHED@EXAMPLE.IN', true)
    const unmailed = (await create('limit.reached@example.in', false)).link
    expect(
      await emailPaymentLinkAudited(t.db, unmailed.id, who, URL_BASE, at(1_000)),
    ).toMatchObject({ status: 'queued' })
    expect(
      await emailPaymentLinkAudited(t.db, first.link.id, who, URL_BASE, at(61_000)),
    ).toMatchObject({ status: 'queued' })
    const mails = await queued()
    const entries = (await listAuditEntries(t.db, { targetType: 'payment-link' })).total

    // A sixth mail to it within the hour: a new link with its mail is not made at all...
    const key = newId()
    const refused = await create('limit.reached@example.in', true, key, at(120_000)).catch(
      (e: unknown) => e,
    )
    expect(refused).toBeInstanceOf(PaymentLinkMailLimitError)
    expect(refused).toMatchObject({ email: 'limit.reached@example.in' })
    expect((refused as PaymentLinkMailLimitError).retryAfterSeconds).toBeGreaterThan(0)
    expect(await getPaymentLink(t.db, key, URL_BASE)).toBeNull()
    // ...and Send by e-mail of a link made earlier sends nothing either.
    expect(await emailPaymentLinkAudited(t.db, unmailed.id, who, URL_BASE, at(180_000))).toEqual({
      status: 'recipient-limit',
      email: 'limit.reached@example.in',
      retryAfterSeconds: 3_600 - 240,
    })
    expect(await queued()).toBe(mails)
    expect((await listAuditEntries(t.db, { targetType: 'payment-link' })).total).toBe(entries)

    // Another address is not held up, nor is a link for this one made without its mail.
    expect((await create('someone.else@example.in', true, newId(), at(120_000))).repeated).toBe(
      false,
    )
    expect((await create('limit.reached@example.in', false, key, at(120_000))).link.id).toBe(key)
    // The next hour, it may be mailed again.
    expect(
      await emailPaymentLinkAudited(t.db, unmailed.id, who, URL_BASE, at(3_600_000)),
    ).toMatchObject({ status: 'queued' })
  })

  it('holds the limit for many sends to one address at once', async () => {
    const who = await owner()
    const product = await makeProduct(t.db)
    const now = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 60_000)
    const links = []
    for (let i = 0; i < 8; i++)
      links.push(
        (
          await createPaymentLinkAudited(
            t.db,
            { productId: product.id, customer: { ...BUYER, email: 'many.at.once@example.in' } },
            who,
            URL_BASE,
          )
        ).link,
      )
    // On PostgreSQL from two connections, as two app processes would send them.
    const results = await Promise.all(
      links.map((link, i) =>
        emailPaymentLinkAudited(
          t.engine === 'postgres' && i % 2 ? other.db : t.db,
          link.id,
          who,
          URL_BASE,
          now,
        ),
      ),
    )
    const statuses = results.map((result) => result.status)
    expect(statuses.filter((status) => status === 'queued')).toHaveLength(5)
    expect(statuses.filter((status) => status === 'recipient-limit')).toHaveLength(3)
    let mailed = 0
    for (const link of links) mailed += await mailsQueued(link.id)
    expect(mailed).toBe(5)
  })

  it('queues and records nothing for a paid, cancelled or missing link', async () => {
    const who = await owner()
    const product = await makeProduct(t.db)
    const make = async () =>
      (
        await createPaymentLinkAudited(
          t.db,
          { productId: product.id, customer: BUYER },
          who,
          URL_BASE,
        )
      ).link
    const paid = await make()
    await t.db
      .updateTable('paymentLink')
      .set({ status: 'paid' })
      .where('id', '=', paid.id)
      .execute()
    const cancelled = await make()
    await cancelPaymentLinkAudited(t.db, cancelled.id, who)
    expect(await emailPaymentLinkAudited(t.db, paid.id, who, URL_BASE)).toEqual({
      status: 'not-active',
      current: 'paid',
    })
    expect(await emailPaymentLinkAudited(t.db, cancelled.id, who, URL_BASE)).toEqual({
      status: 'not-active',
      current: 'cancelled',
    })
    expect(await emailPaymentLinkAudited(t.db, 'no-such-link', who, URL_BASE)).toEqual({
      status: 'missing',
    })
    expect(await mailsQueued(paid.id)).toBe(0)
    expect(await mailsQueued(cancelled.id)).toBe(0)
    expect((await linkEntries(paid.id)).map((entry) => entry.action)).toEqual([
      'payment-link.create',
    ])
  })
})
