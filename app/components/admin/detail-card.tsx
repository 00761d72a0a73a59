import type { ReactNode } from 'react'

/** The white card the sections of admin pages sit in (the dashboard, an order, a user). */
export const adminCard =
  'rounded-2xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900'

/** A section of an admin detail page: a card named by its heading. */
export function DetailCard({
  headingId,
  title,
  hiddenTitle,
  anchor,
  children,
}: {
  headingId: string
  title: string
  /** For screen readers only, where the card speaks for itself (an order's summary). */
  hiddenTitle?: boolean
  /** The section's id, for links that jump to it (it keeps clear of the sticky header). */
  anchor?: string
  children: ReactNode
}) {
  return (
    <section
      id={anchor}
      aria-labelledby={headingId}
      className={anchor ? `${adminCard} scroll-mt-24` : adminCard}
    >
      <h2
        id={headingId}
        className={hiddenTitle ? 'sr-only' : 'text-lg font-bold text-slate-950 dark:text-white'}
      >
        {title}
      </h2>
      {children}
    </section>
  )
}
