import { describe, expect, it } from 'vitest'
import { generalSettingsSchema, notificationSettingsSchema, systemSettingsSchema } from './settings'

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
