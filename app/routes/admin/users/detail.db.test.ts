import { beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../../tests/helpers/db'
import {
  pageText,
  postActions,
  postForRedirect,
  redirectCookie,
  renderPage,
  serveTestDb,
} from '../../../../tests/helpers/route-render'
import {
  BUYER,
  makeAdmin,
  makeCustomer,
  makeOrder,
  makePaidOrder,
  makeProduct,
} from '../../../../tests/factories'
import { verifyPassword } from 'better-auth/crypto'
import { getUserProfile, markEmailVerified } from '~/data/user.server'
import { editVersion } from '~/services/user-admin.server'
import AdminUser, { action, loader } from './detail'

/**
 * /admin/users/{userId} as the server renders it: the orders card lists the orders placed while
 * signed in and the guest orders placed with the account's confirmed address (`ownedBy`,
 * app/data/customer-orders.server.ts), and says so. Signing in is not what is tested here: the
 * permission check answers with this file's admin.
 */
const signedIn = vi.hoisted(() => ({ user: null as unknown }))
vi.mock('~/services/permissions.server', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  requirePermission: vi.fn(async () => signedIn.user),
}))

const t = fileTestDb()
/** An ADMIN_EMAILS address: its page is a locked admin's. */
const LISTED_OWNER = 'listed.owner@example.test'
serveTestDb(t, {
  env: {
    PUBLIC_URL: 'https://shop.example.in',
    APP_SECRET: 'x'.repeat(32),
    ADMIN_EMAILS: [LISTED_OWNER],
  },
})
beforeAll(async () => {
  const admin = await makeAdmin(t.db, { name: 'Owner' })
  signedIn.user = { ...admin, permissions: { canManageUsers: true } }
})
const route = {
  id: 'routes/admin/users/detail',
  path: '/admin/users/:userId',
  Component: AdminUser,
  loader,
  action,
}

/** The user's page (at `search`) rendered on the server, as its markup. */
async function renderHtml(userId: string, search = '', init: RequestInit = {}): Promise<string> {
  const { html } = await renderPage(
    route,
    new Request(`http://shop.test/admin/users/${userId}${search}`, init),
  )
  return html
}

/** The user's page rendered on the server, as its text (tags removed, entities decoded). */
async function render(userId: string): Promise<string> {
  return pageText(await renderHtml(userId))
}

/** The page's forms that send a GET (the buttons that open Edit User and Reset Password). */
const getForms = (html: string) =>
  [...html.matchAll(/<form[^>]*method="get"[^>]*>([\s\S]*?)<\/form>/g)].map((match) => ({
    action: /action="([^"]*)"/.exec(match[0])?.[1],
    query: [...match[1]!.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map(
      (input) => `${input[1]}=${input[2]}`,
    ),
    text: pageText(match[1]!).trim(),
  }))

describe(`a user's page in the back office (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('lists the guest orders placed with the confirmed address too, and says so', async () => {
    const meera = await makeCustomer(t.db, { name: 'Meera Nair', email: 'meera.page@example.in' })
    await markEmailVerified(t.db, meera.id)
    const product = await makeProduct(t.db)
    const signedInOrder = await makeOrder(t.db, product.id, { userId: meera.id })
    const guestOrder = await makePaidOrder(t.db, product.id, {
      userId: null,
      customer: { ...BUYER, email: meera.email },
    })
    // Typed with her address and never paid: anyone could have, so it is not hers.
    const unpaidGuestOrder = await makeOrder(t.db, product.id, {
      userId: null,
      customer: { ...BUYER, email: meera.email },
    })

    const page = await render(meera.id)
    expect(page).toContain(signedInOrder.id)
    expect(page).toContain(guestOrder.id)
    expect(page).not.toContain(unpaidGuestOrder.id)
    expect(page).toContain(
      'Orders placed with this account, or paid as a guest with its confirmed e-mail address, newest first.',
    )
    expect(page).not.toContain('while signed in')
  })

  it('keeps the orders page it was opened at through Suspend and the in-page forms', async () => {
    const user = await makeCustomer(t.db, { name: 'Omar Paged' })
    const product = await makeProduct(t.db)
    for (let i = 0; i < 21; i++) await makeOrder(t.db, product.id, { userId: user.id })
    const paged = `/admin/users/${user.id}?page=2`

    const html = await renderHtml(user.id, '?page=2')
    expect(postActions(html)).toEqual([paged, paged])
    expect(getForms(html).map((form) => form.query)).toEqual([
      ['edit=1', 'page=2'],
      ['reset=1', 'page=2'],
    ])
    // The confirmation asked without JavaScript posts and cancels to the same page.
    const asked = await renderHtml(user.id, '?page=2', {
      method: 'POST',
      body: new URLSearchParams({ intent: 'suspend' }),
    })
    expect(postActions(asked)).toContain(paged)
    expect(asked).toMatch(new RegExp(`<a [^>]*href="${paged.replace('?', '\\?')}"[^>]*>Cancel</a>`))

    const done = await postForRedirect(
      action as never,
      `http://shop.test${paged}`,
      { intent: 'suspend', confirmed: 'yes' },
      { userId: user.id },
    )
    expect(done.status).toBe(303)
    expect(done.headers.get('Location')).toBe(paged)
    expect((await getUserProfile(t.db, user.id))?.status).toBe('suspended')

    const editing = await renderHtml(user.id, '?edit=1&page=2')
    expect(postActions(editing)).toContain(`/admin/users/${user.id}?edit=1&page=2`)
  })

  describe('Edit User and Reset Password without JavaScript (docs/decisions/0001)', () => {
    it('has buttons that ask for the page with the form, ?edit=1 and ?reset=1', async () => {
      const user = await makeCustomer(t.db, { name: 'Nadia Buttons' })
      const html = await renderHtml(user.id)
      expect(getForms(html)).toEqual([
        { action: `/admin/users/${user.id}`, query: ['edit=1'], text: 'Edit User' },
        { action: `/admin/users/${user.id}`, query: ['reset=1'], text: 'Reset Password' },
      ])
      // Without the query the forms are only in their dialogs, which the server does not render.
      expect(pageText(html)).not.toContain('Display name')
      expect(pageText(html)).not.toContain('New password')
    })

    it('shows the edit form in the page at ?edit=1, and saves it', async () => {
      const user = await makeCustomer(t.db, { name: 'Farah Edit' })
      const html = await renderHtml(user.id, '?edit=1')
      const page = pageText(html)
      expect(page).toContain('Change the name, role, status and permissions of this account.')
      for (const label of ['Email', 'Display name', 'Role', 'Status', 'Can Manage Orders'])
        expect(page).toContain(label)
      expect(html).toContain(`value="${user.email}"`)
      expect(html).toContain('value="Farah Edit"')
      expect(page).toContain('Save Changes')
      expect(page).not.toContain('New password')
      // It posts back to the page that shows it (the page's other forms to the user's page), and
      // Cancel goes back to the user's page.
      expect(postActions(html)).toEqual([
        `/admin/users/${user.id}`,
        `/admin/users/${user.id}`,
        `/admin/users/${user.id}?edit=1`,
      ])
      expect(html).toMatch(new RegExp(`<a [^>]*href="/admin/users/${user.id}"[^>]*>Cancel</a>`))

      const version = editVersion((await getUserProfile(t.db, user.id))!)
      const saved = await postForRedirect(
        action as never,
        `http://shop.test/admin/users/${user.id}?edit=1`,
        { intent: 'update', version, name: 'Farah Renamed', role: 'user', status: 'active' },
        { userId: user.id },
      )
      expect(saved.status).toBe(303)
      expect(saved.headers.get('Location')).toBe(`/admin/users/${user.id}`)
      expect(await getUserProfile(t.db, user.id)).toMatchObject({ name: 'Farah Renamed' })
      // Back on the user's page, without the form, saying what was done.
      const after = pageText(
        await renderHtml(user.id, '', { headers: { Cookie: redirectCookie(saved) } }),
      )
      expect(after).toContain('User Farah Renamed updated successfully')
      expect(after).not.toContain('Display name')
    })

    it('answers a refused edit with the form in the page and its message', async () => {
      const user = await makeCustomer(t.db, { name: 'Ivan Refused' })
      const version = editVersion((await getUserProfile(t.db, user.id))!)
      const html = await renderHtml(user.id, '?edit=1', {
        method: 'POST',
        body: new URLSearchParams({
          intent: 'update',
          version,
          name: '',
          role: 'user',
          status: 'active',
        }),
      })
      const page = pageText(html)
      expect(page).toContain('Display name is required')
      expect(page).toContain('Save Changes')
      expect((await getUserProfile(t.db, user.id))?.name).toBe('Ivan Refused')
    })

    it('shows the password form in the page at ?reset=1, and sets the password', async () => {
      const user = await makeCustomer(t.db, { name: 'Gita Reset' })
      const html = await renderHtml(user.id, '?reset=1')
      const page = pageText(html)
      expect(page).toContain('Set a new password for Gita Reset')
      expect(page).toContain('New password')
      expect(page).toContain('Confirm password')
      expect(page).not.toContain('Display name')
      expect(postActions(html)).toContain(`/admin/users/${user.id}?reset=1`)

      const saved = await postForRedirect(
        action as never,
        `http://shop.test/admin/users/${user.id}?reset=1`,
        { intent: 'reset-password', password: 'fresh-pass-1', confirmPassword: 'fresh-pass-1' },
        { userId: user.id },
      )
      expect(saved.headers.get('Location')).toBe(`/admin/users/${user.id}`)
      const account = await t.db
        .selectFrom('account')
        .select('password')
        .where('userId', '=', user.id)
        .where('providerId', '=', 'credential')
        .executeTakeFirstOrThrow()
      expect(await verifyPassword({ hash: account.password!, password: 'fresh-pass-1' })).toBe(true)
      const after = pageText(
        await renderHtml(user.id, '', { headers: { Cookie: redirectCookie(saved) } }),
      )
      expect(after).toContain('Password of Gita Reset reset')
      expect(after).not.toContain('New password')
    })

    it('answers a refused password with the form in the page, never the password typed', async () => {
      const user = await makeCustomer(t.db, { name: 'Hari Mismatch' })
      const html = await renderHtml(user.id, '?reset=1', {
        method: 'POST',
        body: new URLSearchParams({
          intent: 'reset-password',
          password: 'fresh-pass-1',
          confirmPassword: 'fresh-pass-2',
        }),
      })
      expect(pageText(html)).toContain("Passwords don't match!")
      expect(pageText(html)).toContain('New password')
      expect(html).not.toContain('fresh-pass-')
    })

    it("never shows the password form of a locked admin (ADMIN_EMAILS) but one's own", async () => {
      const owner = await makeAdmin(t.db, { name: 'Listed Owner', email: LISTED_OWNER })
      await markEmailVerified(t.db, owner.id)
      const html = await renderHtml(owner.id, '?reset=1')
      expect(pageText(html)).toContain('Admin (locked)')
      expect(getForms(html).map((form) => form.text)).toEqual(['Edit User'])
      expect(pageText(html)).not.toContain('New password')
    })
  })
})
