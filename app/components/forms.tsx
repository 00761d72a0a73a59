import { useId, type ReactNode } from 'react'

/**
 * Form primitives shared by every form of the app (sign-in, checkout, account settings,
 * admin pages): one accessible text field and one alert, so labels, error wiring
 * (aria-invalid, aria-describedby) and styles are the same everywhere.
 */
export const fieldClass =
  'block h-11 w-full rounded-xl border border-slate-300 bg-white px-3 text-base text-slate-900 placeholder:text-slate-400 focus:border-brand-500 aria-[invalid=true]:border-rose-500 dark:border-slate-600 dark:bg-slate-900 dark:text-white'

export interface FieldProps<Name extends string> {
  label: string
  name: Name
  type?: 'text' | 'email' | 'password' | 'tel' | 'url' | 'number'
  autoComplete?: string
  inputMode?: 'numeric' | 'email' | 'text' | 'tel' | 'url' | 'decimal'
  defaultValue?: string
  error?: string
  /** Called as the person edits the field, so its error can clear (spec: errors clear on edit). */
  onEdit?: (name: Name) => void
  /** Help shown under the field while it has no error. */
  hint?: string
}

export function Field<Name extends string>({
  label,
  name,
  type = 'text',
  autoComplete,
  inputMode,
  defaultValue,
  error,
  onEdit,
  hint,
}: FieldProps<Name>) {
  const id = useId()
  const describedBy = [error ? `${id}-error` : null, hint && !error ? `${id}-hint` : null]
    .filter(Boolean)
    .join(' ')
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        inputMode={inputMode}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onInput={onEdit ? () => onEdit(name) : undefined}
        className={fieldClass}
      />
      {hint && !error ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-rose-700 dark:text-rose-400">
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** A message about the whole form: an error (announced as an alert) or a success (a status). */
export function FormAlert({
  tone = 'error',
  children,
}: {
  tone?: 'error' | 'success'
  children: ReactNode
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={
        tone === 'error'
          ? 'rounded-xl border border-rose-200 bg-rose-50 px-3 py-2.5 text-sm font-medium text-rose-800 dark:border-rose-900 dark:bg-rose-950/60 dark:text-rose-200'
          : 'rounded-xl border border-emerald-200 bg-emerald-50 px-3 py-2.5 text-sm font-medium text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-200'
      }
    >
      {children}
    </div>
  )
}
