import { describe, expect, it } from 'vitest'
import { createTestDb, fileTestDb } from '../../tests/helpers/db'
import {
  BUYER,
  makeAdmin,
  makeCustomer,
  makeOrder,
  makeProduct,
  payOrder,
} from '../../tests/factories'
import type { OrderStatus } from '~/data/order.server'
import { toFlag } from '~/lib/db.server'
import { listAuditEntries } from '~/data/audit.server'
import { getAdminUser, listAdminUsers, setPasswordHash, userStats } from '~/data/user-admin.server'
import {
  createPasswordResetToken,
  getUserProfile,
  isResetTokenUsable,
  storedVerificationIdentifier,
} from '~/data/user.server'
import { verifyPassword } from 'better-auth/crypto'
import { startOfMonthIn } from '~/lib/shop-month'
import { USER_ADMIN_MESSAGES } from '~/lib/validation/user-admin'
import {
  changeUser,
  editVersion,
  resetUserPassword,
  type UserAdminContext,
  type UserEdit,
} from './user-admin.server'
import { PASSWORD_CHANGED_BY_ADMIN_JOB } from './notifications/account-mail.server'

const t = fileTestDb()

const engine = process.env.TEST_DB_ENGINE ?? 'sqlite'

async function setCreatedAt(userId: string, iso: string) {
  await t.db.updateTable('user').set({ createdAt: iso }).where('id', '=', userId).execute()
}

async function addSession(userId: string, db = t.db) {
  const at = new Date().toISOString()
  await db
    .insertInto('session')
    .values({
      id: `s-${userId}-${Math.random()}`,
      token: `tok-${userId}-${Math.random()}`,
      userId,
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      ipAddress: null,
      userAgent: null,
      createdAt: at,
      updatedAt: at,
    })
    .execute()
}

/** The account's version as the admin page shows it (editVersion). */
async function versionOf(db: typeof t.db, userId: string): Promise<string> {
  return editVersion((await getUserProfile(db, userId))!)
}

async function sessionsOf(userId: string, db = t.db) {
  const rows = await db.selectFrom('session').select('id').where('userId', '=', userId).execute()
  return rows.length
}

describe(`admin user list and figures (${engine})`, () => {
  it('counts users by status, active admins, and those created this month in the shop timezone', async () => {
    const db = (await createTestDb()).db
    try {
      // 1 March 2026, 03:00 in Kolkata (still 28 February in UTC).
      const now = new Date('2026-02-28T21:30:00Z')
      const monthStart = startOfMonthIn(now, 'Asia/Kolkata')
      const march = await makeCustomer(db, { name: 'March Buyer' })
      await db
        .updateTable('user')
        .set({ createdAt: '2026-02-28T19:00:00.000Z' })
        .where('id', '=', march.id)
        .execute()
      const february = await makeCustomer(db)
      await db
        .updateTable('user')
        .set({ createdAt: '2026-02-28T18:00:00.000Z' })
        .where('id', '=', february.id)
        .execute()
      const suspended = await makeCustomer(db)
      await db
        .updateTable('user')
        .set({ createdAt: '2026-01-10T10:00:00.000Z', status: 'suspended' })
        .where('id', '=', suspended.id)
        .execute()
      const inactive = await makeCustomer(db)
      await db
        .updateTable('user')
        .set({ createdAt: '2026-01-11T10:00:00.000Z', status: 'inactive' })
        .where('id', '=', inactive.id)
        .execute()
      const admin = await makeAdmin(db)
      await db
        .updateTable('user')
        .set({ createdAt: '2026-01-12T10:00:00.000Z' })
        .where('id', '=', admin.id)
        .execute()
      // Admins without back-office access: not counted as admins.
      const suspendedAdmin = await makeAdmin(db)
      await db
        .updateTable('user')
        .set({ createdAt: '2026-01-13T10:00:00.000Z', status: 'suspended' })
        .where('id', '=', suspendedAdmin.id)
        .execute()
      const inactiveAdmin = await makeAdmin(db)
      await db
        .updateTable('user')
        .set({ createdAt: '2026-01-14T10:00:00.000Z', status: 'inactive' })
        .where('id', '=', inactiveAdmin.id)
        .execute()

      expect(await userStats(db, monthStart)).toEqual({
        total: 7,
        active: 3,
        suspended: 2,
        admins: 1,
        newThisMonth: 1,
      })
      // In UTC the month had not turned yet: both late-February users are "this month".
      expect((await userStats(db, startOfMonthIn(now, 'UTC'))).newThisMonth).toBe(2)
    } finally {
      await db.destroy()
    }
  })

  it('lists newest first with search, filters, paging, order counts and money spent', async () => {
    const product = await makeProduct(t.db)
    const asha = await makeCustomer(t.db, { name: 'Asha Verma', email: 'asha.list@example.test' })
    const ravi = await makeCustomer(t.db, {
      name: 'Ravi 100% Kumar',
      email: 'ravi.list@example.test',
    })
    await setCreatedAt(asha.id, '2030-01-01T00:00:00.000Z')
    await setCreatedAt(ravi.id, '2030-01-02T00:00:00.000Z')
    // Two paid orders and one pending (neither counted nor spent) for Asha; a guest order with
    // her address is nobody's while that address is not verified.
    const paid1 = await makeOrder(t.db, product.id, { userId: asha.id })
    await payOrder(t.db, paid1)
    const paid2 = await makeOrder(t.db, product.id, { userId: asha.id })
    await payOrder(t.db, paid2)
    await makeOrder(t.db, product.id, { userId: asha.id })
    await makeOrder(t.db, product.id, {
      customer: { name: 'Asha', email: asha.email, phone: '9876543210' },
    })

    const page = await listAdminUsers(t.db, { search: 'LIST@example' })
    expect(page.users.map((user) => user.email)).toEqual([
      'ravi.list@example.test',
      'asha.list@example.test',
    ])
    const row = page.users[1]!
    expect(row.orderCount).toBe(2)
    expect(row.totalSpent).toBe(paid1.amount + paid2.amount)
    expect(page.users[0]).toMatchObject({ orderCount: 0, totalSpent: 0 })

    // By name, case-insensitive; % is taken literally.
    expect((await listAdminUsers(t.db, { search: 'asha v' })).users.map((u) => u.id)).toEqual([
      asha.id,
    ])
    expect((await listAdminUsers(t.db, { search: '100%' })).users.map((u) => u.id)).toEqual([
      ravi.id,
    ])
    expect((await listAdminUsers(t.db, { search: '0%k' })).users).toEqual([])

    await t.db.updateTable('user').set({ status: 'suspended' }).where('id', '=', ravi.id).execute()
    expect(
      (await listAdminUsers(t.db, { search: 'list@', status: 'suspended' })).users.map((u) => u.id),
    ).toEqual([ravi.id])
    expect((await listAdminUsers(t.db, { search: 'list@', role: 'admin' })).total).toBe(0)

    const paged = await listAdminUsers(t.db, { search: 'list@', pageSize: 1, page: 2 })
    expect(paged).toMatchObject({ total: 2, page: 2, pageCount: 2 })
    expect(paged.users.map((u) => u.id)).toEqual([asha.id])

    const detail = await getAdminUser(t.db, asha.id)
    expect(detail).toMatchObject({
      orderCount: 2,
      totalSpent: paid1.amount + paid2.amount,
      hasPassword: false,
    })
  })
})

describe(`a user's orders and total spent in the back office (${engine})`, () => {
  /** An order of `product` in this state, as the gateway left it (paid for the amount). */
  async function orderIn(
    productId: string,
    status: OrderStatus,
    options: { userId?: string; email?: string; testMode?: boolean } = {},
  ) {
    const order = await makeOrder(t.db, productId, {
      userId: options.userId ?? null,
      testMode: options.testMode ?? false,
      customer: { name: 'Meera Nair', email: options.email ?? BUYER.email, phone: BUYER.phone },
    })
    await t.db
      .updateTable('order')
      .set({ status, paidAmount: status === 'pending' ? null : order.amount })
      .where('id', '=', order.id)
      .execute()
    return order
  }

  async function refundOf(orderId: string, amount: number, status: 'pending' | 'processed') {
    const at = new Date().toISOString()
    await t.db
      .insertInto('orderRefund')
      .values({
        id: `RFD_${orderId}_${status}`,
        orderId,
        gateway: 'paytm',
        amount,
        reason: '',
        status,
        requestedBy: 'admin@example.test',
        createdAt: at,
        updatedAt: at,
      })
      .execute()
  }

  it("counts the user's own real sales as My Orders does, less what processed refunds gave back", async () => {
    const product = await makeProduct(t.db, { price: 100_000 })
    const meera = await makeCustomer(t.db, {
      name: 'Meera Nair',
      email: 'meera.spend@example.test',
    })
    await t.db
      .updateTable('user')
      .set({ emailVerified: toFlag(true) })
      .where('id', '=', meera.id)
      .execute()
    // Someone who signed up with an address they never proved: its guest orders are not theirs.
    const unproven = await makeCustomer(t.db, { email: 'unproven.spend@example.test' })
    await setCreatedAt(meera.id, '2031-01-02T00:00:00.000Z')
    await setCreatedAt(unproven.id, '2031-01-01T00:00:00.000Z')

    // Signed in: delivered (partly refunded), awaiting stock, paid.
    const partly = await orderIn(product.id, 'delivered', { userId: meera.id })
    await refundOf(partly.id, 30_000, 'processed')
    await orderIn(product.id, 'awaiting_stock', { userId: meera.id })
    const asked = await orderIn(product.id, 'paid', { userId: meera.id })
    await refundOf(asked.id, 50_000, 'pending') // not given back yet
    // As a guest with her verified address: hers, as in My Orders.
    await orderIn(product.id, 'delivered', { email: meera.email })
    // Not sales: unpaid, refunded in full, a simulated payment.
    await orderIn(product.id, 'pending', { userId: meera.id })
    const refunded = await orderIn(product.id, 'refunded', { userId: meera.id })
    await refundOf(refunded.id, 100_000, 'processed')
    await orderIn(product.id, 'delivered', { userId: meera.id, testMode: true })
    await orderIn(product.id, 'delivered', { email: meera.email, testMode: true })
    // Her address on another account's order, and a guest order with the unproven address.
    await orderIn(product.id, 'delivered', { userId: unproven.id, email: meera.email })
    await orderIn(product.id, 'delivered', { email: unproven.email })

    const expected = { orderCount: 4, totalSpent: 4 * 100_000 - 30_000 }
    expect(await getAdminUser(t.db, meera.id)).toMatchObject(expected)
    expect(await getAdminUser(t.db, unproven.id)).toMatchObject({
      orderCount: 1,
      totalSpent: 100_000,
    })
    const page = await listAdminUsers(t.db, { search: '.spend@example' })
    expect(page.users.map((user) => [user.id, user.orderCount, user.totalSpent])).toEqual([
      [meera.id, expected.orderCount, expected.totalSpent],
      [unproven.id, 1, 100_000],
    ])
  })
})

describe(`admin changes to users (${engine})`, () => {
  const context = (
    actor: { id: string; name: string; email: string },
    adminEmails: string[] = [],
  ): UserAdminContext => ({
    actor: { id: actor.id, name: actor.name, email: actor.email },
    ip: '203.0.113.9',
    adminEmails,
  })

  it('refuses self-suspension and the last active admin, and records what it changes', async () => {
    const db = (await createTestDb()).db
    try {
      const owner = await makeAdmin(db, { name: 'Owner' })
      const customer = await makeCustomer(db, { name: 'Meera' })

      const self = await changeUser(db, context(owner), owner.id, 'suspend')
      expect(self).toEqual({ ok: false, message: USER_ADMIN_MESSAGES.selfSuspend })
      expect((await getUserProfile(db, owner.id))?.status).toBe('active')

      // A second admin: the owner may suspend them while the owner stays active.
      const helper = await makeAdmin(db, { name: 'Helper' })
      await addSession(helper.id, db)
      expect(await changeUser(db, context(owner), helper.id, 'suspend')).toEqual({
        ok: true,
        message: 'Helper has been suspended and signed out',
      })
      expect(await sessionsOf(helper.id, db)).toBe(0)

      // The owner is now the last active admin: another admin cannot demote or suspend them.
      const other = await makeAdmin(db, { name: 'Other' })
      await db.updateTable('user').set({ status: 'suspended' }).where('id', '=', other.id).execute()
      expect(await changeUser(db, context(other), owner.id, 'suspend')).toEqual({
        ok: false,
        message: USER_ADMIN_MESSAGES.lastAdmin,
      })
      const demote = await changeUser(db, context(other), owner.id, 'update', {
        version: await versionOf(db, owner.id),
        name: 'Owner',
        role: 'user',
        status: 'active',
        permissions: { canCreateProducts: false, canManageOrders: false, canManageUsers: false },
      })
      expect(demote).toEqual({ ok: false, message: USER_ADMIN_MESSAGES.lastAdmin })
      expect((await getUserProfile(db, owner.id))?.role).toBe('admin')

      // Make Admin grants the role and every flag; the edit changes name and flags.
      expect((await changeUser(db, context(owner), customer.id, 'make-admin')).ok).toBe(true)
      expect(await getUserProfile(db, customer.id)).toMatchObject({
        role: 'admin',
        permissions: { canCreateProducts: true, canManageOrders: true, canManageUsers: true },
      })
      // With a second active admin, demoting the owner is allowed (by that admin).
      const edited = await changeUser(db, context(customer), owner.id, 'update', {
        version: await versionOf(db, owner.id),
        name: 'Shop Owner',
        role: 'admin',
        status: 'active',
        permissions: { canCreateProducts: true, canManageOrders: false, canManageUsers: true },
      })
      expect(edited).toEqual({ ok: true, message: 'User Shop Owner updated successfully' })

      const { entries } = await listAuditEntries(db, { targetType: 'user' })
      expect(entries.map((entry) => entry.action)).toEqual([
        'user.update',
        'user.make-admin',
        'user.suspend',
      ])
      expect(entries[0]).toMatchObject({
        actorId: customer.id,
        ip: '203.0.113.9',
        targetId: owner.id,
        changes: {
          name: { before: 'Owner', after: 'Shop Owner' },
          canManageOrders: { before: true, after: false },
        },
      })
      expect(entries[2]?.changes).toEqual({ status: { before: 'active', after: 'suspended' } })
    } finally {
      await db.destroy()
    }
  })

  it('keeps ADMIN_EMAILS accounts admins and refuses taking away your own access', async () => {
    const db = (await createTestDb()).db
    try {
      const owner = await makeAdmin(db, { email: 'listed.owner@example.test' })
      await db.updateTable('user').set({ emailVerified: 1 }).where('id', '=', owner.id).execute()
      const helper = await makeAdmin(db)
      const demote = {
        name: owner.name,
        role: 'user' as const,
        status: 'active' as const,
        permissions: { canCreateProducts: false, canManageOrders: false, canManageUsers: false },
      }
      expect(
        await changeUser(db, context(helper, [owner.email]), owner.id, 'update', {
          ...demote,
          version: await versionOf(db, owner.id),
        }),
      ).toEqual({
        ok: false,
        message: USER_ADMIN_MESSAGES.listedAdmin,
      })
      expect(
        await changeUser(db, context(helper), helper.id, 'update', {
          ...demote,
          version: await versionOf(db, helper.id),
          name: helper.name,
        }),
      ).toEqual({
        ok: false,
        message: USER_ADMIN_MESSAGES.selfDemote,
      })
    } finally {
      await db.destroy()
    }
  })

  it('lets no other admin suspend, deactivate or set the password of an ADMIN_EMAILS owner', async () => {
    const db = (await createTestDb()).db
    try {
      const owner = await makeAdmin(db, { name: 'Owner', email: 'listed.owner@example.test' })
      await db.updateTable('user').set({ emailVerified: 1 }).where('id', '=', owner.id).execute()
      await setPasswordHash(db, owner.id, 'owner-hash')
      const helper = await makeAdmin(db, { name: 'Helper' })
      const listed = context(helper, [owner.email])
      expect(await changeUser(db, listed, owner.id, 'suspend')).toEqual({
        ok: false,
        message: USER_ADMIN_MESSAGES.listedAdminStatus,
      })
      expect(
        await changeUser(db, listed, owner.id, 'update', {
          version: await versionOf(db, owner.id),
          name: 'Owner',
          role: 'admin',
          status: 'inactive',
          permissions: { canCreateProducts: true, canManageOrders: true, canManageUsers: true },
        }),
      ).toEqual({ ok: false, message: USER_ADMIN_MESSAGES.listedAdminStatus })
      expect(await resetUserPassword(db, listed, owner.id, 'taken-over-1')).toEqual({
        ok: false,
        message: USER_ADMIN_MESSAGES.listedAdminPassword,
      })
      expect(await getUserProfile(db, owner.id)).toMatchObject({ status: 'active' })
      const stored = await db
        .selectFrom('account')
        .select('password')
        .where('userId', '=', owner.id)
        .executeTakeFirstOrThrow()
      expect(stored.password).toBe('owner-hash')
      expect((await listAuditEntries(db, { targetId: owner.id })).entries).toEqual([])
      // The owner may set their own; an unlisted admin's password another admin may reset.
      expect(
        (await resetUserPassword(db, context(owner, [owner.email]), owner.id, 'mine-12345')).ok,
      ).toBe(true)
      expect(
        (await resetUserPassword(db, context(owner, [owner.email]), helper.id, 'yours-1234')).ok,
      ).toBe(true)
      // Without the address on the list the account is an ordinary admin again.
      expect((await changeUser(db, context(helper), owner.id, 'suspend')).ok).toBe(true)
    } finally {
      await db.destroy()
    }
  })

  it('refuses an edit made over a change saved after its page was loaded', async () => {
    const db = (await createTestDb()).db
    try {
      const owner = await makeAdmin(db, { name: 'Owner' })
      const other = await makeAdmin(db, { name: 'Other' })
      const customer = await makeCustomer(db, { name: 'Meera' })
      // The owner opens Meera's page; meanwhile another admin suspends her.
      const seen = await versionOf(db, customer.id)
      // A sign-in of the user moves updated_at but changes nothing the dialog shows.
      await db
        .updateTable('user')
        .set({
          updatedAt: new Date(Date.now() + 60_000).toISOString(),
          lastActiveAt: new Date().toISOString(),
        })
        .where('id', '=', customer.id)
        .execute()
      expect(await versionOf(db, customer.id)).toBe(seen)
      expect((await changeUser(db, context(other), customer.id, 'suspend')).ok).toBe(true)
      const stale = await changeUser(db, context(owner), customer.id, 'update', {
        version: seen,
        name: 'Meera K',
        role: 'user',
        status: 'active',
        permissions: { canCreateProducts: false, canManageOrders: false, canManageUsers: false },
      })
      expect(stale).toEqual({ ok: false, message: USER_ADMIN_MESSAGES.staleEdit })
      expect(await getUserProfile(db, customer.id)).toMatchObject({
        name: 'Meera',
        status: 'suspended',
      })
      // Made from the page as it is now, the same edit goes through.
      const fresh = await changeUser(db, context(owner), customer.id, 'update', {
        version: await versionOf(db, customer.id),
        name: 'Meera K',
        role: 'user',
        status: 'suspended',
        permissions: { canCreateProducts: false, canManageOrders: false, canManageUsers: false },
      })
      expect(fresh.ok).toBe(true)
      expect((await getUserProfile(db, customer.id))?.name).toBe('Meera K')
    } finally {
      await db.destroy()
    }
  })

  it('keeps one admin active when the last two suspend each other at the same moment', async () => {
    const db = (await createTestDb()).db
    try {
      const a = await makeAdmin(db, { name: 'A' })
      const b = await makeAdmin(db, { name: 'B' })
      for (let round = 0; round < 10; round++) {
        const results = await Promise.all([
          changeUser(db, context(a), b.id, 'suspend'),
          changeUser(db, context(b), a.id, 'suspend'),
        ])
        expect(results.filter((result) => result.ok)).toHaveLength(1)
        const active = [await getUserProfile(db, a.id), await getUserProfile(db, b.id)].filter(
          (user) => user?.status === 'active',
        )
        expect(active).toHaveLength(1)
        // The one left reactivates the other for the next round.
        const [survivor, suspended] = active[0]!.id === a.id ? [a, b] : [b, a]
        expect((await changeUser(db, context(survivor), suspended.id, 'reactivate')).ok).toBe(true)
      }
    } finally {
      await db.destroy()
    }
  })

  it('keeps an active admin who can manage users: the last one is not demoted, suspended or stripped of it', async () => {
    const db = (await createTestDb()).db
    try {
      const owner = await makeAdmin(db, { name: 'Owner' })
      // An admin trusted with products and orders only. (The route lets only admins who can
      // manage users in; the rule holds whoever asks.)
      const helper = await makeAdmin(db, { name: 'Helper', permissions: { canManageUsers: false } })
      const edit = async (changes: Partial<UserEdit>) =>
        changeUser(db, context(helper), owner.id, 'update', {
          version: await versionOf(db, owner.id),
          name: 'Owner',
          role: 'admin',
          status: 'active',
          permissions: { canCreateProducts: true, canManageOrders: true, canManageUsers: true },
          ...changes,
        })
      const refused = { ok: false, message: USER_ADMIN_MESSAGES.lastUserManager }
      expect(
        await edit({
          permissions: { canCreateProducts: true, canManageOrders: true, canManageUsers: false },
        }),
      ).toEqual(refused)
      expect(await edit({ role: 'user' })).toEqual(refused)
      expect(await edit({ status: 'inactive' })).toEqual(refused)
      expect(await changeUser(db, context(helper), owner.id, 'suspend')).toEqual(refused)
      expect(await getUserProfile(db, owner.id)).toMatchObject({
        role: 'admin',
        status: 'active',
        permissions: { canManageUsers: true },
      })
      // Once the helper can manage users too, either may lose it.
      expect(
        (
          await changeUser(db, context(owner), helper.id, 'update', {
            version: await versionOf(db, helper.id),
            name: 'Helper',
            role: 'admin',
            status: 'active',
            permissions: { canCreateProducts: true, canManageOrders: true, canManageUsers: true },
          })
        ).ok,
      ).toBe(true)
      expect(
        (
          await edit({
            permissions: { canCreateProducts: true, canManageOrders: true, canManageUsers: false },
          })
        ).ok,
      ).toBe(true)
    } finally {
      await db.destroy()
    }
  })

  it('refuses a change or password reset from an admin who lost Can Manage Users or was suspended since their page loaded', async () => {
    const db = (await createTestDb()).db
    try {
      const owner = await makeAdmin(db, { name: 'Owner' })
      const helper = await makeAdmin(db, { name: 'Helper' })
      const customer = await makeCustomer(db, { name: 'Meera' })
      expect(
        (
          await changeUser(db, context(owner), helper.id, 'update', {
            version: await versionOf(db, helper.id),
            name: 'Helper',
            role: 'admin',
            status: 'active',
            permissions: { canCreateProducts: true, canManageOrders: true, canManageUsers: false },
          })
        ).ok,
      ).toBe(true)
      const notAllowed = { ok: false, message: USER_ADMIN_MESSAGES.notAllowed }
      expect(await changeUser(db, context(helper), customer.id, 'suspend')).toEqual(notAllowed)
      expect(await changeUser(db, context(helper), customer.id, 'make-admin')).toEqual(notAllowed)
      const other = await makeAdmin(db, { name: 'Other' })
      expect((await changeUser(db, context(owner), other.id, 'suspend')).ok).toBe(true)
      expect(await changeUser(db, context(other), customer.id, 'suspend')).toEqual(notAllowed)
      expect(await resetUserPassword(db, context(helper), customer.id, 'taken-over-1')).toEqual(
        notAllowed,
      )
      expect(await resetUserPassword(db, context(other), customer.id, 'taken-over-1')).toEqual(
        notAllowed,
      )
      expect(await getUserProfile(db, customer.id)).toMatchObject({
        role: 'user',
        status: 'active',
      })
      expect((await listAuditEntries(db, { targetId: customer.id })).entries).toEqual([])
      // An ADMIN_EMAILS owner may, whatever their stored flags say.
      await db
        .updateTable('user')
        .set({ emailVerified: 1, canManageUsers: 0 })
        .where('id', '=', helper.id)
        .execute()
      expect(
        (await changeUser(db, context(helper, [helper.email]), customer.id, 'suspend')).ok,
      ).toBe(true)
    } finally {
      await db.destroy()
    }
  })

  it('keeps one admin who can manage users when the last two take it from each other at the same moment', async () => {
    const db = (await createTestDb()).db
    try {
      const a = await makeAdmin(db, { name: 'A' })
      const b = await makeAdmin(db, { name: 'B' })
      const strip = async (actor: typeof a, target: typeof a, canManageUsers: boolean) =>
        changeUser(db, context(actor), target.id, 'update', {
          version: await versionOf(db, target.id),
          name: target.name,
          role: 'admin',
          status: 'active',
          permissions: { canCreateProducts: true, canManageOrders: true, canManageUsers },
        })
      for (let round = 0; round < 10; round++) {
        const results = await Promise.all([strip(a, b, false), strip(b, a, false)])
        expect(results.filter((result) => result.ok)).toHaveLength(1)
        const managers = [await getUserProfile(db, a.id), await getUserProfile(db, b.id)].filter(
          (user) => user?.permissions.canManageUsers,
        )
        expect(managers).toHaveLength(1)
        // The one left gives it back for the next round.
        const [keeper, other] = managers[0]!.id === a.id ? [a, b] : [b, a]
        expect((await strip(keeper, other, true)).ok).toBe(true)
      }
    } finally {
      await db.destroy()
    }
  })

  it('resets a password with better-auth hashing, ends sessions, queues the mail, masks the log', async () => {
    const admin = await makeAdmin(t.db)
    const user = await makeCustomer(t.db, { name: 'Kiran' })
    await setPasswordHash(t.db, user.id, 'old-hash')
    await addSession(user.id)
    await addSession(user.id)

    const result = await resetUserPassword(t.db, context(admin), user.id, 'new-secret-1')
    expect(result.ok).toBe(true)
    const account = await t.db
      .selectFrom('account')
      .select('password')
      .where('userId', '=', user.id)
      .where('providerId', '=', 'credential')
      .execute()
    expect(account).toHaveLength(1)
    expect(await verifyPassword({ hash: account[0]!.password!, password: 'new-secret-1' })).toBe(
      true,
    )
    expect(await sessionsOf(user.id)).toBe(0)
    const jobs = await t.db
      .selectFrom('job')
      .select(['type', 'payload'])
      .where('type', '=', PASSWORD_CHANGED_BY_ADMIN_JOB)
      .execute()
    expect(jobs.some((job) => String(job.payload).includes(user.id))).toBe(true)
    const { entries } = await listAuditEntries(t.db, { targetId: user.id })
    expect(entries[0]).toMatchObject({
      action: 'user.reset-password',
      changes: { password: { before: '••••', after: '••••' } },
    })
    expect(JSON.stringify(entries)).not.toContain('new-secret-1')
  })

  it("ends the user's earlier reset links, and only theirs, when an admin sets the password", async () => {
    const admin = await makeAdmin(t.db)
    const user = await makeCustomer(t.db, { name: 'Meera' })
    const other = await makeCustomer(t.db)
    const first = await createPasswordResetToken(t.db, user.id)
    const second = await createPasswordResetToken(t.db, user.id)
    const theirs = await createPasswordResetToken(t.db, other.id)
    // An OAuth state for linking Google names the user too; it is not a reset link.
    const at = new Date().toISOString()
    const state = {
      id: `state-${user.id}`,
      identifier: storedVerificationIdentifier(`state-${user.id}`),
      value: JSON.stringify({ callbackURL: '/', link: { email: user.email, userId: user.id } }),
      expiresAt: new Date(Date.now() + 600_000).toISOString(),
      createdAt: at,
      updatedAt: at,
    }
    await t.db.insertInto('verification').values(state).execute()

    expect((await resetUserPassword(t.db, context(admin), user.id, 'admin-chosen-1')).ok).toBe(true)
    expect(await isResetTokenUsable(t.db, first)).toBe(false)
    expect(await isResetTokenUsable(t.db, second)).toBe(false)
    expect(await isResetTokenUsable(t.db, theirs)).toBe(true)
    const stateLeft = await t.db
      .selectFrom('verification')
      .select('value')
      .where('id', '=', state.id)
      .executeTakeFirst()
    expect(stateLeft?.value).toBe(state.value)
  })

  it('keeps the reset links when the admin is refused', async () => {
    const admin = await makeAdmin(t.db, { permissions: { canManageUsers: false } })
    const user = await makeCustomer(t.db)
    const token = await createPasswordResetToken(t.db, user.id)
    expect((await resetUserPassword(t.db, context(admin), user.id, 'admin-chosen-1')).ok).toBe(
      false,
    )
    expect(await isResetTokenUsable(t.db, token)).toBe(true)
  })
})
