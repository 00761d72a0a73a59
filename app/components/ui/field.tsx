import CircleAlert from 'lucide-react/icons/circle-alert'
import { useId, type ReactNode } from 'react'
import { cn } from './cn'

/** What a Field hands its control so the label, hint and error are wired to it. */
export interface FieldControlProps {
  id: string
  'aria-invalid': true | undefined
  'aria-describedby': string | undefined
}

/**
 * A label, one control, a hint and an error. The control is a render function so any input,
 * select or text area can be wired: it receives the id the label points at, aria-invalid
 * while there is an error, and aria-describedby naming the error first, then the hint. The hint
 * stays under the control while an error shows (a secret field's "Leave blank to keep it" is
 * still needed then). Pass Conform's `field.id` as `id` so its focus-on-error finds the control.
 */
export function Field({
  label,
  id: givenId,
  hint,
  errors,
  className,
  labelClassName,
  children,
}: {
  label: ReactNode
  id?: string
  hint?: ReactNode
  /** The field's messages (Conform's `field.errors`); the first is shown. */
  errors?: string[] | string | undefined
  className?: string
  labelClassName?: string
  children: (control: FieldControlProps) => ReactNode
}) {
  const fallbackId = useId()
  const id = givenId ?? fallbackId
  const error = Array.isArray(errors) ? errors[0] : errors
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const describedBy =
    [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined
  return (
    <div className={cn('space-y-1.5', className)}>
      <label
        htmlFor={id}
        className={cn(
          'block text-sm font-medium text-slate-800 dark:text-slate-200',
          labelClassName,
        )}
      >
        {label}
      </label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy,
      })}
      {hint ? <FieldHint id={hintId}>{hint}</FieldHint> : null}
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  )
}

export function FieldHint({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} className="text-xs text-slate-600 dark:text-slate-400">
      {children}
    </p>
  )
}

/** The message under a field; its id goes in the field's aria-describedby. */
export function FieldError({
  id,
  children,
  icon = false,
  className,
}: {
  id?: string
  children: ReactNode
  /** The back office shows an alert icon before the message. */
  icon?: boolean
  className?: string
}) {
  return (
    <p
      id={id}
      className={cn(
        'text-sm font-medium text-rose-700 dark:text-rose-400',
        icon && 'flex items-center gap-1',
        className,
      )}
    >
      {icon ? <CircleAlert aria-hidden="true" className="size-4 shrink-0" /> : null}
      {children}
    </p>
  )
}
