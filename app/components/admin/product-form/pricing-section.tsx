import { Input } from '~/components/ui/input'
import { cn } from '~/components/ui/cn'
import { discountFromInputs, parsePriceInput } from '~/lib/validation/product'
import { ProductFieldRow, Section } from './parts'
import type { ProductFormState } from './use-product-form'

/** Price and original price in rupees, and the discount recomputed from them (read-only). */
export function PricingSection({ form }: { form: ProductFormState }) {
  const { values, errors, textProps } = form
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
      <ProductFieldRow
        name="price"
        label="Price (₹)"
        required
        error={errors.price}
        hint="What the buyer pays."
      >
        <Input
          {...textProps('price')}
          surface="admin"
          type="number"
          inputMode="decimal"
          min="0"
          step="0.01"
          aria-required="true"
        />
      </ProductFieldRow>
      <ProductFieldRow
        name="originalPrice"
        label="Original price (₹)"
        required
        error={errors.originalPrice}
        hint="Shown struck through."
      >
        <Input
          {...textProps('originalPrice')}
          surface="admin"
          type="number"
          inputMode="decimal"
          min="0"
          step="0.01"
          aria-required="true"
        />
      </ProductFieldRow>
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
