import { getInputProps } from '@conform-to/react'
import type { ReactNode } from 'react'
import type { TextField } from '~/components/forms'
import { FieldError } from '~/components/ui/field'
import { Checkbox } from '~/components/ui/input'

/** The admin Settings page's Conform fields by name (app/routes/admin/settings.tsx). */
export type SettingsFields = Record<string, Parameters<typeof TextField>[0]['field']>

/** A titled part of a Settings tab. */
export function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4 border-t border-slate-200 pt-4 first-of-type:border-t-0 first-of-type:pt-0 dark:border-slate-800">
      <legend className="text-sm font-bold uppercase tracking-wide text-slate-500 dark:text-slate-400">
        {title}
      </legend>
      {children}
    </fieldset>
  )
}

/**
 * A checkbox with its label and what it does; Conform gives its name, state and errors. As with
 * the other fields (Field, app/components/ui/field.tsx), a message makes the checkbox invalid and
 * is named by its aria-describedby, before the hint, which stays shown.
 */
export function ToggleField({
  field,
  label,
  hint,
}: {
  field: SettingsFields[string]
  label: string
  hint: ReactNode
}) {
  const { key, ...props } = getInputProps(field, { type: 'checkbox', ariaAttributes: false })
  const error = field.errors?.[0]
  const errorId = `${field.id}-error`
  const hintId = `${field.id}-hint`
  return (
    <div className="flex items-start gap-3">
      <Checkbox
        key={key}
        {...props}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${errorId} ${hintId}` : hintId}
        className="mt-0.5 size-5 shrink-0"
      />
      <div className="min-w-0">
        <label htmlFor={field.id} className="text-sm font-semibold text-slate-900 dark:text-white">
          {label}
        </label>
        <p id={hintId} className="text-sm text-slate-600 dark:text-slate-300">
          {hint}
        </p>
        {error ? <FieldError id={errorId}>{error}</FieldError> : null}
      </div>
    </div>
  )
}
