import { data, href, redirect } from 'react-router'
import { isTheme, safeRedirectPath, themeCookie } from '~/lib/theme'
import type { Route } from './+types/theme'
import { readFormData } from '~/lib/form-data.server'
import { savePreferences } from '~/data/preferences.server'
import { getSiteSettings } from '~/data/settings.server'
import { preferencesInUse } from '~/lib/preferences'
import { services } from '~/lib/app-context.server'
import { getUser } from '~/services/auth.server'

/**
 * POST /theme: remembers light, dark or system in a cookie (and in a signed-in customer's
 * preferences). A plain form (no JavaScript) sends
 * redirectTo and is sent back there; the header's fetcher does not and gets the theme back.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await readFormData(request)
  const theme = form.get('theme')
  if (!isTheme(theme)) return data({ error: 'Choose light, dark or system.' }, { status: 400 })
  // A signed-in customer's choice is also their saved preference (/dashboard/settings), which
  // the root prefers to the cookie.
  const user = await getUser(request)
  const { db, env } = services()
  if (user) {
    // A first save keeps the language this browser shows (its cookie) rather than the default.
    const inUse = preferencesInUse(null, request.headers.get('Cookie'), await getSiteSettings(db))
    await savePreferences(db, user.id, { theme }, { inUse })
  }
  const headers = {
    'Set-Cookie': themeCookie(theme, { secure: env.PUBLIC_URL.startsWith('https://') }),
  }
  const redirectTo = form.get('redirectTo')
  if (redirectTo !== null) return redirect(safeRedirectPath(redirectTo), { status: 303, headers })
  return data({ theme }, { headers })
}

export function loader() {
  // Nothing to show at /theme itself.
  return redirect(href('/'))
}
