import { keyedHash, safeEqual } from './crypto.server'
import { checkoutPath } from './paths'

/**
 * The "Renew" link of an expiry reminder: /checkout/{slug}?renew={orderId}.{signature}. The
 * signature (HMAC with a key derived from APP_SECRET) lets the checkout prefill the buyer's
 * name, e-mail and phone from that order without putting them in the URL, and stops anyone
 * from reading another order's details by changing the id. It grants nothing else: the
 * checkout still prices the order from the database.
 */
const RENEW_PURPOSE = 'keybazaar:renew-link:v1'
export const RENEW_PARAM = 'renew'

function signature(appSecret: string, orderId: string): string {
  // 128 bits of the HMAC are plenty for a link that only fills in a form.
  return keyedHash(appSecret, RENEW_PURPOSE, orderId).slice(0, 32)
}

export function renewToken(appSecret: string, orderId: string): string {
  return `${orderId}.${signature(appSecret, orderId)}`
}

/** The order id a renew token was issued for, or null when it is not one of ours. */
export function orderIdFromRenewToken(appSecret: string, token: string | null): string | null {
  if (!token || token.length > 200) return null
  const dot = token.lastIndexOf('.')
  if (dot <= 0) return null
  const orderId = token.slice(0, dot)
  return safeEqual(token.slice(dot + 1), signature(appSecret, orderId)) ? orderId : null
}

/** The Renew link within the shop (the dashboard's running subscriptions). */
export function renewPath(appSecret: string, productSlug: string, orderId: string): string {
  const token = encodeURIComponent(renewToken(appSecret, orderId))
  return `${checkoutPath(productSlug)}?${RENEW_PARAM}=${token}`
}

/** The Renew link with the shop's public address (the expiry reminder's e-mail). */
export function renewUrl(
  publicUrl: string,
  appSecret: string,
  productSlug: string,
  orderId: string,
): string {
  return `${publicUrl.replace(/\/$/, '')}${renewPath(appSecret, productSlug, orderId)}`
}
