import { redirect } from 'react-router'
import { googleErrorMessage } from '~/components/auth/messages'
import { safeRedirect } from '~/lib/validation/auth'
import { dashboardPath, getUser, googleEnabled } from '~/services/auth.server'

/**
 * What /login and /signup read first: where to go after signing in (a visitor who is signed
 * in already goes there now), whether Google is offered, and Google's refusal when it sent
 * the visitor back with one.
 */
export async function signedOutFormPage(request: Request, view: 'login' | 'signup') {
  const url = new URL(request.url)
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'), '')
  const user = await getUser(request)
  if (user) throw redirect(redirectTo || dashboardPath(user))
  const googleError =
    url.searchParams.get('provider') === 'google' ? url.searchParams.get('error') : null
  return {
    url,
    page: {
      google: googleEnabled(),
      redirectTo,
      formError: googleError ? googleErrorMessage(view, googleError) : undefined,
    },
  }
}
