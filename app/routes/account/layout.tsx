import KeyRound from 'lucide-react/icons/key-round'
import LayoutDashboard from 'lucide-react/icons/layout-dashboard'
import Package from 'lucide-react/icons/package'
import Settings from 'lucide-react/icons/settings'
import { Link, NavLink, Outlet } from 'react-router'
import { displayName, LogoutButton } from '~/components/auth/logout-button'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { requireUser } from '~/lib/auth.server'
import type { Route } from './+types/layout'

/**
 * The customer area (/dashboard/*): signed-in users only. The sidebar lists what works;
 * Wishlist joins it with the issue that builds it.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const settings = await getSiteSettings(services().db)
  return {
    siteName: settings.siteName,
    user: { name: user.name, email: user.email, isAdmin: user.isAdmin },
  }
}

const NAV = [
  { to: '/dashboard', label: 'Dashboard', icon: LayoutDashboard, end: true },
  { to: '/dashboard/orders', label: 'My Orders', icon: Package, end: false },
  { to: '/dashboard/settings', label: 'Settings', icon: Settings, end: false },
] as const

export default function AccountLayout({ loaderData }: Route.ComponentProps) {
  const { siteName, user } = loaderData
  return (
    <div className="flex min-h-dvh flex-col md:flex-row">
      <aside className="border-b border-slate-200 bg-white md:w-64 md:shrink-0 md:border-b-0 md:border-r dark:border-slate-800 dark:bg-slate-900">
        <div className="flex items-center justify-between gap-2 px-4 py-3 md:py-5">
          <Link
            to="/"
            className="flex items-center gap-2 text-lg font-extrabold tracking-tight text-slate-950 dark:text-white"
          >
            <span className="inline-flex size-8 items-center justify-center rounded-lg bg-gradient-to-br from-brand-600 to-fuchsia-600 text-white">
              <KeyRound aria-hidden="true" className="size-4.5" />
            </span>
            {siteName}
          </Link>
        </div>
        <nav
          aria-label="Account"
          className="flex gap-1 overflow-x-auto px-2 pb-2 md:flex-col md:px-3"
        >
          {NAV.map(({ to, label, icon: Icon, end }) => (
            <NavLink
              key={to}
              to={to}
              end={end}
              className={({ isActive }) =>
                `flex h-10 items-center gap-2 whitespace-nowrap rounded-lg px-3 text-sm font-medium ${
                  isActive
                    ? 'bg-brand-50 text-brand-800 dark:bg-brand-950 dark:text-brand-200'
                    : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
                }`
              }
            >
              <Icon aria-hidden="true" className="size-4" />
              {label}
            </NavLink>
          ))}
        </nav>
      </aside>
      <div className="flex flex-1 flex-col">
        <header className="flex items-center justify-end gap-3 border-b border-slate-200 bg-white px-4 py-2 dark:border-slate-800 dark:bg-slate-900">
          <span className="truncate text-sm text-slate-600 dark:text-slate-300" title={user.email}>
            {displayName(user)}
          </span>
          <LogoutButton />
        </header>
        <main className="flex-1 px-4 py-6 sm:px-8">
          <Outlet />
        </main>
      </div>
    </div>
  )
}
