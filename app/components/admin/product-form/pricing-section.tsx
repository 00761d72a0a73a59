import { Input } from '~/components/ui/input'
import { cn } from '~/components/ui/cn'
import { discountFromInputs, parsePriceInput } from '~/lib/validation/product'
import { Section } from './parts'
import { ProductTextRow } from './text-row'
import type { ProductFormState } from './use-product-form'

/** Price and original price in rupees, and the discount recomputed from them (read-only). */
export function PricingSection({ form }: { form: ProductFormState }) {
  const { values } = form
  const discount = discountFromInputs(values.price, values.originalPrice)
  const price = parsePriceInput(values.price)
  const original = parsePriceInput(values.originalPrice)
  const priceAboveOriginal = 'paise' in price && 'paise' in original && price.paise > original.paise
  return (
    <Section
      id="section-pricing"
      title="Pricing"
      description="In rupees; paise are allowed (499.50)."
    >
      {(
        [
          ['price', 'Price (₹)', 'What the buyer pays.'],
          ['originalPrice', 'Original price (₹)', 'Shown struck through.'],
        ] as const
      ).map(([name, label, hint]) => (
        <ProductTextRow
          key={name}
          form={form}
          name={name}
          label={label}
          hint={hint}
          required
          type="number"
          inputMode="decimal"
          min="0"
          step="0.01"
        />
      ))}
      <div className="space-y-1.5">
        <label
          htmlFor="product-discount"
          className="block text-sm font-medium text-slate-800 dark:text-slate-200"
        >
          Discount (%)
        </label>
        <Input
          id="product-discount"
          surface="admin"
          type="text"
          readOnly
          value={`${discount}%`}
          aria-describedby="product-discount-hint"
          className="bg-slate-100 font-semibold dark:bg-slate-800"
        />
        <p
          id="product-discount-hint"
          className={cn(
            'text-xs',
            priceAboveOriginal
              ? 'font-medium text-amber-700 dark:text-amber-400'
              : 'text-slate-600 dark:text-slate-400',
          )}
        >
          {priceAboveOriginal
            ? 'The price is above the original price, so no discount is shown.'
            : 'Calculated from the two prices.'}
        </p>
      </div>
    </Section>
  )
}
