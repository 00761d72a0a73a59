import { describe, expect, it } from 'vitest'
import { businessSchema, profileSchema, SETTINGS_MESSAGES } from './account-settings'
import { paymentLinkSchema } from './payment-link'

/** The business named on a customer's GST invoices, as the settings form checks it. */
describe('business details', () => {
  const valid = {
    intent: 'business',
    businessName: '  Udyam Software Private Limited ',
    gstin: '27aapfu 0939f1zv',
    businessAddress: 'Mumbai 400021',
  }
  const problems = (input: Record<string, unknown>) => {
    const result = businessSchema.safeParse(input)
    return result.success ? [] : result.error.issues.map((issue) => issue.message)
  }

  it('keeps the GSTIN as it is written (upper case, no spaces) and the name trimmed', () => {
    expect(businessSchema.parse(valid)).toEqual({
      intent: 'business',
      businessName: 'Udyam Software Private Limited',
      gstin: '27AAPFU0939F1ZV',
      businessAddress: 'Mumbai 400021',
    })
  })

  it('refuses a GSTIN of the wrong shape, of no state, or with a wrong check character', () => {
    for (const gstin of [
      '',
      '27AAPFU0939F1Z',
      '27AAPFU0939F1XV',
      '00AAPFU0939F1ZV',
      '99AAPFU0939F1ZV',
      '28AAPFU0939F1ZV',
      '25AAPFU0939F1ZV',
    ])
      expect(problems({ ...valid, gstin })).toEqual([SETTINGS_MESSAGES.gstinInvalid])
    expect(problems({ ...valid, gstin: '27AAPFU0939F1ZW' })).toEqual([SETTINGS_MESSAGES.gstinCheck])
  })

  it('needs the name and the address, within their limits', () => {
    expect(problems({ ...valid, businessName: ' ', businessAddress: '' })).toEqual([
      SETTINGS_MESSAGES.businessNameRequired,
      SETTINGS_MESSAGES.businessAddressRequired,
    ])
    expect(
      problems({ ...valid, businessName: 'x'.repeat(121), businessAddress: 'y'.repeat(301) }),
    ).toEqual([SETTINGS_MESSAGES.businessNameTooLong, SETTINGS_MESSAGES.businessAddressTooLong])
  })

  it('refuses other scripts, which the invoice cannot print; keeps curly quotes and dashes', () => {
    expect(
      problems({ ...valid, businessName: 'शर्मा ट्रेडर्स', businessAddress: 'मुंबई 400021' }),
    ).toEqual([SETTINGS_MESSAGES.businessNotLatin, SETTINGS_MESSAGES.businessNotLatin])
    expect(
      businessSchema.parse({
        ...valid,
        businessName: 'Sharma’s Traders – “Kirana” Café…',
        businessAddress: '12, Linking Road\r\nBandra (W), Mumbai 400050',
      }),
    ).toMatchObject({
      businessName: 'Sharma’s Traders – “Kirana” Café…',
      businessAddress: '12, Linking Road\r\nBandra (W), Mumbai 400050',
    })
  })
})

/** The profile's display name: the sign-up rule (app/lib/validation/auth.ts). */
describe('display name', () => {
  const problems = (name: string) => {
    const result = profileSchema.safeParse({ intent: 'profile', name })
    return result.success ? [] : result.error.issues.map((issue) => issue.message)
  }

  it('counts no invisible or direction-control characters', () => {
    // Zero-width space, right-to-left override, BOM, zero-width joiner, a tab and a soft hyphen.
    for (const name of ['\u200B', ' \u202E ', '\uFEFF\u200D', '\t\u00AD'])
      expect(problems(name)).toEqual([SETTINGS_MESSAGES.nameRequired])
    expect(profileSchema.parse({ intent: 'profile', name: ' \u202EAsha\u200B Rao ' })).toEqual({
      intent: 'profile',
      name: 'Asha Rao',
    })
    // Full-width letters are the plain ones (NFKC); other scripts are kept.
    expect(profileSchema.parse({ intent: 'profile', name: '\uFF21sha' }).name).toBe('Asha')
    expect(profileSchema.parse({ intent: 'profile', name: 'आशा राव' }).name).toBe('आशा राव')
    expect(problems('x'.repeat(101))).toEqual([SETTINGS_MESSAGES.nameTooLong])
  })
})

/** A payment link made out to a business: its details are all given, or none. */
describe('a payment link’s business', () => {
  const link = {
    productId: 'prod-1',
    amount: '',
    name: 'Asha Verma',
    email: 'asha@example.in',
    phone: '9876543210',
  }
  const fieldErrors = (input: Record<string, unknown>) => {
    const result = paymentLinkSchema.safeParse(input)
    return result.success
      ? {}
      : Object.fromEntries(
          result.error.issues.map((issue) => [issue.path.join('.'), issue.message]),
        )
  }

  it('is none when all three are blank', () => {
    expect(paymentLinkSchema.parse(link)).toMatchObject({
      businessName: '',
      gstin: '',
      businessAddress: '',
    })
    expect(fieldErrors({ ...link, businessName: ' ', gstin: '', businessAddress: '' })).toEqual({})
  })

  it('is kept as written when all three are valid', () => {
    expect(
      paymentLinkSchema.parse({
        ...link,
        businessName: ' Udyam Software Private Limited ',
        gstin: '27aapfu 0939f1zv',
        businessAddress: 'Mumbai',
      }),
    ).toMatchObject({
      businessName: 'Udyam Software Private Limited',
      gstin: '27AAPFU0939F1ZV',
      businessAddress: 'Mumbai',
    })
  })

  it('names what is missing or wrong once any of them is given', () => {
    expect(fieldErrors({ ...link, gstin: '27AAPFU0939F1ZV' })).toEqual({
      businessName: SETTINGS_MESSAGES.businessNameRequired,
      businessAddress: SETTINGS_MESSAGES.businessAddressRequired,
    })
    expect(
      fieldErrors({
        ...link,
        businessName: 'Udyam',
        gstin: '27AAPFU0939F1ZW',
        businessAddress: 'Pune',
      }),
    ).toEqual({ gstin: SETTINGS_MESSAGES.gstinCheck })
    expect(fieldErrors({ ...link, businessAddress: 'Pune' })).toEqual({
      businessName: SETTINGS_MESSAGES.businessNameRequired,
      gstin: SETTINGS_MESSAGES.gstinInvalid,
    })
  })
})
