import ShoppingBag from 'lucide-react/icons/shopping-bag'
import type { ReactNode } from 'react'
import { Link } from 'react-router'

/**
 * The parts the customer area's pages (app/routes/account/) are built from: the page's title
 * with a line under it, and the way back to the shop (an empty list is a framed EmptyState).
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

/** "Browse Products": back to the catalogue (the home page, or its product list). */
export function BrowseProductsLink({ to, className }: { to: string; className: string }) {
  return (
    <Link to={to} className={className}>
      <ShoppingBag aria-hidden="true" className="size-4" />
      Browse Products
    </Link>
  )
}
