/**
 * Money is integer paise everywhere; this is the only place it becomes text.
 */
const wholeRupees = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  maximumFractionDigits: 0,
})
const rupeesAndPaise = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
})

/** ₹1,499 for whole rupees, ₹1,499.50 otherwise. */
export function formatRupees(paise: number): string {
  return (paise % 100 === 0 ? wholeRupees : rupeesAndPaise).format(paise / 100)
}

/** The rounded share (original − price) / original as a percent; 0 when original is not above 0. */
export function discountPercent(pricePaise: number, originalPaise: number): number {
  if (!(originalPaise > 0)) return 0
  return Math.round(((originalPaise - pricePaise) / originalPaise) * 100)
}

/** Exact "1499.00"-style text for gateways (never floating point). */
export function paiseToDecimalText(paise: number): string {
  if (!Number.isSafeInteger(paise) || paise < 0)
    throw new RangeError(`Not an amount in paise: ${paise}`)
  return `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`
}

/**
 * Parses a rupee amount given as text ("1499", "1499.5", "1,499.00") into paise, exactly.
 * Returns null for anything else (negative, more than two decimals, not a number).
 */
export function parseRupeesToPaise(text: string): number | null {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text.trim().replace(/,/g, ''))
  if (!match) return null
  const whole = Number(match[1])
  const fraction = Number((match[2] ?? '').padEnd(2, '0'))
  return whole * 100 + fraction
}

/**
 * Parses a gateway's decimal amount ("1499.00", "1499.5", "1499") into paise, exactly:
 * the strict inverse of paiseToDecimalText. Unlike parseRupeesToPaise it refuses commas,
 * spaces and signs, because a gateway's text is data to check, not a person's input to tidy.
 */
export function parseDecimalTextToPaise(text: string): number | null {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text)
  if (!match) return null
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
}
