import ArrowLeft from 'lucide-react/icons/arrow-left'
import type { ReactNode } from 'react'
import { Link } from 'react-router'

/** The top of an admin page: its one h1, a sentence on what it is for, and its main actions. */
export function PageHeader({
  title,
  titleId,
  description,
  children,
}: {
  title: ReactNode
  /** For a form or section named by the heading (aria-labelledby). */
  titleId?: string
  description: ReactNode
  /** The page's actions (links or buttons), beside the title on wide screens. */
  children?: ReactNode
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0">
        <h1
          id={titleId}
          className="text-2xl font-bold tracking-tight text-slate-950 dark:text-white"
        >
          {title}
        </h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</p>
      </div>
      {children ? <div className="flex flex-wrap gap-2">{children}</div> : null}
    </div>
  )
}

/** Back to the list a page belongs to, above its header. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      {children}
    </Link>
  )
}
