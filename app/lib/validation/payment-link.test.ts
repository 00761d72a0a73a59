import { describe, expect, it } from 'vitest'
import {
  buildProcessTransactionForm,
  PAYTM_STAGING_DEFAULTS,
  PaytmRequestError,
} from '~/lib/payments/paytm.server'
import {
  linkFormKeyAfterLoad,
  PAYMENT_LINK_AMOUNT_MESSAGES,
  paymentLinkSchema,
  productPriceTooLowMessage,
} from './payment-link'
import { MAX_PRICE_PAISE, parsePriceInput, PRODUCT_MESSAGES } from './product'

const link = {
  productId: 'prod-1',
  amount: '',
  name: 'Asha Verma',
  email: 'asha@example.in',
  phone: '9876543210',
}

/** The field messages the form shows for `amount` ([] when it is taken). */
function amountErrors(amount: string): string[] {
  const result = paymentLinkSchema.safeParse({ ...link, amount })
  return result.success
    ? []
    : result.error.issues
        .filter((issue) => issue.path.join('.') === 'amount')
        .map((issue) => issue.message)
}

describe('a payment link’s amount', () => {
  it('is blank (the product’s price) or rupees', () => {
    expect(amountErrors('')).toEqual([])
    expect(amountErrors('1499')).toEqual([])
    expect(amountErrors('14.999')).toEqual([PAYMENT_LINK_AMOUNT_MESSAGES.invalid])
    expect(amountErrors('-5')).toEqual([PAYMENT_LINK_AMOUNT_MESSAGES.invalid])
  })

  it('is at least ₹1.00, the least Razorpay and PhonePe take', () => {
    expect(amountErrors('1')).toEqual([])
    expect(amountErrors('1.00')).toEqual([])
    for (const tooLittle of ['0.99', '0.01', '0'])
      expect(amountErrors(tooLittle)).toEqual([PAYMENT_LINK_AMOUNT_MESSAGES.tooLow])
    expect(PAYMENT_LINK_AMOUNT_MESSAGES.tooLow).toBe('Amount must be at least ₹1.00')
  })

  it('is at most what a product may cost, with a field message instead of a failed save', () => {
    expect(amountErrors('9999999.99')).toEqual([])
    expect(amountErrors('99,99,999.99')).toEqual([])
    for (const tooMuch of ['10000000', '21474836.48', '999999999999.99'])
      expect(amountErrors(tooMuch)).toEqual([PAYMENT_LINK_AMOUNT_MESSAGES.tooHigh])
    expect(PAYMENT_LINK_AMOUNT_MESSAGES.tooHigh).toBe('Amount must be at most ₹99,99,999.99')
  })
})

describe('a payment link for a product under ₹1.00 with the amount left blank', () => {
  it('is refused with the price and the least a link may ask for', () => {
    expect(productPriceTooLowMessage(50)).toBe(
      'This product costs ₹0.50; enter an amount of at least ₹1.00',
    )
    expect(productPriceTooLowMessage(99)).toBe(
      'This product costs ₹0.99; enter an amount of at least ₹1.00',
    )
  })
})

describe('the create form’s one-time key on the page', () => {
  const shown = 'aaaaaaaaaaaaaaaaaaaa'

  it('stays the same across reloads that show no link of its own (Cancel, Send by e-mail)', () => {
    // Each reload brings a new key from the loader; the form keeps the one it was shown with.
    const afterCancel = linkFormKeyAfterLoad(shown, {
      linkKey: 'bbbbbbbbbbbbbbbbbbbb',
      createdId: null,
    })
    expect(afterCancel).toBe(shown)
    const afterEmail = linkFormKeyAfterLoad(afterCancel, {
      linkKey: 'cccccccccccccccccccc',
      createdId: null,
    })
    expect(afterEmail).toBe(shown)
    // A link another tab made, its note read by this page's reload: this form made nothing yet.
    expect(
      linkFormKeyAfterLoad(shown, {
        linkKey: 'dddddddddddddddddddd',
        createdId: 'zzzzzzzzzzzzzzzzzzzz',
      }),
    ).toBe(shown)
  })

  it('takes the new key once the page shows the link it made, and keeps that one after', () => {
    // Create's redirect, or a Cancel's reload that read the note of a Create it abandoned.
    const renewed = linkFormKeyAfterLoad(shown, {
      linkKey: 'bbbbbbbbbbbbbbbbbbbb',
      createdId: shown,
    })
    expect(renewed).toBe('bbbbbbbbbbbbbbbbbbbb')
    // The same page shown again (the note still in its data), then reloaded without it.
    expect(
      linkFormKeyAfterLoad(renewed, { linkKey: 'bbbbbbbbbbbbbbbbbbbb', createdId: shown }),
    ).toBe(renewed)
    expect(
      linkFormKeyAfterLoad(renewed, { linkKey: 'cccccccccccccccccccc', createdId: null }),
    ).toBe(renewed)
    // The next link it makes renews it again.
    expect(
      linkFormKeyAfterLoad(renewed, { linkKey: 'eeeeeeeeeeeeeeeeeeee', createdId: renewed }),
    ).toBe('eeeeeeeeeeeeeeeeeeee')
  })
})

describe('a payment link’s “E-mail the link to the customer” box', () => {
  it('is read as the browser sends a checkbox: "on" when ticked, absent when not', () => {
    const emailLink = (form: Record<string, string>) =>
      paymentLinkSchema.parse({ ...link, ...form }).emailLink
    expect(emailLink({ emailLink: 'on' })).toBe(true)
    expect(emailLink({})).toBe(false)
    expect(emailLink({ emailLink: 'off' })).toBe(false)
  })
})

describe('the largest price', () => {
  it('is the largest amount the product form takes, said in its message', () => {
    expect(parsePriceInput('9999999.99')).toEqual({ paise: MAX_PRICE_PAISE })
    expect(parsePriceInput('10000000')).toEqual({ error: 'tooHigh' })
    expect(PRODUCT_MESSAGES.amountTooHigh).toBe('Amounts must be at most ₹99,99,999.99')
  })

  it('can be paid through Paytm, whose TXN_AMOUNT holds 10 characters', () => {
    const config = {
      ...PAYTM_STAGING_DEFAULTS,
      mid: 'KeyBazaarTest000001',
      merchantKey: 'abcdefgh12345678',
      host: 'https://securegw-stage.paytm.in/',
    }
    const form = (amountPaise: number) =>
      buildProcessTransactionForm(
        {
          orderId: 'ORD_TEST_1',
          custId: 'CUST_1',
          amountPaise,
          callbackUrl: 'https://shop.example.in/payment/callback',
        },
        config,
      )
    expect(form(MAX_PRICE_PAISE).fields.TXN_AMOUNT).toBe('9999999.99')
    expect(() => form(MAX_PRICE_PAISE + 1)).toThrow(PaytmRequestError)
  })
})
