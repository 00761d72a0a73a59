import type Heart from 'lucide-react/icons/heart'
import ShoppingBag from 'lucide-react/icons/shopping-bag'
import type { ReactNode } from 'react'
import { Link } from 'react-router'

/**
 * The parts the customer area's pages (app/routes/account/) are built from: the page's title
 * with a line under it, the message of an empty list, and the way back to the shop.
 */
export function AccountPageHeader({
  title,
  compact = false,
  children,
}: {
  title: ReactNode
  /** A narrow page of forms (Settings): the title does not grow on wide screens. */
  compact?: boolean
  /** The line under the title. */
  children: ReactNode
}) {
  const titleClass = 'text-2xl font-bold tracking-tight text-slate-950 dark:text-white'
  const leadClass = 'mt-1 text-slate-600 dark:text-slate-300'
  return (
    <div>
      <h1 className={compact ? titleClass : `${titleClass} sm:text-3xl`}>{title}</h1>
      <p className={compact ? `${leadClass} text-sm` : leadClass}>{children}</p>
    </div>
  )
}

/** A list with nothing in it yet: an icon, what is missing, what to do, and a link onward. */
export function AccountEmptyState({
  icon: Icon,
  title,
  children,
  action,
}: {
  icon: typeof Heart
  title: string
  children: ReactNode
  action: ReactNode
}) {
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center dark:border-slate-700 dark:bg-slate-900">
      <Icon aria-hidden="true" className="mx-auto size-10 text-slate-400" />
      <h2 className="mt-3 text-lg font-semibold text-slate-950 dark:text-white">{title}</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{children}</p>
      {action}
    </div>
  )
}

/** "Browse Products": back to the catalogue (the home page, or its product list). */
export function BrowseProductsLink({ to, className }: { to: string; className: string }) {
  return (
    <Link to={to} className={className}>
      <ShoppingBag aria-hidden="true" className="size-4" />
      Browse Products
    </Link>
  )
}
