import {
  data,
  href,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useFetcher,
  useLocation,
  useRouteLoaderData,
  type ShouldRevalidateFunctionArgs,
} from 'react-router'
import { useEffect } from 'react'
import { AuthModals } from '~/components/auth/auth-modals'
import { SiteFooter, type PublicSiteSettings } from '~/components/shop/site-footer'
import { showsPublicHeader, SiteHeader, type HeaderUser } from '~/components/shop/site-header'
import { THEME_FETCHER_KEY } from '~/components/shop/theme-switcher'
import { ConfirmDialogHost } from '~/components/ui/confirm'
import { Toaster } from '~/components/ui/toast'
import { getSiteSettings } from '~/data/settings.server'
import { displayCurrency } from '~/lib/money'
import { recentStoredPreferences } from '~/data/preferences.server'
import { preferencesInUse } from '~/lib/preferences'
import { services } from '~/lib/app-context.server'
import { mayConfigureShop } from '~/lib/shop-configuration'
import { getSessionState, googleEnabled, toHeaderUser } from '~/services/auth.server'
import { isTheme, themeClassName, type Theme } from '~/lib/theme'
import type { Route } from './+types/root'
// Rendered as a React 19 stylesheet resource (precedence), which React places ahead of the
// hoisted modulepreload hints: a plain <link> from <Links/> came after twenty of them, so on a
// phone's few connections the render-blocking CSS queued behind the JavaScript.
import appStylesUrl from './app.css?url'
// A file of its own (cached once, not repeated in every page's HTML); it also spares the
// browsers' /favicon.ico request.
import faviconUrl from './favicon.svg?url&no-inline'
import { buttonVariants } from '~/components/ui/button-variants'

export const links: Route.LinksFunction = () => [
  { rel: 'icon', type: 'image/svg+xml', href: faviconUrl },
]

/** What the maintenance page shows (thrown by the root loader with status 503). */
export interface MaintenanceInfo {
  maintenance: true
  siteName: string
  contactEmail: string
  whatsappNumber: string
}

function isMaintenanceInfo(value: unknown): value is MaintenanceInfo {
  return typeof value === 'object' && value !== null && 'maintenance' in value
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, env } = services()
  const [settings, session] = await Promise.all([getSiteSettings(db), getSessionState(request)])
  // Maintenance mode: server/maintenance.ts has already told a visitor's page apart from an
  // admin's (app/services/maintenance.server.ts); its Retry-After header is set there.
  if (context.maintenance === 'closed') {
    throw data<MaintenanceInfo>(
      {
        maintenance: true,
        siteName: settings.siteName,
        contactEmail: settings.contactEmail,
        whatsappNumber: settings.whatsappNumber,
      },
      { status: 503 },
    )
  }
  // A signed-in customer's saved preferences (/dashboard/settings) come first, then the
  // visitor's cookies, then the shop's default theme and language (admin settings); the settings form
  // starts from the same choice.
  const stored = session.user ? await recentStoredPreferences(db, session.user.id) : null
  const { theme, language } = preferencesInUse(stored, request.headers.get('Cookie'), settings)
  const site: PublicSiteSettings = {
    siteName: settings.siteName,
    siteDescription: settings.siteDescription,
    contactEmail: settings.contactEmail,
    phoneNumber: settings.phoneNumber,
    whatsappNumber: settings.whatsappNumber,
    whatsappCommunityUrl: settings.whatsappCommunityUrl,
  }
  return data(
    {
      theme,
      // The chosen language, for the pages' translations (English until they exist).
      language,
      site,
      // The storefront's display currency and rate (prices only; charges stay in rupees).
      currency: displayCurrency(settings.currency, settings.currencyRate),
      publicUrl: env.PUBLIC_URL,
      // From the session, so the first byte already has the signed-in header (no flash).
      user: toHeaderUser(session.user) satisfies HeaderUser | null,
      googleSignIn: googleEnabled(env),
      // An admin browsing the closed shop sees a reminder.
      // With a link to Settings for admins who may open it (docs/decisions/0019).
      maintenanceBanner:
        context.maintenance === 'admin'
          ? { settings: session.user ? mayConfigureShop(session.user.permissions) : false }
          : null,
    },
    // A refreshed session cookie, when better-auth extended the session.
    { headers: session.headers },
  )
}

/** Filtering the catalogue only changes the query string: nothing the root shows depends on it. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname) return false
  return defaultShouldRevalidate
}

/** The theme to show: a choice being saved right now, else the one the server rendered. */
function useTheme(): Theme {
  const data = useRouteLoaderData<typeof loader>('root')
  const pending = useFetcher({ key: THEME_FETCHER_KEY }).formData?.get('theme')
  return isTheme(pending) ? pending : (data?.theme ?? 'system')
}

export function Layout({ children }: { children: React.ReactNode }) {
  const theme = useTheme()
  const { pathname } = useLocation()
  return (
    <html lang="en-IN" className={themeClassName(theme)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={theme === 'system' ? 'light dark' : theme} />
        <link rel="stylesheet" href={appStylesUrl} precedence="high" />
        {/* The home page is long: a slow phone may paint it while still parsing, and the hero
            (its height, its background shapes, its row of buttons) then moves as the rest of
            it arrives, a layout shift. The first paint waits until the section after the hero
            is parsed (without featured products, its empty #featured anchor). Only while the
            page loads; browsers without rel=expect ignore it. */}
        {pathname === '/' ? <link rel="expect" href="#featured" blocking="render" /> : null}
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col bg-slate-50 text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        {children}
        <Toaster theme={theme} />
        <ConfirmDialogHost />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  )
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation()
  const theme = useTheme()
  // Marks the page as interactive (links open modals, forms check themselves). Browser tests
  // wait for it instead of sleeping; before it, every link and form works as plain HTML.
  useEffect(() => {
    document.documentElement.dataset.hydrated = ''
  }, [])
  if (!showsPublicHeader(pathname)) return <Outlet />
  return (
    <>
      {loaderData.maintenanceBanner ? (
        <p
          role="status"
          className="bg-amber-100 px-4 py-2 text-center text-sm font-medium text-amber-950 dark:bg-amber-950 dark:text-amber-100"
        >
          Maintenance mode is on: visitors see the maintenance page.{' '}
          {loaderData.maintenanceBanner.settings ? (
            <a href={`${href('/admin/settings')}?tab=system`} className="font-semibold underline">
              Settings
            </a>
          ) : null}
        </p>
      ) : null}
      <SiteHeader siteName={loaderData.site.siteName} theme={theme} user={loaderData.user} />
      <AuthModals google={loaderData.googleSignIn} signedIn={loaderData.user !== null} />
      <div id="main" className="flex flex-1 flex-col">
        <Outlet />
      </div>
      <SiteFooter site={loaderData.site} />
    </>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  // The root loader's data when a page below it failed; absent when the root loader did.
  const siteName = useRouteLoaderData<typeof loader>('root')?.site.siteName
  if (isRouteErrorResponse(error) && error.status === 503 && isMaintenanceInfo(error.data)) {
    return <MaintenancePage info={error.data} />
  }
  let title = 'Something went wrong'
  let details = 'An unexpected error occurred. Please try again in a moment.'
  if (isRouteErrorResponse(error)) {
    title = error.status === 404 ? 'Page not found' : `Error ${error.status}`
    details =
      error.status === 404
        ? 'The page you are looking for does not exist.'
        : typeof error.data === 'string' && error.data
          ? error.data
          : error.statusText
  }
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
      {/* No route's meta reaches an error page: it names itself, and stays out of search results. */}
      <title>{siteName ? `${title} | ${siteName}` : title}</title>
      <meta name="robots" content="noindex" />
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="text-slate-600 dark:text-slate-300">{details}</p>
      <a href={href('/')} className={buttonVariants()}>
        Go Back Home
      </a>
    </main>
  )
}

/** The page visitors get while the shop is in maintenance mode (status 503, Retry-After). */
function MaintenancePage({ info }: { info: MaintenanceInfo }) {
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
      <title>{`${info.siteName}: back soon`}</title>
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-300">
        {info.siteName}
      </p>
      <h1 className="text-3xl font-bold">We&apos;ll be back soon</h1>
      <p className="text-slate-600 dark:text-slate-300">
        The shop is closed for maintenance for a few minutes. Orders already paid are safe and will
        be delivered. Please come back shortly.
      </p>
      {info.contactEmail || info.whatsappNumber ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Need help now?{' '}
          {info.contactEmail ? (
            <a href={`mailto:${info.contactEmail}`} className="font-semibold underline">
              {info.contactEmail}
            </a>
          ) : null}
          {info.contactEmail && info.whatsappNumber ? ' or ' : null}
          {info.whatsappNumber ? (
            <a href={`https://wa.me/${info.whatsappNumber}`} className="font-semibold underline">
              WhatsApp
            </a>
          ) : null}
        </p>
      ) : null}
      <a href={href('/login')} className="text-sm text-slate-500 underline dark:text-slate-400">
        Staff sign in
      </a>
    </main>
  )
}
