import type { ReactNode } from 'react'
import { Card } from '~/components/ui/card'
import { FieldError } from '~/components/ui/field'
import { cn } from '~/components/ui/cn'
import {
  productFormSchema,
  type ProductDeliveryMode,
  type ProductField,
} from '~/lib/validation/product'
import { constraintsOf } from '~/lib/validation/submission'

/** The pieces every section of the product form lays its fields out with. */

/**
 * The text limits the shared schema sets (the category list does not change them), so an
 * input's maxLength is the schema's. Fields whose over-long text gets a message instead
 * (description, the meta fields) carry none: the browser would cut the text silently.
 */
const LIMITS = constraintsOf(productFormSchema([]))
export const maxLengthOf = (name: ProductField) => LIMITS[name]?.maxLength
/** Every field of the shared schema, in its order. */
export const PRODUCT_FIELDS = Object.keys(LIMITS) as ProductField[]

export const fieldId = (name: ProductField | 'newFeature') => `product-${name}`
export const deliveryChoiceId = (mode: ProductDeliveryMode) => `${fieldId('deliveryMode')}-${mode}`

/** One section of the form: a card named by its heading; `grid` lays the fields in two columns. */
export function Section({
  id,
  title,
  description,
  grid = true,
  children,
}: {
  id: string
  title: string
  description?: ReactNode
  grid?: boolean
  children: ReactNode
}) {
  return (
    <Card as="section" padding="responsive" aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold text-slate-950 dark:text-white">
        {title}
      </h2>
      {description ? (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p>
      ) : null}
      {grid ? <div className="mt-5 grid gap-5 md:grid-cols-2">{children}</div> : children}
    </Card>
  )
}

/**
 * A labelled product field. Unlike the shared `Field` it marks required fields with a star
 * kept outside the label (the field's name stays "Title"; aria-required says the rest) and
 * has room right of the label for a counter.
 */
export function ProductFieldRow({
  name,
  label,
  required,
  error,
  hint,
  extra,
  wide,
  children,
}: {
  name: ProductField
  label: string
  required?: boolean
  error?: string | undefined
  hint?: ReactNode
  /** Right of the label (counters). */
  extra?: ReactNode
  wide?: boolean
  children: ReactNode
}) {
  const id = fieldId(name)
  return (
    <div className={cn('space-y-1.5', wide && 'md:col-span-2')}>
      <div className="flex items-baseline justify-between gap-2">
        <p className="text-sm font-medium text-slate-800 dark:text-slate-200">
          <label htmlFor={id}>{label}</label>
          {required ? (
            <span aria-hidden="true" className="text-rose-600">
              {' '}
              *
            </span>
          ) : null}
        </p>
        {extra}
      </div>
      {children}
      {error ? (
        <FieldError id={`${id}-error`} icon>
          {error}
        </FieldError>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
    </div>
  )
}

/** A checkbox or radio with its label and hint on one bordered line. */
export function ChoiceRow({
  id,
  label,
  hint,
  selected = false,
  children,
  after,
}: {
  id: string
  label: string
  hint: ReactNode
  /** Highlights the chosen one of a group. */
  selected?: boolean
  /** The input itself. */
  children: ReactNode
  after?: ReactNode
}) {
  return (
    <div
      className={cn(
        'flex items-start gap-3 rounded-xl border p-3',
        selected
          ? 'border-brand-500 bg-brand-50 dark:border-brand-400 dark:bg-brand-950/40'
          : 'border-slate-200 dark:border-slate-700',
      )}
    >
      {children}
      <div>
        <label htmlFor={id} className="text-sm font-medium text-slate-900 dark:text-white">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
        {after}
      </div>
    </div>
  )
}

export function Counter({ id, length, advised }: { id: string; length: number; advised: number }) {
  const over = length > advised
  return (
    <span
      id={id}
      className={cn(
        'text-xs tabular-nums',
        over
          ? 'font-semibold text-amber-700 dark:text-amber-400'
          : 'text-slate-500 dark:text-slate-400',
      )}
    >
      {length}/{advised}
      {over ? (
        <span className="sr-only"> characters, more than advised</span>
      ) : (
        <span className="sr-only"> characters</span>
      )}
    </span>
  )
}
