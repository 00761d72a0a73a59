import { describeRate, formatRupees, type DisplayCurrency } from '~/lib/money'

/**
 * Under a price shown in dollars or euros: the rate it was converted at and what is actually
 * charged, in rupees. Nothing when the shop shows rupees.
 */
export function ChargedInRupees({
  currency,
  paise,
  className = '',
}: {
  currency: DisplayCurrency
  /** The amount charged. */
  paise: number
  className?: string
}) {
  if (currency.code === 'INR') return null
  return (
    <p role="note" className={`text-sm text-slate-600 dark:text-slate-300 ${className}`}>
      Prices are shown in {currency.code} at {describeRate(currency)}, for reference. You are
      charged <strong className="text-slate-900 dark:text-white">{formatRupees(paise)}</strong> in
      Indian rupees (INR); your bank may convert at its own rate.
    </p>
  )
}
