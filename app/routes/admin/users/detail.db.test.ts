import { beforeAll, describe, expect, it, vi } from 'vitest'
import { fileTestDb } from '../../../../tests/helpers/db'
import { pageText, renderPage, serveTestDb } from '../../../../tests/helpers/route-render'
import { BUYER, makeAdmin, makeCustomer, makeOrder, makeProduct } from '../../../../tests/factories'
import { markEmailVerified } from '~/data/user.server'
import AdminUser, { loader } from './detail'

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
serveTestDb(t, {
  env: { PUBLIC_URL: 'https://shop.example.in', APP_SECRET: 'x'.repeat(32), ADMIN_EMAILS: [] },
})
beforeAll(async () => {
  const admin = await makeAdmin(t.db, { name: 'Owner' })
  signedIn.user = { ...admin, permissions: { canManageUsers: true } }
})
/** The user's page rendered on the server, as its text (tags removed, entities decoded). */
async function render(userId: string): Promise<string> {
  const { html } = await renderPage(
    { id: 'routes/admin/users/detail', path: '/admin/users/:userId', Component: AdminUser, loader },
    new Request(`http://shop.test/admin/users/${userId}`),
  )
  return pageText(html)
}

describe(`a user's page in the back office (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  it('lists the guest orders placed with the confirmed address too, and says so', async () => {
    const meera = await makeCustomer(t.db, { name: 'Meera Nair', email: 'meera.page@example.in' })
    await markEmailVerified(t.db, meera.id)
    const product = await makeProduct(t.db)
    const signedInOrder = await makeOrder(t.db, product.id, { userId: meera.id })
    const guestOrder = await makeOrder(t.db, product.id, {
      userId: null,
      customer: { ...BUYER, email: meera.email },
    })

    const page = await render(meera.id)
    expect(page).toContain(signedInOrder.id)
    expect(page).toContain(guestOrder.id)
    expect(page).toContain(
      'Orders placed with this account, or as a guest with its confirmed e-mail address, newest first.',
    )
    expect(page).not.toContain('while signed in')
  })
})
