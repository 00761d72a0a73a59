import { data, redirect } from 'react-router'
import { isTheme, safeRedirectPath, themeCookie } from '~/lib/theme'
import type { Route } from './+types/theme'

/**
 * POST /theme: remembers light, dark or system in a cookie. A plain form (no JavaScript) sends
 * redirectTo and is sent back there; the header's fetcher does not and gets the theme back.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData()
  const theme = form.get('theme')
  if (!isTheme(theme)) return data({ error: 'Choose light, dark or system.' }, { status: 400 })
  const headers = { 'Set-Cookie': themeCookie(theme) }
  const redirectTo = form.get('redirectTo')
  if (redirectTo !== null) return redirect(safeRedirectPath(redirectTo), { status: 303, headers })
  return data({ theme }, { headers })
}

export function loader() {
  // Nothing to show at /theme itself.
  return redirect('/')
}
