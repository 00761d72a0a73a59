/** A wa.me link to the shop's number with a prefilled message; null without a number. */
export function whatsappLink(number: string, message: string): string | null {
  const digits = number.replace(/\D/g, '')
  if (!digits) return null
  return `https://wa.me/${digits}?text=${encodeURIComponent(message)}`
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
