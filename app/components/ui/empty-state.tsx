import type Package from 'lucide-react/icons/package'
import type { ReactNode } from 'react'
import { cn } from './cn'

/**
 * What a list shows when it has nothing to show (an admin list, a buyer's orders or wishlist):
 * an icon, what is missing, why or what to do, and a link to the next step.
 */
export function EmptyState({
  icon: Icon,
  title,
  titleAs: Title = 'h2',
  framed = false,
  children,
  action,
}: {
  icon: typeof Package
  title: string
  /** A heading by default; a paragraph where the list's own heading already names it. */
  titleAs?: 'h2' | 'p'
  /** In a dashed card of its own, where it stands alone on the page (the customer area). */
  framed?: boolean
  /** The explanation under the title. */
  children: ReactNode
  /** A link to the next step, if there is one. */
  action?: ReactNode
}) {
  return (
    <div
      className={cn(
        'flex flex-col items-center gap-3 px-4 py-14 text-center',
        framed &&
          'rounded-2xl border border-dashed border-slate-300 bg-white px-6 dark:border-slate-700 dark:bg-slate-900',
      )}
    >
      <Icon aria-hidden="true" className="size-12 text-slate-400" />
      <Title className="text-lg font-semibold text-slate-950 dark:text-white">{title}</Title>
      <p className="max-w-sm text-sm text-slate-600 dark:text-slate-300">{children}</p>
      {action}
    </div>
  )
}
