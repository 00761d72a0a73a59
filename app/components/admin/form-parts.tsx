import CircleAlert from 'lucide-react/icons/circle-alert'
import type { ReactNode } from 'react'

/**
 * Pieces of the back office's larger forms (the product form, the stock import), which lay
 * out their own fields: the input style, a field's error and the form's error.
 */
export const adminInputClass =
  'block w-full rounded-xl border border-slate-300 bg-white px-3 text-base text-slate-900 placeholder:text-slate-400 aria-[invalid=true]:border-rose-500 dark:border-slate-600 dark:bg-slate-950 dark:text-white'

/** The message under a field; its id goes in the field's aria-describedby. */
export function FieldError({
  id,
  children,
  className = '',
}: {
  id: string
  children: ReactNode
  className?: string
}) {
  return (
    <p
      id={id}
      className={`flex items-center gap-1 text-sm font-medium text-rose-700 dark:text-rose-400 ${className}`}
    >
      <CircleAlert aria-hidden="true" className="size-4 shrink-0" />
      {children}
    </p>
  )
}

/** A problem with the whole form, announced at once. */
export function FormError({ children }: { children: ReactNode }) {
  return (
    <div
      role="alert"
      className="flex items-start gap-2 rounded-xl border border-rose-300 bg-rose-50 p-3 text-sm font-medium text-rose-900 dark:border-rose-900 dark:bg-rose-950/50 dark:text-rose-200"
    >
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      {children}
    </div>
  )
}
