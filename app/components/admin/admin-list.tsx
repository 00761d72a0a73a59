import Download from 'lucide-react/icons/download'
import type Package from 'lucide-react/icons/package'
import type { ReactNode } from 'react'
import { Card } from '~/components/ui/card'
import { buttonVariants } from '~/components/ui/button'
import type { PageView } from '~/lib/paginate'
import { EmptyState } from '~/components/ui/empty-state'
import { ListRange } from './list-filters'
import { ListPagination } from './pagination'

/**
 * The card an admin list sits in (orders, transactions, users, products, the audit log): its
 * filter bar, the line saying which rows are shown, the rows (or why there are none and what
 * to do), and the links to the other pages.
 */
export function ListSection({
  label,
  path,
  filters,
  page,
  noun,
  notice,
  empty,
  pageHref,
  children,
}: {
  /** The region's accessible name. */
  label: string
  /** The list's own path (the range line watches navigations to it). */
  path: string
  /** The filter bar (a FilterForm). */
  filters: ReactNode
  page: PageView
  noun: { one: string; many: string }
  /** Shown instead of the range line (the filters' errors). */
  notice?: ReactNode
  /** What the list shows when it has no rows. */
  empty: {
    icon: typeof Package
    title: string
    /** Why, in words: the filtered or the unfiltered explanation. */
    text: string
    action?: ReactNode
  }
  pageHref: (page: number) => string
  /** The table and the phone cards. */
  children: ReactNode
}) {
  return (
    <Card as="section" padding="none" aria-label={label}>
      {filters}
      {notice ?? <ListRange path={path} page={page} noun={noun} />}
      {page.total === 0 ? (
        <EmptyState icon={empty.icon} title={empty.title} action={empty.action}>
          {empty.text}
        </EmptyState>
      ) : (
        children
      )}
      <ListPagination page={page.number} pageCount={page.count} href={pageHref} />
    </Card>
  )
}

const HIDDEN_FROM = {
  lg: 'divide-y divide-slate-100 lg:hidden dark:divide-slate-800',
  xl: 'divide-y divide-slate-100 xl:hidden dark:divide-slate-800',
}

/** The phone layout of an admin list: one card per row, shown below the table's breakpoint. */
export function ListCards({
  label,
  hiddenFrom = 'xl',
  children,
}: {
  label: string
  /** The ListTable's shownFrom. */
  hiddenFrom?: keyof typeof HIDDEN_FROM
  children: ReactNode
}) {
  return (
    <ul aria-label={label} className={HIDDEN_FROM[hiddenFrom]}>
      {children}
    </ul>
  )
}

/**
 * A phone card of an admin list: its top line says what the row is (with a detail under it)
 * and its amount; the rest of the row's facts follow.
 */
export function ListCard({
  title,
  detail,
  amount,
  children,
}: {
  title: ReactNode
  detail: ReactNode
  amount: ReactNode
  children: ReactNode
}) {
  return (
    <li className="p-4">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          {title}
          {detail}
        </div>
        <span className="shrink-0 font-semibold tabular-nums text-slate-950 dark:text-white">
          {amount}
        </span>
      </div>
      {children}
    </li>
  )
}

/** Downloads what the list's filters match as a CSV file. */
export function ExportLink({
  href,
  filtered,
  children,
}: {
  href: string
  /** Said to screen readers after the link's text while a filter is set ("of the filtered orders"). */
  filtered: string | null
  children: ReactNode
}) {
  return (
    <a href={href} download className={buttonVariants({ variant: 'secondary' })}>
      <Download aria-hidden="true" className="size-5" />
      {children}
      {filtered ? <span className="sr-only"> {filtered}</span> : null}
    </a>
  )
}
