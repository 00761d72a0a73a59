import type Package from 'lucide-react/icons/package'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { buttonVariants } from '~/components/ui/button-variants'

/**
 * What an admin page shows instead of itself (inside the admin shell): a missing product or
 * order, or an error, with the way back to its list.
 */
export function AdminErrorPage({
  icon: Icon,
  title,
  children,
  backTo,
  backLabel,
  footer,
}: {
  icon?: typeof Package
  title: string
  /** What happened, in plain words. */
  children: ReactNode
  backTo: string
  backLabel: string
  /** Anything under the way back (e.g. a countdown). */
  footer?: ReactNode
}) {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-4 py-16 text-center">
      {Icon ? <Icon aria-hidden="true" className="size-14 text-slate-400" /> : null}
      <h1 className="text-2xl font-bold text-slate-950 dark:text-white">{title}</h1>
      <p className="text-slate-600 dark:text-slate-300">{children}</p>
      <Link to={backTo} className={buttonVariants({ size: 'wide' })}>
        {backLabel}
      </Link>
      {footer}
    </div>
  )
}
