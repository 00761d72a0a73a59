import { Form, href, Link } from 'react-router'
import type { Theme } from '~/lib/theme'
import { StaticMarkup } from '~/components/ui/static-markup'
import { BrandMark } from './brand-mark'
import { SectionLink, useSectionLinksKey } from './section-link'
import { ThemeSwitcher } from './theme-switcher'
import { buttonVariants } from '~/components/ui/button-variants'

/** The signed-in visitor as the header needs it (the accounts issue fills it in the root loader). */
export interface HeaderUser {
  name: string
  email: string
  isAdmin: boolean
}

/** The public header (and footer) are absent in the customer and admin areas. */
export function showsPublicHeader(pathname: string): boolean {
  return !pathname.startsWith('/dashboard') && !pathname.startsWith('/admin')
}

const navLink =
  'whitespace-nowrap rounded-md px-1.5 py-1.5 text-sm sm:px-2 font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-950 dark:text-slate-200 dark:hover:bg-slate-800 dark:hover:text-white'

/**
 * The public header. On phones it is two rows (brand and account; sections and theme), on wider
 * screens one; the DOM follows the desktop order.
 */
export function SiteHeader({
  siteName,
  theme,
  user = null,
}: {
  siteName: string
  theme: Theme
  user?: HeaderUser | null
}) {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur dark:border-slate-800 dark:bg-slate-950/95">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-2 focus:z-50 focus:rounded-lg focus:bg-brand-700 focus:px-4 focus:py-2 focus:text-white"
      >
        Skip to content
      </a>
      <div className="mx-auto grid max-w-6xl grid-cols-[1fr_auto] items-center gap-x-2 px-4 md:flex md:h-16 md:gap-6">
        <Link
          to={href('/')}
          className="col-start-1 row-start-1 flex h-14 items-center gap-2 text-lg font-extrabold tracking-tight text-slate-950 md:h-auto dark:text-white"
        >
          <BrandMark />
          {siteName}
        </Link>

        {/* On phones the sections and the theme share the second row; from md up they join the one row. */}
        <div className="col-span-2 row-start-2 flex h-11 items-center justify-between gap-2 md:contents">
          <StaticMarkup
            as="nav"
            name="main-nav"
            deps={[useSectionLinksKey()]}
            aria-label="Main"
            className="-ml-1.5 flex items-center gap-0.5 sm:gap-1 md:ml-0"
          >
            <SectionLink section="services" className={navLink}>
              Services
            </SectionLink>
            <SectionLink section="process" className={navLink}>
              How It Works
            </SectionLink>
            <SectionLink section="whatsapp" className={navLink}>
              Support
            </SectionLink>
          </StaticMarkup>

          <ThemeSwitcher theme={theme} className="md:ml-auto" />
        </div>

        <div className="col-start-2 row-start-1 flex items-center justify-end gap-2">
          {user ? (
            <>
              <Link
                to={user.isAdmin ? href('/admin/dashboard') : href('/dashboard')}
                className="inline-flex h-9 items-center whitespace-nowrap rounded-lg px-3 text-sm font-semibold text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800"
              >
                Dashboard
              </Link>
              <Form method="post" action={href('/logout')}>
                <button
                  type="submit"
                  className="inline-flex h-9 items-center whitespace-nowrap rounded-lg border border-slate-300 px-3 text-sm font-semibold text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
                >
                  Logout
                </button>
              </Form>
            </>
          ) : (
            <>
              <Link
                to={href('/login')}
                className="inline-flex h-9 items-center whitespace-nowrap rounded-lg px-3 text-sm font-semibold text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800"
              >
                Login
              </Link>
              <Link
                to={href('/signup')}
                className={`${buttonVariants({ size: 'xs' })} whitespace-nowrap`}
              >
                Sign up
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  )
}
