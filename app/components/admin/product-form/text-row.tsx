import type { InputHTMLAttributes, ReactNode } from 'react'
import { Input, Textarea } from '~/components/ui/input'
import { ProductFieldRow } from './parts'
import type { ProductFormState, ProductTextField } from './use-product-form'

/**
 * A product field typed as text: the labelled row (its error or hint), and an input or a text
 * area over the form's value (`textProps`) on the back office's surface.
 */
export function ProductTextRow({
  form,
  name,
  label,
  required,
  wide,
  hint,
  extra,
  rows,
  type = 'text',
  min,
  step,
  ...control
}: {
  form: ProductFormState
  name: ProductTextField
  label: string
  required?: boolean
  wide?: boolean
  hint?: ReactNode
  /** Right of the label (counters). */
  extra?: ReactNode
  /** A text area of this many rows; without, a one-line input. */
  rows?: number
} & Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'inputMode' | 'min' | 'step' | 'maxLength' | 'placeholder' | 'aria-describedby'
>) {
  const props = {
    ...form.textProps(name),
    surface: 'admin' as const,
    'aria-required': required ? true : undefined,
    ...control,
  }
  return (
    <ProductFieldRow
      name={name}
      label={label}
      required={required}
      error={form.errors[name]}
      wide={wide}
      hint={hint}
      extra={extra}
    >
      {rows ? (
        <Textarea {...props} rows={rows} className="py-2.5" />
      ) : (
        <Input {...props} type={type} min={min} step={step} />
      )}
    </ProductFieldRow>
  )
}
