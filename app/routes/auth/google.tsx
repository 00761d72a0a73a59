import { href, redirect } from 'react-router'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { googleEnabled, startGoogleSignIn } from '~/services/auth.server'
import { safeRedirect } from '~/lib/validation/auth'
import type { Route } from './+types/google'
import { readFormData } from '~/lib/form-data.server'

/**
 * "Continue with Google" (a plain form post, so it works without JavaScript): sends the
 * browser to Google's account chooser; Google returns to /api/auth/callback/google.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await readFormData(request)
  const intent = form.get('intent') === 'signup' ? 'signup' : 'login'
  const redirectTo = safeRedirect(form.get('redirectTo'), '')
  const back = new URLSearchParams({ provider: 'google' })
  if (redirectTo) back.set('redirectTo', redirectTo)
  const errorPage = `/${intent}?${back.toString()}`
  if (!googleEnabled()) throw redirect(`${errorPage}&error=not_configured`)

  const settings = await getSiteSettings(services().db)
  const result = await startGoogleSignIn({
    callbackURL: redirectTo || href('/'),
    errorCallbackURL: errorPage,
    // Like the original's Google popup, signing in creates the account when needed,
    // unless the owner closed registration.
    allowSignUp: settings.enableRegistration,
  })
  if (!result.ok) throw redirect(`${errorPage}&error=unavailable`)
  throw redirect(result.url, { headers: result.headers })
}

export async function loader() {
  throw redirect(href('/login'))
}
