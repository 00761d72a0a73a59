import FlaskConical from 'lucide-react/icons/flask-conical'
import LockKeyhole from 'lucide-react/icons/lock-keyhole'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useFetcher } from 'react-router'
import { Field, FormAlert } from '~/components/forms'
import { parseCheckoutForm, type CheckoutFieldErrors } from '~/lib/validation/checkout'

/**
 * The payment form (spec "Payment dialog"): name, e-mail and phone, checked in the browser
 * with the server's own schema, then posted to the checkout action, which creates the order
 * and answers with the signed Paytm form. Used by /checkout/{slug} and reusable in a dialog on
 * the product page (it submits through a fetcher to `action`). Works without JavaScript: the
 * page renders the action's answer (`result`) after a plain form post.
 */
export interface PaymentRedirectData {
  action: string
  fields: Record<string, string>
}

export type CheckoutResult =
  | {
      ok: false
      errors?: CheckoutFieldErrors
      formError?: string
      values?: Partial<Record<'name' | 'email' | 'phone', string>>
    }
  | { ok: true; orderId: string; payment: PaymentRedirectData }

export const payButtonClass =
  'inline-flex h-12 w-full items-center justify-center gap-2 rounded-xl bg-brand-600 px-4 text-base font-bold text-white shadow-sm hover:bg-brand-700 disabled:cursor-wait disabled:opacity-70'

/** Shown wherever the built-in simulator stands in for Paytm. */
export function TestModeBanner() {
  return (
    <p
      role="note"
      className="flex items-start gap-2 rounded-xl border border-amber-300 bg-amber-50 px-3 py-2.5 text-sm font-medium text-amber-900 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-100"
    >
      <FlaskConical aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>
        <strong>Test mode</strong>: payments go to the built-in Paytm simulator. No real money is
        charged.
      </span>
    </p>
  )
}

/**
 * Sends the browser to the gateway: a form of the signed fields that submits itself once the
 * page runs JavaScript, with a visible Continue button for browsers without it.
 */
export function PaymentRedirect({ payment }: { payment: PaymentRedirectData }) {
  const formRef = useRef<HTMLFormElement>(null)
  useEffect(() => {
    formRef.current?.submit()
  }, [payment])
  return (
    <form ref={formRef} method="post" action={payment.action} className="space-y-4">
      {Object.entries(payment.fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <p role="status" className="text-center text-slate-700 dark:text-slate-200">
        Taking you to Paytm to pay securely…
      </p>
      <button type="submit" className={payButtonClass}>
        <LockKeyhole aria-hidden="true" className="size-4" />
        Continue
      </button>
    </form>
  )
}

export interface CheckoutFormProps {
  /** Where the form posts: /checkout/{slug}. */
  action: string
  /** The price as text (from the server), for the button. */
  amountText: string
  defaults?: { name?: string; email?: string; phone?: string }
  /** The action's answer after a plain form post (no JavaScript). */
  result?: CheckoutResult
}

export function CheckoutForm({ action, amountText, defaults, result }: CheckoutFormProps) {
  const fetcher = useFetcher<CheckoutResult>()
  const current = fetcher.data ?? result
  const [errors, setErrors] = useState<CheckoutFieldErrors>(
    current && !current.ok ? (current.errors ?? {}) : {},
  )
  const [formError, setFormError] = useState<string | undefined>(
    current && !current.ok ? current.formError : undefined,
  )
  // A new answer from the server replaces the messages (state adjusted during render, not in an effect).
  const [answered, setAnswered] = useState(current)
  if (answered !== current) {
    setAnswered(current)
    setErrors(current && !current.ok ? (current.errors ?? {}) : {})
    setFormError(current && !current.ok ? current.formError : undefined)
  }

  if (current?.ok) return <PaymentRedirect payment={current.payment} />

  const values = current && !current.ok ? current.values : undefined
  const busy = fetcher.state !== 'idle'
  const clear = (name: 'name' | 'email' | 'phone') =>
    setErrors((was) => (was[name] ? { ...was, [name]: undefined } : was))
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const parsed = parseCheckoutForm(new FormData(event.currentTarget))
    setFormError(undefined)
    if (!parsed.errors) return
    event.preventDefault()
    setErrors(parsed.errors)
    const first = (['name', 'email', 'phone'] as const).find((name) => parsed.errors[name])
    if (first) event.currentTarget.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus()
  }

  return (
    <fetcher.Form
      method="post"
      action={action}
      noValidate
      onSubmit={onSubmit}
      className="space-y-4"
    >
      {formError ? <FormAlert>{formError}</FormAlert> : null}
      <Field
        label="Full name"
        name="name"
        type="text"
        autoComplete="name"
        defaultValue={values?.name ?? defaults?.name}
        error={errors.name}
        onEdit={clear}
      />
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        inputMode="email"
        defaultValue={values?.email ?? defaults?.email}
        error={errors.email}
        onEdit={clear}
        hint="Your account details are sent to this address."
      />
      <Field
        label="Phone number"
        name="phone"
        type="tel"
        autoComplete="tel-national"
        inputMode="numeric"
        defaultValue={values?.phone ?? defaults?.phone}
        error={errors.phone}
        onEdit={clear}
        hint="10-digit mobile number, for WhatsApp delivery and support."
      />
      <button type="submit" disabled={busy} className={payButtonClass}>
        <LockKeyhole aria-hidden="true" className="size-4" />
        {busy ? 'Processing...' : `Pay ${amountText}`}
      </button>
    </fetcher.Form>
  )
}
