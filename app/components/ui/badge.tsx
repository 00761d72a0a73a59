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

/**
 * The outlined pills the buyer's pages use (an order's status, a problem report's), also where
 * the back office shows what a buyer sees (a review shown or hidden).
 */
const pillVariants = cva(
  'inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset',
  {
    variants: {
      tone: {
        success:
          'bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-950/70 dark:text-emerald-200 dark:ring-emerald-400/30',
        warning:
          'bg-amber-50 text-amber-900 ring-amber-600/25 dark:bg-amber-950/70 dark:text-amber-100 dark:ring-amber-400/30',
        neutral:
          'bg-slate-100 text-slate-800 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-400/30',
        danger:
          'bg-rose-50 text-rose-800 ring-rose-600/20 dark:bg-rose-950/70 dark:text-rose-200 dark:ring-rose-400/30',
      },
    },
  },
)

export type PillTone = NonNullable<VariantProps<typeof pillVariants>['tone']>

export function Pill({ tone, children }: { tone: PillTone; children: ReactNode }) {
  return <span className={pillVariants({ tone })}>{children}</span>
}
