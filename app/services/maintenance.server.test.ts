import { describe, expect, it } from 'vitest'
import { fileTestDb } from '../../tests/helpers/db'
import { updateSiteSettings } from '~/data/settings.server'
import { closedToVisitor, maintenanceVerdict, openDuringMaintenance } from './maintenance.server'

describe('maintenance mode: what stays open', () => {
  it('keeps sign-in, payments, callbacks, the simulator, the admin area, order pages and static files open', () => {
    for (const path of [
      '/login',
      '/login.data',
      '/logout',
      '/forgot-password',
      '/reset-password',
      '/verify-email',
      '/verify-email.data',
      '/api/payments/paytm/callback',
      '/api/payments/razorpay/callback',
      '/api/payments/razorpay/webhook',
      '/api/payments/phonepe/webhook',
      '/api/payments/phonepe/return',
      '/api/paytm/verify-payment',
      '/api/auth/callback/google',
      '/payment/callback',
      '/payment/pay',
      '/__simulator/paytm/theia/processTransaction',
      '/__simulator/phonepe/checkout/v2/pay',
      '/__simulator/razorpay/v1/checkout/pay',
      '/admin',
      '/admin/settings',
      '/assets/app-123.js',
      '/healthz',
      // What a buyer already bought: the order pages their mails link to, and My Orders.
      '/orders/ORD_1_1',
      '/orders/ORD_1_1.data',
      '/orders/ORD_1_1/invoice.pdf',
      '/orders/ORD_1_1/credit-notes/CN_1',
      '/orders/ORD_1_1/token-abc',
      '/dashboard/orders',
      // A mail's one-click unsubscribe, whenever the reader presses it.
      '/unsubscribe',
      '/unsubscribe.data',
    ]) {
      expect(openDuringMaintenance(path), path).toBe(true)
    }
  })

  it('closes the storefront, checkout, sign-up and the rest of the customer area', () => {
    for (const path of [
      '/',
      '/_root.data',
      '/product/streamverse',
      '/checkout/streamverse',
      '/signup',
      '/dashboard',
      '/dashboard/wishlist',
      '/orders',
      '/sitemap.xml',
      '/administrator',
      '/unsubscribe/x',
    ]) {
      expect(openDuringMaintenance(path), path).toBe(false)
    }
  })
})

describe(`maintenance mode: the verdict (${process.env.TEST_DB_ENGINE ?? 'sqlite'})`, () => {
  const t = fileTestDb()
  const visitor = (path: string) => () => new Request(`http://shop.test${path}`)

  it('leaves an open shop open without building the request', async () => {
    let built = 0
    const verdict = await maintenanceVerdict(t.db, () => {
      built++
      return new Request('http://shop.test/')
    })
    expect(verdict).toBe('open')
    expect(built).toBe(0)
  })

  it('closes the shop to a visitor, keeps the open paths open, and judges the path the router sees', async () => {
    await updateSiteSettings(t.db, { maintenanceMode: true })
    expect(await maintenanceVerdict(t.db, visitor('/checkout/streamverse'))).toBe('closed')
    expect(await maintenanceVerdict(t.db, visitor('/api/payments/paytm/callback'))).toBe('open')
    expect(await maintenanceVerdict(t.db, visitor('/admin/settings'))).toBe('open')
    // Dot segments are resolved before the path is judged, as the router resolves them.
    expect(await maintenanceVerdict(t.db, visitor('/admin/../checkout/streamverse'))).toBe('closed')
    expect(await maintenanceVerdict(t.db, visitor('/admin/%2e%2e/checkout/streamverse'))).toBe(
      'closed',
    )
  })
  it('tells the order page whether a review must wait: visitors yes, admins no, and no one once the shop is open', async () => {
    await updateSiteSettings(t.db, { maintenanceMode: true })
    expect(await closedToVisitor(t.db, null)).toBe(true)
    expect(await closedToVisitor(t.db, { isAdmin: false })).toBe(true)
    expect(await closedToVisitor(t.db, { isAdmin: true })).toBe(false)
    await updateSiteSettings(t.db, { maintenanceMode: false })
    expect(await closedToVisitor(t.db, { isAdmin: false })).toBe(false)
  })
})
