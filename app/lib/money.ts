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

/**
 * The currency the storefront shows prices in (admin Settings, System tab): INR, or USD or EUR
 * converted at the stored rate, rupees per unit. For reading only: every charge, order, receipt
 * and invoice stays in rupees.
 */
export const DISPLAY_CURRENCIES = ['INR', 'USD', 'EUR'] as const
export type DisplayCurrencyCode = (typeof DISPLAY_CURRENCIES)[number]
export interface DisplayCurrency {
  code: DisplayCurrencyCode
  /** Rupees per one unit of `code` (1 for INR). */
  rate: number
}
export const RUPEES: DisplayCurrency = { code: 'INR', rate: 1 }

/** A usable display currency: INR, or USD/EUR with a positive finite rate; anything else is INR. */
export function displayCurrency(code: string, rate: number): DisplayCurrency {
  if (code === 'INR') return RUPEES
  if ((code === 'USD' || code === 'EUR') && Number.isFinite(rate) && rate > 0) {
    return { code, rate }
  }
  return RUPEES
}

/** Paise in the display currency's smallest unit (cents), to the nearest one. */
export function convertPaise(paise: number, currency: DisplayCurrency): number {
  if (currency.code === 'INR') return paise
  return Math.round(paise / currency.rate)
}

// Dollars and euros with international grouping (1,234.50), not the Indian lakh grouping.
const foreign = new Map<string, [Intl.NumberFormat, Intl.NumberFormat]>()
function foreignFormats(code: DisplayCurrencyCode): [Intl.NumberFormat, Intl.NumberFormat] {
  let formats = foreign.get(code)
  if (!formats) {
    formats = [
      new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: code,
        maximumFractionDigits: 0,
      }),
      new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: code,
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      }),
    ]
    foreign.set(code, formats)
  }
  return formats
}

/**
 * A price as the storefront shows it: rupees (formatRupees), or converted at the stored rate
 * ($17.95, €16.50; whole amounts without cents, like rupees). Never use it for an amount that
 * is charged: those are always formatRupees.
 */
export function formatDisplayPrice(paise: number, currency: DisplayCurrency): string {
  if (currency.code === 'INR') return formatRupees(paise)
  const cents = convertPaise(paise, currency)
  const [whole, withCents] = foreignFormats(currency.code)
  return (cents % 100 === 0 ? whole : withCents).format(cents / 100)
}

/** The rate as a sentence part: "₹83.50 = $1". */
export function describeRate(currency: DisplayCurrency): string {
  const unit = currency.code === 'USD' ? '$1' : currency.code === 'EUR' ? '€1' : '₹1'
  return `${formatRupees(Math.round(currency.rate * 100))} = ${unit}`
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
