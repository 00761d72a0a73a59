/**
 * The demo shop's reviews: fictional buyers (addresses at example.test, which never receives
 * mail) who bought a demo product and reviewed it. The seed places and delivers each order
 * through the shop's own functions and writes the review with the same service a buyer's
 * order page uses (app/services/seed/index.ts).
 */
export interface DemoReview {
  /** The demo product's slug. */
  product: string
  buyer: string
  rating: 1 | 2 | 3 | 4 | 5
  title: string
  body: string
  /** How long before the seed ran the review was written. */
  daysAgo: number
}

export const DEMO_REVIEWS: readonly DemoReview[] = [
  {
    product: 'streamverse-premium-12-months',
    buyer: 'Priya Sharma',
    rating: 5,
    title: 'Worked on the first try',
    body: 'The details arrived within a minute of paying. Logged in on the TV and two phones without any trouble.',
    daysAgo: 3,
  },
  {
    product: 'streamverse-premium-12-months',
    buyer: 'Rohan Mehta',
    rating: 4,
    title: 'Good value for a year',
    body: 'Picture quality is great in 4K. Took me a moment to find the profile PIN option, otherwise smooth.',
    daysAgo: 12,
  },
  {
    product: 'streamverse-premium-12-months',
    buyer: 'Ananya Iyer',
    rating: 5,
    title: '',
    body: 'Second year buying here. Same quick delivery and the account has been stable all along.',
    daysAgo: 26,
  },
  {
    product: 'cinenova-ultra-6-months',
    buyer: 'Vikram Nair',
    rating: 4,
    title: 'Does what it says',
    body: 'Six months of Ultra for much less than the official price. Support answered my question on WhatsApp quickly.',
    daysAgo: 6,
  },
  {
    product: 'cinenova-ultra-6-months',
    buyer: 'Sneha Kulkarni',
    rating: 3,
    title: 'Fine, but read the notes',
    body: 'It works, but only two screens at once on this plan. The product page does say so; I missed it.',
    daysAgo: 18,
  },
  {
    product: 'pixelforge-office-suite-lifetime',
    buyer: 'Arjun Reddy',
    rating: 5,
    title: 'Key activated instantly',
    body: 'The licence key was accepted straight away on my laptop. Invoice was available on the order page too.',
    daysAgo: 9,
  },
  {
    product: 'shieldline-vpn-2-years',
    buyer: 'Kavya Menon',
    rating: 4,
    title: 'Fast servers in Mumbai',
    body: 'Speeds are good on the Indian servers and the app is simple. Setup on the router took some reading.',
    daysAgo: 15,
  },
]
