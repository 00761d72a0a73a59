/**
 * WhatsApp deep links (wa.me) and their prefilled messages, for the storefront, the mails and the
 * back office: every order and support contact opens a chat with the order id filled in
 * (docs/delivery.md). Browser-safe.
 */

/** A wa.me link to the shop's number with a prefilled message; null without a number. */
export function whatsappLink(number: string, message: string): string | null {
  const digits = number.replace(/\D/g, '')
  if (!digits) return null
  return `https://wa.me/${digits}?text=${encodeURIComponent(message)}`
}

/**
 * The shop's WhatsApp number as people read it ("+91 98765 43210" for 919876543210), wherever it
 * is shown as text (pages and mails); links keep the bare digits wa.me wants. An Indian mobile
 * number is grouped 5 + 5, any other is shown as +digits. Empty without a number.
 */
export function whatsappDisplayNumber(number: string): string {
  const digits = number.replace(/\D/g, '')
  if (!digits) return ''
  const indian = /^91([6-9]\d{4})(\d{5})$/.exec(digits)
  return indian ? `+91 ${indian[1]} ${indian[2]}` : `+${digits}`
}

export function supportMessage(siteName: string): string {
  return `Hi ${siteName}, I need help choosing a subscription. Can you help me?`
}

export function productQuestionMessage(
  siteName: string,
  productTitle: string,
  productUrl: string,
): string {
  return `Hi ${siteName}, I have a question about "${productTitle}" (${productUrl}).`
}

/** A signed-in customer's message to the shop from their account area (no order in view). */
export function accountHelpMessage(siteName: string): string {
  return `Hi ${siteName}, I need help with my account.`
}

/**
 * The buyer's message to the shop about an order (the order page, the payment-link page and
 * the order mails).
 */
export function orderHelpMessage(
  siteName: string,
  order: { id: string; productName: string },
): string {
  return `Hi ${siteName}, I need help with my order ${order.id} (${order.productName}).`
}

/**
 * A customer's phone as wa.me wants an Indian mobile number (91 and the ten digits), or null
 * when it is not one. Checkout keeps the ten digits (app/lib/validation/checkout.ts); a
 * leading +91, 91 or 0 and spaces or dashes are accepted too. Indian mobile numbers start with
 * 6, 7, 8 or 9.
 */
export function indianMobileWhatsappNumber(phone: string): string | null {
  let digits = phone.replace(/\D/g, '')
  if (digits.length === 12 && digits.startsWith('91')) digits = digits.slice(2)
  else if (digits.length === 11 && digits.startsWith('0')) digits = digits.slice(1)
  return /^[6-9]\d{9}$/.test(digits) ? `91${digits}` : null
}

/** A wa.me link from the shop to a customer, or null when their phone is no Indian mobile. */
export function customerWhatsappLink(phone: string, message: string): string | null {
  const number = indianMobileWhatsappNumber(phone)
  return number ? whatsappLink(number, message) : null
}

const hello = (customerName: string) => {
  const name = customerName.trim()
  return name ? `Hello ${name}` : 'Hello'
}

/** The shop's message to a buyer about their order (the admin order page); the admin goes on. */
export function buyerOrderMessage(
  siteName: string,
  order: { id: string; customerName: string },
): string {
  return `${hello(order.customerName)}, about your ${siteName} order ${order.id}: `
}

/** The shop's message sending a payment link (the admin's Payment Links page). */
export function paymentLinkMessage(
  siteName: string,
  link: { customerName: string; productName: string; amount: string; paymentUrl: string },
): string {
  return `${hello(link.customerName)}, please pay ${link.amount} for ${link.productName} at ${siteName} with this link: ${link.paymentUrl}`
}
