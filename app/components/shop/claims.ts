import { deliveryDuration, deliveryFigure, type StorefrontClaims } from '~/lib/claims'

/**
 * The landing page's marketing claims and the product page's why-choose-us claims, written
 * from the figures the owner set in Settings (app/lib/claims.ts), in one place so every page
 * says the same. A claim left empty leaves out every text that states it: its hero figure,
 * its card or its part of a sentence, its product page figure (docs/settings.md).
 */

export interface HeroStat {
  value: string
  label: string
  /** The rating, shown with a star. */
  rating: boolean
}

export function heroStats(claims: StorefrontClaims): HeroStat[] {
  return [claims.customers, claims.services, claims.rating, claims.support].flatMap((claim) =>
    claim ? [{ ...claim, rating: claim === claims.rating }] : [],
  )
}

/** The hero's badge: "Instant delivery within 5 minutes". */
export function heroDeliveryBadge(claims: StorefrontClaims): string | null {
  return claims.deliveryMinutes
    ? `Instant delivery within ${deliveryDuration(claims.deliveryMinutes)}`
    : null
}

/** What the example bundle comes with. */
export function bundleHighlights(claims: StorefrontClaims): string[] {
  return [
    claims.customers ? `${claims.customers.value} verified accounts` : null,
    claims.deliveryMinutes ? `Delivered within ${deliveryDuration(claims.deliveryMinutes)}` : null,
    claims.support ? `${claims.support.value} WhatsApp support` : null,
  ].filter((item) => item !== null)
}

export function processSteps(claims: StorefrontClaims) {
  const services = claims.services ? `${claims.services.value} ` : ''
  const within = claims.deliveryMinutes
    ? ` within ${deliveryDuration(claims.deliveryMinutes)},`
    : ''
  return [
    {
      title: 'Choose Your Service',
      text: `Browse ${services}premium subscriptions and licences and pick the plan that suits you.`,
    },
    {
      title: 'Make Payment',
      text: 'Pay securely by UPI, card or wallet through a trusted Indian payment gateway.',
    },
    {
      title: 'Get Instant Access',
      text: `Receive your account details or licence key${within} on screen, with an e-mail that links back to them.`,
    },
  ]
}

/** The line under "Why Choose ...": "Trusted by 10,000+ customers across India, rated 4.9 out of 5." */
export function trustLine(claims: StorefrontClaims): string | null {
  const { customers, rating } = claims
  if (customers && rating)
    return `Trusted by ${customers.value} customers across India, rated ${rating.value} out of 5.`
  if (customers) return `Trusted by ${customers.value} customers across India.`
  if (rating) return `Rated ${rating.value} out of 5 by customers across India.`
  return null
}

export function whyChooseUs(claims: StorefrontClaims): { title: string; text: string }[] {
  const { customers, rating, support, deliveryMinutes } = claims
  return [
    { title: 'Up to 80% off', text: 'Genuine premium plans at a fraction of the official price.' },
    deliveryMinutes
      ? {
          title: 'Instant delivery',
          text: `Account details or keys delivered within ${deliveryDuration(deliveryMinutes)} of payment.`,
        }
      : null,
    support
      ? { title: `${support.value} support`, text: 'Real people on WhatsApp and e-mail.' }
      : null,
    customers
      ? {
          title: `${customers.value} verified accounts`,
          text: rating
            ? `Customers across India rate us ${rating.value} out of 5.`
            : 'Genuine accounts and keys for customers across India.',
        }
      : null,
    {
      title: 'Secure payments',
      text: 'UPI, cards and wallets through an encrypted payment gateway.',
    },
    { title: 'Replacement warranty', text: 'Something stops working? Tell us and we replace it.' },
  ].filter((item) => item !== null)
}

/** The WhatsApp section's invitation: "Chat with our support team 24/7 for help ...". */
export function whatsappInvitation(claims: StorefrontClaims): string {
  const when = claims.support ? ` ${claims.support.value}` : ''
  return `Chat with our support team${when} for help choosing a plan, with an order, or with a replacement.`
}

/** The home page's description for search results when the shop has none of its own. */
export function homeDescription(claims: StorefrontClaims): string {
  const parts = ['Premium subscriptions and software licences at up to 80% off']
  if (claims.deliveryMinutes)
    parts.push(`delivered within ${deliveryDuration(claims.deliveryMinutes)}`)
  const support = claims.support ? `with ${claims.support.value} WhatsApp support` : null
  // "..., delivered within 5 minutes with 24/7 WhatsApp support." or "..., with 24/7 ...".
  if (support && parts.length > 1) parts[1] = `${parts[1]} ${support}`
  else if (support) parts.push(support)
  return `${parts.join(', ')}.`
}

/** The product page's why-choose-us figures (10,000+ verified accounts, Under 5 min delivery, ...). */
export function productPageClaims(claims: StorefrontClaims): { value: string; label: string }[] {
  const { customers, rating, support, deliveryMinutes } = claims
  return [
    customers ? { value: customers.value, label: 'Verified accounts' } : null,
    deliveryMinutes ? { value: deliveryFigure(deliveryMinutes), label: 'Delivery' } : null,
    rating ? { value: rating.value, label: 'Rating' } : null,
    support ? { value: support.value, label: 'WhatsApp support' } : null,
  ].filter((item) => item !== null)
}

/** Under the product page's Buy button: "Details delivered within 5 minutes." */
export function productDeliveryNote(claims: StorefrontClaims): string | null {
  return claims.deliveryMinutes
    ? `Details delivered within ${deliveryDuration(claims.deliveryMinutes)}.`
    : null
}
