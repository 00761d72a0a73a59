import { createEmailVerificationToken } from 'better-auth/api'
import { describe, expect, it, vi } from 'vitest'
import { createTestDb } from '../../tests/helpers/db'
import { makeAdmin, makeCustomer, makeOrder, makeProduct } from '../../tests/factories'
import type { OrderStatus } from '~/data/order.server'
import {
  DELETED_CUSTOMER_NAME,
  deletedCustomerEmail,
  getUserProfile,
  markEmailVerified,
  type UserProfile,
} from '~/data/user.server'
import { toFlag, type DB } from '~/lib/db.server'
import type { Storage } from '~/lib/storage.server'
import { USER_ADMIN_MESSAGES } from '~/lib/validation/user-admin'
import {
  DELETE_ACCOUNT_MESSAGES,
  deleteOwnAccount,
  SET_PASSWORD_MESSAGES,
  SET_PASSWORD_SIGN_IN_MS,
  setOwnFirstPassword,
} from './account-settings.server'
import { changeUser } from './user-admin.server'
import { getAuth, hasPassword } from './auth.server'
import type * as AuthServer from './auth.server'

// Signing out goes through better-auth and the process's services; here it only has to answer
// with the cookie it would clear, and say whether it was asked at all.
const signOut = vi.hoisted(() =>
  vi.fn(async () => new Headers({ 'Set-Cookie': 'kb.session_token=; Max-Age=0' })),
)
vi.mock('~/services/auth.server', async (importOriginal) => ({
  ...(await importOriginal<typeof AuthServer>()),
  signOut,
}))

const engine = process.env.TEST_DB_ENGINE ?? 'sqlite'

// No photo is stored in these tests, so storage is never touched.
const storage = {} as Storage

/** Delete my account, confirmed as an account without a password does: with its e-mail. */
function deleteOwn(db: DB, user: UserProfile, adminEmails: string[] = []) {
  return deleteOwnAccount(
    new Request('http://shop.test/dashboard/settings', { method: 'POST' }),
    { db, storage, adminEmails },
    user,
    { password: '', email: user.email },
  )
}

describe(`deleting your own account keeps the shop an admin (${engine})`, () => {
  it("refuses the only admin, and the last admin who can manage users, in the form's words", async () => {
    const { db, destroy } = await createTestDb()
    try {
      const owner = await makeAdmin(db, { name: 'Owner' })
      expect(await deleteOwn(db, owner)).toEqual({
        ok: false,
        status: 409,
        field: null,
        message: DELETE_ACCOUNT_MESSAGES.lastAdmin,
      })
      expect(await getUserProfile(db, owner.id)).not.toBeNull()
      // Refused before anything happened: still signed in.
      expect(signOut).not.toHaveBeenCalled()

      // Another admin, who cannot manage users: the owner is still the only one who can.
      const helper = await makeAdmin(db, { permissions: { canManageUsers: false } })
      expect(await deleteOwn(db, owner)).toMatchObject({
        ok: false,
        status: 409,
        message: DELETE_ACCOUNT_MESSAGES.lastUserManager,
      })
      // A suspended admin who could manage users does not count either.
      const away = await makeAdmin(db)
      await db.updateTable('user').set({ status: 'suspended' }).where('id', '=', away.id).execute()
      expect(await deleteOwn(db, owner)).toMatchObject({
        message: DELETE_ACCOUNT_MESSAGES.lastUserManager,
      })
      expect(await getUserProfile(db, owner.id)).not.toBeNull()

      // The helper may go (the owner stays), and so may a customer.
      expect((await deleteOwn(db, helper)).ok).toBe(true)
      expect(await getUserProfile(db, helper.id)).toBeNull()
      const customer = await makeCustomer(db)
      expect((await deleteOwn(db, customer)).ok).toBe(true)
      expect(signOut).toHaveBeenCalledTimes(2)

      // With a second active admin who can manage users, the owner may delete their account;
      // that admin is then the last one and may not.
      await db.updateTable('user').set({ status: 'active' }).where('id', '=', away.id).execute()
      expect((await deleteOwn(db, owner)).ok).toBe(true)
      expect(await getUserProfile(db, owner.id)).toBeNull()
      expect(await deleteOwn(db, away)).toMatchObject({
        message: DELETE_ACCOUNT_MESSAGES.lastAdmin,
      })
    } finally {
      signOut.mockClear()
      await destroy()
    }
  })

  it('counts a verified ADMIN_EMAILS account as an admin who can manage users', async () => {
    const { db, destroy } = await createTestDb()
    try {
      const listed = await makeCustomer(db, { email: 'listed.owner@example.test' })
      await db.updateTable('user').set({ emailVerified: 1 }).where('id', '=', listed.id).execute()
      const owner = await makeAdmin(db)
      expect((await deleteOwn(db, owner, [listed.email])).ok).toBe(true)
      expect(await deleteOwn(db, listed, [listed.email])).toMatchObject({
        message: DELETE_ACCOUNT_MESSAGES.lastAdmin,
      })
    } finally {
      signOut.mockClear()
      await destroy()
    }
  })

  it('lets only one of two admins deleting their accounts at the same moment go', async () => {
    const { db, destroy } = await createTestDb()
    try {
      for (let round = 0; round < 5; round++) {
        const a = await makeAdmin(db, { name: `A${round}` })
        const b = await makeAdmin(db, { name: `B${round}` })
        const results = await Promise.all([deleteOwn(db, a), deleteOwn(db, b)])
        expect(results.filter((result) => result.ok)).toHaveLength(1)
        const left = [await getUserProfile(db, a.id), await getUserProfile(db, b.id)].filter(
          Boolean,
        )
        expect(left).toHaveLength(1)
        // Cleared for the next round.
        await db.deleteFrom('user').where('id', '=', left[0]!.id).execute()
      }
    } finally {
      signOut.mockClear()
      await destroy()
    }
  })

  it('never lets an admin delete their account while the only other one is suspended', async () => {
    const { db, destroy } = await createTestDb()
    try {
      for (let round = 0; round < 5; round++) {
        const a = await makeAdmin(db, { name: `A${round}` })
        const b = await makeAdmin(db, { name: `B${round}` })
        // A suspends B from the back office while deleting their own account in another tab.
        const context = { actor: a, ip: null, adminEmails: [] }
        const [suspended, deleted] = await Promise.all([
          changeUser(db, context, b.id, 'suspend'),
          deleteOwn(db, a),
        ])
        expect([suspended.ok, deleted.ok].filter(Boolean)).toHaveLength(1)
        if (suspended.ok) expect(deleted).toMatchObject({ ok: false, status: 409 })
        else expect(suspended.message).toBe(USER_ADMIN_MESSAGES.lastAdmin)
        const active = await db
          .selectFrom('user')
          .select('id')
          .where('role', '=', 'admin')
          .where('status', '=', 'active')
          .execute()
        expect(active).toHaveLength(1)
        await db.deleteFrom('user').execute()
      }
    } finally {
      signOut.mockClear()
      await destroy()
    }
  })
})

describe(`deleting your own account waits for your open orders (${engine})`, () => {
  /** One of the customer's orders, placed signed in (`userId`) or as a guest with their e-mail. */
  async function orderOf(db: DB, customer: UserProfile, guest = false) {
    const product = await makeProduct(db)
    return makeOrder(db, product.id, {
      customer: { name: customer.name, email: customer.email, phone: '9876543210' },
      userId: guest ? null : customer.id,
    })
  }
  async function setStatus(db: DB, orderId: string, status: OrderStatus, updatedAt = new Date()) {
    await db
      .updateTable('order')
      .set({ status, updatedAt: updatedAt.toISOString() })
      .where('id', '=', orderId)
      .execute()
  }
  const detailsOf = (db: DB, orderId: string) =>
    db
      .selectFrom('order')
      .select(['customerName', 'customerEmail', 'userId'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()

  it('refuses while an order waits for delivery or for its payment, and changes nothing', async () => {
    const { db, destroy } = await createTestDb()
    try {
      const customer = await makeCustomer(db)
      // Guest orders with the address are the account's once it is verified (ownedBy).
      await markEmailVerified(db, customer.id)
      const mine = await orderOf(db, customer)
      const guest = await orderOf(db, customer, true)
      await setStatus(db, guest.id, 'delivered')
      const before = { mine: await detailsOf(db, mine.id), guest: await detailsOf(db, guest.id) }

      for (const status of ['awaiting_stock', 'paid'] as const) {
        await setStatus(db, mine.id, status)
        expect(await deleteOwn(db, customer)).toEqual({
          ok: false,
          status: 409,
          field: null,
          message: DELETE_ACCOUNT_MESSAGES.waitingForDelivery(mine.id),
        })
      }
      expect(DELETE_ACCOUNT_MESSAGES.waitingForDelivery(mine.id)).toBe(
        `Order ${mine.id} is still waiting for delivery. Your account can be deleted once it is delivered or refunded.`,
      )
      // A guest order paid with the verified address and not delivered yet holds it back too.
      await setStatus(db, mine.id, 'delivered')
      await setStatus(db, guest.id, 'awaiting_stock')
      expect(await deleteOwn(db, customer)).toMatchObject({
        status: 409,
        message: DELETE_ACCOUNT_MESSAGES.waitingForDelivery(guest.id),
      })
      await setStatus(db, guest.id, 'delivered')
      // A payment that may still be confirmed: pending, or failed or expired within a day.
      await setStatus(db, mine.id, 'pending')
      expect(await deleteOwn(db, customer)).toMatchObject({
        status: 409,
        message: DELETE_ACCOUNT_MESSAGES.paymentMayGoThrough(mine.id),
      })
      const hourAgo = new Date(Date.now() - 60 * 60 * 1000)
      for (const status of ['failed', 'expired'] as const) {
        await setStatus(db, mine.id, status, hourAgo)
        expect(await deleteOwn(db, customer)).toMatchObject({
          status: 409,
          message: DELETE_ACCOUNT_MESSAGES.paymentMayGoThrough(mine.id),
        })
      }

      // Nothing was anonymised, the account is there and still signed in.
      expect(await getUserProfile(db, customer.id)).not.toBeNull()
      expect(await detailsOf(db, mine.id)).toEqual(before.mine)
      expect(await detailsOf(db, guest.id)).toEqual(before.guest)
      expect(signOut).not.toHaveBeenCalled()
    } finally {
      signOut.mockClear()
      await destroy()
    }
  })

  it('is not held back by guest orders never paid with the address; only those still payable keep it', async () => {
    const { db, destroy } = await createTestDb()
    try {
      // Someone typed the customer's address at checkout and never paid.
      const customer = await makeCustomer(db)
      await markEmailVerified(db, customer.id)
      const unpaid = await orderOf(db, customer, true)
      const failed = await orderOf(db, customer, true)
      await setStatus(db, failed.id, 'failed')
      const failedLongAgo = await orderOf(db, customer, true)
      await setStatus(db, failedLongAgo.id, 'expired', new Date(Date.now() - 25 * 60 * 60 * 1000))
      const paid = await orderOf(db, customer, true)
      await setStatus(db, paid.id, 'delivered')
      const untouched = {
        unpaid: await detailsOf(db, unpaid.id),
        failed: await detailsOf(db, failed.id),
      }

      expect((await deleteOwn(db, customer)).ok).toBe(true)
      expect(await getUserProfile(db, customer.id)).toBeNull()
      // Their payment may still come: delivered to the address typed, should it.
      expect(await detailsOf(db, unpaid.id)).toEqual(untouched.unpaid)
      expect(await detailsOf(db, failed.id)).toEqual(untouched.failed)
      // No payment can come any more: the address goes, as it does from the account's orders.
      for (const order of [failedLongAgo, paid]) {
        expect(await detailsOf(db, order.id)).toEqual({
          customerName: DELETED_CUSTOMER_NAME,
          customerEmail: deletedCustomerEmail(customer.id),
          userId: null,
        })
      }
    } finally {
      signOut.mockClear()
      await destroy()
    }
  })

  it('deletes an account whose orders are delivered, refunded or failed over a day ago, as before', async () => {
    const { db, destroy } = await createTestDb()
    try {
      const customer = await makeCustomer(db)
      await markEmailVerified(db, customer.id)
      const delivered = await orderOf(db, customer)
      await setStatus(db, delivered.id, 'delivered')
      const refunded = await orderOf(db, customer, true)
      await setStatus(db, refunded.id, 'refunded')
      const failed = await orderOf(db, customer)
      await setStatus(db, failed.id, 'failed', new Date(Date.now() - 25 * 60 * 60 * 1000))
      // Another customer's open order holds nobody else's account back.
      const other = await makeCustomer(db)
      const theirs = await orderOf(db, other)
      await setStatus(db, theirs.id, 'awaiting_stock')

      expect((await deleteOwn(db, customer)).ok).toBe(true)
      expect(await getUserProfile(db, customer.id)).toBeNull()
      for (const order of [delivered, refunded, failed]) {
        expect(await detailsOf(db, order.id)).toEqual({
          customerName: DELETED_CUSTOMER_NAME,
          customerEmail: deletedCustomerEmail(customer.id),
          userId: null,
        })
      }
      expect(await detailsOf(db, theirs.id)).toMatchObject({ userId: other.id })
      expect(signOut).toHaveBeenCalledTimes(1)
    } finally {
      signOut.mockClear()
      await destroy()
    }
  })
})

describe(`setting a first password needs a recent sign-in (${engine})`, () => {
  const PUBLIC_URL = 'http://shop.example.test'
  const APP_SECRET = 'test-secret-test-secret-test-secret-0123'
  // The auth functions reach better-auth and the database through services()
  // (app/lib/app-context.server.ts): here, this test's database and settings.
  const holder = globalThis as typeof globalThis & { __keybazaar?: unknown }

  /** Signs in as an account without a password (as with Google) through a confirmation link. */
  async function signIn(customer: UserProfile): Promise<Request> {
    const token = await createEmailVerificationToken(APP_SECRET, customer.email, undefined, 600, {
      userId: customer.id,
    })
    const { headers } = await getAuth().api.verifyEmail({ query: { token }, returnHeaders: true })
    const cookie = headers.getSetCookie()[0]!.split(';')[0]!
    return new Request(`${PUBLIC_URL}/dashboard/settings`, { method: 'POST', headers: { cookie } })
  }

  it('refuses a session opened more than ten minutes ago and accepts a new one', async () => {
    const { db, engine: dbEngine, destroy } = await createTestDb()
    const env: Record<string, unknown> = {
      PUBLIC_URL,
      APP_SECRET,
      ADMIN_EMAILS: [],
      GOOGLE_CLIENT_ID: undefined,
      GOOGLE_CLIENT_SECRET: undefined,
      GOOGLE_ISSUER: undefined,
    }
    holder.__keybazaar = { db, engine: dbEngine, env }
    try {
      const customer = await makeCustomer(db)
      const request = await signIn(customer)
      const later = new Date(Date.now() + SET_PASSWORD_SIGN_IN_MS + 1000)

      // The browser left signed in: refused, with the way back to Google when the shop has it.
      env.GOOGLE_CLIENT_ID = 'client-id'
      env.GOOGLE_CLIENT_SECRET = 'client-secret'
      expect(await setOwnFirstPassword(request, customer.id, 'first-secret', later)).toEqual({
        ok: false,
        status: 403,
        message: SET_PASSWORD_MESSAGES.signInAgain,
        signInAgain: { google: true },
      })
      expect(SET_PASSWORD_MESSAGES.signInAgain).toBe(
        'For your security, log in again with Google, then set your password.',
      )
      // Without Google sign-in, the mailed link of "Forgot password".
      env.GOOGLE_CLIENT_ID = undefined
      env.GOOGLE_CLIENT_SECRET = undefined
      expect(await setOwnFirstPassword(request, customer.id, 'first-secret', later)).toEqual({
        ok: false,
        status: 403,
        message: SET_PASSWORD_MESSAGES.mailedLink,
        signInAgain: { google: false },
      })
      // No session, or another account's, is no sign-in of this one.
      const signedOut = new Request(`${PUBLIC_URL}/dashboard/settings`, { method: 'POST' })
      expect(await setOwnFirstPassword(signedOut, customer.id, 'first-secret')).toMatchObject({
        status: 403,
      })
      const other = await makeCustomer(db)
      expect(await setOwnFirstPassword(request, other.id, 'first-secret')).toMatchObject({
        status: 403,
      })
      expect(await hasPassword(db, customer.id)).toBe(false)
      expect(await hasPassword(db, other.id)).toBe(false)

      // Signed in minutes ago: the password is set.
      expect(await setOwnFirstPassword(request, customer.id, 'first-secret')).toMatchObject({
        ok: true,
      })
      expect(await hasPassword(db, customer.id)).toBe(true)
    } finally {
      holder.__keybazaar = undefined
      await destroy()
    }
  })
  it('ends every other session of the account, as a changed password does (docs/security.md)', async () => {
    const { db, engine: dbEngine, destroy } = await createTestDb()
    holder.__keybazaar = {
      db,
      engine: dbEngine,
      env: { PUBLIC_URL, APP_SECRET, ADMIN_EMAILS: [] },
    }
    try {
      const customer = await makeCustomer(db)
      const other = await makeCustomer(db)
      // A browser signed in elsewhere (a shared computer, a stolen cookie), and another account's.
      // Each confirmation link signs in once, while the address is not confirmed yet.
      const signInAgain = async (user: UserProfile) => {
        await db
          .updateTable('user')
          .set({ emailVerified: toFlag(false) })
          .where('id', '=', user.id)
          .execute()
        return signIn(user)
      }
      const elsewhere = await signInAgain(customer)
      const theirs = await signInAgain(other)
      const here = await signInAgain(customer)
      const sessionsOf = async (userId: string) =>
        (await db.selectFrom('session').select('id').where('userId', '=', userId).execute()).length
      expect(await sessionsOf(customer.id)).toBe(2)

      expect(await setOwnFirstPassword(here, customer.id, 'first-secret')).toMatchObject({
        ok: true,
      })
      expect(await sessionsOf(customer.id)).toBe(1)
      const auth = getAuth()
      expect(await auth.api.getSession({ headers: here.headers })).not.toBeNull()
      expect(await auth.api.getSession({ headers: elsewhere.headers })).toBeNull()
      expect(await auth.api.getSession({ headers: theirs.headers })).not.toBeNull()
    } finally {
      holder.__keybazaar = undefined
      await destroy()
    }
  })
})
