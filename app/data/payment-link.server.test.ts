import crypto from 'node:crypto'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { fileSecondConnection, fileTestDb, testEngine } from '../../tests/helpers/db'
import { BUYER, makeCustomer, makeProduct, orderIdsOf } from '../../tests/factories'
import { createOrder, getOrder, listOrderEvents, markOrderFailed } from './order.server'
import { updateSiteSettings } from './settings.server'
import { MAIL_JOB } from '~/lib/mail.server'
import { DELETED_CUSTOMER_NAME, deletedCustomerEmail, deleteUserAccount } from './user.server'
import { markOrderPaid } from '~/services/fulfilment.server'
import { newId } from '~/lib/id.server'
import {
  cancelPaymentLink,
  checkPaymentLink,
  createPaymentLink,
  createPaymentLinkOnce,
  getPaymentLink,
  listPaymentLinks,
  PAYMENT_LINK_MESSAGES,
  PAYMENT_LINKS_PAGE_SIZE,
  type PaymentLink,
} from './payment-link.server'

const t = fileTestDb()
const other = fileSecondConnection(t)

/** The shop's mails about a payment link paid twice, queued so far. */
async function linkPaidTwiceMails() {
  return (await t.db.selectFrom('job').select('payload').where('type', '=', MAIL_JOB).execute())
    .map((job) => JSON.parse(job.payload) as { to: string; subject: string })
    .filter((mail) => mail.subject.endsWith('a payment link paid twice'))
}

const URL_BASE = 'https://shop.example.in'
const query = (link: PaymentLink) =>
  Object.fromEntries(new URL(link.paymentUrl).searchParams) as {
    order: string
    amount: string
    product: string
  }

describe(`payment links (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('creates an active link for a product and customer with the spec URL', async () => {
    const product = await makeProduct(t.db, { price: 149_900 })
    const link = await createPaymentLink(
      t.db,
      { productId: product.id, amount: 99_900, customer: BUYER, createdBy: null },
      URL_BASE,
    )
    expect(link).toMatchObject({
      status: 'active',
      amount: 99_900,
      productId: product.id,
      productName: product.title,
      customerEmail: BUYER.email,
    })
    expect(link.orderId).toMatch(/^ORD_\d+_\d{1,3}$/)
    expect(link.paymentUrl).toBe(
      `${URL_BASE}/payment/pay?order=${link.orderId}&amount=999.00&product=${product.id}`,
    )
    const byDefault = await createPaymentLink(
      t.db,
      { productId: product.id, customer: BUYER, createdBy: null },
      URL_BASE,
    )
    expect(byDefault.amount).toBe(149_900)
  })

  it("keeps none of a deleted account's details, and a link still open stops taking payments", async () => {
    const product = await makeProduct(t.db)
    const leaving = await makeCustomer(t.db, { email: 'leaving.link@example.in' })
    await t.db.updateTable('user').set({ emailVerified: 1 }).where('id', '=', leaving.id).execute()
    const customer = { name: 'Leaving Buyer', email: leaving.email, phone: '9000000001' }
    const business = {
      businessName: 'Leaving Traders',
      gstin: '27AAPFU0939F1ZV',
      address: 'Home address, Pune',
    }
    const open = await createPaymentLink(
      t.db,
      { productId: product.id, customer, createdBy: null, business },
      URL_BASE,
    )
    // A paid link keeps the business its invoice names.
    const paid = await createPaymentLink(
      t.db,
      { productId: product.id, customer, createdBy: null, business },
      URL_BASE,
    )
    await t.db
      .updateTable('paymentLink')
      .set({ status: 'paid' })
      .where('id', '=', paid.id)
      .execute()
    const other = await createPaymentLink(
      t.db,
      { productId: product.id, customer: BUYER, createdBy: null },
      URL_BASE,
    )
    await deleteUserAccount(t.db, leaving.id)
    expect(await getPaymentLink(t.db, open.id, URL_BASE)).toMatchObject({
      customerName: DELETED_CUSTOMER_NAME,
      customerEmail: deletedCustomerEmail(leaving.id),
      customerPhone: '',
      status: 'cancelled',
      buyerBusinessName: null,
      buyerGstin: null,
      buyerAddress: null,
    })
    expect(await getPaymentLink(t.db, paid.id, URL_BASE)).toMatchObject({
      customerName: DELETED_CUSTOMER_NAME,
      status: 'paid',
      buyerBusinessName: 'Leaving Traders',
      buyerGstin: '27AAPFU0939F1ZV',
    })
    expect(await checkPaymentLink(t.db, query(open), URL_BASE)).toMatchObject({ ok: false })
    expect(await getPaymentLink(t.db, other.id, URL_BASE)).toMatchObject({
      customerEmail: BUYER.email,
      status: 'active',
    })
  })

  it('creates one link per id: the same id again writes nothing and answers the first link', async () => {
    const product = await makeProduct(t.db, { price: 149_900 })
    const id = newId()
    const input = { id, productId: product.id, customer: BUYER, createdBy: null }
    const first = await createPaymentLinkOnce(t.db, input, URL_BASE)
    expect(first).toMatchObject({ repeated: false, link: { id, status: 'active' } })
    // Even for another product or customer: the id is the form's, and that form made its link.
    const again = await createPaymentLinkOnce(
      t.db,
      { ...input, customer: { ...BUYER, email: 'someone.else@example.in' } },
      URL_BASE,
    )
    expect(again).toEqual({ link: first.link, repeated: true })
    const rows = await t.db.selectFrom('paymentLink').select('id').where('id', '=', id).execute()
    expect(rows).toHaveLength(1)
  })

  it.runIf(testEngine() === 'postgres')(
    'answers the first link to the same id sent while the first is still being written',
    async () => {
      const product = await makeProduct(t.db, { price: 149_900 })
      const id = newId()
      const input = { id, productId: product.id, customer: BUYER, createdBy: null }
      let release = () => {}
      const released = new Promise<void>((resolve) => (release = resolve))
      let written = () => {}
      const writing = new Promise<void>((resolve) => (written = resolve))
      // The first post's transaction has written its link and not yet committed.
      const firstPost = other.db.transaction().execute(async (trx) => {
        const result = await createPaymentLinkOnce(trx, input, URL_BASE)
        written()
        await released
        return result
      })
      await writing
      const lockWaits = async () =>
        Number(
          (
            await sql<{ count: string }>`select count(*) as count from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db)
          ).rows[0]!.count,
        )
      let settled = false
      const secondPost = createPaymentLinkOnce(t.db, input, URL_BASE).finally(
        () => (settled = true),
      )
      // The second insert waits on the first's row.
      for (let i = 0; i < 200 && !settled && (await lockWaits()) < 1; i++)
        await new Promise((resolve) => setTimeout(resolve, 25))
      expect(settled).toBe(false)
      release()
      const first = await firstPost
      const second = await secondPost
      expect(first.repeated).toBe(false)
      expect(second).toEqual({ link: first.link, repeated: true })
      const rows = await t.db.selectFrom('paymentLink').select('id').where('id', '=', id).execute()
      expect(rows).toHaveLength(1)
    },
  )

  it('accepts the link only exactly as issued: a changed amount or product is refused as an unknown link', async () => {
    const product = await makeProduct(t.db)
    const link = await createPaymentLink(
      t.db,
      { productId: product.id, amount: 50_000, customer: BUYER, createdBy: null },
      URL_BASE,
    )
    const q = query(link)
    expect(await checkPaymentLink(t.db, q, URL_BASE)).toMatchObject({
      ok: true,
      link: { id: link.id },
    })
    // "500" and "500.00" are the same amount.
    expect(await checkPaymentLink(t.db, { ...q, amount: '500' }, URL_BASE)).toMatchObject({
      ok: true,
    })
    expect(await checkPaymentLink(t.db, { ...q, amount: '1.00' }, URL_BASE)).toEqual({
      ok: false,
      status: 404,
      message: PAYMENT_LINK_MESSAGES.notFound,
    })
    expect(await checkPaymentLink(t.db, { ...q, amount: 'free' }, URL_BASE)).toEqual({
      ok: false,
      status: 404,
      message: PAYMENT_LINK_MESSAGES.notFound,
    })
    expect(await checkPaymentLink(t.db, { ...q, product: 'other' }, URL_BASE)).toEqual({
      ok: false,
      status: 404,
      message: PAYMENT_LINK_MESSAGES.notFound,
    })
    expect(await checkPaymentLink(t.db, { ...q, order: 'ORD_1_1' }, URL_BASE)).toEqual({
      ok: false,
      status: 404,
      message: PAYMENT_LINK_MESSAGES.notFound,
    })
    expect(await checkPaymentLink(t.db, { ...q, amount: null }, URL_BASE)).toEqual({
      ok: false,
      status: 400,
      message: PAYMENT_LINK_MESSAGES.incomplete,
    })
  })

  it("charges the link's amount, uses its order id first, and tells the shop when it is paid twice", async () => {
    await updateSiteSettings(t.db, { contactEmail: 'owner@example.test', alertRecipients: [] })
    const product = await makeProduct(t.db, { price: 149_900 })
    const link = await createPaymentLink(
      t.db,
      { productId: product.id, amount: 70_000, customer: BUYER, createdBy: null },
      URL_BASE,
    )
    const viaLink = { id: link.id, amount: link.amount, preferredOrderId: link.orderId }
    const first = await createOrder(t.db, {
      productId: product.id,
      customer: BUYER,
      paymentLink: viaLink,
    })
    expect(first.order).toMatchObject({ id: link.orderId, amount: 70_000, paymentLinkId: link.id })
    await markOrderFailed(
      t.db,
      first.order.id,
      { status: 'TXN_FAILURE', respCode: '227', respMsg: 'declined' },
      { message: 'failed' },
    )
    // A retry is a new order (Paytm wants a fresh ORDER_ID), for the same link.
    const retry = await createOrder(t.db, {
      productId: product.id,
      customer: BUYER,
      paymentLink: viaLink,
    })
    expect(retry.order.id).not.toBe(link.orderId)
    expect(retry.order.paymentLinkId).toBe(link.id)
    await markOrderPaid(
      t.db,
      retry.order.id,
      {
        txnId: `T-${retry.order.id}`,
        bankTxnId: null,
        paymentMode: 'UPI',
        paidAmount: 70_000,
        status: 'TXN_SUCCESS',
        respCode: '01',
        respMsg: 'ok',
      },
      { message: 'paid' },
    )
    expect((await getPaymentLink(t.db, link.id, URL_BASE))?.status).toBe('paid')
    expect(await checkPaymentLink(t.db, query(link), URL_BASE)).toEqual({
      ok: false,
      status: 409,
      message: PAYMENT_LINK_MESSAGES.paid,
    })
    expect(await linkPaidTwiceMails()).toEqual([])

    // The first attempt's payment is approved late: the customer paid twice. Both orders are
    // paid, the timeline says so, and the shop is mailed once to refund one of them.
    await markOrderPaid(
      t.db,
      first.order.id,
      {
        txnId: `T-${first.order.id}`,
        bankTxnId: null,
        paymentMode: 'UPI',
        paidAmount: 70_000,
        status: 'TXN_SUCCESS',
        respCode: '01',
        respMsg: 'ok',
      },
      { message: 'paid late' },
    )
    expect((await getOrder(t.db, first.order.id))?.paidAt).toBeTruthy()
    const events = await listOrderEvents(t.db, first.order.id)
    expect(events.filter((event) => event.type === 'link_paid_twice')).toHaveLength(1)
    expect(
      (await listOrderEvents(t.db, retry.order.id)).some((e) => e.type === 'link_paid_twice'),
    ).toBe(false)
    const mails = await linkPaidTwiceMails()
    expect(mails.map((mail) => mail.subject)).toEqual([
      `Order ${first.order.id}: a payment link paid twice`,
    ])
    expect(mails[0]!.to).toBe('owner@example.test')
  })

  it('in test mode, notes a link paid twice on the timeline but mails the shop nothing', async () => {
    await updateSiteSettings(t.db, { contactEmail: 'owner@example.test', alertRecipients: [] })
    const mailsBefore = await linkPaidTwiceMails()
    const product = await makeProduct(t.db, { price: 149_900 })
    const link = await createPaymentLink(
      t.db,
      { productId: product.id, amount: 70_000, customer: BUYER, createdBy: null },
      URL_BASE,
    )
    const viaLink = { id: link.id, amount: link.amount, preferredOrderId: link.orderId }
    const attempts = []
    for (let i = 0; i < 2; i++) {
      const { order } = await createOrder(t.db, {
        productId: product.id,
        customer: BUYER,
        paymentLink: viaLink,
        testMode: true,
      })
      attempts.push(order)
    }
    for (const order of attempts) {
      await markOrderPaid(
        t.db,
        order.id,
        {
          txnId: `T-${order.id}`,
          bankTxnId: null,
          paymentMode: 'UPI',
          paidAmount: 70_000,
          status: 'TXN_SUCCESS',
          respCode: '01',
          respMsg: 'ok',
        },
        { message: 'paid' },
      )
    }
    const second = await listOrderEvents(t.db, attempts[1]!.id)
    expect(second.filter((event) => event.type === 'link_paid_twice')).toHaveLength(1)
    // Nobody refunds a test payment: the shop is not asked to.
    expect(await linkPaidTwiceMails()).toEqual(mailsBefore)
  })

  it('cancels an active link once: a second cancel says so, and the link stops taking payments', async () => {
    const product = await makeProduct(t.db)
    const business = {
      businessName: 'Offered Traders',
      gstin: '27AAPFU0939F1ZV',
      address: 'Nariman Point, Mumbai',
    }
    const link = await createPaymentLink(
      t.db,
      { productId: product.id, amount: 45_000, customer: BUYER, createdBy: null, business },
      URL_BASE,
    )
    const at = new Date('2030-01-02T03:04:05.000Z')
    const first = await cancelPaymentLink(t.db, link.id, at)
    expect(first).toMatchObject({
      status: 'cancelled',
      link: { id: link.id, orderId: link.orderId, amount: 45_000, status: 'cancelled' },
    })
    // Only the status changes: what was offered, and to whom, stays on record.
    expect(await getPaymentLink(t.db, link.id, URL_BASE)).toMatchObject({
      status: 'cancelled',
      updatedAt: at.toISOString(),
      customerEmail: BUYER.email,
      buyerBusinessName: 'Offered Traders',
      buyerGstin: '27AAPFU0939F1ZV',
    })
    expect(await cancelPaymentLink(t.db, link.id)).toEqual({
      status: 'not-active',
      current: 'cancelled',
    })
    expect(await checkPaymentLink(t.db, query(link), URL_BASE)).toEqual({
      ok: false,
      status: 410,
      message: PAYMENT_LINK_MESSAGES.cancelled,
    })
  })

  it('leaves a paid link paid, and tells a missing one apart', async () => {
    const product = await makeProduct(t.db)
    const link = await createPaymentLink(
      t.db,
      { productId: product.id, customer: BUYER, createdBy: null },
      URL_BASE,
    )
    await t.db
      .updateTable('paymentLink')
      .set({ status: 'paid' })
      .where('id', '=', link.id)
      .execute()
    expect(await cancelPaymentLink(t.db, link.id)).toEqual({
      status: 'not-active',
      current: 'paid',
    })
    expect((await getPaymentLink(t.db, link.id, URL_BASE))?.status).toBe('paid')
    expect(await cancelPaymentLink(t.db, 'no-such-link')).toEqual({ status: 'missing' })
  })

  it('still counts a payment its customer had started before the link was cancelled', async () => {
    const product = await makeProduct(t.db, { price: 30_000 })
    const link = await createPaymentLink(
      t.db,
      { productId: product.id, customer: BUYER, createdBy: null },
      URL_BASE,
    )
    const attempt = await createOrder(t.db, {
      productId: product.id,
      customer: BUYER,
      paymentLink: { id: link.id, amount: link.amount, preferredOrderId: link.orderId },
    })
    expect((await cancelPaymentLink(t.db, link.id)).status).toBe('cancelled')
    // The gateway then reports the money taken: the order is paid, and so is the link.
    await markOrderPaid(
      t.db,
      attempt.order.id,
      {
        txnId: `T-${attempt.order.id}`,
        bankTxnId: null,
        paymentMode: 'UPI',
        paidAmount: 30_000,
        status: 'TXN_SUCCESS',
        respCode: '01',
        respMsg: 'ok',
      },
      { message: 'paid' },
    )
    const order = await t.db
      .selectFrom('order')
      .select('status')
      .where('id', '=', attempt.order.id)
      .executeTakeFirstOrThrow()
    expect(['paid', 'delivered', 'awaiting_stock']).toContain(order.status)
    expect((await getPaymentLink(t.db, link.id, URL_BASE))?.status).toBe('paid')
  })

  it('starts no new payment attempt once the link is cancelled, even one checked just before', async () => {
    const product = await makeProduct(t.db)
    const link = await createPaymentLink(
      t.db,
      { productId: product.id, customer: BUYER, createdBy: null },
      URL_BASE,
    )
    // The buyer's Pay was checked (checkPaymentLink) while the link was open; the admin's
    // cancel lands before the order is created.
    expect((await checkPaymentLink(t.db, query(link), URL_BASE)).ok).toBe(true)
    expect((await cancelPaymentLink(t.db, link.id)).status).toBe('cancelled')
    const attempt = createOrder(t.db, {
      productId: product.id,
      customer: BUYER,
      paymentLink: { id: link.id, amount: link.amount, preferredOrderId: link.orderId },
    })
    await expect(attempt).rejects.toMatchObject({
      code: 'link-closed',
      message: PAYMENT_LINK_MESSAGES.cancelled,
    })
    expect(await orderIdsOf(t.db, product.id)).toEqual([])
  })
})

/**
 * The admin's list (/admin/payment-links): a page at a time, with a search and a status
 * filter. This file's tests share one database, so each test counts against what is there
 * already or finds its own links by a name no other test uses. The links here are made at
 * times after every other test's (2031 and on), so they are the newest in the database.
 */
describe(`the admin's list of payment links (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  const tag = () => crypto.randomBytes(4).toString('hex')
  const ids = (links: readonly PaymentLink[]) => links.map((link) => link.id)

  it('shows 20 links a page, newest first, counts them all, and reaches the oldest', async () => {
    const before = (await listPaymentLinks(t.db, URL_BASE)).total
    const product = await makeProduct(t.db, { title: `Paging Pass ${tag()}` })
    const start = Date.parse('2031-01-01T00:00:00.000Z')
    const made: PaymentLink[] = []
    for (let i = 0; i < 23; i++) {
      made.push(
        await createPaymentLink(
          t.db,
          { productId: product.id, customer: BUYER, createdBy: null },
          URL_BASE,
          () => start + i * 60_000,
        ),
      )
    }
    const newestFirst = ids(made).reverse()

    const first = await listPaymentLinks(t.db, URL_BASE, { search: product.title })
    expect(PAYMENT_LINKS_PAGE_SIZE).toBe(20)
    expect(first).toMatchObject({ total: 23, page: 1, pageSize: 20, pageCount: 2, offset: 0 })
    expect(ids(first.items)).toEqual(newestFirst.slice(0, 20))
    const second = await listPaymentLinks(t.db, URL_BASE, { search: product.title, page: 2 })
    expect(second).toMatchObject({ total: 23, page: 2, pageCount: 2 })
    expect(ids(second.items)).toEqual(newestFirst.slice(20))
    // A page past the end shows the last one; one that is not a number, the first.
    const past = await listPaymentLinks(t.db, URL_BASE, { search: product.title, page: 9 })
    expect(past.page).toBe(2)
    expect(ids(past.items)).toEqual(ids(second.items))
    expect((await listPaymentLinks(t.db, URL_BASE, { page: Number.NaN })).page).toBe(1)
    // Each row is the link as the app reads it, with the URL the customer was sent.
    expect(second.items.at(-1)).toMatchObject({
      id: made[0]!.id,
      amount: made[0]!.amount,
      paymentUrl: made[0]!.paymentUrl,
    })

    // Unfiltered, every link in the shop is counted, and its pages reach the oldest.
    const all = await listPaymentLinks(t.db, URL_BASE)
    expect(all.total).toBe(before + 23)
    expect(all.pageCount).toBe(Math.ceil(all.total / 20))
    expect(ids(all.items)).toEqual(newestFirst.slice(0, 20))
    const pages = []
    for (let page = 1; page <= all.pageCount; page++)
      pages.push(...ids((await listPaymentLinks(t.db, URL_BASE, { page })).items))
    expect(pages).toHaveLength(all.total)
    expect(new Set(pages).size).toBe(all.total)
    expect(pages.indexOf(made[0]!.id)).toBe(22)
  })

  it("finds links by order id, the customer's name or e-mail, or the product, in any case", async () => {
    const mark = tag()
    const kaspersky = await makeProduct(t.db, { title: `Kaspersky Total ${mark}` })
    const canva = await makeProduct(t.db, { title: `Canva Pro ${mark}` })
    const at = Date.parse('2032-01-01T00:00:00.000Z')
    const zarina = await createPaymentLink(
      t.db,
      {
        productId: kaspersky.id,
        customer: {
          name: `Zarina Qureshi ${mark}`,
          email: `zarina.${mark}@example.in`,
          phone: '9000012345',
        },
        createdBy: null,
      },
      URL_BASE,
      () => at,
    )
    const vikram = await createPaymentLink(
      t.db,
      {
        productId: canva.id,
        customer: {
          name: `Vikram Shah ${mark}`,
          email: `Vikram.${mark}@Example.IN`,
          phone: '9000067890',
        },
        createdBy: null,
      },
      URL_BASE,
      () => at + 1_000,
    )
    const found = async (search: string) =>
      ids((await listPaymentLinks(t.db, URL_BASE, { search })).items)

    expect(await found(zarina.orderId.toLowerCase())).toEqual([zarina.id])
    expect(await found(`  ${vikram.orderId}  `)).toEqual([vikram.id])
    expect(await found(`ZARINA QURESHI ${mark}`.toUpperCase())).toEqual([zarina.id])
    expect(await found(`vikram.${mark}@example.in`)).toEqual([vikram.id])
    expect(await found(`kaspersky TOTAL ${mark}`)).toEqual([zarina.id])
    expect(await found(mark)).toEqual([vikram.id, zarina.id])
    // The product by its name now, after a rename: the link keeps the name it was made for.
    await t.db
      .updateTable('product')
      .set({ title: `Kaspersky Premium ${mark}` })
      .where('id', '=', kaspersky.id)
      .execute()
    expect(await found(`kaspersky premium ${mark}`)).toEqual([zarina.id])
    expect(await found(`Kaspersky Total ${mark}`)).toEqual([zarina.id])
    // The admin's % and _ are taken literally, not as wildcards.
    expect(await found(`${mark}%`)).toEqual([])
    expect(await found(`zarina_${mark}`)).toEqual([])
    expect(await listPaymentLinks(t.db, URL_BASE, { search: `nobody ${mark}` })).toMatchObject({
      items: [],
      total: 0,
      page: 1,
      pageCount: 1,
    })
  })

  it('filters by status, alone or with a search', async () => {
    const product = await makeProduct(t.db, { title: `Status Filter ${tag()}` })
    const at = Date.parse('2033-01-01T00:00:00.000Z')
    const make = (offset: number) =>
      createPaymentLink(
        t.db,
        { productId: product.id, customer: BUYER, createdBy: null },
        URL_BASE,
        () => at + offset,
      )
    const active = await make(0)
    const paid = await make(1_000)
    const cancelled = await make(2_000)
    await t.db
      .updateTable('paymentLink')
      .set({ status: 'paid' })
      .where('id', '=', paid.id)
      .execute()
    expect((await cancelPaymentLink(t.db, cancelled.id)).status).toBe('cancelled')

    const search = product.title
    const listed = async (status: PaymentLink['status'] | null) =>
      ids((await listPaymentLinks(t.db, URL_BASE, { search, status })).items)
    expect(await listed('active')).toEqual([active.id])
    expect(await listed('paid')).toEqual([paid.id])
    expect(await listed('cancelled')).toEqual([cancelled.id])
    expect(await listed(null)).toEqual([cancelled.id, paid.id, active.id])

    // Alone, the filter counts every link in that status.
    const { count } = await t.db
      .selectFrom('paymentLink')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('status', '=', 'active')
      .executeTakeFirstOrThrow()
    const onlyActive = await listPaymentLinks(t.db, URL_BASE, { status: 'active' })
    expect(onlyActive.total).toBe(Number(count))
    expect(onlyActive.items.every((link) => link.status === 'active')).toBe(true)
    expect(onlyActive.items[0]!.id).toBe(active.id)
  })
})
