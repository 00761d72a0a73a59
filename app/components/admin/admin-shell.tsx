import { mayConfigureShop, SHOP_CONFIGURATION_PERMISSION } from '~/lib/shop-configuration'
import { UserAvatar } from '~/components/account/user-avatar'
import * as Dialog from '@radix-ui/react-dialog'
import * as DropdownMenu from '@radix-ui/react-dropdown-menu'
import ChevronDown from 'lucide-react/icons/chevron-down'
import CreditCard from 'lucide-react/icons/credit-card'
import KeyRound from 'lucide-react/icons/key-round'
import LayoutDashboard from 'lucide-react/icons/layout-dashboard'
import Link2 from 'lucide-react/icons/link-2'
import LoaderCircle from 'lucide-react/icons/loader-circle'
import LogOut from 'lucide-react/icons/log-out'
import Menu from 'lucide-react/icons/menu'
import MessageSquareText from 'lucide-react/icons/message-square-text'
import Package from 'lucide-react/icons/package'
import Receipt from 'lucide-react/icons/receipt'
import Settings from 'lucide-react/icons/settings'
import ScrollText from 'lucide-react/icons/scroll-text'
import ShoppingCart from 'lucide-react/icons/shopping-cart'
import Users from 'lucide-react/icons/users'
import X from 'lucide-react/icons/x'
import { useState, type ComponentType, type ReactNode } from 'react'
import {
  href,
  Link,
  useLocation,
  useMatches,
  useNavigation,
  useRouteLoaderData,
  useSubmit,
} from 'react-router'
import { ThemeSwitcher } from '~/components/shop/theme-switcher'
import { isTheme, type Theme } from '~/lib/theme'
import { TestModeStockNotice } from './test-mode-notice'

/**
 * The admin shell: sidebar with the back office's sections, the active one taken from the path
 * (none on the not-found page); a header with the section title, the theme and the user
 * menu (Profile Settings goes to the admin's own account settings, Admin Settings to the shop's
 * settings; Logout signs out to /); the brand goes to the public home. On phones the sidebar
 * slides in from the left. A section with `permission` is listed only for admins holding it:
 * the permission its loader requires (the page itself still checks on the server).
 */
export type AdminSectionId =
  | 'dashboard'
  | 'products'
  | 'reviews'
  | 'orders'
  | 'transactions'
  | 'users'
  | 'payment-links'
  | 'gateways'
  | 'audit'
  | 'settings'

interface AdminSection {
  id: AdminSectionId
  label: string
  to: string
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>
  /** The permission the section's loader requires; none: any admin may open it. */
  permission?: AdminPermission
}

/** The admin permission flags (the same as `Permission` in app/data/user.server.ts). */
export type AdminPermission = 'canCreateProducts' | 'canManageOrders' | 'canManageUsers'

// Each `permission` is the one the section's loader needs: the flag of requirePermission, and
// Can Manage Users for the shop's configuration (requireShopConfiguration: Gateways, Settings);
// the Dashboard only calls requireAdmin.
export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { id: 'dashboard', label: 'Dashboard', to: href('/admin/dashboard'), icon: LayoutDashboard },
  {
    id: 'products',
    label: 'Products',
    to: href('/admin/products'),
    icon: Package,
    permission: 'canCreateProducts',
  },
  {
    id: 'reviews',
    label: 'Reviews',
    to: href('/admin/reviews'),
    icon: MessageSquareText,
    permission: 'canCreateProducts',
  },
  {
    id: 'orders',
    label: 'Orders',
    to: href('/admin/orders'),
    icon: ShoppingCart,
    permission: 'canManageOrders',
  },
  {
    id: 'transactions',
    label: 'Transactions',
    to: href('/admin/transactions'),
    icon: Receipt,
    permission: 'canManageOrders',
  },
  {
    id: 'users',
    label: 'Users',
    to: href('/admin/users'),
    icon: Users,
    permission: 'canManageUsers',
  },
  {
    id: 'payment-links',
    label: 'Payment Links',
    to: href('/admin/payment-links'),
    icon: Link2,
    permission: 'canManageOrders',
  },
  {
    id: 'gateways',
    label: 'Gateways',
    to: href('/admin/gateways'),
    icon: CreditCard,
    permission: SHOP_CONFIGURATION_PERMISSION,
  },
  {
    id: 'audit',
    label: 'Audit log',
    to: href('/admin/audit'),
    icon: ScrollText,
    permission: 'canManageUsers',
  },
  {
    id: 'settings',
    label: 'Settings',
    to: href('/admin/settings'),
    icon: Settings,
    permission: SHOP_CONFIGURATION_PERMISSION,
  },
]

/** Where the user menu's Profile Settings goes: the admin's own account settings. */
export const PROFILE_SETTINGS_PATH = '/dashboard/settings'
export const ADMIN_SETTINGS_PATH = href('/admin/settings')

/** What the admin may see of the sidebar (sections behind a permission they lack are left out). */
export type AdminShellAccess = Record<AdminPermission, boolean>

export function visibleAdminSections(access: AdminShellAccess): AdminSection[] {
  return ADMIN_SECTIONS.filter((section) => !section.permission || access[section.permission])
}

/**
 * The section a path belongs to: /admin/products/edit/x is Products, /admin is the Dashboard;
 * a path of no section (the not-found page) has none.
 */
export function activeAdminSection(pathname: string): AdminSectionId | null {
  const segment = pathname.replace(/^\/admin\/?/, '').split('/')[0] ?? ''
  if (segment === '') return 'dashboard'
  return ADMIN_SECTIONS.find((section) => section.id === segment)?.id ?? null
}

export function adminSectionTitle(pathname: string): string {
  const id = activeAdminSection(pathname)
  return ADMIN_SECTIONS.find((section) => section.id === id)?.label ?? 'Page not found'
}

/** What the header says while a page loads (spec: 'Loading product...' for the edit page). */
export function pendingLabel(pathname: string): string {
  return /^\/admin\/products\/edit\/[^/]+/.test(pathname) ? 'Loading product...' : 'Loading...'
}

export interface AdminShellUser {
  name: string
  email: string
  /** Shown under the name; the spec's default is Admin. */
  role?: string
  /** The profile photo (Settings, or Google's), the avatar instead of the initial. */
  photo?: string | null
}

/** The spec's display name: the name, or the part of the e-mail before the @. */
export function adminDisplayName(user: AdminShellUser): string {
  return user.name.trim() || user.email.split('@')[0] || user.email
}

const itemBase = 'flex h-11 items-center gap-3 rounded-xl px-3 text-sm font-medium'

function SidebarNav({
  pathname,
  access,
  onNavigate,
  openReports = 0,
}: {
  pathname: string
  access: AdminShellAccess
  onNavigate?: () => void
  /** Open problem reports, shown as a badge on Orders. */
  openReports?: number
}) {
  const active = activeAdminSection(pathname)
  return (
    <nav aria-label="Admin">
      <ul className="space-y-1">
        {visibleAdminSections(access).map(({ id, label, to, icon: Icon }) => {
          const isActive = id === active
          return (
            <li key={id}>
              <Link
                to={to}
                onClick={onNavigate}
                aria-current={isActive ? (pathname === to ? 'page' : 'true') : undefined}
                className={`${itemBase} ${
                  isActive
                    ? 'bg-brand-600 text-white shadow-sm'
                    : 'text-slate-700 hover:bg-slate-100 hover:text-slate-950 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white'
                }`}
              >
                <Icon aria-hidden="true" className="size-5 shrink-0" />
                {label}
                {id === 'orders' && openReports > 0 ? (
                  <span
                    className={`ml-auto rounded-full px-2 py-0.5 text-xs font-bold tabular-nums ${
                      isActive ? 'bg-white text-brand-700' : 'bg-rose-600 text-white'
                    }`}
                  >
                    <span aria-hidden="true">{openReports}</span>
                    <span className="sr-only">
                      {openReports === 1 ? '1 open report' : `${openReports} open reports`}
                    </span>
                  </span>
                ) : null}
              </Link>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

function Brand({ siteName, onNavigate }: { siteName: string; onNavigate?: () => void }) {
  return (
    <Link
      to={href('/')}
      onClick={onNavigate}
      className="flex items-center gap-3 rounded-xl px-2 py-1 text-slate-950 dark:text-white"
      aria-label={`${siteName}: go to the shop`}
    >
      <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-xl bg-gradient-to-br from-brand-600 to-fuchsia-600 text-white">
        <KeyRound aria-hidden="true" className="size-5" />
      </span>
      <span className="min-w-0">
        <span className="block truncate text-base font-extrabold tracking-tight">{siteName}</span>
        <span className="block text-xs font-medium text-slate-500 dark:text-slate-400">
          Admin panel
        </span>
      </span>
    </Link>
  )
}

function UserMenu({ user, shopSettings }: { user: AdminShellUser; shopSettings: boolean }) {
  const submit = useSubmit()
  const name = adminDisplayName(user)
  const role = user.role || 'Admin'
  const itemClass =
    'flex h-10 cursor-pointer select-none items-center gap-2 rounded-lg px-3 text-sm text-slate-800 outline-none data-[disabled]:cursor-not-allowed data-[highlighted]:bg-slate-100 data-[disabled]:text-slate-400 dark:text-slate-100 dark:data-[highlighted]:bg-slate-800 dark:data-[disabled]:text-slate-500'
  const settingsItem = (label: string, to: string) => (
    <DropdownMenu.Item asChild className={itemClass}>
      <Link to={to}>
        <Settings aria-hidden="true" className="size-4" />
        {label}
      </Link>
    </DropdownMenu.Item>
  )
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={`Account menu: ${name}, ${role}`}
        className="flex h-11 items-center gap-2 rounded-xl px-1.5 text-left hover:bg-slate-100 sm:px-2 dark:hover:bg-slate-800"
      >
        <UserAvatar name={name} photo={user.photo ?? null} />
        <span className="hidden min-w-0 sm:block">
          <span className="block max-w-40 truncate text-sm font-semibold text-slate-900 dark:text-white">
            {name}
          </span>
          <span className="block text-xs text-slate-500 dark:text-slate-400">{role}</span>
        </span>
        <ChevronDown aria-hidden="true" className="size-4 text-slate-500" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-56 rounded-xl border border-slate-200 bg-white p-1.5 shadow-xl dark:border-slate-700 dark:bg-slate-900"
        >
          <DropdownMenu.Label className="px-3 py-2">
            <span className="block truncate text-sm font-semibold text-slate-900 dark:text-white">
              {name}
            </span>
            <span className="block truncate text-xs text-slate-500 dark:text-slate-400">
              {user.email}
            </span>
            <span className="mt-1 inline-block rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800 dark:bg-brand-950 dark:text-brand-200">
              {role}
            </span>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-700" />
          {settingsItem('Profile Settings', PROFILE_SETTINGS_PATH)}
          {shopSettings ? settingsItem('Admin Settings', ADMIN_SETTINGS_PATH) : null}
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-700" />
          <DropdownMenu.Item
            className={`${itemClass} text-rose-700 dark:text-rose-400`}
            onSelect={() => void submit(null, { method: 'post', action: '/logout' })}
          >
            <LogOut aria-hidden="true" className="size-4" />
            Logout
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}

/**
 * What an admin page's route module may tell the shell through its `handle` export.
 * `ownTestModeNote`: the page explains test mode in its own words (the Gateways page, what to set
 * up; a product's Stock page, the items it holds), so the shell's banner, which would say the
 * same above theirs, is left out: a page shows one test-mode banner.
 */
export interface AdminPageHandle {
  ownTestModeNote?: boolean
}

/** Whether the page on screen (its routes' handles, outermost first) has its own test-mode banner. */
export function pageExplainsTestMode(handles: readonly unknown[]): boolean {
  return handles.some((handle) => (handle as AdminPageHandle | undefined)?.ownTestModeNote === true)
}

export function AdminShell({
  siteName,
  user,
  openReports = 0,
  testMode = false,
  maintenanceMode = false,
  access,
  children,
}: {
  siteName: string
  user: AdminShellUser
  access: AdminShellAccess
  /** The shop is closed to visitors: a banner reminds the admin. */
  maintenanceMode?: boolean
  /** Open problem reports (the Orders badge); 0 hides it. */
  openReports?: number
  /** Every way to pay takes test payments only: a banner says real stock is not sold. */
  testMode?: boolean
  children: ReactNode
}) {
  const { pathname } = useLocation()
  const navigation = useNavigation()
  const ownTestModeNote = pageExplainsTestMode(useMatches().map((match) => match.handle))
  // Settings and Payment Gateways are linked only for admins who may open them.
  const configure = mayConfigureShop(access)
  const rootData = useRouteLoaderData('root') as { theme?: unknown } | undefined
  const theme: Theme = isTheme(rootData?.theme) ? rootData.theme : 'system'
  const [menuOpen, setMenuOpen] = useState(false)
  const loadingPath =
    navigation.state === 'loading' && !navigation.formMethod ? navigation.location.pathname : null

  // A new page closes the phone menu (also one reached with the browser's back button).
  const [menuPath, setMenuPath] = useState(pathname)
  if (menuPath !== pathname) {
    setMenuPath(pathname)
    setMenuOpen(false)
  }

  return (
    <div className="flex min-h-dvh bg-slate-50 dark:bg-slate-950">
      <a
        href="#admin-main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-2 focus:z-50 focus:rounded-lg focus:bg-brand-700 focus:px-4 focus:py-2 focus:text-white"
      >
        Skip to content
      </a>
      {/* The column (background and border) runs the whole page; its content stays in view. */}
      <aside className="hidden w-64 shrink-0 border-r border-slate-200 bg-white lg:block dark:border-slate-800 dark:bg-slate-900">
        <div className="sticky top-0 flex max-h-dvh flex-col gap-6 overflow-y-auto px-3 py-5">
          <Brand siteName={siteName} />
          <SidebarNav pathname={pathname} access={access} openReports={openReports} />
        </div>
      </aside>

      <Dialog.Root open={menuOpen} onOpenChange={setMenuOpen}>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-950/50 backdrop-blur-sm lg:hidden" />
          <Dialog.Content
            aria-describedby={undefined}
            className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col gap-6 overflow-y-auto bg-white px-3 py-5 shadow-2xl transition-transform duration-200 motion-safe:starting:-translate-x-full lg:hidden dark:bg-slate-900"
          >
            <div className="flex items-start justify-between gap-2">
              <Brand siteName={siteName} onNavigate={() => setMenuOpen(false)} />
              <Dialog.Close
                aria-label="Close menu"
                className="inline-flex size-10 shrink-0 items-center justify-center rounded-xl text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
              >
                <X aria-hidden="true" className="size-5" />
              </Dialog.Close>
            </div>
            <Dialog.Title className="sr-only">Admin menu</Dialog.Title>
            <SidebarNav
              pathname={pathname}
              access={access}
              onNavigate={() => setMenuOpen(false)}
              openReports={openReports}
            />
            <ThemeSwitcher theme={theme} className="mt-auto self-start px-2 sm:hidden" />
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur dark:border-slate-800 dark:bg-slate-900/95">
          <div className="flex h-16 items-center gap-2 px-3 sm:px-6">
            <button
              type="button"
              onClick={() => setMenuOpen(true)}
              aria-label="Open menu"
              aria-expanded={menuOpen}
              className="inline-flex size-11 items-center justify-center rounded-xl text-slate-700 hover:bg-slate-100 lg:hidden dark:text-slate-200 dark:hover:bg-slate-800"
            >
              <Menu aria-hidden="true" className="size-6" />
            </button>
            <p className="min-w-0 truncate text-lg font-bold text-slate-950 dark:text-white">
              {adminSectionTitle(pathname)}
            </p>
            <p
              role="status"
              className="flex min-w-0 items-center gap-1.5 text-sm text-slate-600 dark:text-slate-300"
            >
              {loadingPath ? (
                <>
                  <LoaderCircle
                    aria-hidden="true"
                    className="size-4 shrink-0 animate-spin text-brand-600"
                  />
                  <span className="truncate">{pendingLabel(loadingPath)}</span>
                </>
              ) : null}
            </p>
            <div className="ml-auto flex items-center gap-1 sm:gap-2">
              <ThemeSwitcher theme={theme} className="hidden sm:block" />
              <UserMenu user={user} shopSettings={configure} />
            </div>
          </div>
          {loadingPath ? (
            <div aria-hidden="true" className="h-0.5 w-full animate-pulse bg-brand-500" />
          ) : null}
        </header>
        <main
          id="admin-main"
          tabIndex={-1}
          className="flex-1 px-4 py-6 outline-none sm:px-6 lg:px-8"
        >
          {maintenanceMode ? (
            <div
              role="status"
              className="mx-auto mb-6 max-w-6xl rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
            >
              <strong>Maintenance mode is on.</strong> Visitors see the maintenance page; payment
              callbacks still work.{' '}
              {configure ? (
                <Link
                  to={`${href('/admin/settings')}?tab=system`}
                  className="font-semibold underline"
                >
                  Change in Settings
                </Link>
              ) : null}
            </div>
          ) : null}
          {testMode && !ownTestModeNote ? (
            <div className="mx-auto mb-6 max-w-6xl">
              <TestModeStockNotice canConfigure={configure} />
            </div>
          ) : null}
          {children}
        </main>
      </div>
    </div>
  )
}
