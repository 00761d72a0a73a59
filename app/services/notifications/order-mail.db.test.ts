import { describe, expect, it } from 'vitest'
import { getInvoiceData } from '~/data/invoice.server'
import { createOrder, listOrderEvents, orderTokenMatches } from '~/data/order.server'
import { markOrderPaid } from '~/services/fulfilment.server'
import { getSiteSettings, updateSiteSettings } from '~/data/settings.server'
import { issueCreditNote } from '~/data/credit-note.server'
import { revealOrderSecret, setProductDelivery } from '~/data/stock.server'
import { fillAllAwaitingOrders, importStock } from '~/services/fulfilment.server'
import { fileTestDb } from '../../../tests/helpers/db'
import { recentActivity } from '~/data/customer-overview.server'
import { giveUpAbandonedJobs, runDueJobs, RUNNER_STOPPED_ERROR } from '~/lib/jobs.server'
import { MAIL_MAX_ATTEMPTS, type MailMessage } from '~/lib/mail.server'
import { markRefunded, replaceFromStock, resendDeliveryMail } from '~/services/order-actions.server'
import { revealForBuyer } from '~/services/order-access.server'
import { BUYER, makeCustomer, makeProduct } from '../../../tests/factories'
import {
  MAIL_FAILED_EVENT,
  ORDER_MAIL_JOB,
  orderMailJobHandlers,
  renderOrderMail,
  type OrderMailKind,
} from './order-mail.server'
import { renderMail } from './render-mail.server'

/**
 * The buyer's order mails: queued in the transaction that pays and delivers, rendered
 * when sent with a fresh order-page token, credentials only when the owner allows it; and the
 * logged reveal.
 */
const APP_SECRET = 'm'.repeat(64)
const PUBLIC_URL = 'https://shop.example.in'

const t = fileTestDb()

const PAYMENT = {
  txnId: 'T1',
  bankTxnId: 'B1',
  paymentMode: 'UPI',
  status: 'TXN_SUCCESS',
  respCode: '01',
  respMsg: 'Txn Success',
}

async function paidStockOrder(items: string[], userId?: string) {
  const product = await makeProduct(t.db)
  await setProductDelivery(t.db, APP_SECRET, product.id, { mode: 'stock' })
  if (items.length)
    await importStock(t.db, {
      productId: product.id,
      content: items.join('\n'),
      format: 'lines',
      appSecret: APP_SECRET,
    })
  const { order } = await createOrder(t.db, { productId: product.id, customer: BUYER, userId })
  await markOrderPaid(
    t.db,
    order.id,
    { ...PAYMENT, txnId: `T-${order.id}`, paidAmount: order.amount },
    { message: 'Paid' },
  )
  return { product, orderId: order.id }
}

/** An order paid after the product's last item went to an earlier buyer: it waits for stock. */
async function paidWaitingOrder() {
  const product = await makeProduct(t.db)
  await setProductDelivery(t.db, APP_SECRET, product.id, { mode: 'stock' })
  await importStock(t.db, {
    productId: product.id,
    content: `LAST-ITEM-${product.id}`,
    format: 'lines',
    appSecret: APP_SECRET,
  })
  const first = await createOrder(t.db, { productId: product.id, customer: BUYER })
  const second = await createOrder(t.db, { productId: product.id, customer: BUYER })
  for (const { order } of [first, second]) {
    await markOrderPaid(
      t.db,
      order.id,
      { ...PAYMENT, txnId: `T-${order.id}`, paidAmount: order.amount },
      { message: 'Paid' },
    )
  }
  return { product, orderId: second.order.id }
}

async function queuedOrderMails(orderId: string) {
  const jobs = await t.db
    .selectFrom('job')
    .select(['payload', 'status'])
    .where('type', '=', ORDER_MAIL_JOB)
    .execute()
  return jobs
    .map((job) => JSON.parse(job.payload) as { orderId: string; kind: string })
    .filter((p) => p.orderId === orderId)
}

const quiet = () => {}

/** The order's mail jobs, oldest first. */
async function orderMailJobs(orderId: string) {
  const jobs = await t.db
    .selectFrom('job')
    .select(['id', 'payload'])
    .where('type', '=', ORDER_MAIL_JOB)
    .orderBy('createdAt')
    .execute()
  return jobs.filter((job) => (JSON.parse(job.payload) as { orderId: string }).orderId === orderId)
}

const jobRow = (id: string) =>
  t.db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

async function mailFailedEvents(orderId: string) {
  return (await listOrderEvents(t.db, orderId)).filter((event) => event.type === MAIL_FAILED_EVENT)
}

const tokenOf = (mail: MailMessage, orderId: string) => {
  const match = new RegExp(`${PUBLIC_URL}/orders/${orderId}/([\\w-]+)`).exec(mail.text)
  if (!match) throw new Error(`no order link in:\n${mail.text}`)
  return match[1]!
}

describe(`order mails (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('queues a delivered mail in the paying transaction; the outbox holds no token and no secret', async () => {
    const { orderId } = await paidStockOrder(['LICENSE-AAAA-1111'])
    expect(await queuedOrderMails(orderId)).toEqual([{ orderId, kind: 'delivered' }])
    const raw = await t.db
      .selectFrom('job')
      .select('payload')
      .where('type', '=', ORDER_MAIL_JOB)
      .execute()
    expect(JSON.stringify(raw)).not.toContain('LICENSE-AAAA-1111')
  })

  it('renders the mail with a working order-page link and without the credentials by default', async () => {
    const { orderId } = await paidStockOrder(['LICENSE-BBBB-2222'])
    const mail = await renderOrderMail(
      t.db,
      { publicUrl: PUBLIC_URL, appSecret: APP_SECRET },
      { orderId, kind: 'delivered' },
    )
    expect(mail).not.toBeNull()
    expect(mail!.to).toBe(BUYER.email)
    expect(mail!.subject).toContain(orderId)
    expect(mail!.text).not.toContain('LICENSE-BBBB-2222')
    expect(mail!.html).not.toContain('LICENSE-BBBB-2222')
    const token = tokenOf(mail!, orderId)
    expect(await orderTokenMatches(t.db, orderId, token)).toBe(true)
    expect(await orderTokenMatches(t.db, orderId, `${token}x`)).toBe(false)
    // Only the hash is stored.
    const stored = await t.db
      .selectFrom('orderAccessToken')
      .select('tokenHash')
      .where('orderId', '=', orderId)
      .execute()
    expect(stored).toHaveLength(1)
    expect(stored[0]!.tokenHash).not.toContain(token)
    // A token opens its own order only.
    const other = await paidStockOrder(['LICENSE-OTHER-0000'])
    expect(await orderTokenMatches(t.db, other.orderId, token)).toBe(false)
  })

  it("fills the WhatsApp link of every order mail with the order id and product, and no other mail's", async () => {
    const { orderId, product } = await paidStockOrder(['LICENSE-WAWA-1234'])
    const settings = { ...(await getSiteSettings(t.db)), whatsappNumber: '919876543210' }
    const encodedId = encodeURIComponent(orderId)
    for (const kind of ['delivered', 'paid', 'awaiting_stock', 'refunded', 'reply'] as const) {
      const mail = await renderOrderMail(
        t.db,
        { publicUrl: PUBLIC_URL, appSecret: APP_SECRET },
        { orderId, kind },
        settings,
      )
      const link = /https:\/\/wa\.me\/\S+/.exec(mail!.text)?.[0]
      expect(link, kind).toMatch(/^https:\/\/wa\.me\/919876543210\?text=/)
      expect(link).toContain(encodedId)
      expect(new URL(link!).searchParams.get('text')).toBe(
        `Hi ${settings.siteName}, I need help with my order ${orderId} (${product.title}).`,
      )
      expect(mail!.html).toContain(`<a href="${link}"`)
    }
    const other = renderMail(settings, PUBLIC_URL, {
      to: BUYER.email,
      subject: 'Not about an order',
      greeting: 'Hello,',
      paragraphs: ['News.'],
    })
    for (const part of [other.text, other.html]) {
      expect(part).toContain('https://wa.me/919876543210')
      expect(part).not.toContain('?text=')
      expect(part).not.toContain(encodedId)
    }
  })

  it('puts the credentials in the mail only when the owner turned it on', async () => {
    const { orderId } = await paidStockOrder(['LICENSE-CCCC-3333'])
    await updateSiteSettings(t.db, { deliveryMailIncludesSecret: true })
    try {
      const mail = await renderOrderMail(
        t.db,
        { publicUrl: PUBLIC_URL, appSecret: APP_SECRET },
        { orderId, kind: 'delivered' },
      )
      expect(mail!.text).toContain('LICENSE-CCCC-3333')
    } finally {
      await updateSiteSettings(t.db, { deliveryMailIncludesSecret: false })
    }
  })

  it('sends the delivery mail without the item when APP_SECRET changed since it was stocked', async () => {
    const { orderId } = await paidStockOrder(['LICENSE-EEEE-5555'])
    await updateSiteSettings(t.db, { deliveryMailIncludesSecret: true })
    try {
      const mail = await renderOrderMail(
        t.db,
        { publicUrl: PUBLIC_URL, appSecret: 'another-app-secret-'.repeat(4) },
        { orderId, kind: 'delivered' },
      )
      expect(mail!.text).toContain(`/orders/${orderId}/`)
      expect(mail!.text).not.toContain('LICENSE-EEEE-5555')
    } finally {
      await updateSiteSettings(t.db, { deliveryMailIncludesSecret: false })
    }
    // The buyer's pages say so too, instead of an error page.
    expect(
      await revealForBuyer(t.db, 'another-app-secret-'.repeat(4), orderId, {
        actor: 'customer',
        ip: '127.0.0.1',
        via: 'order_page',
      }),
    ).toEqual({ secret: null, unreadable: true })
    expect(
      await revealForBuyer(t.db, APP_SECRET, orderId, {
        actor: 'customer',
        ip: '127.0.0.1',
        via: 'order_page',
      }),
    ).toMatchObject({ unreadable: false, secret: { kind: 'text', text: 'LICENSE-EEEE-5555' } })
  })

  it('tells the buyer of a refund where its credit note is, by its number', async () => {
    const { orderId } = await paidStockOrder(['LICENSE-FFFF-6666'])
    expect(
      (await markRefunded(t.db, { orderId, note: 'Refunded by UPI', actor: 'user:admin' })).ok,
    ).toBe(true)
    const job = (
      await t.db.selectFrom('job').select('payload').where('type', '=', ORDER_MAIL_JOB).execute()
    )
      .map((row) => JSON.parse(row.payload) as { orderId: string; kind: 'refunded' })
      .find((payload) => payload.orderId === orderId && payload.kind === 'refunded')!
    const mail = await renderOrderMail(t.db, { publicUrl: PUBLIC_URL, appSecret: APP_SECRET }, job)
    expect(mail!.text).toMatch(
      /Our credit note CN\/\d{2}-\d{2}\/\d{5} for ₹[\d,]+ is on your order page, beside your invoice\./,
    )
  })

  it('tells the buyer of a credit note issued late where it is, by its number', async () => {
    const { orderId } = await paidStockOrder(['LICENSE-GGGG-7777'])
    const noteId = await t.db.transaction().execute(async (trx) => {
      const note = await issueCreditNote(
        trx,
        { orderId, source: `late-${orderId}`, amountPaise: 5_000, reason: '' },
        await getSiteSettings(trx),
        new Date(),
      )
      return note!.id
    })
    const urls = { publicUrl: PUBLIC_URL, appSecret: APP_SECRET }
    const one = await renderOrderMail(t.db, urls, {
      orderId,
      kind: 'credit_note',
      creditNoteId: noteId,
    })
    expect(one!.subject).toBe(`Credit note for order ${orderId}`)
    expect(one!.text).toMatch(
      /Our credit note CN\/\d{2}-\d{2}\/\d{5} for the ₹50 we refunded for .+ is now on your order page, beside your invoice\./,
    )
    const several = await renderOrderMail(t.db, urls, { orderId, kind: 'credit_note' })
    expect(several!.text).toContain('Our credit notes for the refunds of your payment for')
  })

  it('drops a delivery, replacement or payment mail whose order was refunded before it went; the refund mail goes', async () => {
    await updateSiteSettings(t.db, { deliveryMailIncludesSecret: true })
    try {
      const delivered = await paidStockOrder(['LICENSE-DROP-0001'])
      const replaced = await paidStockOrder(['LICENSE-DROP-0002', 'LICENSE-DROP-0003'])
      expect(
        (await replaceFromStock(t.db, { orderId: replaced.orderId, actor: 'user:admin' })).ok,
      ).toBe(true)
      const waiting = await paidWaitingOrder()
      const manual = await makeProduct(t.db)
      const { order: paid } = await createOrder(t.db, { productId: manual.id, customer: BUYER })
      await markOrderPaid(
        t.db,
        paid.id,
        { ...PAYMENT, txnId: `T-${paid.id}`, paidAmount: paid.amount },
        { message: 'Paid' },
      )
      const orders = {
        delivered: delivered.orderId,
        replaced: replaced.orderId,
        awaiting_stock: waiting.orderId,
        paid: paid.id,
      }
      // Their mails' jobs have not run yet (SMTP down, say) when the shop marks them refunded.
      for (const orderId of Object.values(orders)) {
        expect(
          (await markRefunded(t.db, { orderId, note: 'Refunded by UPI', actor: 'user:admin' })).ok,
        ).toBe(true)
      }
      const sent: MailMessage[] = []
      const handlers = orderMailJobHandlers(t.db, () => ({
        publicUrl: PUBLIC_URL,
        appSecret: APP_SECRET,
        mailer: {
          send: async (message) => (sent.push(message), { messageId: String(sent.length) }),
        },
      }))
      while ((await runDueJobs(t.db, handlers, { batchSize: 50, log: quiet })) > 0) {
        // Every queued order mail, including earlier tests' ones.
      }
      for (const [kind, orderId] of Object.entries(orders)) {
        const jobs = (await orderMailJobs(orderId)).map((job) => ({
          kind: (JSON.parse(job.payload) as { kind: string }).kind,
          id: job.id,
        }))
        expect(jobs.map((job) => job.kind)).toContain(kind)
        // Every job is done; only the refund's mail was sent, without the item.
        for (const job of jobs) expect((await jobRow(job.id)).status).toBe('done')
        const mails = sent.filter((mail) => mail.subject.includes(orderId))
        expect(mails.map((mail) => mail.subject)).toEqual([`Refund for order ${orderId}`])
        expect(mails[0]!.text).not.toMatch(/LICENSE-/)
        expect(mails[0]!.html).not.toMatch(/LICENSE-/)
        const rendered = await renderOrderMail(
          t.db,
          { publicUrl: PUBLIC_URL, appSecret: APP_SECRET },
          { orderId, kind: kind as OrderMailKind },
        )
        expect(rendered).toBeNull()
      }
      // The refund mails issued the only links to these orders; the dropped ones issued none.
      const tokens = await t.db
        .selectFrom('orderAccessToken')
        .select('purpose')
        .where('orderId', 'in', Object.values(orders))
        .execute()
      expect(tokens.map((token) => token.purpose)).toEqual(Array(4).fill('mail:refunded'))

      // A payment mail of an order delivered since still goes: only a refund drops it.
      const since = await paidStockOrder(['LICENSE-DROP-0004'])
      for (const kind of ['paid', 'awaiting_stock', 'delivered'] as const) {
        const mail = await renderOrderMail(
          t.db,
          { publicUrl: PUBLIC_URL, appSecret: APP_SECRET },
          { orderId: since.orderId, kind },
        )
        expect(mail?.subject).toContain(since.orderId)
      }
    } finally {
      await updateSiteSettings(t.db, { deliveryMailIncludesSecret: false })
    }
  })

  it('tells a buyer whose product is out of stock that the order waits, and a manual buyer that it is being prepared', async () => {
    const { orderId } = await paidWaitingOrder()
    expect(await queuedOrderMails(orderId)).toEqual([{ orderId, kind: 'awaiting_stock' }])
    const waiting = await renderOrderMail(
      t.db,
      { publicUrl: PUBLIC_URL, appSecret: APP_SECRET },
      { orderId, kind: 'awaiting_stock' },
    )
    expect(waiting!.text).toContain('out of stock')

    const manual = await makeProduct(t.db)
    const { order } = await createOrder(t.db, { productId: manual.id, customer: BUYER })
    await markOrderPaid(
      t.db,
      order.id,
      { ...PAYMENT, txnId: `T-${order.id}`, paidAmount: order.amount },
      { message: 'Paid' },
    )
    expect(await queuedOrderMails(order.id)).toEqual([{ orderId: order.id, kind: 'paid' }])
  })

  it('sends through the job runner with the mailer', async () => {
    const { orderId } = await paidStockOrder(['LICENSE-JOBS-0001'])
    const sent: MailMessage[] = []
    const handlers = orderMailJobHandlers(t.db, () => ({
      publicUrl: PUBLIC_URL,
      appSecret: APP_SECRET,
      mailer: { send: async (message) => (sent.push(message), { messageId: String(sent.length) }) },
    }))
    while ((await runDueJobs(t.db, handlers, { batchSize: 50, log: () => {} })) > 0) {
      // Every queued order mail, including earlier tests' ones.
    }
    const mine = sent.filter((mail) => mail.subject.includes(orderId))
    expect(mine).toHaveLength(1)
    expect(mine[0]!.text).toContain(`${PUBLIC_URL}/orders/${orderId}/`)
  })

  it("numbers a real sale's invoice when its payment mail goes, once, and a test-mode sale never", async () => {
    const { orderId } = await paidStockOrder(['LICENSE-INV-1'])
    const product = await makeProduct(t.db)
    const { order: simulated } = await createOrder(t.db, {
      productId: product.id,
      customer: BUYER,
      testMode: true,
    })
    await markOrderPaid(
      t.db,
      simulated.id,
      { ...PAYMENT, txnId: `T-${simulated.id}`, paidAmount: simulated.amount },
      { message: 'Paid' },
    )
    const invoiceOf = (id: string) =>
      t.db.selectFrom('invoice').select('number').where('orderId', '=', id).executeTakeFirst()
    expect(await invoiceOf(orderId)).toBeUndefined()
    let sends = 0
    const handlers = orderMailJobHandlers(t.db, () => ({
      publicUrl: PUBLIC_URL,
      appSecret: APP_SECRET,
      mailer: {
        send: async () => {
          // The first attempt of each mail fails: the job is tried again.
          if (++sends === 1) throw new Error('SMTP down')
          return { messageId: String(sends) }
        },
      },
    }))
    const jobs = await t.db
      .selectFrom('job')
      .select(['id', 'payload'])
      .where('type', '=', ORDER_MAIL_JOB)
      .execute()
    const run = (orderIdOf: string) => {
      const job = jobs.find((row) => JSON.parse(row.payload).orderId === orderIdOf)!
      return handlers[ORDER_MAIL_JOB].run({
        id: job.id,
        type: ORDER_MAIL_JOB,
        payload: JSON.parse(job.payload) as unknown,
        attempt: 1,
        maxAttempts: 8,
      })
    }
    await expect(run(orderId)).rejects.toThrow('SMTP down')
    const numbered = await invoiceOf(orderId)
    expect(numbered?.number).toMatch(/^INV\/\d{2}-\d{2}\/\d{5}$/)
    await run(orderId)
    expect(await invoiceOf(orderId)).toEqual(numbered)
    // The download shows the number given at payment.
    expect((await getInvoiceData(t.db, orderId))!.invoiceNumber).toBe(numbered!.number)
    // A simulated payment sold nothing: no number from the series.
    await run(simulated.id)
    expect(await invoiceOf(simulated.id)).toBeUndefined()
  })

  it('puts an order mail given up on on the timeline once, pointing to Resend delivery e-mail, never to the buyer', async () => {
    const buyer = await makeCustomer(t.db)
    const { orderId } = await paidStockOrder(['LICENSE-LOST-0001'], buyer.id)
    const [job] = await orderMailJobs(orderId)
    // Only this order's mail is due (earlier tests' are left alone).
    await t.db.deleteFrom('job').where('id', '!=', job!.id).execute()
    // Every attempt but the last has failed: the SMTP login has been refused for three days.
    await t.db
      .updateTable('job')
      .set({ attempts: MAIL_MAX_ATTEMPTS - 1 })
      .where('id', '=', job!.id)
      .execute()
    const error = 'Invalid login: 535 5.7.8 Authentication credentials invalid'
    const handlers = orderMailJobHandlers(t.db, () => ({
      publicUrl: PUBLIC_URL,
      appSecret: APP_SECRET,
      mailer: {
        send: async () => {
          throw new Error(error)
        },
      },
    }))
    expect(await runDueJobs(t.db, handlers, { log: quiet })).toBe(1)
    expect(await jobRow(job!.id)).toMatchObject({ status: 'failed', lastError: error })
    const failed = await mailFailedEvents(orderId)
    expect(failed).toEqual([
      expect.objectContaining({
        actor: 'system',
        message: `The delivery e-mail to ${BUYER.email} could not be sent after ${MAIL_MAX_ATTEMPTS} tries: the mail server refused the shop's login (the user name or password in SMTP_URL) (${error}). Check the SMTP settings (SMTP_URL); once mail works again, "Resend delivery e-mail" on this page sends the buyer a fresh link to this order.`,
        data: { jobId: job!.id, kind: 'delivered', attempts: MAIL_MAX_ATTEMPTS, error },
      }),
    ])

    // Given up once more, as when a runner stops after the timeline entry and before the job is
    // marked failed: the job is given up again, the entry is not written twice.
    await t.db
      .updateTable('job')
      .set({
        status: 'running',
        lockedBy: 'stopped',
        lockedUntil: new Date(Date.now() - 1_000).toISOString(),
      })
      .where('id', '=', job!.id)
      .execute()
    expect(await giveUpAbandonedJobs(t.db, handlers, { log: quiet })).toBe(1)
    expect(await jobRow(job!.id)).toMatchObject({ status: 'failed' })
    expect(await mailFailedEvents(orderId)).toEqual(failed)

    // The buyer's activity shows the delivery, not the shop's lost mail.
    const activity = (await recentActivity(t.db, buyer.id)).map((item) => item.type)
    expect(activity).toContain('delivered')
    expect(activity).not.toContain(MAIL_FAILED_EVENT)
    // What the entry points to: the resend action queues the mail again.
    expect(await resendDeliveryMail(t.db, { orderId, actor: 'user:admin' })).toMatchObject({
      ok: true,
    })
    expect((await queuedOrderMails(orderId)).map((p) => p.kind)).toEqual(['delivered', 'delivered'])
  })

  it("says so for an order mail lost with its runner on the last attempt, and that an undelivered order's cannot be resent", async () => {
    const { orderId } = await paidWaitingOrder()
    const [job] = await orderMailJobs(orderId)
    await t.db.deleteFrom('job').where('id', '!=', job!.id).execute()
    // Its last attempt was taken by a runner that stopped.
    await t.db
      .updateTable('job')
      .set({
        status: 'running',
        attempts: MAIL_MAX_ATTEMPTS,
        lockedBy: 'stopped',
        lockedUntil: new Date(Date.now() - 1_000).toISOString(),
      })
      .where('id', '=', job!.id)
      .execute()
    const handlers = orderMailJobHandlers(t.db, () => ({
      publicUrl: PUBLIC_URL,
      appSecret: APP_SECRET,
    }))
    expect(await giveUpAbandonedJobs(t.db, handlers, { log: quiet })).toBe(1)
    expect(await jobRow(job!.id)).toMatchObject({
      status: 'failed',
      lastError: RUNNER_STOPPED_ERROR,
    })
    expect((await mailFailedEvents(orderId)).map((event) => event.message)).toEqual([
      `The "payment received, waiting for stock" e-mail to ${BUYER.email} could not be sent after ${MAIL_MAX_ATTEMPTS} tries: the shop stopped while sending it (${RUNNER_STOPPED_ERROR}). Check the SMTP settings (SMTP_URL), and tell the buyer another way: this e-mail cannot be resent from here.`,
    ])
  })

  it('fills waiting orders from stock in the periodic pass and mails them', async () => {
    const { product, orderId } = await paidWaitingOrder()
    // Items that arrived without the import's own fill (e.g. its filler lost a race and rolled back).
    await t.db
      .insertInto('stockItem')
      .values({
        id: `item-${orderId}`,
        productId: product.id,
        secretCiphertext: 'x',
        secretHash: `h-${orderId}`,
        status: 'available',
        addedBy: 'system',
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
      })
      .execute()
    expect(await fillAllAwaitingOrders(t.db)).toBeGreaterThanOrEqual(1)
    const order = await t.db
      .selectFrom('order')
      .select('status')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
    expect(order.status).toBe('delivered')
    expect((await queuedOrderMails(orderId)).map((p) => p.kind)).toEqual([
      'awaiting_stock',
      'delivered',
    ])
  })

  it('logs every reveal with time, IP and who asked, and reveals nothing for an undelivered order', async () => {
    const { orderId } = await paidStockOrder(['LICENSE-SEEN-0001'])
    const secret = await revealOrderSecret(t.db, APP_SECRET, orderId, {
      actor: 'token',
      ip: '203.0.113.7',
      via: 'order_page',
    })
    expect(secret).toEqual({ kind: 'text', text: 'LICENSE-SEEN-0001' })
    const events = (await listOrderEvents(t.db, orderId)).filter(
      (e) => e.type === 'secret_revealed',
    )
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      actor: 'token',
      data: { ip: '203.0.113.7', via: 'order_page' },
    })
    expect(events[0]!.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/)

    const { orderId: waiting } = await paidWaitingOrder()
    expect(
      await revealOrderSecret(t.db, APP_SECRET, waiting, {
        actor: 'token',
        ip: '203.0.113.7',
        via: 'order_page',
      }),
    ).toBeNull()
    expect((await listOrderEvents(t.db, waiting)).some((e) => e.type === 'secret_revealed')).toBe(
      false,
    )
  })
})
