import {
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from '@conform-to/react'
import type { ReactNode } from 'react'
import type { z } from 'zod'
import { Field } from '~/components/ui/field'
import { Input, Select, Textarea, type ControlVariants } from '~/components/ui/input'
import { cn } from '~/components/ui/cn'
import { constraintsOf, parseSubmission } from '~/lib/validation/submission'

/**
 * The one way a form is built: Conform with the form's Zod schema (the same one the action
 * parses), the schema's limits as HTML constraints, and the UI primitives for fields. The
 * form checks itself when it is submitted and re-checks a field as it is edited, so a message
 * goes away as soon as the field is right; without JavaScript the action's answer
 * (`submission.reply()`) shows the same messages.
 */
export function useAppForm<Schema extends z.ZodType>({
  schema,
  lastResult,
  id,
  defaultValue,
  shouldValidate = 'onSubmit',
  checkInBrowser = true,
}: {
  schema: Schema
  lastResult?: SubmissionResult<string[]> | null
  id?: string
  defaultValue?: Record<string, unknown>
  /** 'onInput' checks a field as soon as it changes (a chosen file), before any submit. */
  shouldValidate?: 'onSubmit' | 'onInput'
  /**
   * false leaves every check to the action (a form whose answer always carries a message about
   * the whole form, such as the gateways' "Failed to save"); the schema still sets the limits.
   */
  checkInBrowser?: boolean
}) {
  return useForm<z.input<Schema> & Record<string, unknown>, z.output<Schema>, string[]>({
    id,
    lastResult,
    // Conform's typing wants the form's own value type; ours is the schema's input.
    defaultValue: defaultValue as never,
    constraint: constraintsOf(schema),
    shouldValidate,
    shouldRevalidate: 'onInput',
    ...(checkInBrowser
      ? { onValidate: ({ formData }: { formData: FormData }) => parseSubmission(formData, schema) }
      : {}),
  })
}

type AnyField = FieldMetadata<unknown, Record<string, unknown>, string[]>

/** A labelled text input wired to a Conform field (id, name, value, limits, errors). */
export function TextField({
  label,
  field,
  type = 'text',
  autoComplete,
  inputMode,
  placeholder,
  hint,
  surface,
  className,
  inputClassName,
  disabled,
}: {
  label: ReactNode
  field: AnyField
  type?: 'text' | 'email' | 'password' | 'tel' | 'url' | 'number'
  autoComplete?: string
  inputMode?: 'numeric' | 'email' | 'text' | 'tel' | 'url' | 'decimal'
  placeholder?: string
  /** Help shown under the field while it has no error. */
  hint?: ReactNode
  surface?: ControlVariants['surface']
  className?: string
  inputClassName?: string
  disabled?: boolean
}) {
  const { key, ...props } = getInputProps(field, { type, ariaAttributes: false })
  return (
    <Field label={label} id={field.id} hint={hint} errors={field.errors} className={className}>
      {(control) => (
        <Input
          key={key}
          {...props}
          {...control}
          autoComplete={autoComplete}
          inputMode={inputMode}
          placeholder={placeholder}
          disabled={disabled}
          surface={surface}
          className={inputClassName}
        />
      )}
    </Field>
  )
}

/** A labelled text area wired to a Conform field; its maxLength comes from the schema. */
export function TextareaField({
  label,
  field,
  rows = 4,
  placeholder,
  hint,
  surface,
  className,
  textareaClassName,
  raw = false,
}: {
  label: ReactNode
  field: AnyField
  /** Text taken as typed (keys, codes): no spelling check, capitals or autofill. */
  raw?: boolean
  rows?: number
  placeholder?: string
  hint?: ReactNode
  surface?: ControlVariants['surface']
  className?: string
  textareaClassName?: string
}) {
  const { key, ...props } = getTextareaProps(field, { ariaAttributes: false })
  return (
    <Field label={label} id={field.id} hint={hint} errors={field.errors} className={className}>
      {(control) => (
        <Textarea
          key={key}
          {...props}
          {...control}
          rows={rows}
          placeholder={placeholder}
          {...(raw ? { spellCheck: false, autoComplete: 'off', autoCapitalize: 'none' } : {})}
          surface={surface}
          className={textareaClassName}
        />
      )}
    </Field>
  )
}

/** A labelled select wired to a Conform field; the options are the caller's children. */
export function SelectField({
  label,
  field,
  hint,
  surface,
  className,
  selectClassName,
  children,
}: {
  label: ReactNode
  field: AnyField
  hint?: ReactNode
  surface?: ControlVariants['surface']
  className?: string
  selectClassName?: string
  children: ReactNode
}) {
  const { key, ...props } = getSelectProps(field, { ariaAttributes: false })
  return (
    <Field label={label} id={field.id} hint={hint} errors={field.errors} className={className}>
      {(control) => (
        <Select key={key} {...props} {...control} surface={surface} className={selectClassName}>
          {children}
        </Select>
      )}
    </Field>
  )
}

/** A message about the whole form: an error (announced as an alert) or a success (a status). */
export function FormAlert({
  tone = 'error',
  id,
  className,
  children,
}: {
  tone?: 'error' | 'success'
  id?: string
  className?: string
  children: ReactNode
}) {
  return (
    <div
      id={id}
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn(
        'rounded-xl border px-3 py-2.5 text-sm font-medium',
        tone === 'error'
          ? 'border-rose-200 bg-rose-50 text-rose-800 dark:border-rose-900 dark:bg-rose-950/60 dark:text-rose-200'
          : 'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-200',
        className,
      )}
    >
      {children}
    </div>
  )
}

/** The form's own errors (Conform's `form.errors`: what the action said about the whole form). */
export function FormErrors({ id, errors }: { id: string; errors: string[] | undefined }) {
  const first = errors?.[0]
  return first ? <FormAlert id={id}>{first}</FormAlert> : null
}
