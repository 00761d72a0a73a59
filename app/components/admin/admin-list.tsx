import { cva } from 'class-variance-authority'
import Download from 'lucide-react/icons/download'
import type Package from 'lucide-react/icons/package'
import { Fragment, type ReactNode } from 'react'
import { Card } from '~/components/ui/card'
import { buttonVariants } from '~/components/ui/button-variants'
import type { PageView } from '~/lib/paginate'
import { EmptyState } from '~/components/ui/empty-state'
import { FilterForm, ListRange, type Breakpoint } from './list-filters'
import { ListTable, type Column } from './list-table'
import { ListPagination } from './pagination'

/** What every admin list says about itself: its name, its path and the page on screen. */
interface ListBasics {
  /** The region's accessible name. */
  label: string
  /** The list's own path (the range line watches navigations to it). */
  path: string
  page: PageView
  /** What the list counts, in the range line ("Showing 1–20 of 57 orders"). */
  noun: { one: string; many: string }
  pageHref: (page: number) => string
}

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
}: ListBasics & {
  /** The filter bar (a FilterForm). */
  filters: ReactNode
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

const cardsVariants = cva('', {
  variants: {
    /** The ListTable's shownFrom. */
    hiddenFrom: { lg: 'lg:hidden', xl: 'xl:hidden' },
    layout: {
      /** One card under the other (ListCard). */
      list: 'divide-y divide-slate-100 dark:divide-slate-800',
      /** Two columns from tablet width, for cards with a picture; each <li> brings a background. */
      grid: 'grid grid-cols-1 divide-y divide-slate-100 md:grid-cols-2 md:gap-px md:divide-y-0 md:bg-slate-100 dark:divide-slate-800 md:dark:bg-slate-800',
    },
  },
})

type CardLayout = 'list' | 'grid'

/** The phone layout of an admin list: one card per row, shown below the table's breakpoint. */
export function ListCards({
  label,
  hiddenFrom = 'xl',
  layout = 'list',
  children,
}: {
  label: string
  hiddenFrom?: 'lg' | 'xl'
  layout?: CardLayout
  children: ReactNode
}) {
  return (
    <ul aria-label={label} className={cardsVariants({ hiddenFrom, layout })}>
      {children}
    </ul>
  )
}

/**
 * An admin list of rows (orders, transactions, users, products), newest first, in its
 * ListSection: the filter bar (a FilterForm on the list's own path), the rows as a ListTable
 * from `columns` on wide screens and as one `card` each below (both named "<label>, newest
 * first"), and what an empty list says, with a filter set or without.
 */
export function AdminList<Row>({
  filtered,
  fields,
  filterBreakpoint = 'lg',
  empty,
  rows,
  rowKey,
  columns,
  card,
  cardLayout,
  ...basics
}: ListBasics & {
  /** Whether any filter is set: the bar offers Clear, and an empty list says so. */
  filtered: boolean
  /** The filter bar's fields (SearchField, SelectField, ...). */
  fields: ReactNode
  filterBreakpoint?: Breakpoint
  empty: {
    icon: typeof Package
    title: string
    /** Why nothing is shown while a filter is set. */
    filtered: string
    /** Why nothing is shown at all. */
    unfiltered: string
    /** The next step when there is nothing at all (with a filter set, it is Clear). */
    action?: ReactNode
  }
  rows: readonly Row[]
  rowKey: (row: Row) => string
  columns: ReadonlyArray<Column<Row>>
  /** A row on a phone: a ListCard, or in the grid layout an <li> of its own. */
  card: (row: Row) => ReactNode
  cardLayout?: CardLayout
}) {
  const named = `${basics.label}, newest first`
  return (
    <ListSection
      {...basics}
      empty={{
        icon: empty.icon,
        title: empty.title,
        text: filtered ? empty.filtered : empty.unfiltered,
        action: filtered ? null : empty.action,
      }}
      filters={
        <FilterForm action={basics.path} breakpoint={filterBreakpoint} filtered={filtered}>
          {fields}
        </FilterForm>
      }
    >
      <ListTable caption={named} shownFrom="xl" rows={rows} rowKey={rowKey} columns={columns} />
      <ListCards label={named} layout={cardLayout}>
        {rows.map((row) => (
          <Fragment key={rowKey(row)}>{card(row)}</Fragment>
        ))}
      </ListCards>
    </ListSection>
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
