import { describe, expect, it } from 'vitest'
import {
  CLAIM_SETTING_DEFAULTS,
  deliveryDuration,
  deliveryFigure,
  storefrontClaims,
  type ClaimSettings,
} from '~/lib/claims'
import {
  bundleHighlights,
  heroDeliveryBadge,
  heroStats,
  homeDescription,
  processSteps,
  productDeliveryNote,
  productPageClaims,
  trustLine,
  whatsappInvitation,
  whyChooseUs,
} from './claims'

const claims = (changes: Partial<ClaimSettings> = {}) =>
  storefrontClaims({ ...CLAIM_SETTING_DEFAULTS, ...changes })

/** Every text the home page and a product page write from the claims. */
function everyText(changes: Partial<ClaimSettings>): string {
  const c = claims(changes)
  return [
    heroStats(c).map((stat) => `${stat.value} ${stat.label}`),
    heroDeliveryBadge(c),
    bundleHighlights(c),
    processSteps(c).map((step) => step.text),
    trustLine(c),
    whyChooseUs(c).map((item) => `${item.title}: ${item.text}`),
    whatsappInvitation(c),
    homeDescription(c),
    productPageClaims(c).map((claim) => `${claim.value} ${claim.label}`),
    productDeliveryNote(c),
  ]
    .flat()
    .join('\n')
}

describe('the storefront claims with the default settings', () => {
  it("are the original app's figures, in the words its pages used", () => {
    const c = claims()
    expect(heroStats(c)).toEqual([
      { value: '10,000+', label: 'Happy customers', rating: false },
      { value: '50+', label: 'Premium services', rating: false },
      { value: '4.9', label: 'Customer rating', rating: true },
      { value: '24/7', label: 'Support', rating: false },
    ])
    expect(heroDeliveryBadge(c)).toBe('Instant delivery within 5 minutes')
    expect(c.bundle).toEqual({ price: 299_900, originalPrice: 1_599_900 })
    expect(bundleHighlights(c)).toEqual([
      '10,000+ verified accounts',
      'Delivered within 5 minutes',
      '24/7 WhatsApp support',
    ])
    expect(trustLine(c)).toBe('Trusted by 10,000+ customers across India, rated 4.9 out of 5.')
    expect(productPageClaims(c)).toEqual([
      { value: '10,000+', label: 'Verified accounts' },
      { value: 'Under 5 min', label: 'Delivery' },
      { value: '4.9', label: 'Rating' },
      { value: '24/7', label: 'WhatsApp support' },
    ])
    expect(whyChooseUs(c).map((item) => item.title)).toEqual([
      'Up to 80% off',
      'Instant delivery',
      '24/7 support',
      '10,000+ verified accounts',
      'Secure payments',
      'Replacement warranty',
    ])
    expect(processSteps(c)[0]!.text).toContain('Browse 50+ premium subscriptions')
    expect(productDeliveryNote(c)).toBe('Details delivered within 5 minutes.')
    expect(homeDescription(c)).toBe(
      'Premium subscriptions and software licences at up to 80% off, delivered within 5 minutes with 24/7 WhatsApp support.',
    )
  })
})

describe('a changed claim', () => {
  it('reads the same wherever its figure appears', () => {
    const text = everyText({
      claimCustomers: '1,200+',
      claimRating: '4.7',
      claimSupport: '9am-9pm',
    })
    expect(text).not.toMatch(/10,000|4\.9|24\/7/)
    expect(text).toContain('1,200+ Happy customers')
    expect(text).toContain('1,200+ verified accounts')
    expect(text).toContain('1,200+ Verified accounts')
    expect(text).toContain('Trusted by 1,200+ customers across India, rated 4.7 out of 5.')
    expect(text).toContain('4.7 Rating')
    expect(text).toContain('9am-9pm support')
    expect(text).toContain('9am-9pm WhatsApp support')
    expect(text).toContain('Chat with our support team 9am-9pm for help')
  })

  it('shows the hero label the owner chose', () => {
    expect(heroStats(claims({ claimServicesLabel: 'Subscriptions' }))[1]).toEqual({
      value: '50+',
      label: 'Subscriptions',
      rating: false,
    })
  })

  it('says a delivery time in minutes or whole hours', () => {
    expect([1, 5, 45, 60, 90, 120].map(deliveryDuration)).toEqual([
      '1 minute',
      '5 minutes',
      '45 minutes',
      '1 hour',
      '90 minutes',
      '2 hours',
    ])
    expect([5, 90, 60, 1440].map(deliveryFigure)).toEqual([
      'Under 5 min',
      'Under 90 min',
      'Under 1 hour',
      'Under 24 hours',
    ])
    const text = everyText({ claimDeliveryMinutes: 30 })
    expect(text).not.toMatch(/5 min/)
    expect(text).toContain('Instant delivery within 30 minutes')
    expect(text).toContain('Under 30 min Delivery')
    expect(text).toContain('Details delivered within 30 minutes.')
  })
})

describe('an empty claim', () => {
  it.each([
    ['claimCustomers', /10,000/],
    ['claimServices', /50\+/],
    ['claimRating', /4\.9|rated|Rating/i],
    ['claimSupport', /24\/7/],
  ] as const)('%s is stated nowhere', (key, figure) => {
    const text = everyText({ [key]: '' })
    expect(text).not.toMatch(figure)
    // The other claims stay.
    expect(text).toContain('Instant delivery within 5 minutes')
  })

  it('leaves the sentences that stated it whole', () => {
    expect(trustLine(claims({ claimRating: '' }))).toBe(
      'Trusted by 10,000+ customers across India.',
    )
    expect(trustLine(claims({ claimCustomers: '' }))).toBe(
      'Rated 4.9 out of 5 by customers across India.',
    )
    expect(trustLine(claims({ claimCustomers: '', claimRating: '' }))).toBeNull()
    expect(processSteps(claims({ claimServices: '', claimDeliveryMinutes: 0 }))).toMatchObject([
      { text: 'Browse premium subscriptions and licences and pick the plan that suits you.' },
      {},
      {
        text: 'Receive your account details or licence key on screen, with an e-mail that links back to them.',
      },
    ])
    expect(whatsappInvitation(claims({ claimSupport: '' }))).toBe(
      'Chat with our support team for help choosing a plan, with an order, or with a replacement.',
    )
    expect(homeDescription(claims({ claimDeliveryMinutes: 0 }))).toBe(
      'Premium subscriptions and software licences at up to 80% off, with 24/7 WhatsApp support.',
    )
    expect(homeDescription(claims({ claimDeliveryMinutes: 0, claimSupport: '' }))).toBe(
      'Premium subscriptions and software licences at up to 80% off.',
    )
  })

  it('for the delivery time promises none', () => {
    const c = claims({ claimDeliveryMinutes: 0 })
    expect(everyText({ claimDeliveryMinutes: 0 })).not.toMatch(/minute|min\b|Instant delivery/)
    expect(heroDeliveryBadge(c)).toBeNull()
    expect(productDeliveryNote(c)).toBeNull()
  })

  it('all of them leave only what is not a figure', () => {
    const none = claims({
      claimCustomers: '',
      claimServices: '',
      claimRating: '',
      claimSupport: '',
      claimDeliveryMinutes: 0,
    })
    expect(heroStats(none)).toEqual([])
    expect(bundleHighlights(none)).toEqual([])
    expect(productPageClaims(none)).toEqual([])
    expect(whyChooseUs(none).map((item) => item.title)).toEqual([
      'Up to 80% off',
      'Secure payments',
      'Replacement warranty',
    ])
  })
})

describe('the example bundle', () => {
  it('is hidden when switched off, or when its prices are no saving', () => {
    expect(claims({ exampleBundle: false }).bundle).toBeNull()
    expect(claims({ exampleBundlePrice: 50_000, exampleBundleOriginalPrice: 50_000 }).bundle).toBe(
      null,
    )
    expect(
      claims({ exampleBundlePrice: 99_900, exampleBundleOriginalPrice: 199_900 }).bundle,
    ).toEqual({ price: 99_900, originalPrice: 199_900 })
  })
})
