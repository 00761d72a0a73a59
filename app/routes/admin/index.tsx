import { href, redirect } from 'react-router'
import { requireAdmin } from '~/services/permissions.server'
import type { Route } from './+types/index'

/** /admin is the dashboard. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  throw redirect(href('/admin/dashboard'))
}
