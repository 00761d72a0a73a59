import type { ReactNode } from 'react'
import { Form, Link } from 'react-router'
import { Button } from './button'
import { buttonVariants } from './button-variants'
import { cn } from './cn'

/** The question on the page itself, for a browser without JavaScript. */
export function ConfirmPanel({
  id,
  title,
  children,
  action,
  fields,
  confirmLabel,
  cancelTo,
  cancelLabel = 'Cancel',
  destructive = true,
  preventScrollReset,
  headingLevel = 2,
}: {
  /** The heading's id; the panel is a region named by it. */
  id: string
  title: string
  /** The heading's level: one below the heading of the section the panel is shown in. */
  headingLevel?: 2 | 3 | 4 | 5
  /** The question. */
  children: ReactNode
  /** Where the confirmed form posts. */
  action: string
  /** The action's hidden fields (intent, id, where to come back to); empty ones are left out. */
  fields: Record<string, string | number | null | undefined>
  confirmLabel: string
  /** Back to the page as it was. */
  cancelTo: string
  /** The way back's label, when "Cancel" would be read as the action (e.g. "Keep link"). */
  cancelLabel?: string
  /** A red question and button (the default), or the shop's colour for a question that undoes nothing. */
  destructive?: boolean
  preventScrollReset?: boolean
}) {
  const Heading = `h${headingLevel}` as const
  return (
    <section
      aria-labelledby={id}
      className={cn(
        'rounded-2xl border p-4',
        destructive
          ? 'border-rose-300 bg-rose-50 text-rose-900 dark:border-rose-900 dark:bg-rose-950/40 dark:text-rose-200'
          : 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100',
      )}
    >
      <Heading id={id} className="font-semibold">
        {title}
      </Heading>
      <p className="mt-1 text-sm">{children}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Form method="post" action={action} preventScrollReset={preventScrollReset}>
          {Object.entries(fields).map(([name, value]) =>
            value === null || value === undefined || value === '' ? null : (
              <input key={name} type="hidden" name={name} value={value} />
            ),
          )}
          <input type="hidden" name="confirmed" value="yes" />
          <Button type="submit" variant={destructive ? 'danger' : 'primary'} size="sm">
            {confirmLabel}
          </Button>
        </Form>
        <Link to={cancelTo} className={buttonVariants({ variant: 'secondary', size: 'sm' })}>
          {cancelLabel}
        </Link>
      </div>
    </section>
  )
}
