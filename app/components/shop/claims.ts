/**
 * The landing page's marketing claims and the product page's fixed
 * why-choose-us claims, in one place so every page says the same.
 */
export const HERO_STATS = [
  { value: '10,000+', label: 'Happy customers' },
  { value: '50+', label: 'Premium services' },
  { value: '4.9', label: 'Customer rating' },
  { value: '24/7', label: 'Support' },
] as const

/** The spec's example bundle, in paise. */
export const EXAMPLE_BUNDLE = { price: 299_900, originalPrice: 1_599_900 } as const

export const PROCESS_STEPS = [
  {
    title: 'Choose Your Service',
    text: 'Browse 50+ premium subscriptions and licences and pick the plan that suits you.',
  },
  {
    title: 'Make Payment',
    text: 'Pay securely by UPI, card or wallet through a trusted Indian payment gateway.',
  },
  {
    title: 'Get Instant Access',
    text: 'Receive your account details or licence key within 5 minutes, on screen, with an e-mail that links back to them.',
  },
] as const

export const WHY_CHOOSE_US = [
  { title: 'Up to 80% off', text: 'Genuine premium plans at a fraction of the official price.' },
  {
    title: 'Instant delivery',
    text: 'Account details or keys delivered within 5 minutes of payment.',
  },
  { title: '24/7 support', text: 'Real people on WhatsApp and e-mail, any time of day.' },
  {
    title: '10,000+ verified accounts',
    text: 'Thousands of happy customers across India, rated 4.9.',
  },
  {
    title: 'Secure payments',
    text: 'UPI, cards and wallets through an encrypted payment gateway.',
  },
  { title: 'Replacement warranty', text: 'Something stops working? Tell us and we replace it.' },
] as const

/** The product page's fixed claims (spec: product detail, why-choose-us block). */
export const PRODUCT_PAGE_CLAIMS = [
  { value: '10,000+', label: 'Verified accounts' },
  { value: 'Under 5 min', label: 'Delivery' },
  { value: '4.9', label: 'Rating' },
  { value: '24/7', label: 'WhatsApp support' },
] as const
