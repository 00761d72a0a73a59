import { Input } from '~/components/ui/input'
import { maxLengthOf, ProductFieldRow, Section } from './parts'
import type { ProductFormState } from './use-product-form'

/**
 * Validity and delivery time shown on the product page. The rating and review count are not
 * typed in: they come from buyers' reviews (docs/decisions/0013-reviews-replace-typed-ratings.md).
 */
export function DetailsSection({ form }: { form: ProductFormState }) {
  const { errors, textProps } = form
  return (
    <Section id="section-details" title="Product Details">
      <ProductFieldRow
        name="validity"
        label="Validity"
        error={errors.validity}
        hint="e.g. 12 months, Lifetime"
      >
        <Input
          {...textProps('validity')}
          surface="admin"
          type="text"
          maxLength={maxLengthOf('validity')}
        />
      </ProductFieldRow>
      <ProductFieldRow
        name="deliveryTime"
        label="Delivery time"
        error={errors.deliveryTime}
        hint="e.g. Instant delivery, 24 hours"
      >
        <Input
          {...textProps('deliveryTime')}
          surface="admin"
          type="text"
          maxLength={maxLengthOf('deliveryTime')}
        />
      </ProductFieldRow>
    </Section>
  )
}
