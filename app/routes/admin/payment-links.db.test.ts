import os from 'node:os'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../tests/helpers/db'
import {
  pageText as text,
  postActions,
  postForRedirect,
  redirectCookie,
  renderPage,
  serveTestDb,
} from '../../../tests/helpers/route-render'
import { withinOneWindow } from '../../../tests/helpers/rate-limit'
import { startSmtpServer, type TestSmtpServer } from '../../../tests/helpers/smtp'
import { BUYER, makeAdmin, makeProduct } from '../../../tests/factories'
import { listAuditEntries } from '~/data/audit.server'
import {
  cancelPaymentLink,
  createPaymentLink,
  getPaymentLinkByOrderId,
  type PaymentLink,
} from '~/data/payment-link.server'
import { listProducts } from '~/data/product.server'
import type * as ProductData from '~/data/product.server'
import { getSiteSettings } from '~/data/settings.server'
import type { UserProfile } from '~/data/user.server'
import { runDueJobs } from '~/lib/jobs.server'
import { createMailer } from '~/lib/mail.server'
import { openSalesMessage } from '~/lib/validation/product'
import {
  PAYMENT_LINK_MAIL_JOB,
  paymentLinkMailJobHandlers,
} from '~/services/notifications/payment-link-mail.server'
import AdminPaymentLinks, { action, loader } from './payment-links'

/**
 * /admin/payment-links as the server answers it: the loader reads the list's page, search and
 * status from the URL, the page renders its paging, filters and Cancel forms for that same list,
 * and a Cancel posted from a filtered page answers on that page. A link is e-mailed to its
 * customer on creation (the box, ticked to begin with) and with Send by e-mail, through a real
 * SMTP server. Signing in is not what is tested here: the permission check answers with this
 * file's admin.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/permissions.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requirePermission: vi.fn(async () => signedIn.user),
}))

// The page reads the products it offers through listProductChoices, never listProducts.
vi.mock('~/data/product.server', async (importOriginal) => {
  const original = await importOriginal<typeof ProductData>()
  return { ...original, listProducts: vi.fn(original.listProducts) }
})

const t = fileTestDb()
const PUBLIC_URL = 'https://shop.example.in'
serveTestDb(t, { env: { PUBLIC_URL, APP_SECRET: 'x'.repeat(32) } })
let admin: UserProfile
beforeAll(async () => {
  admin = await makeAdmin(t.db, { name: 'Owner' })
  signedIn.user = { ...admin, permissions: { canManageOrders: true } }
})

const ROUTE_ID = 'routes/admin/payment-links'

type LoaderData = Awaited<ReturnType<typeof loader>>['data']

async function load(path: string): Promise<LoaderData> {
  const answer = await loader({
    request: new Request(`http://shop.test${path}`),
    context: {},
    params: {},
  } as unknown as Parameters<typeof loader>[0])
  return answer.data
}

/**
 * The page at `path` (after a post of `form` to it, if given), rendered on the server; `cookie`:
 * what the browser sends with it (the note a create's redirect left).
 */
async function render(path: string, form?: Record<string, string>, cookie?: string) {
  const { html, status } = await renderPage(
    { id: ROUTE_ID, path: '/admin/payment-links', Component: AdminPaymentLinks, loader, action },
    new Request(`http://shop.test${path}`, {
      ...(form ? { method: 'POST', body: new URLSearchParams(form) } : {}),
      ...(cookie ? { headers: { Cookie: cookie } } : {}),
    }),
    { clientIp: '203.0.113.9' },
  )
  return { html, status }
}

/** What the page's success panels say (role status), spaced as read. */
const statusText = (html: string) =>
  [...html.matchAll(/<div[^>]*role="status"[^>]*>([\s\S]*?)<\/div>/g)]
    .map((match) =>
      text(match[1]!)
        .trim()
        .replace(/ ([:.])/g, '$1'),
    )
    .join(' | ')

/** The one-time key the page's create form carries. */
const formKey = (html: string) => /<input type="hidden" name="key" value="([^"]+)"/.exec(html)![1]!

const hrefs = (html: string) =>
  [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&'))

describe(`the Payment Links page's list (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  // First, while this file has made no link yet.
  it('tells a shop with no links yet apart from a search that matches none', async () => {
    const empty = await render('/admin/payment-links')
    expect(text(empty.html)).toContain(
      'No Payment Links Yet No payment links yet. A link you create above appears here.',
    )
    expect(text(empty.html)).not.toContain('Showing')
    const none = await render('/admin/payment-links?q=nobody&status=paid')
    expect(text(none.html)).toContain(
      'No Payment Links Found No payment link matches these filters. Try other words or all statuses.',
    )
    expect(text(none.html)).not.toContain('No payment links yet')
  })

  it('offers the products checkout can sell now, newest first, without loading them in full', async () => {
    const stamp = crypto.randomUUID()
    const older = await makeProduct(t.db, { title: `Offered Older ${stamp}`, price: 49_900 })
    const unsold = await makeProduct(t.db, { title: `Not Offered ${stamp}`, inStock: false })
    const newer = await makeProduct(t.db, { title: `Offered Newer ${stamp}`, price: 12_350 })
    await t.db
      .updateTable('product')
      .set({ createdAt: '2020-01-01T00:00:00.000Z' })
      .where('id', '=', older.id)
      .execute()
    const offered = (await load('/admin/payment-links')).products.filter((product) =>
      product.title.endsWith(stamp),
    )
    expect(offered).toEqual([
      { id: newer.id, title: newer.title, price: '₹123.50' },
      { id: older.id, title: older.title, price: '₹499' },
    ])
    expect(offered.map((product) => product.id)).not.toContain(unsold.id)
    expect(vi.mocked(listProducts)).not.toHaveBeenCalled()
  })

  it('pages, searches and filters from the URL, and keeps them in its links and forms', async () => {
    const product = await makeProduct(t.db, { title: `Route Paging ${crypto.randomUUID()}` })
    const start = Date.parse('2031-06-01T00:00:00.000Z')
    const made = []
    for (let i = 0; i < 23; i++) {
      made.push(
        await createPaymentLink(
          t.db,
          { productId: product.id, customer: BUYER, createdBy: null },
          PUBLIC_URL,
          () => start + i * 60_000,
        ),
      )
    }
    // The two oldest are no longer active: the status filter leaves them out.
    await t.db
      .updateTable('paymentLink')
      .set({ status: 'paid' })
      .where('id', '=', made[0]!.id)
      .execute()
    await cancelPaymentLink(t.db, made[1]!.id)

    const q = product.title.toUpperCase()
    const query = new URLSearchParams({ q, status: 'active', page: '2' })
    const data = await load(`/admin/payment-links?${query.toString()}`)
    expect(data.filter).toEqual({ search: q, status: 'active' })
    expect(data.page).toEqual({ number: 2, count: 2, size: 20, total: 21 })
    expect(data.links.map((link) => link.orderId)).toEqual([made[2]!.orderId])
    // Without the status filter the paid and cancelled ones are listed too, oldest last.
    const any = await load(`/admin/payment-links?${new URLSearchParams({ q, page: '2' })}`)
    expect(any.page.total).toBe(23)
    expect(any.links.map((link) => [link.orderId, link.status])).toEqual([
      [made[2]!.orderId, 'active'],
      [made[1]!.orderId, 'cancelled'],
      [made[0]!.orderId, 'paid'],
    ])
    // A status the list does not know is ignored.
    expect((await load('/admin/payment-links?status=refunded')).filter.status).toBeNull()

    const here = `/admin/payment-links?${new URLSearchParams({ q, status: 'active' })}`
    const { html } = await render(`${here}&page=2`)
    expect(text(html)).toContain('Showing 21–21 of 21 links')
    // The pages keep the search and the filter.
    expect(hrefs(html)).toContain(here)
    // Every post form (Create, and Cancel in the table and on the phone card) goes to this very
    // page, so its answer and the list reloaded under it are this page.
    const cancels = postActions(html).filter((to) => to.startsWith('/admin/payment-links?'))
    expect(cancels.length).toBeGreaterThan(0)
    expect(new Set(cancels)).toEqual(new Set([`${here}&page=2`]))
    // The filter bar shows what is filtered, with Clear.
    expect(html).toMatch(/<option value="active" selected="">Active<\/option>/)
    expect(html).toContain(`value="${q}"`)
    expect(hrefs(html)).toContain('/admin/payment-links')
  })

  it('answers a Cancel on the filtered page it came from, asking first without JavaScript', async () => {
    const product = await makeProduct(t.db, { title: `Route Cancel ${crypto.randomUUID()}` })
    const link = await createPaymentLink(
      t.db,
      { productId: product.id, customer: BUYER, createdBy: admin.id },
      PUBLIC_URL,
      () => Date.parse('2031-07-01T00:00:00.000Z'),
    )
    const here = `/admin/payment-links?${new URLSearchParams({ q: product.title, status: 'active' })}`

    // Without JavaScript: the question, whose Cancel link and Keep link stay on this list.
    const asked = await render(here, { intent: 'cancel', id: link.id })
    expect(asked.status).toBe(200)
    expect(text(asked.html)).toContain('Cancel payment link?')
    expect(postActions(asked.html)).toContain(here)
    expect(asked.html).toMatch(/<input type="hidden" name="confirmed" value="yes"/)
    expect(hrefs(asked.html)).toContain(here)

    const done = await render(here, { intent: 'cancel', id: link.id, confirmed: 'yes' })
    expect(done.status).toBe(200)
    expect(text(done.html)).toContain('Payment link cancelled.')
    // The same list, reloaded: the link is no longer active, so it has left it.
    expect(text(done.html)).toContain(
      'No payment link matches these filters. Try other words or all statuses.',
    )
    expect(text(done.html)).not.toContain(link.orderId)
  })

  it("finds a product's unpaid links from the address its refused deletion names", async () => {
    const product = await makeProduct(t.db, { title: `Route Refusal ${crypto.randomUUID()}` })
    const active = await createPaymentLink(
      t.db,
      { productId: product.id, customer: BUYER, createdBy: null },
      PUBLIC_URL,
      // Older than every other link of this file, so far down the unfiltered list.
      () => Date.parse('2020-01-01T00:00:00.000Z'),
    )
    const message = openSalesMessage(product.title, { orders: 0, paymentLinks: 1 })
    expect(
      message.startsWith(
        `"${product.title}" was not deleted: 1 payment link is not paid yet. Cancel the link on the Payment Links page (`,
      ),
    ).toBe(true)
    const path = /\((\/admin\/payment-links\?[^)\s]+)\)/.exec(message)![1]!
    const data = await load(path)
    expect(data.links.map((link) => link.orderId)).toEqual([active.orderId])
  })
})

describe(`e-mailing a payment link from the page (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  let smtp: TestSmtpServer
  beforeAll(async () => {
    smtp = await startSmtpServer()
  })
  afterAll(async () => {
    await smtp.close()
  })

  /** Runs the due payment-link mails as the job runner would, sending to the test SMTP server. */
  async function sendQueuedMails() {
    const { siteName } = await getSiteSettings(t.db)
    const mailer = createMailer(
      { SMTP_URL: smtp.url, MAIL_FROM: undefined, PUBLIC_URL, DATA_DIR: os.tmpdir() },
      { siteName },
    )
    const log: string[] = []
    const handlers = paymentLinkMailJobHandlers(t.db, () => ({
      publicUrl: PUBLIC_URL,
      mailer,
      log: (line) => log.push(line),
    }))
    await runDueJobs(t.db, handlers, { log: () => {} })
    return log
  }

  const mailsTo = (email: string) => smtp.mails.filter((mail) => mail.to.includes(email))

  /** A header as written with RFC 2047 encoded words (a subject with ₹), decoded. */
  const decodeHeader = (value: string) =>
    value
      .replace(/\?=\s+=\?/g, '?==?')
      .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, word: string) =>
        encoding.toUpperCase() === 'B'
          ? Buffer.from(word, 'base64').toString('utf8')
          : Buffer.from(
              word
                .replace(/_/g, ' ')
                .replace(/=([0-9A-F]{2})/gi, (_hex, hex: string) =>
                  String.fromCharCode(parseInt(hex, 16)),
                ),
              'latin1',
            ).toString('utf8'),
      )

  /** The payment-link mails queued for a link (sent or not). */
  async function queuedFor(linkId: string) {
    const jobs = await t.db
      .selectFrom('job')
      .select('payload')
      .where('type', '=', PAYMENT_LINK_MAIL_JOB)
      .execute()
    return jobs.filter((job) => (JSON.parse(job.payload) as { linkId: string }).linkId === linkId)
  }

  async function linkActions(linkId: string) {
    const { entries } = await listAuditEntries(t.db, { targetId: linkId })
    return entries.map((entry) => entry.action).sort()
  }

  /** The create form as the page shows it, filled in, the e-mail box ticked unless told otherwise. */
  async function createForm(
    product: { id: string },
    customer: { name: string; email: string },
    extra: Record<string, string> = { emailLink: 'on' },
  ): Promise<Record<string, string>> {
    const { html } = await render('/admin/payment-links')
    return {
      intent: 'create',
      key: formKey(html),
      productId: product.id,
      amount: '999',
      name: customer.name,
      email: customer.email,
      phone: '9876501234',
      businessName: '',
      gstin: '',
      businessAddress: '',
      ...extra,
    }
  }

  /** Posts a create form as the browser does, then follows its redirect (with its cookie). */
  async function post(form: Record<string, string>) {
    const answer = await postForRedirect(action, 'http://shop.test/admin/payment-links', form)
    const page = await render(answer.headers.get('Location')!, undefined, redirectCookie(answer))
    const orderId = /order (ORD_\d+_\d+)/.exec(text(page.html))?.[1]
    const link = orderId ? await getPaymentLinkByOrderId(t.db, orderId, PUBLIC_URL) : null
    return { ...page, answer, link: link! }
  }

  /** The create form as the browser posts it, the redirect followed. */
  async function createOnPage(
    product: { id: string },
    customer: { name: string; email: string },
    extra?: Record<string, string>,
  ) {
    return post(await createForm(product, customer, extra))
  }

  it('ticks "E-mail the link to the customer" to begin with', async () => {
    const { html } = await render('/admin/payment-links')
    expect(text(html)).toContain('E-mail the link to the customer')
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*name="emailLink"[^>]*checked=""/)
  })

  it('mails a new link to its customer when the box is ticked: amount, product, Pay button, business', async () => {
    const product = await makeProduct(t.db, {
      title: `StreamVerse Premium 12 Months ${crypto.randomUUID().slice(0, 8)}`,
    })
    const email = 'neha.mail@example.test'
    const created = await createOnPage(
      product,
      { name: 'Neha Kapoor', email },
      {
        emailLink: 'on',
        businessName: 'Udyam Software Private Limited',
        gstin: '27AAPFU0939F1ZV',
        businessAddress: 'Nariman Point, Mumbai 400021',
      },
    )
    expect(created.status).toBe(200)
    expect(text(created.html)).toContain(`It is on its way to ${email} by e-mail.`)
    const link: PaymentLink = created.link
    expect(await queuedFor(link.id)).toHaveLength(1)
    expect(await linkActions(link.id)).toEqual(['payment-link.create'])
    const { entries } = await listAuditEntries(t.db, { targetId: link.id })
    expect(entries[0]!.summary).toMatch(/ and e-mailed it$/)

    await sendQueuedMails()
    const mails = mailsTo(email)
    expect(mails).toHaveLength(1)
    const mail = mails[0]!
    const { siteName } = await getSiteSettings(t.db)
    expect(decodeHeader(mail.subject)).toBe(`Pay ₹999 for ${product.title} at ${siteName}`)
    expect(link.paymentUrl).toMatch(/^https:\/\/shop\.example\.in\/payment\/pay\?order=ORD_/)
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('Hello Neha Kapoor,')
      expect(part).toContain(`pay ₹999 for ${product.title}`)
      expect(part).toContain(`Order: ${link.orderId}`)
      expect(part).toContain('Invoice to: Udyam Software Private Limited, GSTIN 27AAPFU0939F1ZV')
      expect(part).toContain('This link is for Neha Kapoor only')
    }
    expect(mail.text.replace(/\r\n/g, '\n')).toContain(`Pay ₹999:\n${link.paymentUrl}\n`)
    expect(mail.html).toContain(`<a href="${link.paymentUrl.replace(/&/g, '&amp;')}"`)
  })

  it('answers a create with a redirect whose page shows the new link once; the same form sent again makes no second link or mail', async () => {
    const product = await makeProduct(t.db, { title: `Route Twice ${crypto.randomUUID()}` })
    const email = 'twice.sent@example.test'
    const form = await createForm(product, { name: 'Tara Sen', email })

    const first = await post(form)
    // Post/Redirect/Get: the page on screen is a GET, which a reload does not send as a post.
    expect(first.answer.status).toBe(303)
    expect(first.answer.headers.get('Location')).toBe('/admin/payment-links')
    const link = first.link
    expect(link.customerEmail).toBe(email)
    expect(first.status).toBe(200)
    expect(statusText(first.html)).toBe(
      `Payment link created for order ${link.orderId}: ${link.paymentUrl} It is on its way to ${email} by e-mail.`,
    )
    expect(hrefs(first.html)).toContain(link.paymentUrl)
    // The next page shows a new key, so the next form makes a new link.
    expect(formKey(first.html)).not.toBe(form.key)
    // Shown once: the page that shows it clears it, and loaded again says nothing more.
    const shown = await loader({
      request: new Request('http://shop.test/admin/payment-links', {
        headers: { Cookie: redirectCookie(first.answer) },
      }),
      context: {},
      params: {},
    } as unknown as Parameters<typeof loader>[0])
    expect(new Headers(shown.init?.headers).get('Set-Cookie')).toMatch(
      /^kb_payment_link_created=; Max-Age=0;/,
    )
    const reloaded = await render(first.answer.headers.get('Location')!)
    expect(statusText(reloaded.html)).toBe('')

    // The same form again (Back and resend, a double tap before the page has its script).
    const again = await post(form)
    expect(again.answer.status).toBe(303)
    expect(again.link.id).toBe(link.id)
    expect(statusText(again.html)).toBe(
      `This form had already created the payment link for order ${link.orderId}: ${link.paymentUrl} No second link was made and nothing more was e-mailed.`,
    )
    const links = await t.db
      .selectFrom('paymentLink')
      .select('id')
      .where('customerEmail', '=', email)
      .execute()
    expect(links).toEqual([{ id: link.id }])
    expect(await queuedFor(link.id)).toHaveLength(1)
    expect(await linkActions(link.id)).toEqual(['payment-link.create'])
    await sendQueuedMails()
    expect(mailsTo(email)).toHaveLength(1)
  })

  it('keeps the list a create was sent from, and refuses a form without its key', async () => {
    const product = await makeProduct(t.db, { title: `Route Keyless ${crypto.randomUUID()}` })
    const email = 'keyless@example.test'
    const form = await createForm(product, { name: 'Dev Rao', email })
    const here = `/admin/payment-links?${new URLSearchParams({ q: 'Route', status: 'active' })}`
    const answer = await postForRedirect(action, `http://shop.test${here}`, form)
    expect(answer.headers.get('Location')).toBe(here)

    const { key: _key, ...keyless } = await createForm(product, { name: 'Dev Rao', email })
    const refused = await render('/admin/payment-links', keyless)
    expect(refused.status).toBe(400)
    expect(text(refused.html)).toContain('This form has expired. Reload the page and try again.')
    const forged = await render('/admin/payment-links', { ...keyless, key: 'not a key' })
    expect(forged.status).toBe(400)
    const links = await t.db
      .selectFrom('paymentLink')
      .select('id')
      .where('customerEmail', '=', email)
      .execute()
    expect(links).toHaveLength(1)
  })

  it('refuses a blank amount for a product under ₹1.00 on the amount field, making nothing', async () => {
    const product = await makeProduct(t.db, {
      title: `Route Under A Rupee ${crypto.randomUUID()}`,
      price: 50,
    })
    const email = 'under.rupee@example.test'
    const form = await createForm(
      product,
      { name: 'Isha Menon', email },
      { amount: '', emailLink: 'on' },
    )
    const refused = await render('/admin/payment-links', form)
    expect(refused.status).toBe(400)
    // On the amount field, where the admin types the amount to ask for instead.
    const amountInput = /<input[^>]*name="amount"[^>]*>/.exec(refused.html)![0]
    expect(amountInput).toContain('aria-invalid="true"')
    const errorId = /aria-describedby="([^" ]+)/.exec(amountInput)![1]!
    const amountError = new RegExp(`<p id="${errorId}"[^>]*>([\\s\\S]*?)</p>`).exec(refused.html)
    expect(text(amountError?.[1] ?? '').trim()).toBe(
      'This product costs ₹0.50; enter an amount of at least ₹1.00',
    )
    const made = await t.db
      .selectFrom('paymentLink')
      .select('id')
      .where('customerEmail', '=', email)
      .execute()
    expect(made).toEqual([])
    expect(await linkActions(form.key!)).toEqual([])
    expect(await queuedFor(form.key!)).toHaveLength(0)

    // An amount typed in is taken for the same product.
    const created = await post({ ...form, amount: '1' })
    expect(created.answer.status).toBe(303)
    expect(created.link.amount).toBe(100)
    expect(created.link.id).toBe(form.key)
  })

  it('queues no mail when the box is unticked', async () => {
    const product = await makeProduct(t.db, { title: `Route No Mail ${crypto.randomUUID()}` })
    const email = 'no.mail@example.test'
    // An unticked checkbox is not in the form at all.
    const created = await createOnPage(product, { name: 'Arjun Das', email }, {})
    expect(created.status).toBe(200)
    expect(text(created.html)).toContain('Payment link created for order')
    expect(text(created.html)).not.toContain('by e-mail.')
    expect(await queuedFor(created.link.id)).toHaveLength(0)
    await sendQueuedMails()
    expect(mailsTo(email)).toHaveLength(0)
  })

  it("Send by e-mail on an active link's row mails it again, audited, at most once a minute", async () => {
    const product = await makeProduct(t.db, { title: `Route Send ${crypto.randomUUID()}` })
    const email = 'ravi.send@example.test'
    const link = await createPaymentLink(
      t.db,
      { productId: product.id, customer: { ...BUYER, name: 'Ravi Iyer', email }, createdBy: null },
      PUBLIC_URL,
    )
    const here = `/admin/payment-links?${new URLSearchParams({ q: product.title, status: 'active' })}`
    // The row's form, on the filtered page, without JavaScript.
    const page = await render(here)
    expect(text(page.html)).toContain(`Send by e-mail the payment link for ${link.orderId}`)
    expect(page.html).toMatch(/<input type="hidden" name="intent" value="email"\/>/)
    expect(new Set(postActions(page.html))).toEqual(new Set([here]))

    const sent = await render(here, { intent: 'email', id: link.id })
    expect(sent.status).toBe(200)
    expect(text(sent.html)).toContain(
      `The payment link for order ${link.orderId} is on its way to Ravi Iyer <${email}>.`,
    )
    // Still the same filtered list, the link in it.
    expect(text(sent.html)).toContain(link.orderId)
    expect(await queuedFor(link.id)).toHaveLength(1)
    expect(await linkActions(link.id)).toEqual(['payment-link.email'])

    // A double click: refused, nothing more queued or recorded.
    const again = await render(here, { intent: 'email', id: link.id })
    expect(again.status).toBe(429)
    expect(text(again.html)).toMatch(
      /This payment link was e-mailed less than a minute ago\. Please wait \d+ seconds? before sending it again\./,
    )
    expect(await queuedFor(link.id)).toHaveLength(1)
    expect(await linkActions(link.id)).toEqual(['payment-link.email'])

    await sendQueuedMails()
    const mails = mailsTo(email)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.text).toContain(link.paymentUrl)
  })

  it('refuses a sixth payment-link mail to one address within the hour, saying so, and makes or sends nothing', async () => {
    // Every send below falls in one window of the limit.
    await withinOneWindow('paymentLinkMailRecipient', 20_000)
    const product = await makeProduct(t.db, { title: `Route Limit ${crypto.randomUUID()}` })
    const email = 'lata.limit@example.test'
    for (let i = 0; i < 5; i++) {
      const made = await createOnPage(product, {
        name: 'Lata Rao',
        email: i % 2 ? email.toUpperCase() : email,
      })
      expect(text(made.html)).toContain('by e-mail.')
    }
    const linksTo = async () =>
      (await t.db.selectFrom('paymentLink').select(['id', 'customerEmail']).execute()).filter(
        (link) => link.customerEmail.toLowerCase() === email,
      )
    expect(await linksTo()).toHaveLength(5)

    // A sixth link with its mail: nothing is made, the form says why and how to go on.
    const form = await createForm(product, { name: 'Lata Rao', email })
    const refused = await render('/admin/payment-links', form)
    expect(refused.status).toBe(429)
    expect(text(refused.html)).toMatch(
      /lata\.limit@example\.test has already been e-mailed 5 payment links this hour, the most one address may get\. E-mail it again in \d+ minutes?\. Nothing was created: untick "E-mail the link to the customer" to create the link without e-mailing it\./,
    )
    expect(await linksTo()).toHaveLength(5)
    expect(await queuedFor(form.key!)).toHaveLength(0)
    expect(await linkActions(form.key!)).toEqual([])

    // Send by e-mail on another link to that address: refused, nothing queued or recorded.
    const other = await createPaymentLink(
      t.db,
      { productId: product.id, customer: { ...BUYER, email }, createdBy: null },
      PUBLIC_URL,
    )
    const answer = await action({
      request: new Request('http://shop.test/admin/payment-links', {
        method: 'POST',
        body: new URLSearchParams({ intent: 'email', id: other.id }),
      }),
      context: { clientIp: '203.0.113.9' },
      params: {},
    } as unknown as Parameters<typeof action>[0])
    const { data: sent, init } = answer as unknown as {
      data: { email: { tone: string; message: string } }
      init: ResponseInit
    }
    expect(init.status).toBe(429)
    expect(Number(new Headers(init.headers).get('Retry-After'))).toBeGreaterThan(0)
    expect(sent.email).toEqual({
      tone: 'error',
      message: expect.stringMatching(
        /^lata\.limit@example\.test has already been e-mailed 5 payment links this hour, the most one address may get\. E-mail it again in \d+ minutes?\. Nothing was sent\.$/,
      ) as string,
    })
    expect(await queuedFor(other.id)).toHaveLength(0)
    expect(await linkActions(other.id)).toEqual([])

    // The same form with the box unticked makes its link, unmailed.
    const { emailLink: _ticked, ...unticked } = form
    const created = await post(unticked)
    expect(created.answer.status).toBe(303)
    expect(created.link.id).toBe(form.key)
    expect(await queuedFor(form.key!)).toHaveLength(0)
    await sendQueuedMails()
    expect(
      smtp.mails.filter((mail) => mail.to.some((to) => to.toLowerCase().includes(email))),
    ).toHaveLength(5)
  })

  it('refuses Send by e-mail for a paid or cancelled link, with a message, and sends nothing', async () => {
    const product = await makeProduct(t.db, { title: `Route Refused ${crypto.randomUUID()}` })
    const make = async (email: string) =>
      createPaymentLink(
        t.db,
        { productId: product.id, customer: { ...BUYER, email }, createdBy: null },
        PUBLIC_URL,
      )
    const paid = await make('paid.refused@example.test')
    await t.db
      .updateTable('paymentLink')
      .set({ status: 'paid' })
      .where('id', '=', paid.id)
      .execute()
    const cancelled = await make('cancelled.refused@example.test')
    await cancelPaymentLink(t.db, cancelled.id)

    const onPaid = await render('/admin/payment-links', { intent: 'email', id: paid.id })
    expect(onPaid.status).toBe(409)
    expect(text(onPaid.html)).toContain(
      'This payment link has already been paid, so it was not e-mailed.',
    )
    const onCancelled = await render('/admin/payment-links', { intent: 'email', id: cancelled.id })
    expect(onCancelled.status).toBe(409)
    expect(text(onCancelled.html)).toContain(
      'This payment link is cancelled, so it was not e-mailed.',
    )
    const missing = await render('/admin/payment-links', { intent: 'email', id: 'no-such-link' })
    expect(missing.status).toBe(404)
    expect(text(missing.html)).toContain('Payment link not found.')

    for (const link of [paid, cancelled]) {
      expect(await queuedFor(link.id)).toHaveLength(0)
      expect(await linkActions(link.id)).toEqual([])
    }
    await sendQueuedMails()
    expect(mailsTo('paid.refused@example.test')).toHaveLength(0)
    expect(mailsTo('cancelled.refused@example.test')).toHaveLength(0)
  })

  it('does not send the queued mail of a link cancelled or paid before it went out', async () => {
    const product = await makeProduct(t.db, { title: `Route Withdrawn ${crypto.randomUUID()}` })
    const cancelled = await createOnPage(product, {
      name: 'Meera Pillai',
      email: 'meera.withdrawn@example.test',
    })
    const paid = await createOnPage(product, {
      name: 'Kabir Shah',
      email: 'kabir.paid@example.test',
    })
    expect(await queuedFor(cancelled.link.id)).toHaveLength(1)
    expect(await queuedFor(paid.link.id)).toHaveLength(1)
    const done = await render('/admin/payment-links', {
      intent: 'cancel',
      id: cancelled.link.id,
      confirmed: 'yes',
    })
    expect(text(done.html)).toContain('Payment link cancelled.')
    await t.db
      .updateTable('paymentLink')
      .set({ status: 'paid' })
      .where('id', '=', paid.link.id)
      .execute()

    const log = await sendQueuedMails()
    expect(mailsTo('meera.withdrawn@example.test')).toHaveLength(0)
    expect(mailsTo('kabir.paid@example.test')).toHaveLength(0)
    expect(log).toEqual(
      expect.arrayContaining([
        `[mail] payment link ${cancelled.link.orderId} is cancelled: its mail was not sent`,
        `[mail] payment link ${paid.link.orderId} is paid: its mail was not sent`,
      ]),
    )
    // The jobs are done, not retried.
    const jobs = await t.db
      .selectFrom('job')
      .select(['payload', 'status'])
      .where('type', '=', PAYMENT_LINK_MAIL_JOB)
      .execute()
    const statusOf = (linkId: string) =>
      jobs.find((job) => (JSON.parse(job.payload) as { linkId: string }).linkId === linkId)?.status
    expect(statusOf(cancelled.link.id)).toBe('done')
    expect(statusOf(paid.link.id)).toBe('done')
  })
})
