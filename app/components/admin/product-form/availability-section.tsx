import { Checkbox } from '~/components/ui/input'
import { ChoiceRow, fieldId, Section } from './parts'
import type { ProductFormState } from './use-product-form'

const CHOICES = [
  {
    name: 'inStock',
    label: 'In stock',
    hint: 'Shown as Active; buyers can order it. Off: Out of Stock and the buy button is disabled. A product delivered from stock is also out of stock while no item is left.',
  },
  {
    name: 'featured',
    label: 'Featured',
    hint: 'Shown under Featured Premium Services on the home page.',
  },
] as const

/** Whether the product can be bought, and whether the home page features it. */
export function AvailabilitySection({ form }: { form: ProductFormState }) {
  return (
    <Section id="section-availability" title="Availability & Visibility">
      {CHOICES.map(({ name, label, hint }) => (
        <ChoiceRow key={name} id={fieldId(name)} label={label} hint={hint}>
          <Checkbox
            id={fieldId(name)}
            name={name}
            checked={form.checks[name]}
            onChange={(event) => form.setCheck(name, event.currentTarget.checked)}
            aria-describedby={`${fieldId(name)}-hint`}
            className="mt-0.5 size-5 shrink-0"
          />
        </ChoiceRow>
      ))}
    </Section>
  )
}
