import type Package from 'lucide-react/icons/package'
import type { ReactNode } from 'react'

/** What an admin list shows when it has nothing to show: why, and what to do next. */
export function EmptyState({
  icon: Icon,
  title,
  titleAs: Title = 'h2',
  children,
  action,
}: {
  icon: typeof Package
  title: string
  /** A heading by default; a paragraph where the list's own heading already names it. */
  titleAs?: 'h2' | 'p'
  /** The explanation under the title. */
  children: ReactNode
  /** A link to the next step, if there is one. */
  action?: ReactNode
}) {
  return (
    <div className="flex flex-col items-center gap-3 px-4 py-14 text-center">
      <Icon aria-hidden="true" className="size-12 text-slate-400" />
      <Title className="text-lg font-semibold text-slate-950 dark:text-white">{title}</Title>
      <p className="max-w-sm text-sm text-slate-600 dark:text-slate-300">{children}</p>
      {action}
    </div>
  )
}
