import { cva, type VariantProps } from 'class-variance-authority'
import type Package from 'lucide-react/icons/package'
import type { ReactNode } from 'react'

/**
 * Small status pills (a product's state, a stock item's, an order's). The tone carries the
 * meaning; each caller maps its own statuses to tones.
 */
export const badgeVariants = cva(
  'inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold',
  {
    variants: {
      tone: {
        success: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
        info: 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300',
        warning: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
        danger: 'bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-300',
        neutral: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
        muted: 'bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
        violet: 'bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-300',
        orange: 'bg-orange-100 text-orange-900 dark:bg-orange-950 dark:text-orange-200',
      },
    },
  },
)

export type BadgeTone = NonNullable<VariantProps<typeof badgeVariants>['tone']>

export function Badge({
  tone,
  icon: Icon,
  title,
  children,
}: {
  tone: BadgeTone
  icon?: typeof Package
  /** A longer explanation, shown on hover. */
  title?: string
  children: ReactNode
}) {
  return (
    <span title={title} className={badgeVariants({ tone })}>
      {Icon ? <Icon aria-hidden="true" className="size-3" /> : null}
      {children}
    </span>
  )
}
