import { maxLengthOf, Section } from './parts'
import { ProductTextRow } from './text-row'
import type { ProductFormState } from './use-product-form'

/**
 * Validity and delivery time shown on the product page. The rating and review count are not
 * typed in: they come from buyers' reviews (docs/decisions/0013-reviews-replace-typed-ratings.md).
 */
export function DetailsSection({ form }: { form: ProductFormState }) {
  return (
    <Section id="section-details" title="Product Details">
      <ProductTextRow
        form={form}
        name="validity"
        label="Validity"
        hint="e.g. 12 months, Lifetime"
        maxLength={maxLengthOf('validity')}
      />
      <ProductTextRow
        form={form}
        name="deliveryTime"
        label="Delivery time"
        hint="e.g. Instant delivery, 24 hours"
        maxLength={maxLengthOf('deliveryTime')}
      />
    </Section>
  )
}
