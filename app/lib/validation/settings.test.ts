import { describe, expect, it } from 'vitest'
import {
  CLAIM_MESSAGES,
  generalSettingsSchema,
  notificationSettingsSchema,
  storefrontSettingsSchema,
  systemSettingsSchema,
} from './settings'

const general = (fields: Record<string, string>) =>
  generalSettingsSchema.safeParse({
    tab: 'general',
    siteName: 'KeyBazaar',
    invoicePrefix: 'INV',
    gstRate: '18',
    ...fields,
  })

const errorsOf = (fields: Record<string, string>) =>
  (general(fields).error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message])

describe('the General tab: GST on invoices', () => {
  it('reads the GST rate in per cent, up to two decimals, above 0 and at most 40', () => {
    expect(general({ gstRate: '18' }).data?.gstRate).toBe(18)
    expect(general({ gstRate: ' 2.5 % ' }).data?.gstRate).toBe(2.5)
    expect(general({ gstRate: '0.25' }).data?.gstRate).toBe(0.25)
    expect(general({ gstRate: '40' }).data?.gstRate).toBe(40)
    const message = 'Enter the GST rate in per cent, above 0 and at most 40 (e.g. 18)'
    for (const gstRate of ['', 'eighteen', '-1', '0', '40.5', '12.345', '0x12', '1e1', '18.'])
      expect(errorsOf({ gstRate })).toEqual([['gstRate', message]])
  })

  it('takes a SAC or HSN code of 4, 6 or 8 digits, spaces dropped, or none', () => {
    expect(general({ sacCode: '99 84 34' }).data?.sacCode).toBe('998434')
    expect(general({ sacCode: '' }).data?.sacCode).toBe('')
    for (const sacCode of ['998', '99843', '9984341', 'SAC998434'])
      expect(errorsOf({ sacCode })).toEqual([
        ['sacCode', 'Enter a SAC or HSN code of 4, 6 or 8 digits (e.g. 998434), or leave it empty'],
      ])
  })

  it('refuses a GSTIN whose first two digits are no GST state code', () => {
    expect(general({ sellerGstin: '29abcde1234f1z5' }).data?.sellerGstin).toBe('29ABCDE1234F1Z5')
    expect(errorsOf({ sellerGstin: '00ABCDE1234F1Z5' })).toEqual([
      ['sellerGstin', 'Enter a valid 15-character GSTIN (e.g. 29ABCDE1234F1Z5)'],
    ])
  })
})

/** Addresses the store (app/data/settings.server.ts) refuses, though they look like addresses. */
const ADDRESSES_THE_STORE_REFUSES = ['ops@shop.in.', 'owner@shop.c', 'a&b@shop.in', 'x@münchen.de']

describe('the e-mail fields: what the store keeps, with a message on the field otherwise', () => {
  // The whole path: Conform files a message under it, and the page shows a field's own messages
  // only (alertRecipients, not alertRecipients[1]).
  const recipientErrors = (alertRecipients: string) =>
    (
      notificationSettingsSchema.safeParse({
        tab: 'notifications',
        alertRecipients,
        lowStockThreshold: '5',
      }).error?.issues ?? []
    ).map((issue) => [issue.path.join('.'), issue.message])

  it('refuses a contact address the store would refuse', () => {
    for (const contactEmail of ADDRESSES_THE_STORE_REFUSES)
      expect(errorsOf({ contactEmail })).toEqual([['contactEmail', 'Enter a valid e-mail address']])
    expect(general({ contactEmail: ' Support@Shop.in ' }).data?.contactEmail).toBe(
      'Support@Shop.in',
    )
    expect(general({ contactEmail: '' }).data?.contactEmail).toBe('')
  })

  it('refuses an alert recipient the store would refuse', () => {
    for (const address of ADDRESSES_THE_STORE_REFUSES)
      expect(recipientErrors(`owner@shop.in, ${address}, ${address}`)).toEqual([
        [
          'alertRecipients',
          `Every recipient must be a valid e-mail address: "${address}" is not one`,
        ],
      ])
    expect(recipientErrors('owner@shop.in; ops.team+alerts@mail.shop.co.in')).toEqual([])
    const long = `${'x'.repeat(300)}@shop.in`
    expect(recipientErrors(long)).toEqual([
      [
        'alertRecipients',
        `Every recipient must be a valid e-mail address: "${'x'.repeat(59)}…" is not one`,
      ],
    ])
    expect(recipientErrors(Array.from({ length: 11 }, (_, i) => `a${i}@shop.in`).join())).toEqual([
      ['alertRecipients', 'At most 10 recipients'],
    ])
  })
})

describe('the System tab: display currency and its rate', () => {
  const system = (fields: Record<string, string>) =>
    systemSettingsSchema.safeParse({
      tab: 'system',
      currency: 'USD',
      currencyRate: '83.50',
      timezone: 'Asia/Kolkata',
      language: 'en',
      ...fields,
    })
  const rateMessage = 'Enter the rupees one unit of the currency is worth, e.g. 83.50'

  it('ignores the rate for INR, whatever its field holds, and keeps 1', () => {
    for (const currencyRate of ['', 'eighty', '-1', '0', '83.50'])
      expect(system({ currency: 'INR', currencyRate }).data?.currencyRate).toBe(1)
  })

  it('asks for a positive rate up to 100000 for another currency, on its field', () => {
    expect(system({ currencyRate: ' 90.25 ' }).data?.currencyRate).toBe(90.25)
    for (const currencyRate of ['', 'eighty', '-1', '0', '100001'])
      expect(
        system({ currency: 'EUR', currencyRate }).error?.issues.map((issue) => [
          issue.path.join('.'),
          issue.message,
        ]),
      ).toEqual([['currencyRate', rateMessage]])
  })

  it('reports the rate with the other fields, and no rate message without a currency', () => {
    const paths = (fields: Record<string, string>) =>
      system(fields).error?.issues.map((issue) => issue.path.join('.'))
    expect(paths({ currencyRate: '', language: 'fr' })).toEqual(['language', 'currencyRate'])
    expect(paths({ currency: 'GBP', currencyRate: '' })).toEqual(['currency'])
  })
})

describe('the Storefront claims tab', () => {
  /** The tab's form as it opens on a fresh shop (the spec's figures). */
  const DEFAULT_FORM = {
    tab: 'storefront',
    claimCustomers: '10,000+',
    claimCustomersLabel: 'Happy customers',
    claimServices: '50+',
    claimServicesLabel: 'Premium services',
    claimRating: '4.9',
    claimRatingLabel: 'Customer rating',
    claimSupport: '24/7',
    claimSupportLabel: 'Support',
    claimDeliveryMinutes: '5',
    exampleBundle: 'on',
    exampleBundlePrice: '2999',
    exampleBundleOriginalPrice: '15999',
  }
  const storefront = (fields: Record<string, string | undefined>) =>
    storefrontSettingsSchema.safeParse({ ...DEFAULT_FORM, ...fields })
  const errors = (fields: Record<string, string | undefined>) =>
    (storefront(fields).error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message])

  it('reads the form as the settings the store keeps: amounts in paise, empty minutes as 0', () => {
    const { tab: _, ...value } = storefront({ claimCustomers: ' 1,200+ ' }).data!
    expect(value).toEqual({
      claimCustomers: '1,200+',
      claimCustomersLabel: 'Happy customers',
      claimServices: '50+',
      claimServicesLabel: 'Premium services',
      claimRating: '4.9',
      claimRatingLabel: 'Customer rating',
      claimSupport: '24/7',
      claimSupportLabel: 'Support',
      claimDeliveryMinutes: 5,
      exampleBundle: true,
      exampleBundlePrice: 299_900,
      exampleBundleOriginalPrice: 1_599_900,
    })
    expect(storefront({ claimDeliveryMinutes: ' ' }).data?.claimDeliveryMinutes).toBe(0)
    expect(storefront({ exampleBundle: undefined }).data?.exampleBundle).toBe(false)
    expect(storefront({ exampleBundlePrice: '2,999.50' }).data?.exampleBundlePrice).toBe(299_950)
  })

  it('takes an empty figure (the claim hidden), whatever its label', () => {
    expect(
      storefront({ claimCustomers: '', claimCustomersLabel: '', claimRating: '', claimSupport: '' })
        .success,
    ).toBe(true)
  })

  it('keeps figures to 20 characters and labels to 40', () => {
    expect(
      storefront({ claimServices: 'x'.repeat(20), claimServicesLabel: 'y'.repeat(40) }).success,
    ).toBe(true)
    expect(errors({ claimServices: 'x'.repeat(21), claimSupportLabel: 'y'.repeat(41) })).toEqual([
      ['claimServices', 'A figure must be at most 20 characters'],
      ['claimSupportLabel', 'A label must be at most 40 characters'],
    ])
  })

  it("asks for a shown figure's hero label", () => {
    expect(errors({ claimCustomersLabel: ' ', claimRatingLabel: '' })).toEqual([
      ['claimCustomersLabel', CLAIM_MESSAGES.labelMissing],
      ['claimRatingLabel', CLAIM_MESSAGES.labelMissing],
    ])
  })

  it('takes a rating from 1 to 5 with at most one decimal', () => {
    for (const claimRating of ['1', '4.7', '5', '5.0', ' 4.5 '])
      expect(storefront({ claimRating }).success).toBe(true)
    for (const claimRating of ['0.5', '5.5', '4.75', '6', 'great', '4,7', '-4'])
      expect(errors({ claimRating })).toEqual([
        [
          'claimRating',
          'Enter a rating from 1 to 5 with at most one decimal (e.g. 4.7), or leave it empty',
        ],
      ])
  })

  it('takes the delivery time in whole minutes up to a day', () => {
    expect(storefront({ claimDeliveryMinutes: '1440' }).data?.claimDeliveryMinutes).toBe(1440)
    for (const claimDeliveryMinutes of ['1441', '2.5', 'five', '-5', '5 min'])
      expect(errors({ claimDeliveryMinutes })).toEqual([
        ['claimDeliveryMinutes', 'Enter whole minutes from 1 to 1440 (e.g. 5), or leave it empty'],
      ])
  })

  it('asks for positive rupee amounts, the bundle price below the original', () => {
    for (const exampleBundlePrice of ['', '0', '-10', 'free', '12.345'])
      expect(errors({ exampleBundlePrice })).toEqual([
        ['exampleBundlePrice', 'Enter the bundle price in rupees, above 0 (e.g. 2999)'],
      ])
    expect(errors({ exampleBundleOriginalPrice: '0' })).toEqual([
      ['exampleBundleOriginalPrice', 'Enter the original price in rupees, above 0 (e.g. 15999)'],
    ])
    expect(errors({ exampleBundleOriginalPrice: '10000000' })).toEqual([
      ['exampleBundleOriginalPrice', 'Amounts must be at most ₹99,99,999.99'],
    ])
    for (const exampleBundlePrice of ['15999', '16000'])
      expect(errors({ exampleBundlePrice })).toEqual([
        ['exampleBundlePrice', 'The bundle price must be below the original price'],
      ])
    // Checked when the bundle is off too: the prices stay in the form and are saved.
    expect(errors({ exampleBundle: undefined, exampleBundlePrice: '20000' })).toEqual([
      ['exampleBundlePrice', 'The bundle price must be below the original price'],
    ])
    // Reported with the other fields' messages.
    expect(errors({ exampleBundlePrice: '20000', claimRating: '9' })).toEqual([
      [
        'claimRating',
        'Enter a rating from 1 to 5 with at most one decimal (e.g. 4.7), or leave it empty',
      ],
      ['exampleBundlePrice', 'The bundle price must be below the original price'],
    ])
  })
})
