import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  UNSAFE_withComponentProps as withComponentProps,
} from 'react-router'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../tests/helpers/db'
import { BUYER, makeAdmin, makeProduct } from '../../../tests/factories'
import { cancelPaymentLink, createPaymentLink } from '~/data/payment-link.server'
import type { UserProfile } from '~/data/user.server'
import { openSalesMessage } from '~/lib/validation/product'
import AdminPaymentLinks, { action, loader } from './payment-links'

/**
 * /admin/payment-links as the server answers it: the loader reads the list's page, search and
 * status from the URL, the page renders its paging, filters and Cancel forms for that same list,
 * and a Cancel posted from a filtered page answers on that page. Signing in is not what is
 * tested here: the permission check answers with this file's admin.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/permissions.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requirePermission: vi.fn(async () => signedIn.user),
}))

const t = fileTestDb()
const PUBLIC_URL = 'https://shop.example.in'
// The route reads the database through services() (app/lib/app-context.server.ts), which
// answers whatever the process opened: here, this file's test database.
const holder = globalThis as typeof globalThis & { __keybazaar?: unknown }
let admin: UserProfile
beforeAll(async () => {
  holder.__keybazaar = {
    db: t.db,
    engine: t.engine,
    env: { PUBLIC_URL, APP_SECRET: 'x'.repeat(32) },
  }
  admin = await makeAdmin(t.db, { name: 'Owner' })
  signedIn.user = { ...admin, permissions: { canManageOrders: true } }
})
afterAll(() => {
  holder.__keybazaar = undefined
})

const ROUTE_ID = 'routes/admin/payment-links'

type LoaderData = Awaited<ReturnType<typeof loader>>

async function load(path: string): Promise<LoaderData> {
  return loader({
    request: new Request(`http://shop.test${path}`),
    context: {},
    params: {},
  } as unknown as Parameters<typeof loader>[0])
}

/** The page at `path` (after a post of `form` to it, if given), rendered on the server. */
async function render(path: string, form?: Record<string, string>) {
  const handler = createStaticHandler([
    {
      id: ROUTE_ID,
      path: '/admin/payment-links',
      Component: withComponentProps(AdminPaymentLinks as never),
      loader: loader as never,
      action: action as never,
    },
  ])
  const request = new Request(
    `http://shop.test${path}`,
    form ? { method: 'POST', body: new URLSearchParams(form) } : undefined,
  )
  const context = await handler.query(request, { requestContext: { clientIp: '203.0.113.9' } })
  if (context instanceof Response) throw new Error('expected a page, not a response')
  const html = renderToString(
    createElement(StaticRouterProvider, {
      router: createStaticRouter(handler.dataRoutes, context),
      context,
    }),
  )
  return { html, status: context.statusCode }
}

/** The markup's text, tags removed and entities decoded. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')

/** Where the page's post forms go (the create form's and each Cancel's), decoded. */
const postActions = (html: string) =>
  [...html.matchAll(/<form[^>]*>/g)]
    .map((match) => match[0])
    .filter((tag) => tag.includes('method="post"'))
    .map((tag) => /action="([^"]*)"/.exec(tag)?.[1]?.replace(/&amp;/g, '&') ?? '')

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
