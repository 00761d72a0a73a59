import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  accountWantsNotifications,
  getPreferences,
  isMailOptedOut,
  savePreferences,
  unsubscribeAddress,
  wantsNotifications,
} from '~/data/preferences.server'
import { updateProduct, type Product } from '~/data/product.server'
import { deleteUserAccount } from '~/data/user.server'
import { addToWishlist } from '~/data/wishlist.server'
import type { Env } from '~/lib/env.server'
import { runDueJobs } from '~/lib/jobs.server'
import { createMailer, mailJobHandlers } from '~/lib/mail.server'
import { readUnsubscribeToken } from '~/lib/unsubscribe-link.server'
import {
  makeCustomer,
  makeOrder,
  makeProduct,
  makeStockedProduct,
  payOrder,
} from '../../../tests/factories'
import { fileTestDb } from '../../../tests/helpers/db'
import {
  startSmtpServer,
  type ReceivedMail,
  type TestSmtpServer,
} from '../../../tests/helpers/smtp'
import { sendExpiryReminders } from './expiry-reminder.server'
import { sendBackInStockMails } from './wishlist-mail.server'

/**
 * The unsubscribe link of reminders and offers (docs/notifications.md, "Unsubscribing"), end to
 * end below the web page: the expiry reminder and the back-in-stock mail, read from a real SMTP
 * server, carry the one-click headers of RFC 8058 and an Unsubscribe line; the link's token
 * switches the address off, for a guest and for an account; the senders skip it from then on;
 * the account's Settings switch turned on sends them again.
 */
const APP_SECRET = 'n'.repeat(64)
const PUBLIC_URL = 'https://shop.example.in'
/** The shop as a fresh install (the simulators: test mode), enough for back-in-stock mails. */
const ENV = { PUBLIC_URL, APP_SECRET } as Env
const DAY = 24 * 60 * 60 * 1000
/** Every test order is delivered at this instant; the product lasts 30 days from it. */
const DELIVERED = Date.parse('2026-03-01T10:00:00.000Z')
const at = (days: number) => new Date(DELIVERED + days * DAY)
/** When the 7-day and the 1-day reminders of those orders are due. */
const WEEK_LEFT = at(23.5)
const DAY_LEFT = at(29.2)

const t = fileTestDb()
let smtp: TestSmtpServer
beforeAll(async () => {
  smtp = await startSmtpServer()
})
afterAll(async () => {
  await smtp?.close()
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

const reminders = (now: Date) =>
  sendExpiryReminders(t.db, { now, publicUrl: PUBLIC_URL, appSecret: APP_SECRET }).then(deliverMail)

const mailsTo = (email: string, subject: RegExp = /./) =>
  smtp.mails.filter((mail) => mail.to.includes(email) && subject.test(mail.subject))
const REMINDER = /expires in/
const RESTOCK = /^Back in stock/

/** A header of the mail as sent, its folded lines joined. */
function header(mail: ReceivedMail, name: string): string | undefined {
  const head = mail.raw.slice(0, mail.raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ')
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim()
}

/** The link of the mail's List-Unsubscribe header. */
function unsubscribeLink(mail: ReceivedMail): string {
  const value = header(mail, 'List-Unsubscribe') ?? ''
  const link = /^<(https:\/\/[^>]+)>$/.exec(value)?.[1]
  if (!link) throw new Error(`no List-Unsubscribe link in ${JSON.stringify(value)}`)
  return link
}

/** What the link's page does when its button is pressed (app/routes/shop/unsubscribe.tsx). */
async function unsubscribeBy(mail: ReceivedMail) {
  const token = new URL(unsubscribeLink(mail)).searchParams.get('t')
  const link = readUnsubscribeToken(APP_SECRET, token)
  if (!link) throw new Error('the mail carries no genuine unsubscribe token')
  await unsubscribeAddress(t.db, link.email, link.kind)
}

async function deliveredOrder(email: string, userId: string | null = null) {
  const product = await makeStockedProduct(t.db, APP_SECRET, [`user${Math.random()}@x.in:pw`], {
    title: `Cinema ${Math.random().toString(36).slice(2, 7)}`,
    validity: '30 days',
  })
  const order = await payOrder(
    t.db,
    await makeOrder(t.db, product.id, {
      userId,
      customer: { name: 'Asha Verma', email, phone: '9876543210' },
    }),
  )
  expect(order.status).toBe('delivered')
  await t.db
    .updateTable('orderEvent')
    .set({ createdAt: new Date(DELIVERED).toISOString() })
    .where('orderId', '=', order.id)
    .where('type', '=', 'delivered')
    .execute()
  return order
}

async function setInStock(product: Product, inStock: boolean) {
  const { id: _id, discount: _d, createdAt: _c, updatedAt: _u, ...input } = product
  await updateProduct(t.db, product.id, { ...input, inStock })
}

/** A wished-for product that goes out of stock and comes back: the back-in-stock mails go. */
async function wishedForProduct(userIds: string[]) {
  const product = await makeProduct(t.db, { title: `Wished ${Math.random()}`, inStock: false })
  for (const userId of userIds) await addToWishlist(t.db, userId, product.id, { testItems: false })
  return {
    async restock() {
      await setInStock(product, false)
      await sendBackInStockMails(t.db, { env: ENV })
      await setInStock(product, true)
      await sendBackInStockMails(t.db, { env: ENV })
      await deliverMail()
    },
  }
}

describe(`the unsubscribe link (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('is in every expiry reminder: the one-click headers and an Unsubscribe line', async () => {
    const email = 'headers.reminder@example.in'
    await deliveredOrder(email)
    await reminders(WEEK_LEFT)
    const [mail] = mailsTo(email, REMINDER)
    expect(mail).toBeDefined()
    const link = unsubscribeLink(mail!)
    expect(link).toMatch(/^https:\/\/shop\.example\.in\/unsubscribe\?t=offers\.[\w.-]+$/)
    expect(header(mail!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click')
    // The token is the address's and says nothing of it.
    expect(readUnsubscribeToken(APP_SECRET, new URL(link).searchParams.get('t'))).toEqual({
      email,
      kind: 'offers',
    })
    expect(link).not.toContain('headers.reminder')
    expect(mail!.text).toContain(`Unsubscribe: ${link}`)
    expect(mail!.html).toContain(`Unsubscribe: <a href="${link}"`)
    // The other way to stop them is still named.
    expect(mail!.text).toContain(
      `turn off e-mail notifications in your account settings: ${PUBLIC_URL}/dashboard/settings`,
    )
  })

  it('is in every back-in-stock mail too', async () => {
    const customer = await makeCustomer(t.db, { email: 'headers.restock@example.in' })
    const wished = await wishedForProduct([customer.id])
    await wished.restock()
    const [mail] = mailsTo(customer.email, RESTOCK)
    expect(mail).toBeDefined()
    const link = unsubscribeLink(mail!)
    expect(header(mail!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click')
    expect(readUnsubscribeToken(APP_SECRET, new URL(link).searchParams.get('t'))).toEqual({
      email: customer.email,
      kind: 'offers',
    })
    expect(mail!.text).toContain(`Unsubscribe: ${link}`)
    expect(mail!.html).toContain(`Unsubscribe: <a href="${link}"`)
    expect(mail!.text).toContain(`${PUBLIC_URL}/dashboard/wishlist, or with reminders and offers`)
  })

  it('stops the reminders of a guest, whatever the order, and nobody else’s', async () => {
    const guest = 'guest.leaves@example.in'
    const stays = 'guest.stays@example.in'
    await deliveredOrder(guest)
    await deliveredOrder(stays)
    await reminders(WEEK_LEFT)
    expect(mailsTo(guest, REMINDER)).toHaveLength(1)
    await unsubscribeBy(mailsTo(guest, REMINDER)[0]!)
    expect(await isMailOptedOut(t.db, guest)).toBe(true)
    expect(await wantsNotifications(t.db, 'Guest.Leaves@Example.in')).toBe(false)

    // Another order by the same address, written another way: no reminder either.
    await deliveredOrder('Guest.Leaves@Example.IN')
    await reminders(at(24))
    await reminders(DAY_LEFT)
    expect(mailsTo(guest, REMINDER)).toHaveLength(1)
    expect(mailsTo('Guest.Leaves@Example.IN', REMINDER)).toHaveLength(0)
    expect(mailsTo(stays, REMINDER).map((mail) => mail.subject)).toEqual([
      expect.stringMatching(/expires in 7 days$/),
      expect.stringMatching(/expires in 1 day$/),
    ])
  })

  it("stops an account's reminders and back-in-stock mails until its switch is on again", async () => {
    const customer = await makeCustomer(t.db, { email: 'account.leaves@example.in' })
    const other = await makeCustomer(t.db, { email: 'account.stays@example.in' })
    await deliveredOrder(customer.email, customer.id)
    const wished = await wishedForProduct([customer.id, other.id])
    await reminders(WEEK_LEFT)
    await unsubscribeBy(mailsTo(customer.email, REMINDER)[0]!)
    // The account's settings say so.
    expect((await getPreferences(t.db, customer.id)).notifications).toBe(false)
    expect(await accountWantsNotifications(t.db, customer.id)).toBe(false)

    await wished.restock()
    await reminders(DAY_LEFT)
    expect(mailsTo(customer.email, RESTOCK)).toHaveLength(0)
    expect(mailsTo(customer.email, REMINDER)).toHaveLength(1)
    expect(mailsTo(other.email, RESTOCK)).toHaveLength(1)

    // Settings, "E-mail me reminders and offers" on: the address's opt-out goes with it.
    await savePreferences(t.db, customer.id, { notifications: true })
    expect(await isMailOptedOut(t.db, customer.email)).toBe(false)
    await reminders(at(29.5))
    await wished.restock()
    expect(mailsTo(customer.email, REMINDER).map((mail) => mail.subject)).toEqual([
      expect.stringMatching(/expires in 7 days$/),
      expect.stringMatching(/expires in 1 day$/),
    ])
    expect(mailsTo(customer.email, RESTOCK)).toHaveLength(1)
  })

  it('stops the reminders of an order placed signed in for another address', async () => {
    // The checkout's e-mail field may name another address than the account's.
    const customer = await makeCustomer(t.db, { email: 'orders.for.office@example.in' })
    const office = 'office.inbox@example.in'
    await deliveredOrder(office, customer.id)
    await reminders(WEEK_LEFT)
    await unsubscribeBy(mailsTo(office, REMINDER)[0]!)
    // That address has no account: the account's own switch is left as it was.
    expect(await accountWantsNotifications(t.db, customer.id)).toBe(true)
    await reminders(DAY_LEFT)
    expect(mailsTo(office, REMINDER)).toHaveLength(1)
  })

  it('holds for an account made later with the address, and after the account is deleted', async () => {
    const email = 'guest.then.account@example.in'
    await deliveredOrder(email)
    await reminders(WEEK_LEFT)
    await unsubscribeBy(mailsTo(email, REMINDER)[0]!)

    // Signed up afterwards: the switch was never touched, yet the address asked for none.
    const customer = await makeCustomer(t.db, { email })
    expect((await getPreferences(t.db, customer.id)).notifications).toBe(true)
    expect(await accountWantsNotifications(t.db, customer.id)).toBe(false)
    await deliveredOrder(email, customer.id)
    const wished = await wishedForProduct([customer.id])
    await wished.restock()
    await reminders(at(24))
    expect(mailsTo(email, RESTOCK)).toHaveLength(0)
    expect(mailsTo(email, REMINDER)).toHaveLength(1)

    // The account goes; the address's wish stays (its guest orders keep the address).
    await deleteUserAccount(t.db, customer.id)
    await deliveredOrder(email)
    await reminders(at(24.5))
    await reminders(DAY_LEFT)
    expect(mailsTo(email, REMINDER)).toHaveLength(1)
  })

  it('is undone by the account switch turned on, in one go with the preference', async () => {
    const customer = await makeCustomer(t.db, { email: 'back.on@example.in' })
    await unsubscribeAddress(t.db, customer.email, 'offers')
    // Saving other preferences leaves the opt-out alone; the header's theme switch does that.
    await savePreferences(t.db, customer.id, { theme: 'dark' })
    expect(await isMailOptedOut(t.db, customer.email)).toBe(true)
    await savePreferences(t.db, customer.id, { notifications: false })
    expect(await isMailOptedOut(t.db, customer.email)).toBe(true)
    await savePreferences(t.db, customer.id, { notifications: true })
    expect(await isMailOptedOut(t.db, customer.email)).toBe(false)
    expect(await accountWantsNotifications(t.db, customer.id)).toBe(true)
  })
})
