import { describe, expect, it } from 'vitest'
import { openDuringMaintenance } from './maintenance.server'

describe('maintenance mode: what stays open', () => {
  it('keeps sign-in, payments, callbacks, the simulator, the admin area and static files open', () => {
    for (const path of [
      '/login',
      '/login.data',
      '/logout',
      '/api/payments/paytm/callback',
      '/api/payments/phonepe/webhook',
      '/api/payments/phonepe/return',
      '/api/paytm/verify-payment',
      '/api/auth/callback/google',
      '/payment/callback',
      '/payment/pay',
      '/__simulator/paytm/theia/processTransaction',
      '/__simulator/phonepe/checkout/v2/pay',
      '/admin',
      '/admin/settings',
      '/assets/app-123.js',
      '/healthz',
    ]) {
      expect(openDuringMaintenance(path), path).toBe(true)
    }
  })

  it('closes the storefront, checkout, sign-up and the buyer pages', () => {
    for (const path of [
      '/',
      '/_root.data',
      '/product/streamverse',
      '/checkout/streamverse',
      '/signup',
      '/dashboard',
      '/orders/ORD_1_1',
      '/orders/ORD_1_1/invoice.pdf',
      '/sitemap.xml',
      '/administrator',
    ]) {
      expect(openDuringMaintenance(path), path).toBe(false)
    }
  })
})
