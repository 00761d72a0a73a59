import { describe, expect, it } from 'vitest'
import { checkoutSchema } from './checkout'
import { paymentLinkSchema } from './payment-link'
import { signupSchema } from './auth'
import { constraintsOf } from './submission'

describe('constraints read from a form schema', () => {
  it('gives inputs the lengths the schema allows, through preprocessing and refinements', () => {
    expect(constraintsOf(signupSchema)).toMatchObject({
      name: { required: true, maxLength: 100 },
      email: { required: true, maxLength: 254 },
      password: { required: true, minLength: 6, maxLength: 128 },
      confirmPassword: { required: false },
    })
  })

  it('marks a field that accepts a blank value as not required', () => {
    expect(constraintsOf(paymentLinkSchema).amount).toEqual({ required: false })
    expect(constraintsOf(paymentLinkSchema).productId).toEqual({ required: true })
    expect(constraintsOf(checkoutSchema).phone).toEqual({ required: true })
  })
})
