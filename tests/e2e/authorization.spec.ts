import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {
  findUserByEmail,
  setUserPermissions,
  setUserRole,
  setUserStatus,
  type Permission,
} from '~/data/user.server'
import { createDatabase, type DB } from '~/lib/db.server'
import routes from '../../app/routes'
import { startApp, type RunningApp } from '../helpers/app'
import { signUpConfirmed } from '../helpers/mailbox'
import { makePaidOrder, makeProduct } from '../factories'
import { expect, test } from '../helpers/fixtures'

/**
 * Who may do what in the admin area, asked of the running server: every admin route and
 * every admin action, as anonymous, a customer, suspended users, an inactive admin, an admin
 * missing each permission flag, a full admin and an ADMIN_EMAILS admin.
 *
 * A new admin route must be added to ADMIN_PAGES (and each action of it to ADMIN_ACTIONS):
 * the first test reads app/routes.ts and the route modules, and fails for anything missing.
 */
type Need = 'admin' | Permission
/** A page's or action's answer when the guard lets the request through. */
type Success = { status: number; text?: string } | { redirect: string }

/** Every admin URL pattern of app/routes.ts: a URL to request, what it needs, what success is. */
const ADMIN_PAGES: Record<string, { url: string; need: Need; success: Success }> = {
  '/admin': { url: '/admin', need: 'admin', success: { redirect: '/admin/dashboard' } },
  '/admin/dashboard': {
    url: '/admin/dashboard?period=30d',
    need: 'admin',
    success: { status: 200, text: 'Payment success rate' },
  },
  // Checkout and payments
  // The shop's configuration: Can Manage Users (docs/decisions/0019).
  '/admin/gateways': {
    url: '/admin/gateways',
    need: 'canManageUsers',
    success: { status: 200, text: 'Payment Gateways' },
  },
  '/admin/payment-links': {
    url: '/admin/payment-links',
    need: 'canManageOrders',
    success: { status: 200, text: 'Payment Links' },
  },
  // Orders and after-sales
  '/admin/orders': {
    url: '/admin/orders',
    need: 'canManageOrders',
    success: { status: 200, text: 'Search by customer, order ID or product' },
  },
  '/admin/orders/export': {
    url: '/admin/orders/export',
    need: 'canManageOrders',
    success: { status: 200, text: 'Order ID,Date,Customer Name,Email' },
  },
  '/admin/transactions': {
    url: '/admin/transactions?status=success',
    need: 'canManageOrders',
    success: { status: 200, text: 'ID, e-mail, name or UTR' },
  },
  '/admin/transactions/export': {
    url: '/admin/transactions/export',
    need: 'canManageOrders',
    success: {
      status: 200,
      text: 'Order ID,Customer Name,Email,Phone,Product,Amount,Status,Gateway,Transaction ID,Date',
    },
  },
  '/admin/transactions/gst-register': {
    url: '/admin/transactions/gst-register?month=2026-11',
    need: 'canManageOrders',
    success: {
      status: 200,
      text: 'Document,Number,Date,Against invoice,Order ID,Buyer,Buyer GSTIN,Supply',
    },
  },
  // An order that does not exist: past the guard, the Order not found page.
  '/admin/orders/:orderId': {
    url: '/admin/orders/ORD_0_0',
    need: 'canManageOrders',
    success: { status: 404, text: 'Order not found' },
  },
  // Catalogue
  '/admin/products': {
    url: '/admin/products',
    need: 'canCreateProducts',
    success: { status: 200, text: 'Total Products' },
  },
  '/admin/products/add': {
    url: '/admin/products/add',
    need: 'canCreateProducts',
    success: { status: 200, text: 'Add New Product' },
  },
  '/admin/products/edit': {
    url: '/admin/products/edit',
    need: 'canCreateProducts',
    success: { redirect: '/admin/products' },
  },
  // An id that does not exist: past the guard, the Product Not Found page.
  '/admin/products/edit/:id': {
    url: '/admin/products/edit/no-such-product',
    need: 'canCreateProducts',
    success: { status: 404, text: 'Product Not Found' },
  },
  // Stock items: a product that does not exist, past the guard.
  '/admin/products/:id/stock': {
    url: '/admin/products/no-such-product/stock',
    need: 'canCreateProducts',
    success: { status: 404, text: 'Product Not Found' },
  },
  '/admin/api/uploads': {
    url: '/admin/api/uploads',
    need: 'canCreateProducts',
    success: { status: 405 },
  },
  // Buyers' reviews: hide and show (moderation of the catalogue).
  '/admin/reviews': {
    url: '/admin/reviews?show=hidden',
    need: 'canCreateProducts',
    success: { status: 200, text: 'Reviews written by buyers of delivered orders' },
  },
  // Shop settings: Can Manage Users (docs/decisions/0019).
  '/admin/settings': {
    url: '/admin/settings?tab=security',
    need: 'canManageUsers',
    success: { status: 200, text: 'Allow new accounts' },
  },
  // Any other admin path: the not-found page inside the admin shell, for admins only.
  '/admin/*': {
    url: '/admin/no-such-page/here',
    need: 'admin',
    success: { status: 404, text: 'This admin page does not exist' },
  },
  // People and the record of changes
  '/admin/users': {
    url: '/admin/users',
    need: 'canManageUsers',
    success: { status: 200, text: 'Search by name or email' },
  },
  // A user who does not exist: past the guard, the User not found page.
  '/admin/users/:userId': {
    url: '/admin/users/no-such-user',
    need: 'canManageUsers',
    success: { status: 404, text: 'User not found' },
  },
  '/admin/audit': {
    url: '/admin/audit',
    need: 'canManageUsers',
    success: { status: 200, text: 'Audit Log' },
  },
}

/** Every admin route module that exports an action: the forms to post and what success is. */
// An empty form is enough to see the guard: past it, the action answers 400 with field errors.
const ADMIN_ACTIONS: Record<
  string,
  Array<{ url: string; need: Need; form: Record<string, string>; success: Success }>
> = {
  '/admin/gateways': [
    { url: '/admin/gateways', need: 'canManageUsers', form: {}, success: { status: 400 } },
  ],
  '/admin/payment-links': [
    { url: '/admin/payment-links', need: 'canManageOrders', form: {}, success: { status: 400 } },
  ],
  // Orders and after-sales: every action of the order page, on an order that does
  // not exist (past the guard: 404).
  '/admin/orders/:orderId': [
    'confirm',
    'deliver',
    'replace',
    'refund',
    'resend',
    'reply',
    'reveal',
  ].map((intent) => ({
    url: '/admin/orders/ORD_0_0',
    need: 'canManageOrders' as const,
    form: { intent, confirmed: 'yes', secret: 'KEY-1', note: 'Refund ref 1', reply: 'Hello' },
    success: { status: 404 },
  })),
  // Catalogue: delete and duplicate of a product that does not exist (answered with
  // a redirect back to the list and an error toast), the add and edit forms, the uploader.
  '/admin/products': [
    { url: '/admin/products', need: 'canCreateProducts', form: {}, success: { status: 400 } },
    {
      url: '/admin/products',
      need: 'canCreateProducts',
      form: { intent: 'delete', id: 'no-such-product', confirmed: 'yes' },
      success: { redirect: '/admin/products' },
    },
    {
      url: '/admin/products',
      need: 'canCreateProducts',
      form: { intent: 'duplicate', id: 'no-such-product' },
      success: { redirect: '/admin/products' },
    },
  ],
  '/admin/products/add': [
    { url: '/admin/products/add', need: 'canCreateProducts', form: {}, success: { status: 400 } },
  ],
  '/admin/products/edit/:id': [
    {
      url: '/admin/products/edit/no-such-product',
      need: 'canCreateProducts',
      form: {},
      success: { status: 404 },
    },
  ],
  // Stock items: import and revoke, on a product that does not exist (past the guard: 404).
  '/admin/products/:id/stock': (
    [
      { intent: 'import', content: 'KEY-1' },
      { intent: 'revoke', itemId: 'no-such-item', confirmed: 'yes' },
    ] as Array<Record<string, string>>
  ).map((form) => ({
    url: '/admin/products/no-such-product/stock',
    need: 'canCreateProducts' as const,
    form,
    success: { status: 404 },
  })),
  '/admin/api/uploads': [
    { url: '/admin/api/uploads', need: 'canCreateProducts', form: {}, success: { status: 400 } },
  ],
  // Hiding without a reason (past the guard: 400), and a review that does not exist (back to the
  // list with the reason: 303).
  '/admin/reviews': [
    {
      url: '/admin/reviews',
      need: 'canCreateProducts',
      form: { intent: 'hide', reviewId: 'no-such-review' },
      success: { status: 400 },
    },
    {
      url: '/admin/reviews',
      need: 'canCreateProducts',
      form: { intent: 'unhide', reviewId: 'no-such-review' },
      success: { status: 303 },
    },
  ],
  // A settings form with a field error: past the guard, 400 and nothing saved.
  '/admin/settings': [
    {
      url: '/admin/settings',
      need: 'canManageUsers',
      form: { tab: 'general', siteName: '', invoicePrefix: 'INV' },
      success: { status: 400 },
    },
  ],
  // Every change of the user page, on a user who does not exist (past the guard: 404).
  '/admin/users/:userId': (
    [
      {
        intent: 'update',
        version: '2026-01-01T00:00:00.000Z',
        name: 'Someone',
        role: 'admin',
        status: 'active',
        canManageUsers: 'on',
      },
      { intent: 'reset-password', password: 'secret-123', confirmPassword: 'secret-123' },
      { intent: 'make-admin', confirmed: 'yes' },
      { intent: 'suspend', confirmed: 'yes' },
      { intent: 'reactivate', confirmed: 'yes' },
    ] as Array<Record<string, string>>
  ).map((form) => ({
    url: '/admin/users/no-such-user',
    need: 'canManageUsers' as const,
    form,
    success: { status: 404 },
  })),
}

interface RouteEntry {
  path?: string
  index?: boolean
  file: string
  children?: RouteEntry[]
}

function flatten(
  entries: readonly RouteEntry[],
  parent = '',
): Array<{ pattern: string; file: string }> {
  return entries.flatMap((entry) => {
    const pattern = entry.index
      ? parent || '/'
      : `${parent}/${entry.path ?? ''}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1')
    return [
      { pattern, file: entry.file },
      ...flatten(entry.children ?? [], pattern === '/' ? '' : pattern),
    ]
  })
}

const adminRoutes = flatten(routes as RouteEntry[]).filter(
  ({ pattern }) => pattern === '/admin' || pattern.startsWith('/admin/'),
)
const exportsAction = (file: string) =>
  /export\s+(async\s+)?function\s+action\b|export\s+const\s+action\b|export\s*\{[^}]*\baction\b/.test(
    fs.readFileSync(path.resolve(import.meta.dirname, '../../app', file), 'utf8'),
  )

test('every admin route and action of app/routes.ts is in the authorization table', () => {
  const patterns = [...new Set(adminRoutes.map((route) => route.pattern))]
  expect(patterns.length).toBeGreaterThan(0)
  const missingPages = patterns.filter((pattern) => !(pattern in ADMIN_PAGES))
  expect(
    missingPages,
    'admin routes missing from ADMIN_PAGES in tests/e2e/authorization.spec.ts',
  ).toEqual([])
  const withActions = [
    ...new Set(
      adminRoutes.filter((route) => exportsAction(route.file)).map((route) => route.pattern),
    ),
  ]
  const missingActions = withActions.filter((pattern) => !ADMIN_ACTIONS[pattern]?.length)
  expect(
    missingActions,
    'admin actions missing from ADMIN_ACTIONS in tests/e2e/authorization.spec.ts',
  ).toEqual([])
  const stale = Object.keys(ADMIN_PAGES).filter((pattern) => !patterns.includes(pattern))
  expect(stale, 'ADMIN_PAGES rows for routes that no longer exist').toEqual([])
})

// ----------------------------------------------------------------------------------------

type Actor = {
  name: string
  cookie: string | null
  /** What the actor may reach: 'none' (sent to log in), 'denied' (403 for everything), or permissions. */
  access: 'login' | 'denied' | Record<Permission, boolean>
}

const ALL = { canCreateProducts: true, canManageOrders: true, canManageUsers: true }
const LISTED_ADMIN = 'listed.admin@example.test'
let app: RunningApp
let db: DB
const actors: Actor[] = []

/** Signs up and confirms the address with the mailed link; returns the session cookie. */
function signUp(email: string): Promise<string> {
  return signUpConfirmed(app.url, app, { name: email.split('@')[0]!, email, password: 'secret12' })
}

async function logIn(email: string): Promise<Response> {
  return fetch(`${app.url}/login`, {
    method: 'POST',
    body: new URLSearchParams({ email, password: 'secret12' }),
    redirect: 'manual',
  })
}

test.beforeAll(async () => {
  // Ten accounts signed up through the mailed link: slow on a busy machine.
  test.setTimeout(180_000)
  app = await startApp({ env: { ADMIN_EMAILS: LISTED_ADMIN } })
  db = createDatabase({ sqlitePath: path.join(app.dataDir, 'keybazaar.db') })
  const id = crypto.randomBytes(3).toString('hex')
  const email = (name: string) => `${name}.${id}@example.test`
  const userId = async (address: string) => (await findUserByEmail(db, address))!.id

  actors.push({ name: 'anonymous', cookie: null, access: 'login' })
  actors.push({ name: 'customer', cookie: await signUp(email('customer')), access: 'denied' })

  const suspended = email('suspended')
  const suspendedCookie = await signUp(suspended)
  await setUserStatus(db, await userId(suspended), 'suspended')
  actors.push({ name: 'suspended customer', cookie: suspendedCookie, access: 'login' })

  const suspendedAdmin = email('suspended-admin')
  const suspendedAdminCookie = await signUp(suspendedAdmin)
  await setUserRole(db, await userId(suspendedAdmin), 'admin')
  await setUserStatus(db, await userId(suspendedAdmin), 'suspended')
  actors.push({ name: 'suspended admin', cookie: suspendedAdminCookie, access: 'login' })

  // Inactive: still signed in as a customer, but the admin role rests (docs/auth.md).
  const inactiveAdmin = email('inactive-admin')
  const inactiveAdminCookie = await signUp(inactiveAdmin)
  await setUserRole(db, await userId(inactiveAdmin), 'admin')
  await setUserStatus(db, await userId(inactiveAdmin), 'inactive')
  actors.push({ name: 'inactive admin', cookie: inactiveAdminCookie, access: 'denied' })

  for (const missing of ['canCreateProducts', 'canManageOrders', 'canManageUsers'] as const) {
    const address = email(`admin-without-${missing}`)
    const cookie = await signUp(address)
    await setUserRole(db, await userId(address), 'admin')
    const permissions = { ...ALL, [missing]: false }
    await setUserPermissions(db, await userId(address), permissions)
    actors.push({ name: `admin without ${missing}`, cookie, access: permissions })
  }

  const full = email('full-admin')
  const fullCookie = await signUp(full)
  await setUserRole(db, await userId(full), 'admin')
  actors.push({ name: 'full admin', cookie: fullCookie, access: ALL })

  // Listed in ADMIN_EMAILS: every permission whatever is stored.
  const listedCookie = await signUp(LISTED_ADMIN)
  await setUserRole(db, await userId(LISTED_ADMIN), 'user')
  actors.push({
    name: 'ADMIN_EMAILS admin with no stored rights',
    cookie: listedCookie,
    access: ALL,
  })
})

test.afterAll(async () => {
  await db?.destroy()
  await app?.dispose()
})

const decode = (html: string) =>
  html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')

async function expectAnswer(
  actor: Actor,
  need: Need,
  method: 'GET' | 'POST',
  url: string,
  response: Response,
  success: Success,
) {
  const what = `${actor.name}: ${method} ${url}`
  if (actor.access === 'login') {
    expect(response.status, what).toBe(302)
    expect(response.headers.get('location'), what).toBe(
      `/?login=1&redirectTo=${encodeURIComponent(url)}`,
    )
    return
  }
  const allowed = actor.access !== 'denied' && (need === 'admin' || actor.access[need])
  if (!allowed) {
    expect(response.status, what).toBe(403)
    const html = decode(await response.text())
    expect(html, what).toContain('Access Denied')
    expect(html, what).toContain(
      actor.access === 'denied'
        ? "You don't have admin permissions."
        : "You don't have permission to",
    )
    return
  }
  if ('redirect' in success) {
    expect(response.status, what).toBe(302)
    expect(response.headers.get('location'), what).toBe(success.redirect)
  } else {
    expect(response.status, what).toBe(success.status)
    if (success.text) expect(await response.text(), what).toContain(success.text)
  }
}

test('each admin page answers each kind of user as it should', async () => {
  for (const actor of actors) {
    for (const { url, need, success } of Object.values(ADMIN_PAGES)) {
      const response = await fetch(`${app.url}${url}`, {
        headers: actor.cookie ? { cookie: actor.cookie } : {},
        redirect: 'manual',
      })
      await expectAnswer(actor, need, 'GET', url, response, success)
    }
  }
})

test('each admin action answers each kind of user as it should', async () => {
  const rows = Object.values(ADMIN_ACTIONS).flat()
  expect(rows.length).toBeGreaterThan(0)
  for (const actor of actors) {
    for (const { url, need, form, success } of rows) {
      const response = await fetch(`${app.url}${url}`, {
        method: 'POST',
        body: new URLSearchParams(form),
        headers: actor.cookie ? { cookie: actor.cookie } : {},
        redirect: 'manual',
      })
      await expectAnswer(actor, need, 'POST', url, response, success)
    }
  }
})

test('a suspended user cannot log in, with a clear message', async () => {
  const suspended = actors.find((actor) => actor.name === 'suspended customer')!
  // Suspension ended the session the cookie belonged to.
  const dashboard = await fetch(`${app.url}/dashboard`, {
    headers: { cookie: suspended.cookie! },
    redirect: 'manual',
  })
  expect(dashboard.status).toBe(302)
  const address = (
    await db
      .selectFrom('user')
      .select('email')
      .where('status', '=', 'suspended')
      .where('role', '=', 'user')
      .executeTakeFirstOrThrow()
  ).email
  const response = await logIn(address)
  expect(response.status).toBe(403)
  expect(await response.text()).toContain(
    'Your account has been suspended. Please contact support.',
  )
})

test('an anonymous visitor of the admin area logs in and comes back to it', async ({ page }) => {
  await page.goto(`${app.url}/admin/dashboard`)
  await expect(page).toHaveURL(`${app.url}/?login=1&redirectTo=%2Fadmin%2Fdashboard`)
  const dialog = page.getByRole('dialog', { name: 'Log in' })
  await dialog.getByLabel('Email').fill(LISTED_ADMIN)
  await dialog.getByLabel('Password').fill('secret12')
  await dialog.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(`${app.url}/admin/dashboard`)
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()
  // Real figures: the demo catalogue's products (user counts are on the users page).
  const products = await db
    .selectFrom('product')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  await expect(
    page.getByRole('main').getByRole('listitem').filter({ hasText: 'Products' }),
  ).toContainText(String(products.n))
})

test("a buyer's order page, reveal and invoice open to admins with Can Manage Orders only", async () => {
  const product = await makeProduct(db)
  const order = await makePaidOrder(db, product.id)
  for (const actor of actors) {
    const sees = typeof actor.access === 'object' && actor.access.canManageOrders
    const headers = { origin: app.url, ...(actor.cookie ? { cookie: actor.cookie } : {}) }
    const what = `${actor.name}: /orders/${order.id}`
    const page = await fetch(`${app.url}/orders/${order.id}`, { headers, redirect: 'manual' })
    expect(page.status, what).toBe(sees ? 200 : 404)
    if (sees) expect(await page.text(), what).toContain(order.id)
    const invoice = await fetch(`${app.url}/orders/${order.id}/invoice.pdf`, {
      headers,
      redirect: 'manual',
    })
    expect(invoice.status, `${what}/invoice.pdf`).toBe(sees ? 200 : 404)
    if (!sees) {
      const reveal = await fetch(`${app.url}/orders/${order.id}`, {
        method: 'POST',
        body: new URLSearchParams({ intent: 'reveal' }),
        headers,
        redirect: 'manual',
      })
      expect(reveal.status, `${what} reveal`).toBe(404)
    }
  }
})

test("wishlists: the page and every change are the signed-in user's own", async () => {
  const products = await db
    .selectFrom('product')
    .select(['id', 'title'])
    .orderBy('slug')
    .limit(actors.length)
    .execute()
  const headersOf = (actor: Actor) => ({
    origin: app.url,
    ...(actor.cookie ? { cookie: actor.cookie } : {}),
  })
  const post = (actor: Actor, form: Record<string, string>) =>
    fetch(`${app.url}/wishlist`, {
      method: 'POST',
      body: new URLSearchParams(form),
      headers: headersOf(actor),
      redirect: 'manual',
    })
  const signedIn = actors.filter((actor) => actor.access !== 'login')
  // Each signed-in actor (customer, admins with and without each flag) wishes one product.
  for (const [index, actor] of signedIn.entries()) {
    const response = await post(actor, {
      intent: 'add',
      productId: products[index]!.id,
      redirectTo: '/dashboard/wishlist',
    })
    expect(response.status, actor.name).toBe(303)
    expect(response.headers.get('location'), actor.name).toBe('/dashboard/wishlist')
  }
  for (const actor of actors) {
    const page = await fetch(`${app.url}/dashboard/wishlist`, {
      headers: headersOf(actor),
      redirect: 'manual',
    })
    if (actor.access === 'login') {
      // Anonymous and suspended: sent to log in, and a change asks to log in and changes nothing.
      expect(page.status, actor.name).toBe(302)
      expect(page.headers.get('location'), actor.name).toBe(
        '/login?redirectTo=%2Fdashboard%2Fwishlist',
      )
      const before = await db.selectFrom('wishlistItem').select('userId').execute()
      const response = await post(actor, { intent: 'remove', productId: products[0]!.id })
      expect(response.status, actor.name).toBe(303)
      expect(response.headers.get('location'), actor.name).toMatch(/[?&]login=1/)
      expect(await db.selectFrom('wishlistItem').select('userId').execute()).toEqual(before)
      continue
    }
    const index = signedIn.indexOf(actor)
    const html = decode(await page.text())
    expect(page.status, actor.name).toBe(200)
    // Only their own product is listed.
    for (const [other, product] of products.slice(0, signedIn.length).entries()) {
      if (other === index) expect(html, actor.name).toContain(product.title)
      else expect(html, actor.name).not.toContain(`Remove ${product.title}`)
    }
    // Removing another user's product changes nothing of theirs.
    const neighbour = (index + 1) % signedIn.length
    await post(actor, { intent: 'remove', productId: products[neighbour]!.id })
    await post(actor, { intent: 'notify', on: 'no', productId: products[neighbour]!.id })
  }
  const rows = await db
    .selectFrom('wishlistItem')
    .select(['productId', 'notifyRestock'])
    .orderBy('createdAt')
    .execute()
  expect(rows.length).toBe(signedIn.length)
  expect(rows.every((row) => Number(row.notifyRestock) === 1)).toBe(true)
})
