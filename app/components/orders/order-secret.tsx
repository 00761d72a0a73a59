import Eye from 'lucide-react/icons/eye'
import EyeOff from 'lucide-react/icons/eye-off'
import KeyRound from 'lucide-react/icons/key-round'
import { useEffect, useRef } from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { FormAlert } from '~/components/forms'
import { CopyButton } from '~/components/ui/copy-button'
import { useHydrated } from '~/components/ui/use-hydrated'
import { buttonVariants } from '~/components/ui/button-variants'

/**
 * The delivered account details or key, hidden until Reveal is pressed: the buyer's (the order
 * page and the payment result page) and the admin's (the order in the back office). Reveal is
 * a form POST to the page's own action, which logs the reveal with the time, the IP and who
 * asked, and answers with the secret: it works without JavaScript, and the secret never sits
 * in a URL, a cookie or the page's first HTML.
 */
export type RevealedSecret =
  | { kind: 'text'; lines: string[] }
  | { kind: 'fields'; fields: Array<{ name: string; value: string }> }

/** What differs between the buyer's view and the admin's. */
const AUDIENCES = {
  buyer: {
    label: 'Revealed account details',
    hidden:
      'Hidden to keep them safe from anyone looking at your screen. Each time they are shown we note the time and your IP address.',
    revealed: 'Keep these details private: anyone who sees them can use them.',
    copy: true,
    button: buttonVariants({ size: 'wide' }),
  },
  admin: {
    label: 'The delivered item',
    hidden: "Hidden. Revealing it is recorded in the order's timeline, as the buyer's reveals are.",
    revealed: 'This reveal is recorded in the timeline with your name.',
    // The admin reads the item to check it, not to use it.
    copy: false,
    button: buttonVariants({ variant: 'secondary' }),
  },
} as const

/**
 * One line of the secret. Named fields are a term and its value in a <dl> (`name` set); the lines
 * of a text secret have no names, so they are the items of a <ul> (`name` null). Both look the same.
 */
function SecretRow({
  name,
  value,
  copyLabel,
}: {
  name: string | null
  value: string
  /** What the copy button copies, for screen readers; null for no copy button. */
  copyLabel: string | null
}) {
  const hydrated = useHydrated()
  const ref = useRef<HTMLElement>(null)
  const Row = name === null ? 'li' : 'div'
  const Value = name === null ? 'div' : 'dd'
  return (
    <Row className="flex flex-col gap-1.5 border-b border-slate-200 py-3 last:border-0 sm:flex-row sm:items-center sm:gap-3 dark:border-slate-700">
      {name === null ? null : (
        <dt className="text-sm font-medium text-slate-600 sm:w-32 sm:shrink-0 dark:text-slate-300">
          {name}
        </dt>
      )}
      {/* The value on one line where it fits beside Copy; where it does not, Copy wraps under it
          and the value has the whole width; only longer still is the value itself broken: at the
          edge, anywhere, every line as full as the last. Never at a hyphen or space of the
          browser's choosing, where the break would pass for part of the value (or hide one) to
          someone copying it by eye. */}
      <Value className="flex min-w-0 flex-1 flex-wrap items-center gap-2">
        <code
          ref={ref}
          className="min-w-0 flex-auto rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm whitespace-break-spaces wrap-anywhere text-slate-950 select-all [line-break:anywhere] dark:bg-slate-800 dark:text-white"
        >
          {value}
        </code>
        {hydrated && copyLabel !== null ? (
          <span className="ml-auto shrink-0">
            <CopyButton
              value={value}
              label={copyLabel}
              target={() => ref.current}
              className="shrink-0 px-2.5"
            />
          </span>
        ) : null}
      </Value>
    </Row>
  )
}

export function OrderSecret({
  secret,
  error,
  action,
  hideTo,
  audience = 'buyer',
}: {
  /** The secret the action just revealed, or null while hidden. */
  secret: RevealedSecret | null
  /** A message from the reveal action (too many attempts, nothing to reveal). */
  error?: string | null
  /** Where the Reveal form posts (the page's own URL). */
  action: string
  /** Where Hide goes: the same page, freshly loaded, with the secret hidden again. */
  hideTo: string
  audience?: keyof typeof AUDIENCES
}) {
  const words = AUDIENCES[audience]
  const busy = useNavigation().formData?.get('intent') === 'reveal'
  const revealedRef = useRef<HTMLDivElement>(null)
  // Screen readers and keyboards land on what was just revealed.
  useEffect(() => {
    if (secret) revealedRef.current?.focus()
  }, [secret])

  if (!secret) {
    return (
      <div className="space-y-3">
        {error ? <FormAlert>{error}</FormAlert> : null}
        <p className="text-sm text-slate-600 dark:text-slate-300">{words.hidden}</p>
        <Form method="post" action={action} preventScrollReset>
          <input type="hidden" name="intent" value="reveal" />
          <button type="submit" className={words.button} disabled={busy}>
            <Eye aria-hidden="true" className="size-4" />
            {busy ? 'Revealing…' : 'Reveal'}
          </button>
        </Form>
      </div>
    )
  }

  const rows =
    secret.kind === 'fields'
      ? secret.fields.map((field) => ({
          name: field.name,
          value: field.value,
          copyLabel: words.copy ? field.name : null,
        }))
      : secret.lines.map((line, index) => ({
          name: null,
          value: line,
          copyLabel: !words.copy
            ? null
            : secret.lines.length > 1
              ? `line ${index + 1}`
              : 'account details',
        }))
  return (
    <div
      ref={revealedRef}
      tabIndex={-1}
      aria-label={words.label}
      role="region"
      className="space-y-3 rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
    >
      <div className="rounded-xl border border-slate-200 bg-white px-3 dark:border-slate-700 dark:bg-slate-900">
        {secret.kind === 'fields' ? (
          <dl>
            {rows.map((row, index) => (
              <SecretRow key={index} name={row.name} value={row.value} copyLabel={row.copyLabel} />
            ))}
          </dl>
        ) : (
          <ul>
            {rows.map((row, index) => (
              <SecretRow key={index} name={null} value={row.value} copyLabel={row.copyLabel} />
            ))}
          </ul>
        )}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="flex items-start gap-2 text-sm text-slate-600 dark:text-slate-300">
          <KeyRound aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {words.revealed}
        </p>
        <Link
          to={hideTo}
          replace
          preventScrollReset
          className="inline-flex items-center gap-1.5 text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300"
        >
          <EyeOff aria-hidden="true" className="size-4" />
          Hide
        </Link>
      </div>
    </div>
  )
}

/** The server's secret as the component shows it: a line per row, or named fields. */
export function secretView(
  secret:
    | { kind: 'text'; text: string }
    | { kind: 'fields'; fields: Array<{ name: string; value: string }> },
): RevealedSecret {
  if (secret.kind === 'fields') return { kind: 'fields', fields: secret.fields }
  const lines = secret.text.split(/\r?\n/).filter((line) => line.trim() !== '')
  return { kind: 'text', lines: lines.length ? lines : [secret.text] }
}
