/**
 * The storefront's marketing claims (docs/settings.md, "Storefront claims"): figures the owner
 * sets in Settings, each shown wherever the home page and the product pages make that claim, so
 * a shop never publishes figures that are not its own. Defaults are the original app's, so a
 * fresh install reads as it did. Browser-safe: the settings form and the storefront use it.
 */

/** The longest figure ("10,000+") and hero label ("Happy customers") a claim takes. */
export const CLAIM_FIGURE_MAX = 20
export const CLAIM_LABEL_MAX = 40
/** The longest delivery promise in minutes: a day. */
export const CLAIM_DELIVERY_MAX_MINUTES = 1440
/** A rating out of 5: from 1 to 5 with at most one decimal ("4.7", "5"). */
export const CLAIM_RATING_PATTERN = /^(?:[1-4](?:\.\d)?|5(?:\.0)?)$/

/** The settings that hold the claims, as stored (amounts in paise; 0 minutes: no promise). */
export interface ClaimSettings {
  claimCustomers: string
  claimCustomersLabel: string
  claimServices: string
  claimServicesLabel: string
  claimRating: string
  claimRatingLabel: string
  claimSupport: string
  claimSupportLabel: string
  claimDeliveryMinutes: number
  exampleBundle: boolean
  exampleBundlePrice: number
  exampleBundleOriginalPrice: number
}

export const CLAIM_SETTING_DEFAULTS: ClaimSettings = {
  claimCustomers: '10,000+',
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
}

/** A figure with the label the home hero shows under it. */
export interface Claim {
  value: string
  label: string
}

/**
 * What the storefront pages are given: each claim, or null where the owner left it empty (the
 * pages then leave out every text that would state it).
 */
export interface StorefrontClaims {
  customers: Claim | null
  services: Claim | null
  /** Out of 5, as typed ("4.9"). */
  rating: Claim | null
  support: Claim | null
  deliveryMinutes: number | null
  /** The example bundle's prices in paise, or null when it is switched off. */
  bundle: { price: number; originalPrice: number } | null
}

function claim(value: string, label: string): Claim | null {
  return value.trim() ? { value: value.trim(), label: label.trim() } : null
}

export function storefrontClaims(settings: ClaimSettings): StorefrontClaims {
  const { exampleBundlePrice: price, exampleBundleOriginalPrice: originalPrice } = settings
  return {
    customers: claim(settings.claimCustomers, settings.claimCustomersLabel),
    services: claim(settings.claimServices, settings.claimServicesLabel),
    rating: claim(settings.claimRating, settings.claimRatingLabel),
    support: claim(settings.claimSupport, settings.claimSupportLabel),
    deliveryMinutes: settings.claimDeliveryMinutes > 0 ? settings.claimDeliveryMinutes : null,
    // Both prices are saved together and checked (price below the original); a bundle that is
    // no saving (rows written by hand) is not shown.
    bundle:
      settings.exampleBundle && price > 0 && price < originalPrice
        ? { price, originalPrice }
        : null,
  }
}

/** A delivery time as a sentence says it: "5 minutes", "1 minute", "2 hours". */
export function deliveryDuration(minutes: number): string {
  if (minutes % 60 === 0) {
    const hours = minutes / 60
    return hours === 1 ? '1 hour' : `${hours} hours`
  }
  return minutes === 1 ? '1 minute' : `${minutes} minutes`
}

/** The same time as a short figure: "Under 5 min", "Under 2 hours". */
export function deliveryFigure(minutes: number): string {
  return minutes % 60 === 0 ? `Under ${deliveryDuration(minutes)}` : `Under ${minutes} min`
}
