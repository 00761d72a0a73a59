import type { FormEvent, ReactNode } from 'react'
import { Form, Link, useSubmit, type SubmitOptions } from 'react-router'
import { confirm, type ConfirmOptions } from '~/components/ui/confirm-dialog'

/**
 * Destructive admin actions are POST forms that ask first. With JavaScript the app's dialog
 * asks, and the form goes with `confirmed=yes`; without it the form goes as it is, the action
 * redirects back with the question in the URL, and the page shows a ConfirmPanel whose button
 * sends `confirmed=yes`. Either way the action decides only on `confirmed`.
 */
export function useConfirmedSubmit(
  options: ConfirmOptions,
  submitOptions: Omit<SubmitOptions, 'method'> = {},
) {
  const submit = useSubmit()
  return async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    if (!(await confirm(options))) return
    const formData = new FormData(form)
    formData.set('confirmed', 'yes')
    void submit(formData, { method: 'post', ...submitOptions })
  }
}

/** The question on the page itself, for a browser without JavaScript. */
export function ConfirmPanel({
  id,
  title,
  children,
  action,
  fields,
  confirmLabel,
  cancelTo,
}: {
  /** The heading's id; the panel is a region named by it. */
  id: string
  title: string
  /** The question. */
  children: ReactNode
  /** Where the confirmed form posts. */
  action: string
  /** The action's hidden fields (intent, id, where to come back to); empty ones are left out. */
  fields: Record<string, string | number | null | undefined>
  confirmLabel: string
  /** Back to the page as it was. */
  cancelTo: string
}) {
  return (
    <section
      aria-labelledby={id}
      className="rounded-2xl border border-rose-300 bg-rose-50 p-4 dark:border-rose-900 dark:bg-rose-950/40"
    >
      <h2 id={id} className="font-semibold text-rose-900 dark:text-rose-200">
        {title}
      </h2>
      <p className="mt-1 text-sm text-rose-900 dark:text-rose-200">{children}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Form method="post" action={action}>
          {Object.entries(fields).map(([name, value]) =>
            value === null || value === undefined || value === '' ? null : (
              <input key={name} type="hidden" name={name} value={value} />
            ),
          )}
          <input type="hidden" name="confirmed" value="yes" />
          <button
            type="submit"
            className="inline-flex h-10 items-center rounded-xl bg-rose-600 px-4 font-semibold text-white hover:bg-rose-700"
          >
            {confirmLabel}
          </button>
        </Form>
        <Link
          to={cancelTo}
          className="inline-flex h-10 items-center rounded-xl border border-slate-300 bg-white px-4 font-medium text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
        >
          Cancel
        </Link>
      </div>
    </section>
  )
}
