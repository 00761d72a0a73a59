import { lazy, useCallback, useEffect } from 'react'
import { href, useLocation, useNavigate } from 'react-router'
import { safeRedirect } from '~/lib/safe-redirect'
import type { AuthView } from './auth-forms'

/**
 * The Login / Sign up / Forgot password modals over any public page: login and sign-up are
 * modals that can switch to each other.
 *
 * The open modal is part of the URL (?login=1, ?signup=1, ?forgot=1, plus an optional
 * redirectTo), so it is rendered by the server too: it works without JavaScript, survives
 * a reload, and the admin guard can send visitors to /?login=1&redirectTo=/admin/...
 * With JavaScript, every same-site link to /login or /signup (the header's) opens the modal
 * instead of leaving the page; without it those links open the full pages.
 */
// Loaded only when a modal opens. Deliberately no <Suspense> around it: on the server the
// page then waits for it (the modal is in the HTML, usable without JavaScript), and in the
// browser React Router's navigations are transitions, which keep the page until it loads.
const AuthDialog = lazy(() => import('./auth-dialog'))

const VIEWS: readonly AuthView[] = ['login', 'signup', 'forgot']
const MODAL_PARAMS = [...VIEWS, 'redirectTo', 'provider', 'error', 'error_description']
/** Pages that are the forms themselves: no modal over them. */
const AUTH_PAGES = [
  href('/login'),
  href('/signup'),
  href('/forgot-password'),
  href('/reset-password'),
]

export function authViewFromSearch(search: string): AuthView | null {
  const params = new URLSearchParams(search)
  return VIEWS.find((view) => params.get(view) === '1') ?? null
}

/** The current page without any modal parameters. */
function withoutModal(pathname: string, search: string): string {
  const params = new URLSearchParams(search)
  for (const name of MODAL_PARAMS) params.delete(name)
  const query = params.toString()
  return `${pathname}${query ? `?${query}` : ''}`
}

/** The current page with the given modal open (keeping a redirectTo). */
export function modalHref(
  pathname: string,
  search: string,
  view: AuthView,
  redirectTo?: string | null,
): string {
  const params = new URLSearchParams(search)
  const keep = redirectTo ?? params.get('redirectTo')
  for (const name of MODAL_PARAMS) params.delete(name)
  params.set(view, '1')
  if (keep) params.set('redirectTo', safeRedirect(keep))
  return `${pathname}?${params.toString()}`
}

export function AuthModals({ google, signedIn }: { google: boolean; signedIn: boolean }) {
  const location = useLocation()
  const navigate = useNavigate()
  const onAuthPage = AUTH_PAGES.includes(location.pathname)
  const view = signedIn || onAuthPage ? null : authViewFromSearch(location.search)

  useEffect(() => {
    if (signedIn || onAuthPage) return
    // Capture phase, before React Router's <Link> handles the click.
    const onClick = (event: MouseEvent) => {
      if (
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.ctrlKey ||
        event.shiftKey ||
        event.altKey
      )
        return
      const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null
      if (
        !(anchor instanceof HTMLAnchorElement) ||
        (anchor.target && anchor.target !== '_self') ||
        anchor.hasAttribute('download')
      )
        return
      const url = new URL(anchor.href)
      if (url.origin !== window.location.origin) return
      const target: AuthView | null =
        url.pathname === href('/login')
          ? 'login'
          : url.pathname === href('/signup')
            ? 'signup'
            : null
      if (!target) return
      event.preventDefault()
      navigate(
        modalHref(
          window.location.pathname,
          window.location.search,
          target,
          url.searchParams.get('redirectTo'),
        ),
        {
          preventScrollReset: true,
          state: { authModal: true },
        },
      )
    }
    window.addEventListener('click', onClick, true)
    return () => window.removeEventListener('click', onClick, true)
  }, [navigate, signedIn, onAuthPage])

  const closeHref = withoutModal(location.pathname, location.search)
  const openedHere = Boolean((location.state as { authModal?: boolean } | null)?.authModal)
  const close = useCallback(() => {
    // Opened by a click here: Back is the natural way out (and what a phone's back button does).
    if (openedHere) navigate(-1)
    else navigate(closeHref, { replace: true, preventScrollReset: true })
  }, [openedHere, navigate, closeHref])

  if (!view) return null
  const params = new URLSearchParams(location.search)
  const redirectTo = safeRedirect(params.get('redirectTo'), closeHref)
  return (
    <AuthDialog
      view={view}
      google={google}
      redirectTo={redirectTo}
      closeHref={closeHref}
      onClose={close}
      googleError={params.get('provider') === 'google' ? params.get('error') : null}
      links={{
        login: modalHref(location.pathname, location.search, 'login'),
        signup: modalHref(location.pathname, location.search, 'signup'),
        forgot: modalHref(location.pathname, location.search, 'forgot'),
      }}
    />
  )
}
