import { describe, expect, it, vi } from 'vitest'
import { createTestDb } from '../../tests/helpers/db'
import { makeAdmin, makeCustomer } from '../../tests/factories'
import { getUserProfile, type UserProfile } from '~/data/user.server'
import type { DB } from '~/lib/db.server'
import type { Storage } from '~/lib/storage.server'
import { USER_ADMIN_MESSAGES } from '~/lib/validation/user-admin'
import { DELETE_ACCOUNT_MESSAGES, deleteOwnAccount } from './account-settings.server'
import { changeUser } from './user-admin.server'
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
