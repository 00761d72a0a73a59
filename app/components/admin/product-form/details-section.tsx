import { Input } from '~/components/ui/input'
import { maxLengthOf, ProductFieldRow, Section } from './parts'
import type { ProductFormState } from './use-product-form'

/** Validity, delivery time, rating and the number of reviews shown on the product page. */
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
      <ProductFieldRow
        name="rating"
        label="Rating"
        error={errors.rating}
        hint="0 to 5, shown with the stars."
      >
        <Input
          {...textProps('rating')}
          surface="admin"
          type="number"
          inputMode="decimal"
          min="0"
          max="5"
          step="0.1"
        />
      </ProductFieldRow>
      <ProductFieldRow
        name="reviews"
        label="Reviews"
        error={errors.reviews}
        hint="The number of reviews shown."
      >
        <Input
          {...textProps('reviews')}
          surface="admin"
          type="number"
          inputMode="numeric"
          min="0"
          step="1"
        />
      </ProductFieldRow>
    </Section>
  )
}
