import { describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { BUYER, makeCustomer, makeOrder, makePaidOrder, makeProduct } from '../../tests/factories'
import { listCustomerOrders, customerOrderStats } from './customer-orders.server'
import { getOrder } from './order.server'
import {
  findStoredPreferences,
  getPreferences,
  savePreferences,
  wantsNotifications,
} from './preferences.server'
import {
  DELETED_CUSTOMER_NAME,
  deletedCustomerEmail,
  deleteUserAccount,
  getUserProfile,
  markEmailVerified,
  setUserPhoto,
  updateUserName,
} from './user.server'
import { newId } from '~/lib/id.server'

/** The settings page's data (preferences, profile, deleting) and guest orders in My Orders. */
const t = fileTestDb()

const engine = process.env.TEST_DB_ENGINE ?? 'sqlite'

describe(`preferences (${engine})`, () => {
  it('has the defaults until saved, then keeps each change and leaves the rest', async () => {
    const user = await makeCustomer(t.db)
    expect(await findStoredPreferences(t.db, user.id)).toBeNull()
    expect(await getPreferences(t.db, user.id)).toEqual({
      theme: 'system',
      language: 'en',
      notifications: true,
    })
    await savePreferences(t.db, user.id, { theme: 'dark', language: 'hi', notifications: false })
    expect(await findStoredPreferences(t.db, user.id)).toEqual({
      theme: 'dark',
      language: 'hi',
      notifications: false,
    })
    // Only the theme (the header's switcher): language and notifications stay.
    await savePreferences(t.db, user.id, { theme: 'light' })
    expect(await getPreferences(t.db, user.id)).toEqual({
      theme: 'light',
      language: 'hi',
      notifications: false,
    })
  })

  it("are one user's own: saving for one changes nothing for another", async () => {
    const a = await makeCustomer(t.db)
    const b = await makeCustomer(t.db)
    await savePreferences(t.db, a.id, { theme: 'dark', notifications: false })
    expect(await findStoredPreferences(t.db, b.id)).toBeNull()
    expect(await wantsNotifications(t.db, a.email)).toBe(false)
    expect(await wantsNotifications(t.db, b.email)).toBe(true)
    // A guest (no account) asked for their order's mails.
    expect(await wantsNotifications(t.db, 'guest.nobody@example.test')).toBe(true)
    expect(await wantsNotifications(t.db, a.email.toUpperCase())).toBe(false)
  })
})

describe(`profile (${engine})`, () => {
  it('saves the name and the photo, returning the photo it replaced', async () => {
    const user = await makeCustomer(t.db)
    await updateUserName(t.db, user.id, 'Priya Nair')
    expect(await setUserPhoto(t.db, user.id, '/uploads/avatars/1_aaaaaaaaaaaa.webp')).toBeNull()
    expect(await setUserPhoto(t.db, user.id, '/uploads/avatars/2_bbbbbbbbbbbb.webp')).toBe(
      '/uploads/avatars/1_aaaaaaaaaaaa.webp',
    )
    const profile = await getUserProfile(t.db, user.id)
    expect(profile?.name).toBe('Priya Nair')
    expect(profile?.photo).toBe('/uploads/avatars/2_bbbbbbbbbbbb.webp')
  })

  it('tells each of several uploads at once a different previous photo, so none is left behind', async () => {
    const user = await makeCustomer(t.db)
    const first = '/uploads/avatars/0_000000000000.webp'
    await setUserPhoto(t.db, user.id, first)
    const uploads = Array.from(
      { length: 6 },
      (_, i) => `/uploads/avatars/${i + 1}_cccccccccccc.webp`,
    )
    const replaced = await Promise.all(uploads.map((photo) => setUserPhoto(t.db, user.id, photo)))
    const stored = (await getUserProfile(t.db, user.id))!.photo!
    // Every photo but the one kept is handed back exactly once, to be removed.
    expect([...replaced, stored].sort()).toEqual([first, ...uploads].sort())
  })
})

describe(`guest orders in My Orders (${engine})`, () => {
  it('appear once the address is verified, and never for an unverified one', async () => {
    const product = await makeProduct(t.db, { price: 50_000 })
    const user = await makeCustomer(t.db)
    const guest = await makePaidOrder(t.db, product.id, {
      customer: { ...BUYER, email: user.email },
      userId: null,
    })
    const own = await makePaidOrder(t.db, product.id, {
      customer: { ...BUYER, email: user.email },
      userId: user.id,
    })
    // Another account's order with the same address is theirs, not this user's.
    const other = await makeCustomer(t.db)
    await makePaidOrder(t.db, product.id, {
      customer: { ...BUYER, email: user.email },
      userId: other.id,
    })
    const before = await listCustomerOrders(t.db, user.id)
    expect(before.orders.map((order) => order.id)).toEqual([own.id])
    expect((await customerOrderStats(t.db, user.id)).purchases).toBe(1)

    await markEmailVerified(t.db, user.id)
    const after = await listCustomerOrders(t.db, user.id)
    expect(after.total).toBe(2)
    expect(after.orders.map((order) => order.id).sort()).toEqual([guest.id, own.id].sort())
    expect(await customerOrderStats(t.db, user.id)).toMatchObject({ purchases: 2, spent: 100_000 })
  })
})

describe(`deleting an account (${engine})`, () => {
  it('anonymises its orders, keeps them, and removes the user, sessions and preferences', async () => {
    const product = await makeProduct(t.db, { price: 30_000 })
    const user = await makeCustomer(t.db)
    await markEmailVerified(t.db, user.id)
    await setUserPhoto(t.db, user.id, '/uploads/avatars/3_cccccccccccc.webp')
    await savePreferences(t.db, user.id, { theme: 'dark' })
    const now = new Date().toISOString()
    await t.db
      .insertInto('session')
      .values({
        id: newId(),
        token: newId(),
        userId: user.id,
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        ipAddress: null,
        userAgent: null,
        createdAt: now,
        updatedAt: now,
      })
      .execute()
    const own = await makePaidOrder(t.db, product.id, {
      customer: { name: 'Kiran', email: user.email, phone: '9000000001' },
      userId: user.id,
    })
    const guest = await makePaidOrder(t.db, product.id, {
      customer: { name: 'Kiran', email: user.email, phone: '9000000001' },
      userId: null,
    })
    // Not paid yet, and perhaps typed by someone else: its payment may still come, to the address.
    const unpaid = await makeOrder(t.db, product.id, {
      customer: { name: 'Kiran', email: user.email, phone: '9000000001' },
      userId: null,
    })
    const stranger = await makeOrder(t.db, product.id, {
      customer: { name: 'Someone', email: 'someone.else@example.test', phone: '9000000002' },
      userId: null,
    })

    const result = await deleteUserAccount(t.db, user.id)
    expect(result).toEqual({
      deleted: true,
      photo: '/uploads/avatars/3_cccccccccccc.webp',
      ordersAnonymised: 2,
    })
    for (const id of [own.id, guest.id]) {
      const order = await getOrder(t.db, id)
      expect(order).toMatchObject({
        customerName: DELETED_CUSTOMER_NAME,
        customerEmail: deletedCustomerEmail(user.id),
        customerPhone: '',
        userId: null,
      })
    }
    // The paid order keeps what the shop's records need.
    expect(await getOrder(t.db, own.id)).toMatchObject({ status: own.status, amount: 30_000 })
    expect(await getOrder(t.db, stranger.id)).toMatchObject({ customerName: 'Someone' })
    expect(await getOrder(t.db, unpaid.id)).toMatchObject({ customerEmail: user.email })
    expect(await getUserProfile(t.db, user.id)).toBeNull()
    const sessions = await t.db
      .selectFrom('session')
      .select('id')
      .where('userId', '=', user.id)
      .execute()
    expect(sessions).toEqual([])
    expect(await findStoredPreferences(t.db, user.id)).toBeNull()
    expect(await deleteUserAccount(t.db, user.id)).toEqual({
      deleted: false,
      photo: null,
      ordersAnonymised: 0,
    })
  })

  it("leaves an unverified account's look-alike guest orders alone", async () => {
    const product = await makeProduct(t.db)
    const user = await makeCustomer(t.db)
    const guest = await makeOrder(t.db, product.id, {
      customer: { name: 'Real owner', email: user.email, phone: '9000000003' },
      userId: null,
    })
    expect((await deleteUserAccount(t.db, user.id)).ordersAnonymised).toBe(0)
    expect(await getOrder(t.db, guest.id)).toMatchObject({ customerName: 'Real owner' })
  })
})
