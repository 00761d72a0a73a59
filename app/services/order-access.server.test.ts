import { describe, expect, it } from 'vitest'
import {
  isOwnOrder,
  orderPageHeaders,
  seesCustomerEmail,
  seesLinkCustomer,
  type SignedInViewer,
} from './order-access.server'

describe('the order pages’ headers', () => {
  it('say private, no-store and vary by cookie: a guest has only the order cookie', () => {
    const headers = orderPageHeaders({
      actionHeaders: new Headers(),
      errorHeaders: new Headers({ 'Retry-After': '30' }),
    } as unknown as Parameters<typeof orderPageHeaders>[0]) as Headers
    expect(Object.fromEntries(headers)).toEqual({
      'cache-control': 'private, no-store',
      vary: 'Cookie',
      'x-robots-tag': 'noindex',
      'retry-after': '30',
    })
  })
})

describe('who reads the customer’s e-mail address in full', () => {
  const checkout = { paymentLinkId: null, customerEmail: 'ravi@example.test' }
  const viaLink = { paymentLinkId: 'link_1', customerEmail: 'kiran.das@example.in' }
  const person = (email: string, more: Partial<SignedInViewer> = {}): SignedInViewer => ({
    id: 'user_1',
    isAdmin: false,
    permissions: { canManageOrders: false },
    email,
    emailVerified: true,
    ...more,
  })
  const stranger = person('someone.else@example.in')
  const customer = person('Kiran.Das@example.in')
  const admin = person('admin@example.test', {
    isAdmin: true,
    permissions: { canManageOrders: true },
  })
  const sees = (order: object, via: 'query' | 'account' | 'cookie', user: SignedInViewer | null) =>
    seesCustomerEmail({ order: order as never, via, user: user as never })

  it('whoever opens a checkout’s order: its buyer typed the address in', () => {
    for (const via of ['cookie', 'account', 'query'] as const) {
      expect(sees(checkout, via, null)).toBe(true)
      expect(sees(checkout, via, stranger)).toBe(true)
    }
  })

  it('on a payment link’s order, an e-mailed token, an admin, and the customer signed in', () => {
    expect(sees(viaLink, 'query', null)).toBe(true)
    expect(sees(viaLink, 'account', admin)).toBe(true)
    for (const via of ['account', 'cookie'] as const)
      expect(sees(viaLink, via, customer)).toBe(true)
  })

  it('not whoever pressed Pay on a payment link, holding its order’s cookie or signed in', () => {
    expect(sees(viaLink, 'cookie', null)).toBe(false)
    // Pay records a signed-in presser as the order's user, so the order opens as their own.
    expect(sees(viaLink, 'account', stranger)).toBe(false)
    expect(sees(viaLink, 'cookie', stranger)).toBe(false)
    // The customer's address, not yet verified, proves nothing.
    expect(sees(viaLink, 'account', { ...customer, emailVerified: false })).toBe(false)
    // An admin without Can Manage Orders sees only their own orders, and this one masked.
    expect(sees(viaLink, 'account', { ...admin, permissions: { canManageOrders: false } })).toBe(
      false,
    )
  })
})

describe('who sees a payment link’s customer in full (the link’s page and its orders)', () => {
  it('an admin with Can Manage Orders, or the customer signed in with the verified address', () => {
    const email = 'kiran.das@example.in'
    const user = {
      id: 'user_1',
      isAdmin: false,
      permissions: { canManageOrders: false },
      email: 'KIRAN.DAS@example.in',
      emailVerified: true,
    }
    expect(seesLinkCustomer(user, email)).toBe(true)
    expect(seesLinkCustomer({ ...user, emailVerified: false }, email)).toBe(false)
    expect(seesLinkCustomer({ ...user, email: 'kiran@example.in' }, email)).toBe(false)
    expect(seesLinkCustomer(null, email)).toBe(false)
    const admin = { ...user, email: 'a@x.test', isAdmin: true }
    expect(seesLinkCustomer(admin, email)).toBe(false)
    expect(seesLinkCustomer({ ...admin, permissions: { canManageOrders: true } }, email)).toBe(true)
  })
})

describe('whose own order it is (the order page, reviews)', () => {
  const user = { id: 'user_1', email: 'Asha@example.in', emailVerified: true }
  const guest = (status: string) =>
    ({ userId: null, customerEmail: 'asha@example.in', status }) as never

  it('a guest order with the verified address once paid, as My Orders lists it', () => {
    for (const status of ['paid', 'awaiting_stock', 'delivered', 'refunded'])
      expect(isOwnOrder(guest(status), user), status).toBe(true)
    expect(isOwnOrder(guest('delivered'), { ...user, emailVerified: false })).toBe(false)
  })

  it('not a guest order never paid: anyone may type the address at checkout', () => {
    for (const status of ['pending', 'failed', 'expired'])
      expect(isOwnOrder(guest(status), user), status).toBe(false)
  })

  it('an order placed while signed in, whatever its status, only for that account', () => {
    const placed = { userId: 'user_1', customerEmail: 'asha@example.in', status: 'pending' }
    expect(isOwnOrder(placed as never, user)).toBe(true)
    expect(isOwnOrder({ ...placed, userId: 'user_2' } as never, user)).toBe(false)
  })
})
