import { cva, type VariantProps } from 'class-variance-authority'
import type { HTMLAttributes } from 'react'
import { cn } from './cn'

/** The rounded panel pages and forms sit in. */
export const cardVariants = cva(
  'rounded-2xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900',
  {
    variants: {
      padding: { none: '', md: 'p-5', responsive: 'p-4 sm:p-6', lg: 'p-6 shadow-sm sm:p-8' },
    },
    defaultVariants: { padding: 'md' },
  },
)

export function Card({
  as: Element = 'div',
  padding,
  className,
  ...props
}: HTMLAttributes<HTMLElement> &
  VariantProps<typeof cardVariants> & {
    /** A card that is a page region (named by its heading) renders as a section. */
    as?: 'div' | 'section'
  }) {
  return <Element className={cn(cardVariants({ padding }), className)} {...props} />
}

/**
 * A card of rows parted by lines, as a list (a customer's orders, their subscriptions); rows
 * are padded by the caller and stay inside the rounded corners.
 */
export function CardList({ className, ...props }: HTMLAttributes<HTMLUListElement>) {
  return (
    <ul
      className={cn(
        cardVariants({ padding: 'none' }),
        'divide-y divide-slate-200 overflow-hidden dark:divide-slate-800',
        className,
      )}
      {...props}
    />
  )
}
