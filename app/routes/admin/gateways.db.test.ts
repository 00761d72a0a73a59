import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import {
  createMemoryRouter,
  RouterProvider,
  UNSAFE_withComponentProps as withComponentProps,
} from 'react-router'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../tests/helpers/db'
import { gatewayForm } from '../../../tests/helpers/forms'
import { pageText, renderPage, serveTestDb } from '../../../tests/helpers/route-render'
import { makeAdmin, makePaidOrder, makeProduct } from '../../../tests/factories'
import { listAuditEntries } from '~/data/audit.server'
import {
  ensureDefaultGateway,
  GATEWAY_STALE_EDIT,
  listGateways,
  saveGateway,
} from '~/data/gateway.server'
import AdminGateways, { action, loader } from './gateways'

/**
 * /admin/gateways as the server answers it: what a refused save sends back, a save over another
 * admin's change, secrets stored under another APP_SECRET, the Paytm notes beside another live
 * gateway, gateways set by the environment, the audit entry of a move, and which button says it
 * is busy. Signing in is not what is tested here: the permission check answers with this file's
 * admin.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/permissions.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requireShopConfiguration: vi.fn(async () => signedIn.user),
}))

const ROUTE_ID = 'routes/admin/gateways'
const APP_SECRET = 'x'.repeat(32)
const OTHER_SECRET = 'o'.repeat(32)
const MERCHANT_KEY = 'Zq7#Tt2!Lm9@Pw4$'
const PAYTM_ENV = { PAYTM_MID: 'ENVMID', PAYTM_MERCHANT_KEY: 'abcdefghijklmnop' }
const t = fileTestDb()
// The page's settings; a test may add PAYTM_* and takes them away again (afterEach).
const env: Record<string, unknown> = { PUBLIC_URL: 'https://shop.example.in', APP_SECRET }
serveTestDb(t, { env })
beforeAll(async () => {
  const admin = await makeAdmin(t.db, { name: 'Owner' })
  signedIn.user = { ...admin, permissions: { canManageUsers: true } }
})
beforeEach(async () => {
  await t.db.deleteFrom('paymentGateway').execute()
  await ensureDefaultGateway(t.db)
})
afterEach(() => {
  for (const name of Object.keys(PAYTM_ENV)) delete env[name]
})

/** The page at `path` (after a post of `form` to it, if given), rendered on the server. */
async function render(path: string, form?: Record<string, string>) {
  const { html, status, context } = await renderPage(
    { id: ROUTE_ID, path: '/admin/gateways', Component: AdminGateways, loader, action },
    new Request(
      `http://shop.test${path}`,
      form ? { method: 'POST', body: new URLSearchParams(form) } : undefined,
    ),
    { clientIp: '203.0.113.9' },
  )
  return {
    html,
    text: pageText(html.replaceAll('<!-- -->', '')),
    status,
    actionData: context.actionData?.[ROUTE_ID] as unknown,
  }
}

/** The action's answer to a form that is saved (a redirect): the Response. */
async function post(form: Record<string, string>) {
  const request = new Request('http://shop.test/admin/gateways', {
    method: 'POST',
    body: new URLSearchParams(form),
  })
  return (await action({
    request,
    params: {},
    context: { clientIp: '203.0.113.9' },
  } as never)) as Response
}

const paytmRecord = async () =>
  (await listGateways(t.db, APP_SECRET)).find((gateway) => gateway.id === 'paytm')!

/** The Paytm edit form as the page posts it, with the version of the record it showed. */
async function paytmEdit(values: Record<string, string>) {
  return {
    intent: 'save',
    mode: 'edit',
    id: 'paytm',
    version: (await paytmRecord()).version,
    type: 'paytm',
    name: 'Paytm',
    status: 'testing',
    merchantId: '',
    merchantKey: '',
    website: 'WEBSTAGING',
    environment: 'staging',
    callbackUrl: '',
    ...values,
  }
}

const hiddenValue = (html: string, name: string) =>
  new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html)?.[1]

describe(`the Gateways page (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('never sends a secret typed into a refused save back to the page', async () => {
    const refused = await render(
      '/admin/gateways?edit=paytm',
      await paytmEdit({ name: '', merchantId: 'KEYBAZ12345678901234', merchantKey: MERCHANT_KEY }),
    )
    expect(refused.status).toBe(400)
    expect(refused.text).toContain('Failed to save gateway configuration')
    expect(refused.text).toContain('Name is required')
    // What is not secret comes back as typed.
    expect(refused.html).toContain('value="KEYBAZ12345678901234"')
    expect(refused.html).not.toContain(MERCHANT_KEY)
    expect(JSON.stringify(refused.actionData)).not.toContain(MERCHANT_KEY)

    // Nor one typed into a save refused for the credentials an active gateway needs.
    const razorpay = await render('/admin/gateways?add=razorpay', {
      intent: 'save',
      mode: 'add',
      type: 'razorpay',
      name: 'Razorpay',
      status: 'active',
      keyId: 'rzp_live_AbCdEf123456',
      keySecret: 'razor-secret-value-123',
      webhookSecret: '',
    })
    expect(razorpay.status).toBe(400)
    expect(razorpay.text).toContain('Webhook Secret is required to make the gateway active')
    expect(razorpay.html).not.toContain('razor-secret-value-123')
    expect(JSON.stringify(razorpay.actionData)).not.toContain('razor-secret-value-123')
  })

  it("refuses a save over another admin's change with 409, keeping the page's version", async () => {
    const form = await paytmEdit({ name: 'Mine' })
    const saved = await saveGateway(t.db, APP_SECRET, {
      mode: 'edit',
      id: 'paytm',
      version: form.version,
      ...gatewayForm({ name: 'Theirs', type: 'paytm', status: 'testing' }),
    })
    expect(saved).toEqual({ ok: true, id: 'paytm' })
    const refused = await render('/admin/gateways?edit=paytm', form)
    expect(refused.status).toBe(409)
    expect(refused.text).toContain(`Failed to save gateway configuration ${GATEWAY_STALE_EDIT}`)
    // The form as typed, still posting the version it came from: saving again is refused too.
    expect(refused.html).toContain('value="Mine"')
    expect(hiddenValue(refused.html, 'version')).toBe(form.version)
    expect((await paytmRecord()).name).toBe('Theirs')
  })

  it('says which secrets were stored under another APP_SECRET and counts them as not set', async () => {
    await saveGateway(t.db, OTHER_SECRET, {
      mode: 'edit',
      id: 'paytm',
      ...gatewayForm({
        name: 'Paytm',
        type: 'paytm',
        status: 'testing',
        merchantId: 'KEYBAZ12345678901234',
        merchantKey: MERCHANT_KEY,
      }),
    })
    const page = await render('/admin/gateways?edit=paytm')
    expect(page.text).toContain('Merchant Key Stored under another APP_SECRET: enter it again')
    expect(page.text).toContain(
      'Stored under another APP_SECRET, so it cannot be used: enter it again.',
    )
    expect(page.text).not.toContain('(set)')
    expect(page.text).not.toContain('A key is stored')
  })

  it('words the Paytm notes about Paytm alone while another gateway takes real payments', async () => {
    const razorpay = await saveGateway(t.db, APP_SECRET, {
      mode: 'add',
      ...gatewayForm({
        name: 'Razorpay',
        type: 'razorpay',
        status: 'active',
        keyId: 'rzp_live_AbCdEf123456',
        keySecret: 'razor-secret-value-123',
        webhookSecret: 'razor-webhook-secret-456',
      }),
    })
    expect(razorpay).toEqual({ ok: true, id: 'razorpay' })
    // Paytm in testing without a merchant: its simulator, beside the live Razorpay.
    const simulator = await render('/admin/gateways')
    expect(simulator.text).toContain(
      'Paytm in test mode : no Paytm merchant is configured, so Paytm at checkout is the built-in simulator and its payments move no real money.',
    )
    expect(simulator.text).not.toContain('no real money moves')

    await saveGateway(t.db, APP_SECRET, {
      mode: 'edit',
      id: 'paytm',
      ...gatewayForm({ name: 'Paytm', type: 'paytm', status: 'inactive' }),
    })
    const off = await render('/admin/gateways')
    expect(off.text).toContain('At checkout now Buyers pay this way, with no choice to make.')
    expect(off.text).toContain('checkout does not offer Paytm until it is active or testing again')
    expect(off.text).not.toContain('customers cannot pay')
  })

  it('shows the status of a gateway set by the environment read-only and keeps it on save', async () => {
    Object.assign(env, PAYTM_ENV)
    const page = await render('/admin/gateways?edit=paytm')
    expect(page.html).not.toMatch(/<select[^>]*name="status"/)
    expect(page.text).toContain(
      'The Paytm settings come from the PAYTM_* environment variables and cannot be changed here. Checkout uses them whatever the status stored here says, so the status cannot be changed either (now Testing): only the name is saved.',
    )
    const saved = await post(await paytmEdit({ name: 'Paytm (env)', status: 'inactive' }))
    expect(saved.status).toBe(303)
    expect(await paytmRecord()).toMatchObject({ name: 'Paytm (env)', status: 'testing' })
  })

  it('records a move in the audit log', async () => {
    await saveGateway(t.db, APP_SECRET, {
      mode: 'add',
      ...gatewayForm({ name: 'Razorpay', type: 'razorpay', status: 'testing' }),
    })
    const before = (await listAuditEntries(t.db, { targetId: 'razorpay' })).total
    const moved = await post({ intent: 'up', id: 'razorpay' })
    expect(moved.status).toBe(303)
    expect((await listGateways(t.db, APP_SECRET)).map((g) => g.id)).toEqual(['razorpay', 'paytm'])
    const { entries } = await listAuditEntries(t.db, { targetId: 'razorpay' })
    expect(entries).toHaveLength(before + 1)
    expect(entries[0]).toMatchObject({
      action: 'gateway.move',
      ip: '203.0.113.9',
      summary: 'Moved the Razorpay gateway up in the checkout order',
    })
  })

  it("ties the type's error to the type links in the add form", async () => {
    const refused = await render('/admin/gateways?add=paytm', {
      intent: 'save',
      mode: 'add',
      type: 'paytm',
      name: 'Paytm 2',
      status: 'testing',
    })
    expect(refused.status).toBe(400)
    const error = /<p id="([^"]+)"[^>]*>A Paytm gateway already exists; edit it instead.<\/p>/.exec(
      refused.html,
    )
    expect(error).not.toBeNull()
    const describedBy = [...refused.html.matchAll(/aria-describedby="([^"]+)"/g)].map((m) => m[1])
    expect(describedBy).toContain(error![1])
    expect(refused.html).toMatch(
      new RegExp(`<nav aria-label="Gateway type" aria-describedby="${error![1]}"`),
    )
  })

  it('says "Saving..." on Save Gateway only while that form is sent', async () => {
    const loaderData = await loader({
      request: new Request('http://shop.test/admin/gateways?edit=paytm'),
      context: {},
      params: {},
    } as never)
    /** The page while `form` is being sent (its action never answers). */
    const whileSending = async (form: Record<string, string>) => {
      const router = createMemoryRouter(
        [
          {
            id: ROUTE_ID,
            path: '/admin/gateways',
            Component: withComponentProps(AdminGateways as never),
            loader: () => loaderData,
            action: () => new Promise<never>(() => {}),
          },
        ],
        {
          initialEntries: ['/admin/gateways?edit=paytm'],
          hydrationData: { loaderData: { [ROUTE_ID]: loaderData } },
        },
      )
      const body = new FormData()
      for (const [name, value] of Object.entries(form)) body.append(name, value)
      void router.navigate('/admin/gateways?edit=paytm', { formMethod: 'post', formData: body })
      await vi.waitFor(() => expect(router.state.navigation.state).toBe('submitting'))
      const html = renderToString(createElement(RouterProvider, { router }))
      router.dispose()
      return pageText(html.replaceAll('<!-- -->', ''))
    }
    expect(await whileSending({ intent: 'test', id: 'paytm' })).toContain('Save Gateway')
    expect(await whileSending({ intent: 'down', id: 'paytm' })).not.toContain('Saving...')
    const saving = await whileSending(await paytmEdit({}))
    expect(saving).toContain('Saving...')
    expect(saving).not.toContain('Save Gateway')
  })

  it('gives every gateway that takes payments its figures, real and test mode apart', async () => {
    // A fresh shop: the default Paytm record, and checkout offering all three simulators.
    const product = await makeProduct(t.db, { price: 49_900 })
    await makePaidOrder(t.db, product.id, { gateway: 'paytm', testMode: true })
    await makePaidOrder(t.db, product.id, { gateway: 'paytm', testMode: true })
    await makePaidOrder(t.db, product.id, { gateway: 'paytm' })
    await makePaidOrder(t.db, product.id, { gateway: 'razorpay', testMode: true })
    const page = await render('/admin/gateways')
    /** The text of the card whose heading is `name`. */
    const card = (id: string) =>
      pageText(
        (page.html.split('<li id="gateway-').find((part) => part.startsWith(`${id}"`)) ?? '')
          .split('</li>')[0]!
          .replaceAll('<!-- -->', ''),
      )

    // The wording says what the figures are: real and test payments, never added together.
    expect(page.text).not.toContain('Figures are successful payments from real orders')
    expect(page.text).toContain('test payments (a built-in simulator or a test environment')
    // The Paytm record in testing without a merchant is the built-in simulator, and says so.
    expect(card('paytm')).toContain('Paytm Paytm Built-in simulator Testing')
    expect(card('paytm')).toContain('Real payments ₹499 1 transaction')
    expect(card('paytm')).toContain('Test payments ₹998 2 transactions, no real money')
    expect(card('paytm')).not.toContain('Including')

    // Razorpay and PhonePe have no record: their simulators get cards, figures and Set up.
    expect(card('razorpay')).toContain('Razorpay No settings stored Built-in simulator Set up')
    expect(card('razorpay')).toContain('Real payments ₹0 0 transactions')
    expect(card('razorpay')).toContain('Test payments ₹499 1 transaction, no real money')
    expect(card('razorpay')).toContain('Checkout position 2 of 3')
    expect(card('razorpay')).toContain('Test connection of Razorpay')
    expect(page.html).toContain('href="/admin/gateways?add=razorpay"')
    expect(card('phonepe')).toContain('Test payments ₹0 0 transactions, no real money')
    expect(card('phonepe')).toContain('Checkout position 3 of 3')

    // One test-mode banner, for every gateway: not a second one about Paytm.
    expect(page.html.match(/role="note"/g)).toHaveLength(1)
    expect(page.text).toContain('Test mode : every way to pay at checkout is a built-in simulator')
    expect(page.text).not.toContain('Paytm in test mode')
  })

  it('tests the connection of a simulator that has no record', async () => {
    const tested = await render('/admin/gateways', { intent: 'test', id: 'razorpay' })
    expect(tested.status).toBe(200)
    expect(tested.actionData).toMatchObject({ card: { id: 'razorpay' } })
    const unknown = await post({ intent: 'test', id: 'stripe' }).catch((error: unknown) => error)
    expect((unknown as { init?: { status?: number } }).init?.status).toBe(404)
  })
})
