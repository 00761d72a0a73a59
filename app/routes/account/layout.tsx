import ChevronDown from 'lucide-react/icons/chevron-down'
import Menu from 'lucide-react/icons/menu'
import MessageCircle from 'lucide-react/icons/message-circle'
import Shield from 'lucide-react/icons/shield'
import { href, Link, NavLink, Outlet, useLocation } from 'react-router'
import { ACCOUNT_NAV, currentAccountPage } from '~/components/account/account-nav'
import { DisclosureMenu } from '~/components/account/disclosure-menu'
import { UserAvatar } from '~/components/account/user-avatar'
import { displayName, LogoutButton } from '~/components/auth/logout-button'
import { BrandMark } from '~/components/shop/brand-mark'
import { useSiteSettings } from '~/components/shop/site-data'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { StaticMarkup } from '~/components/ui/static-markup'
import { accountHelpMessage, whatsappLink } from '~/lib/whatsapp'
import { requireUser } from '~/services/auth.server'
import type { Route } from './+types/layout'

/**
 * The customer area (/dashboard/*): signed-in users only. A sidebar on wide screens; on phones
 * it folds into a menu button in the top bar. The profile menu at the top right has every page
 * of the area and Logout. Both menus work without JavaScript (app/components/account/).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const settings = await getSiteSettings(services().db)
  return {
    siteName: settings.siteName,
    user: { name: user.name, email: user.email, isAdmin: user.isAdmin, photo: user.photo },
  }
}

type LayoutUser = Route.ComponentProps['loaderData']['user']

const navItemClass = ({ isActive }: { isActive: boolean }) =>
  `flex h-10 items-center gap-2 whitespace-nowrap rounded-lg px-3 text-sm font-medium ${
    isActive
      ? 'bg-brand-50 text-brand-800 dark:bg-brand-950 dark:text-brand-200'
      : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
  }`

function AccountLinks() {
  return (
    <>
      {ACCOUNT_NAV.map(({ to, label, icon: Icon, end }) => (
        <NavLink key={to} to={to} end={end} className={navItemClass}>
          <Icon aria-hidden="true" className="size-4" />
          {label}
        </NavLink>
      ))}
    </>
  )
}

/**
 * The area has no public footer, so its menus carry the shop's WhatsApp support: the footer's
 * number (admin settings), and nothing when none is set.
 */
function SupportLink({ link }: { link: string }) {
  return (
    <a
      href={link}
      target="_blank"
      rel="noopener noreferrer"
      className="flex h-10 items-center gap-2 rounded-lg px-3 text-sm text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
    >
      <MessageCircle aria-hidden="true" className="size-4 shrink-0" />
      Need help? WhatsApp us
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  )
}

function Brand({ siteName, compact = false }: { siteName: string; compact?: boolean }) {
  return (
    <Link
      to={href('/')}
      className="flex shrink-0 items-center gap-2 text-lg font-extrabold tracking-tight text-slate-950 dark:text-white"
    >
      <BrandMark />
      <span className={compact ? 'sr-only' : undefined}>{siteName}</span>
    </Link>
  )
}

function ProfileMenu({ user }: { user: LayoutUser }) {
  const name = displayName(user)
  const menuLink =
    'flex h-10 items-center gap-2 rounded-lg px-3 text-sm text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800'
  return (
    <DisclosureMenu
      summaryLabel={`Profile menu: ${name}`}
      summaryClassName="h-11 px-1.5 hover:bg-slate-100 sm:px-2 dark:hover:bg-slate-800"
      panelClassName="right-0 w-60"
      summary={
        <>
          <UserAvatar name={name} photo={user.photo} />
          <span className="hidden max-w-40 truncate text-sm font-semibold text-slate-900 sm:block dark:text-white">
            {name}
          </span>
          <ChevronDown aria-hidden="true" className="size-4 text-slate-500" />
        </>
      }
    >
      <p className="px-3 py-2">
        <span className="block truncate text-sm font-semibold text-slate-900 dark:text-white">
          {name}
        </span>
        <span className="block truncate text-xs text-slate-600 dark:text-slate-400">
          {user.email}
        </span>
      </p>
      <hr className="my-1 border-slate-200 dark:border-slate-700" />
      <StaticMarkup as="ul" name="profile-links" deps={[user.isAdmin]} aria-label="Profile">
        {ACCOUNT_NAV.map(({ to, label, icon: Icon }) => (
          <li key={to}>
            <Link to={to} className={menuLink}>
              <Icon aria-hidden="true" className="size-4" />
              {label}
            </Link>
          </li>
        ))}
        {user.isAdmin ? (
          <li>
            <Link to={href('/admin/dashboard')} className={menuLink}>
              <Shield aria-hidden="true" className="size-4" />
              Admin dashboard
            </Link>
          </li>
        ) : null}
      </StaticMarkup>
      <hr className="my-1 border-slate-200 dark:border-slate-700" />
      <LogoutButton className="flex h-10 w-full items-center gap-2 rounded-lg px-3 text-sm font-semibold text-rose-700 hover:bg-rose-50 dark:text-rose-400 dark:hover:bg-rose-950" />
    </DisclosureMenu>
  )
}

export default function AccountLayout({ loaderData }: Route.ComponentProps) {
  const { siteName, user } = loaderData
  const { pathname } = useLocation()
  const current = currentAccountPage(pathname)
  const site = useSiteSettings()
  const support = whatsappLink(site.whatsappNumber, accountHelpMessage(site.siteName))
  return (
    <div className="flex min-h-dvh flex-col md:flex-row">
      {/* As in the public header and the back office: past the sidebar and the menus. */}
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-2 focus:z-50 focus:rounded-lg focus:bg-brand-700 focus:px-4 focus:py-2 focus:text-white"
      >
        Skip to content
      </a>
      {/* The same for every visitor: the active link depends on the page only. */}
      <StaticMarkup
        as="aside"
        name="account-sidebar"
        deps={[siteName, pathname, support]}
        className="hidden border-r border-slate-200 bg-white md:block md:w-64 md:shrink-0 dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="px-4 py-5">
          <Brand siteName={siteName} />
        </div>
        <nav aria-label="Account" className="flex flex-col gap-1 px-3 pb-3">
          <AccountLinks />
        </nav>
        {support ? (
          <div className="mx-3 border-t border-slate-200 py-3 dark:border-slate-800">
            <SupportLink link={support} />
          </div>
        ) : null}
      </StaticMarkup>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex items-center justify-between gap-3 border-b border-slate-200 bg-white px-3 py-1.5 sm:px-4 dark:border-slate-800 dark:bg-slate-900">
          <div className="flex min-w-0 items-center gap-2 md:hidden">
            <Brand siteName={siteName} compact />
            {/* Phones: the sidebar's links behind one button that names the page shown. */}
            <DisclosureMenu
              summaryLabel={`Account menu: ${current.label}`}
              summaryClassName="h-11 border border-slate-300 px-3 text-sm font-semibold text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
              panelClassName="left-0 w-64"
              summary={
                <>
                  <Menu aria-hidden="true" className="size-4" />
                  {current.label}
                </>
              }
            >
              <StaticMarkup
                as="nav"
                name="account-menu"
                deps={[pathname]}
                aria-label="Account"
                className="flex flex-col gap-1"
              >
                <AccountLinks />
              </StaticMarkup>
              {support ? (
                <>
                  <hr className="my-1 border-slate-200 dark:border-slate-700" />
                  <SupportLink link={support} />
                </>
              ) : null}
            </DisclosureMenu>
          </div>
          <div className="hidden md:block" />
          <ProfileMenu user={user} />
        </header>
        <main id="main" tabIndex={-1} className="flex-1 px-4 py-6 outline-none sm:px-8">
          <Outlet />
        </main>
      </div>
    </div>
  )
}
