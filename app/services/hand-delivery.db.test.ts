import { describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { makeOrder, makePaidOrder, makeProduct, payOrder } from '../../tests/factories'
import { deleteProduct } from '~/data/product.server'
import { updateSiteSettings } from '~/data/settings.server'
import { setProductDelivery } from '~/data/stock.server'
import { formatRupees } from '~/lib/money'
import { MAIL_JOB } from '~/lib/mail.server'
import { adminOrderPath, PAID_PRODUCT_GONE } from '~/lib/order-status'
import {
  ORDER_MAIL_JOB,
  renderOrderMail,
  type OrderMailPayload,
} from './notifications/order-mail.server'

/**
 * A paid order nothing can deliver automatically waits for the shop (docs/delivery.md): the
 * buyer is told the payment arrived, and for a real sale the shop is told what to deliver.
 */
const t = fileTestDb()
const SECRET = 'hand-delivery-test-secret-0123456789'
const SHOP = 'owner@example.test'

interface QueuedMail {
  to: string
  subject: string
  text: string
}

/** The payloads of the queued jobs of one type, oldest first. */
async function queued<T>(type: string): Promise<T[]> {
  const jobs = await t.db
    .selectFrom('job')
    .select('payload')
    .where('type', '=', type)
    .orderBy('id')
    .execute()
  return jobs.map((job) => JSON.parse(job.payload) as T)
}

/** The shop's mails about an order, as queued. */
async function shopMailsAbout(orderId: string): Promise<QueuedMail[]> {
  return (await queued<QueuedMail>(MAIL_JOB)).filter((mail) => mail.subject.includes(orderId))
}

/** The kinds of the buyer's mails queued about an order (rendered when their job runs). */
async function buyerMailsAbout(orderId: string): Promise<string[]> {
  return (await queued<{ orderId: string; kind: string }>(ORDER_MAIL_JOB))
    .filter((mail) => mail.orderId === orderId)
    .map((mail) => mail.kind)
}

/** The buyer's (only) mail about an order, rendered as its job renders it. */
async function buyerMail(orderId: string): Promise<{ text: string }> {
  const [payload] = (await queued<OrderMailPayload>(ORDER_MAIL_JOB)).filter(
    (mail) => mail.orderId === orderId,
  )
  const mail = await renderOrderMail(
    t.db,
    { publicUrl: 'https://shop.example.in', appSecret: SECRET },
    payload!,
  )
  return { text: mail!.text ?? '' }
}

describe(`paid orders left for the shop (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('tells the shop a real paid order of a product delivered by hand waits for it', async () => {
    await updateSiteSettings(t.db, { contactEmail: SHOP, alertRecipients: [] })
    const product = await makeProduct(t.db, { title: 'Office Suite Key' })
    const order = await makePaidOrder(t.db, product.id, {
      customer: { name: 'Asha Verma', email: 'asha@example.test', phone: '9876543210' },
    })
    expect(order.status).toBe('paid')
    expect(await buyerMailsAbout(order.id)).toEqual(['paid'])
    expect((await buyerMail(order.id)).text).toContain(
      'Our team is preparing your account details and will deliver them shortly',
    )
    const mails = await shopMailsAbout(order.id)
    expect(mails.map((mail) => [mail.to, mail.subject])).toEqual([
      [SHOP, `Order ${order.id}: paid, deliver Office Suite Key by hand`],
    ])
    const alert = mails[0]!
    expect(alert.text).toContain(
      `Order ${order.id} of Office Suite Key was paid (${formatRupees(order.amount)}).`,
    )
    // The buyer's details stay on the order page, for admins who may open orders.
    expect(alert.text).not.toContain('Asha Verma')
    expect(alert.text).not.toContain('asha@example.test')
    expect(alert.text).toContain('enter the account details or licence key under Deliver manually')
    expect(alert.text).toContain(adminOrderPath(order.id))
  })

  it('tells the shop even with shop alerts switched off: the buyer is owed the delivery', async () => {
    await updateSiteSettings(t.db, {
      contactEmail: SHOP,
      alertRecipients: [],
      enableNotifications: false,
    })
    const product = await makeProduct(t.db, { title: 'Quiet Shop Key' })
    const order = await makePaidOrder(t.db, product.id)
    expect((await shopMailsAbout(order.id)).map((mail) => mail.to)).toEqual([SHOP])
    await updateSiteSettings(t.db, { enableNotifications: true })
  })

  it('says so when a shared product has no account details saved', async () => {
    await updateSiteSettings(t.db, { contactEmail: SHOP, alertRecipients: [] })
    const product = await makeProduct(t.db, { title: 'Family Plan' })
    await setProductDelivery(t.db, SECRET, product.id, { mode: 'shared', sharedSecret: null })
    const order = await makePaidOrder(t.db, product.id)
    expect(order.status).toBe('paid')
    const [alert] = await shopMailsAbout(order.id)
    expect(alert?.text).toContain('is a shared account with no account details saved')
  })

  it('tells the buyer but not the shop of a simulated payment', async () => {
    await updateSiteSettings(t.db, { contactEmail: SHOP, alertRecipients: [] })
    const product = await makeProduct(t.db)
    const order = await makePaidOrder(t.db, product.id, { testMode: true })
    expect(order.status).toBe('paid')
    expect(await buyerMailsAbout(order.id)).toEqual(['paid'])
    expect(await shopMailsAbout(order.id)).toEqual([])
  })

  it('keeps a late payment for a deleted product: the buyer is told, the shop asked to deliver or refund', async () => {
    await updateSiteSettings(t.db, { contactEmail: SHOP, alertRecipients: [] })
    const product = await makeProduct(t.db, { title: 'Gone Plan' })
    const order = await makeOrder(t.db, product.id)
    // The order expired unpaid, the product was deleted, then the gateway confirmed the money.
    await t.db.updateTable('order').set({ status: 'expired' }).where('id', '=', order.id).execute()
    await deleteProduct(t.db, product.id)
    const paid = await payOrder(t.db, order)
    expect(paid).toMatchObject({ status: 'paid', productId: null, productName: 'Gone Plan' })
    expect(await buyerMailsAbout(order.id)).toEqual(['paid'])
    // The buyer is not promised the usual delivery: the shop may deliver another way or refund.
    const mail = await buyerMail(order.id)
    expect(mail.text).toContain(`We have received your payment for Gone Plan. ${PAID_PRODUCT_GONE}`)
    expect(mail.text).not.toContain('preparing your account details')
    const mails = await shopMailsAbout(order.id)
    expect(mails.map((mail) => mail.to)).toEqual([SHOP])
    expect(mails[0]!.text).toContain(
      'The product "Gone Plan" was deleted after this order was placed',
    )
  })
})
