import { redirect } from 'react-router'
import { requireAdmin } from '~/lib/permissions.server'
import type { Route } from './+types/index'

/** /admin is the dashboard (spec section 2). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  throw redirect('/admin/dashboard')
}
