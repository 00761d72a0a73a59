import { describe, expect, it } from 'vitest'
import { adminOrderPath, invoicePath, orderPath, paymentResultPath } from './order-status'

describe("an order's paths", () => {
  it('put the order id into the order page, its invoice and its back-office page', () => {
    expect(orderPath('ORD_1_2')).toBe('/orders/ORD_1_2')
    expect(invoicePath('ORD_1_2')).toBe('/orders/ORD_1_2/invoice.pdf')
    expect(adminOrderPath('ORD_1_2')).toBe('/admin/orders/ORD_1_2')
  })

  it('percent-encode an id that is not a plain word', () => {
    expect(orderPath('a@b/c?d')).toBe('/orders/a%40b%2Fc%3Fd')
    expect(invoicePath('a b')).toBe('/orders/a%20b/invoice.pdf')
    expect(adminOrderPath('a#b')).toBe('/admin/orders/a%23b')
  })

  it('name the order on the payment result page when there is one', () => {
    expect(paymentResultPath('ORD_1_2')).toBe('/payment/callback?ORDERID=ORD_1_2')
    expect(paymentResultPath('a@b&c')).toBe('/payment/callback?ORDERID=a%40b%26c')
    expect(paymentResultPath(null)).toBe('/payment/callback')
  })
})
