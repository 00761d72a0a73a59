import FlaskConical from 'lucide-react/icons/flask-conical'
import LockKeyhole from 'lucide-react/icons/lock-keyhole'
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Fragment, useCallback, useEffect, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { FormErrors, TextField, useAppForm } from '~/components/forms'
import { Button } from '~/components/ui/button'
import { buttonVariants } from '~/components/ui/button-variants'
import { cn } from '~/components/ui/cn'
import { useHydrated } from '~/components/ui/use-hydrated'
import { checkoutSchema, GATEWAY_MODE_FIELD } from '~/lib/validation/checkout'

/**
 * The payment form (spec "Payment dialog"): name, e-mail and phone, checked in the browser
 * with the server's own schema, then posted to the checkout action, which creates the order
 * and answers with the signed Paytm form. Used by /checkout/{slug} and the product page's
 * payment dialog (it submits through a fetcher to `action`). Works without JavaScript: the
 * page renders the action's answer (`result`) after a plain form post.
 */
export interface PaymentRedirectData {
  kind: 'form'
  action: string
  fields: Record<string, string>
}

/** Razorpay's Checkout: its script, and the options for `new Razorpay(options).open()`. */
export interface RazorpayLaunchData {
  kind: 'razorpay'
  script: string
  options: Record<string, unknown>
}

/** A gateway's hosted payment page, reached by following its address (PhonePe's redirectUrl). */
export interface PageRedirectData {
  kind: 'redirect'
  url: string
  /** The gateway's name, for the buyer. */
  gateway: string
}

/** A gateway the buyer may pick when more than one is active. */
export interface GatewayChoice {
  id: string
  label: string
  testMode: boolean
}

export type CheckoutResult =
  | {
      ok: false
      /** Conform's reply when the form itself was wrong. */
      result?: SubmissionResult<string[]>
      /** Why the payment could not start (stock, gateway), with the values to show again. */
      formError?: string
      values?: Partial<Record<'name' | 'email' | 'phone', string>>
      /** Gateways that could not start the payment in this attempt, and the one to offer next. */
      unavailable?: string[]
      gateway?: string
    }
  | { ok: true; orderId: string; payment: PaymentData }

export type PaymentData = PaymentRedirectData | RazorpayLaunchData | PageRedirectData

/** The large Pay button (also the Continue button of the redirect form). */
export const payButtonClass = cn(
  buttonVariants({ variant: 'primary', block: true }),
  'h-12 text-base font-bold',
)

/** "Paytm", "Paytm and Razorpay", "Paytm, Razorpay and PhonePe": the shop writes Indian English. */
const gatewayList = new Intl.ListFormat('en-IN', { type: 'conjunction' })

/**
 * Shown wherever the gateways named (Paytm by default) take no real money: built-in simulators,
 * or, for those also named in `sandboxes`, the gateway's own test environment.
 */
export function TestModeBanner({
  gateways = ['Paytm'],
  sandboxes = [],
}: {
  gateways?: readonly string[]
  sandboxes?: readonly string[]
}) {
  const simulators = gateways.filter((name) => !sandboxes.includes(name))
  const where = [
    ...(simulators.length
      ? [
          `the built-in ${gatewayList.format(simulators)} ${simulators.length > 1 ? 'simulators' : 'simulator'}`,
        ]
      : []),
    ...(sandboxes.length
      ? [
          `the test ${sandboxes.length > 1 ? 'environments' : 'environment'} of ${gatewayList.format(sandboxes)}`,
        ]
      : []),
  ]
  return (
    <p
      role="note"
      className="flex items-start gap-2 rounded-xl border border-amber-300 bg-amber-50 px-3 py-2.5 text-sm font-medium text-amber-900 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-100"
    >
      <FlaskConical aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>
        <strong>Test mode</strong>: payments go to {gatewayList.format(where)}. No real money is
        charged.
      </span>
    </p>
  )
}

/**
 * Sends the browser to the gateway: a form of the signed fields that submits itself once the
 * page runs JavaScript, with a visible Continue button for browsers without it.
 */
export function PaymentRedirect({ payment }: { payment: PaymentData }) {
  if (payment.kind === 'razorpay') return <RazorpayLaunch payment={payment} />
  if (payment.kind === 'redirect') return <PageRedirect payment={payment} />
  return <FormRedirect payment={payment} />
}

type RazorpayConstructor = new (options: Record<string, unknown>) => { open(): void }

/** Razorpay's Checkout is its script: a browser without JavaScript cannot pay through it. */
const RAZORPAY = 'razorpay'

/**
 * Opens Razorpay's Checkout: loads checkout.js (Razorpay's, or the simulator's stand-in at the
 * same path) and opens it for our Razorpay order; Checkout posts the result to our callback.
 * Without JavaScript there is nothing to open: the page says so instead of a Continue button
 * that does nothing.
 */
function RazorpayLaunch({ payment }: { payment: RazorpayLaunchData }) {
  const hydrated = useHydrated()
  const [failed, setFailed] = useState(false)
  const open = useCallback(() => {
    const Razorpay = (window as unknown as { Razorpay?: RazorpayConstructor }).Razorpay
    if (!Razorpay) return setFailed(true)
    new Razorpay({ ...payment.options, redirect: true }).open()
  }, [payment])
  useEffect(() => {
    const script = document.createElement('script')
    script.src = payment.script
    script.async = true
    script.onload = open
    script.onerror = () => setFailed(true)
    document.body.appendChild(script)
    return () => script.remove()
  }, [payment, open])
  return (
    <div className="space-y-4">
      <p
        role={failed ? 'alert' : 'status'}
        className="text-center text-slate-700 dark:text-slate-200"
      >
        {failed
          ? 'Razorpay Checkout could not be loaded. Check your connection and try again.'
          : 'Opening Razorpay to pay securely…'}
      </p>
      <noscript>
        <p className="text-center text-sm text-slate-700 dark:text-slate-200">
          Paying through Razorpay needs JavaScript. Turn JavaScript on and try again, or go back and
          choose another way to pay.
        </p>
      </noscript>
      {hydrated ? (
        <button type="button" className={payButtonClass} onClick={open}>
          <LockKeyhole aria-hidden="true" className="size-4" />
          Continue
        </button>
      ) : null}
    </div>
  )
}

/**
 * Goes to the gateway's payment page (an address the gateway made for this order, given by our
 * server), with a visible link for browsers without JavaScript.
 */
function PageRedirect({ payment }: { payment: PageRedirectData }) {
  useEffect(() => {
    window.location.assign(payment.url)
  }, [payment])
  return (
    <div className="space-y-4">
      <p role="status" className="text-center text-slate-700 dark:text-slate-200">
        Taking you to {payment.gateway} to pay securely…
      </p>
      <a href={payment.url} className={payButtonClass}>
        <LockKeyhole aria-hidden="true" className="size-4" />
        Continue
      </a>
    </div>
  )
}

function FormRedirect({ payment }: { payment: PaymentRedirectData }) {
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
  /** The price in paise that amountText shows, sent with the form (a changed price is refused). */
  price?: number
  defaults?: { name?: string; email?: string; phone?: string }
  /** The action's answer after a plain form post (no JavaScript). */
  result?: CheckoutResult
  /** The active gateways in the shop's order; a choice is shown only for more than one. */
  gateways?: readonly GatewayChoice[]
  /** The gateway selected at first (the buyer's last choice). */
  selected?: string | null
  /**
   * Takes over the payment once the order exists (the product page's dialog closes itself, so
   * that Razorpay's own modal is not under its focus trap); else the form is replaced by the
   * redirect to the gateway.
   */
  onPaymentStart?: (payment: PaymentData) => void
}

export function CheckoutForm({
  action,
  amountText,
  price,
  defaults,
  result,
  gateways = [],
  selected,
  onPaymentStart,
}: CheckoutFormProps) {
  const fetcher = useFetcher<CheckoutResult>()
  const current = fetcher.data ?? result
  const failed = current && !current.ok ? current : undefined
  const [form, fields] = useAppForm({
    schema: checkoutSchema,
    lastResult: failed?.result,
    defaultValue: { ...defaults, ...failed?.values },
  })

  const started = current?.ok ? current.payment : null
  useEffect(() => {
    if (started && onPaymentStart) onPaymentStart(started)
  }, [started, onPaymentStart])

  if (started) return onPaymentStart ? null : <PaymentRedirect payment={started} />

  const busy = fetcher.state !== 'idle'
  const errors = form.errors ?? (failed?.formError ? [failed.formError] : undefined)
  return (
    <fetcher.Form
      method="post"
      action={action}
      // A successful submission sends the browser on to the gateway, and a refused one (4xx/5xx)
      // changes nothing the page loaded: no loader (the root's included) needs to run again.
      defaultShouldRevalidate={false}
      {...getFormProps(form)}
      className="space-y-4"
    >
      <FormErrors id={form.errorId} errors={errors} />
      {/* The price next to Pay: a price changed since is refused, not charged. */}
      {price !== undefined ? <input type="hidden" name="shownPrice" value={price} /> : null}
      <PaymentChoice gateways={gateways} selected={selected} failed={failed} />
      <TextField label="Full name" field={fields.name} autoComplete="name" />
      <TextField
        label="Email"
        field={fields.email}
        type="email"
        autoComplete="email"
        inputMode="email"
        hint="Your account details are sent to this address."
      />
      <TextField
        label="Phone number"
        field={fields.phone}
        type="tel"
        autoComplete="tel-national"
        inputMode="numeric"
        hint="10-digit mobile number, for WhatsApp delivery and support."
      />
      <Button type="submit" block pending={busy} className="h-12 text-base font-bold">
        <LockKeyhole aria-hidden="true" className="size-4" />
        {busy ? 'Processing...' : `Pay ${amountText}`}
      </Button>
    </fetcher.Form>
  )
}

interface PaymentChoiceProps {
  gateways: readonly GatewayChoice[]
  /** The buyer's last choice. */
  selected?: string | null
  /** The attempt that could not start: the gateways that failed in it, and the one to offer next. */
  failed?: { unavailable?: readonly string[]; gateway?: string }
}

/**
 * The way to pay as a form sends it (checkout, payment links): the gateways that already failed
 * in this attempt, and "Pay with" when the shop offers more than one. A gateway that could not
 * start the payment is offered no more, and the next one is checked.
 */
export function PaymentChoice({ gateways, selected, failed }: PaymentChoiceProps) {
  const hydrated = useHydrated()
  const unavailable = failed?.unavailable ?? []
  const offered = gateways.filter((g) => !unavailable.includes(g.id))
  const chosen = failed?.gateway ?? selected ?? offered[0]?.id
  // Razorpay needs JavaScript: the server's HTML (all a browser without it gets) checks another
  // way to pay when there is one, and GatewayPicker checks the buyer's own choice once it runs.
  const withoutScript =
    chosen === RAZORPAY ? (offered.find((g) => g.id !== RAZORPAY)?.id ?? chosen) : chosen
  return (
    <>
      {unavailable.map((id) => (
        <input key={id} type="hidden" name="unavailable" value={id} />
      ))}
      {/* The mode each way to pay was shown in: a switch since is refused, not charged. */}
      {gateways.map((g) => (
        <input
          key={g.id}
          type="hidden"
          name={GATEWAY_MODE_FIELD}
          value={`${g.id}:${g.testMode ? 'test' : 'live'}`}
        />
      ))}
      {gateways.length > 1 ? (
        <GatewayPicker
          // A failed attempt offers the next way to pay: a new picker with it checked.
          key={`${chosen}:${unavailable.join()}`}
          gateways={gateways}
          unavailable={unavailable}
          chosen={chosen}
          withoutScript={hydrated ? chosen : withoutScript}
        />
      ) : gateways[0] ? (
        <>
          {/* The one way to pay this product, named so the server does not pick another. */}
          <input type="hidden" name="gateway" value={failed?.gateway ?? gateways[0].id} />
          {gateways[0].id === RAZORPAY ? <NeedsJavaScript alone /> : null}
        </>
      ) : null}
    </>
  )
}

/** Said only to a browser without JavaScript, beside Razorpay (see RazorpayLaunch). */
function NeedsJavaScript({ alone = false }: { alone?: boolean }) {
  return (
    <noscript>
      <p className="text-sm text-amber-900 dark:text-amber-100">
        {alone
          ? 'Paying through Razorpay needs JavaScript; turn JavaScript on to pay.'
          : 'Paying through Razorpay needs JavaScript; choose another way to pay or turn JavaScript on.'}
      </p>
    </noscript>
  )
}

/**
 * "Pay with": one radio per active gateway, in the shop's order. The page's server render checks
 * `withoutScript`; once the page runs, `chosen` is checked instead, unless the buyer has picked a
 * way to pay in the meantime (a radio checked or focused before hydration is theirs to keep).
 */
function GatewayPicker({
  gateways,
  unavailable,
  chosen,
  withoutScript,
}: {
  gateways: readonly GatewayChoice[]
  unavailable: readonly string[]
  chosen?: string
  withoutScript?: string
}) {
  // Fixed for the picker's life, so that hydration changes nothing the buyer may have touched.
  const [initial] = useState(withoutScript)
  const ref = useRef<HTMLFieldSetElement>(null)
  useEffect(() => {
    const fieldset = ref.current
    if (!fieldset || !chosen || initial === chosen) return
    if (fieldset.contains(document.activeElement)) return
    const radios = [...fieldset.querySelectorAll<HTMLInputElement>('input[name="gateway"]')]
    if (radios.find((radio) => radio.checked)?.value !== initial) return
    const mine = radios.find((radio) => radio.value === chosen && !radio.disabled)
    if (mine) mine.checked = true
  }, [initial, chosen])
  return (
    <fieldset ref={ref} className="space-y-2">
      <legend className="mb-1 text-sm font-semibold text-slate-900 dark:text-white">
        Pay with
      </legend>
      {gateways.map((gateway) => {
        const off = unavailable.includes(gateway.id)
        const label = (
          <label
            className={cn(
              'flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-slate-200 px-3 py-2 text-sm font-medium text-slate-900 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 dark:border-slate-700 dark:text-slate-100 dark:has-[:checked]:border-brand-400 dark:has-[:checked]:bg-brand-950/40',
              off && 'cursor-not-allowed opacity-60',
            )}
          >
            <input
              type="radio"
              name="gateway"
              value={gateway.id}
              defaultChecked={gateway.id === initial}
              disabled={off}
              className="size-5 shrink-0 accent-brand-600"
            />
            <span>
              {gateway.label}
              {off ? ' (not available right now)' : ''}
              {gateway.testMode ? ' · test mode' : ''}
            </span>
          </label>
        )
        return (
          <Fragment key={gateway.id}>
            {label}
            {gateway.id === RAZORPAY && !off ? <NeedsJavaScript /> : null}
          </Fragment>
        )
      })}
    </fieldset>
  )
}
