import { describe, expect, it } from 'vitest'
import { submitForm } from '../../../tests/helpers/forms'
import { checkoutSchema } from './checkout'

describe('payment form rules', () => {
  it('asks for every field with the spec messages', () => {
    expect(submitForm(checkoutSchema, { name: '  ', email: '', phone: '' }).errors).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      phone: 'Phone number is required',
    })
  })

  it('takes out invisible and direction-control characters from the name, as sign-up does', () => {
    const base = { email: 'asha@example.in', phone: '9876543210' }
    // Nothing visible: "Name is required", not a blank name on the invoice and in the back office.
    for (const name of ['\u200B', '\u202E', ' \u2066\u2069 ', '\u0007']) {
      expect(submitForm(checkoutSchema, { ...base, name }).errors, name).toEqual({
        name: 'Name is required',
      })
    }
    expect(submitForm(checkoutSchema, { ...base, name: '\u202EAsha\u202C' }).data?.name).toBe(
      'Asha',
    )
    expect(submitForm(checkoutSchema, { ...base, name: 'Asha\r\nBcc: x' }).data?.name).not.toMatch(
      /[\r\n]/,
    )
    // A joiner inside an Indic word shapes it, and stays.
    expect(submitForm(checkoutSchema, { ...base, name: 'क्\u200Dष' }).data?.name).toBe('क्\u200Dष')
  })

  it('checks the e-mail shape and the phone digits after removing the separators', () => {
    expect(
      submitForm(checkoutSchema, { name: 'A', email: 'not-an-email', phone: '98765' }).errors,
    ).toEqual({
      email: 'Please enter a valid email',
      phone: 'Please enter a valid 10-digit phone number',
    })
    expect(
      submitForm(checkoutSchema, { name: 'A', email: 'a@b.in', phone: '+91 98765 43210' }).errors,
    ).toEqual({
      phone: 'Please enter a valid 10-digit phone number',
    })
  })

  it("refuses a phone number with a digit of another script, keeping the spec's rule for the rest", () => {
    const base = { name: 'Asha', email: 'asha@example.in' }
    // A Devanagari zero: removed, it would leave 9876543210, another number.
    for (const phone of ['98765०43210', '९८७६५४३२१०', '98765٠43210']) {
      expect(submitForm(checkoutSchema, { ...base, phone }).errors, phone).toEqual({
        phone: 'Please enter a valid 10-digit phone number',
      })
    }
    // Ten digits after removing non-digits, as the original spec says.
    for (const phone of [
      '98765 43210',
      '98765-43210',
      '987.654.3210',
      'Mob 9876543210',
      '98765/43210',
    ]) {
      expect(submitForm(checkoutSchema, { ...base, phone }).data?.phone, phone).toBe('9876543210')
    }
  })

  it('accepts formatted numbers and normalises the values', () => {
    expect(
      submitForm(checkoutSchema, {
        name: ' Asha ',
        email: ' Asha@Example.IN ',
        phone: '(987) 654-3210',
        amount: '1',
      }),
    ).toEqual({
      data: { name: 'Asha', email: 'asha@example.in', phone: '9876543210', unavailable: [] },
      errors: null,
    })
  })

  it('reads the price the page showed as whole paise, and ignores anything else there', () => {
    const base = { name: 'Asha', email: 'asha@example.in', phone: '9876543210' }
    expect(submitForm(checkoutSchema, { ...base, shownPrice: '149900' }).data?.shownPrice).toBe(
      149_900,
    )
    for (const shownPrice of ['', '1499.00', '-5', 'abc', '1e5']) {
      const { data, errors } = submitForm(checkoutSchema, { ...base, shownPrice })
      expect(errors, shownPrice).toBeNull()
      expect(data?.shownPrice, shownPrice).toBeUndefined()
    }
  })

  it('reads the chosen gateway and the ones that could not start, nothing else', () => {
    const base = { name: 'Asha', email: 'asha@example.in', phone: '9876543210' }
    expect(
      submitForm(checkoutSchema, { ...base, gateway: 'razorpay', unavailable: 'paytm' }).data,
    ).toEqual({
      ...base,
      gateway: 'razorpay',
      unavailable: ['paytm'],
    })
    expect(submitForm(checkoutSchema, { ...base, gateway: 'x'.repeat(21) }).errors).not.toBeNull()
  })
})
