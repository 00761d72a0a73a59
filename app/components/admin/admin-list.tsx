import Download from 'lucide-react/icons/download'
import type Package from 'lucide-react/icons/package'
import type { ReactNode } from 'react'
import { Card } from '~/components/ui/card'
import { buttonVariants } from '~/components/ui/button'
import type { PageView } from '~/lib/paginate'
import { EmptyState } from './empty-state'
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

/** The top line of a phone card: what the row is (with a detail under it), and its amount. */
export function CardTop({
  title,
  detail,
  amount,
}: {
  title: ReactNode
  detail: ReactNode
  amount: ReactNode
}) {
  return (
    <div className="flex items-start justify-between gap-3">
      <div className="min-w-0">
        {title}
        {detail}
      </div>
      <span className="shrink-0 font-semibold tabular-nums text-slate-950 dark:text-white">
        {amount}
      </span>
    </div>
  )
}

/** A table row of an admin list. */
export function ListRow({ children }: { children: ReactNode }) {
  return <tr className="hover:bg-slate-50 dark:hover:bg-slate-800/50">{children}</tr>
}

/** The row's first cell, which names it. */
export function RowHeader({ children }: { children: ReactNode }) {
  return (
    <th scope="row" className="py-3 pl-4 pr-2 text-left font-normal">
      {children}
    </th>
  )
}

/** A date cell: the shop's wording, with the instant for machines. */
export function DateCell({ at, children }: { at: string; children: ReactNode }) {
  return (
    <td className="whitespace-nowrap px-2 py-3 text-slate-700 dark:text-slate-300">
      <time dateTime={at}>{children}</time>
    </td>
  )
}

/** A buyer's name over their e-mail, each cut to the column's width. */
export function PersonCell({
  name,
  email,
  width,
}: {
  name: string
  email: string
  width: 'max-w-48' | 'max-w-56'
}) {
  return (
    <td className="px-2 py-3">
      <span className={`block ${width} truncate font-medium text-slate-950 dark:text-white`}>
        {name}
      </span>
      <span className={`block ${width} truncate text-xs text-slate-500 dark:text-slate-400`}>
        {email}
      </span>
    </td>
  )
}

/** A right-aligned amount in rupees (already formatted). */
export function AmountCell({ children }: { children: ReactNode }) {
  return (
    <td className="whitespace-nowrap px-2 py-3 text-right font-semibold tabular-nums text-slate-950 dark:text-white">
      {children}
    </td>
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
