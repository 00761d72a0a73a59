import { describe, expect, it } from 'vitest'
import {
  accountHelpMessage,
  buyerOrderMessage,
  customerWhatsappLink,
  indianMobileWhatsappNumber,
  orderHelpMessage,
  paymentLinkMessage,
  whatsappDisplayNumber,
  whatsappLink,
} from './whatsapp'

const text = (link: string | null) => new URL(link!).searchParams.get('text')

describe('WhatsApp messages about an order', () => {
  it("fills the buyer's message with the order id and product", () => {
    const link = whatsappLink(
      '919876543210',
      orderHelpMessage('KeyBazaar', { id: 'ORD_20250101_ABC', productName: 'VPN 2 Years' }),
    )
    expect(link).toBe(
      `https://wa.me/919876543210?text=${encodeURIComponent('Hi KeyBazaar, I need help with my order ORD_20250101_ABC (VPN 2 Years).')}`,
    )
  })

  it("asks for help with the customer's account from the account area", () => {
    expect(text(whatsappLink('+91 98765 43210', accountHelpMessage('Chai Keys')))).toBe(
      'Hi Chai Keys, I need help with my account.',
    )
    expect(whatsappLink('', accountHelpMessage('Chai Keys'))).toBeNull()
  })

  it("names the buyer, the shop and the order in the shop's message", () => {
    expect(buyerOrderMessage('Chai Keys', { id: 'ORD_1', customerName: '  Asha Verma ' })).toBe(
      'Hello Asha Verma, about your Chai Keys order ORD_1: ',
    )
    expect(buyerOrderMessage('Chai Keys', { id: 'ORD_1', customerName: ' ' })).toBe(
      'Hello, about your Chai Keys order ORD_1: ',
    )
  })

  it('sends a payment link with its amount and product', () => {
    const url = 'https://shop.in/payment/pay?order=ORD_2&amount=999.00&product=p1'
    const link = customerWhatsappLink(
      '9876543210',
      paymentLinkMessage('Chai Keys', {
        customerName: 'Asha',
        productName: 'Netflix 1 Month',
        amount: '₹999.00',
        paymentUrl: url,
      }),
    )
    expect(link!.startsWith('https://wa.me/919876543210?text=')).toBe(true)
    expect(text(link)).toBe(
      `Hello Asha, please pay ₹999.00 for Netflix 1 Month at Chai Keys with this link: ${url}`,
    )
  })
})

describe('Indian mobile numbers for wa.me', () => {
  it.each([
    ['9876543210', '919876543210'],
    ['+91 98765-43210', '919876543210'],
    ['919876543210', '919876543210'],
    ['09876543210', '919876543210'],
    ['6000000001', '916000000001'],
  ])('reads %s as %s', (phone, number) => {
    expect(indianMobileWhatsappNumber(phone)).toBe(number)
  })

  it.each(['', '12345', '5876543210', '0201234567', '+1 415 555 0100', '98765432101'])(
    'refuses %j',
    (phone) => {
      expect(indianMobileWhatsappNumber(phone)).toBeNull()
      expect(customerWhatsappLink(phone, 'hello')).toBeNull()
    },
  )
})

describe('whatsappDisplayNumber', () => {
  it('groups an Indian mobile number as people write it, and shows any other with its +', () => {
    expect(whatsappDisplayNumber('919876543210')).toBe('+91 98765 43210')
    expect(whatsappDisplayNumber('+91 98765-43210')).toBe('+91 98765 43210')
    expect(whatsappDisplayNumber('447911123456')).toBe('+447911123456')
    expect(whatsappDisplayNumber('')).toBe('')
  })
})
