import { href, isRouteErrorResponse, Link, Outlet } from 'react-router'
import { AdminShell, type AdminShellAccess } from '~/components/admin/admin-shell'
import { AccessDenied } from '~/components/auth/access-denied'
import { countOpenReports } from '~/data/order-report.server'
import { getSiteSettings } from '~/data/settings.server'
import { services } from '~/lib/app-context.server'
import { testModeOnly } from '~/services/payment/offered-gateways.server'
import { requireAdmin } from '~/services/permissions.server'
import { ACCESS_DENIED_TITLE, NOT_ADMIN_MESSAGE } from '~/lib/validation/auth'
import type { Route } from './+types/layout'
import { buttonVariants } from '~/components/ui/button-variants'

/**
 * The guarded admin area (/admin/*). Not signed in: to / with the login modal and a way
 * back; signed in without admin: 403 Access Denied. Each admin route's loader and action
 * still call their own guard (requireAdmin / requirePermission): loaders run in parallel,
 * and actions do not pass through this loader at all.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireAdmin(request)
  const { db, env } = services()
  const [settings, openReports, testMode] = await Promise.all([
    getSiteSettings(db),
    // The Orders badge: only for admins who can open the orders.
    user.permissions.canManageOrders ? countOpenReports(db) : 0,
    // Every way to pay takes test payments only (simulators, gateways' test environments).
    testModeOnly(db, env),
  ])
  return {
    siteName: settings.siteName,
    user: { name: user.name, email: user.email, role: 'Admin', photo: user.photo },
    openReports,
    testMode,
    maintenanceMode: settings.maintenanceMode,
    // What the sidebar lists: a section only for admins whose permissions let them open it.
    access: {
      canCreateProducts: user.permissions.canCreateProducts,
      canManageOrders: user.permissions.canManageOrders,
      canManageUsers: user.permissions.canManageUsers,
    } satisfies AdminShellAccess,
  }
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminShell {...loaderData}>
      <Outlet />
    </AdminShell>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 403) {
    const denied = error.data as { title?: string; message?: string } | undefined
    return (
      <AccessDenied
        title={denied?.title ?? ACCESS_DENIED_TITLE}
        message={denied?.message ?? NOT_ADMIN_MESSAGE}
      />
    )
  }
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-3xl font-bold">{notFound ? 'Page not found' : 'Something went wrong'}</h1>
      <p className="text-slate-600 dark:text-slate-300">
        {notFound
          ? 'This admin page does not exist.'
          : 'An unexpected error occurred. Please try again in a moment.'}
      </p>
      <Link to={href('/admin/dashboard')} className={buttonVariants()}>
        Back to the dashboard
      </Link>
    </main>
  )
}
