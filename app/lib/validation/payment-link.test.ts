import { describe, expect, it } from 'vitest'
import {
  buildProcessTransactionForm,
  PAYTM_STAGING_DEFAULTS,
  PaytmRequestError,
} from '~/lib/payments/paytm.server'
import { PAYMENT_LINK_AMOUNT_MESSAGES, paymentLinkSchema } from './payment-link'
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
  it('is blank (the product’s price) or rupees above 0', () => {
    expect(amountErrors('')).toEqual([])
    expect(amountErrors('1499')).toEqual([])
    expect(amountErrors('0')).toEqual([PAYMENT_LINK_AMOUNT_MESSAGES.invalid])
    expect(amountErrors('14.999')).toEqual([PAYMENT_LINK_AMOUNT_MESSAGES.invalid])
  })

  it('is at most what a product may cost, with a field message instead of a failed save', () => {
    expect(amountErrors('9999999.99')).toEqual([])
    expect(amountErrors('99,99,999.99')).toEqual([])
    for (const tooMuch of ['10000000', '21474836.48', '999999999999.99'])
      expect(amountErrors(tooMuch)).toEqual([PAYMENT_LINK_AMOUNT_MESSAGES.tooHigh])
    expect(PAYMENT_LINK_AMOUNT_MESSAGES.tooHigh).toBe('Amount must be at most ₹99,99,999.99')
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
