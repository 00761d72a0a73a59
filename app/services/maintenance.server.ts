import { getSiteSettings } from '~/data/settings.server'
import type { DB } from '~/lib/db.server'
import { getUser } from './auth.server'

/**
 * Maintenance mode (Settings > System, docs/settings.md). While it is on, visitors get the
 * maintenance page with status 503 and Retry-After; admins browse and work normally. Paths a
 * payment, a sign-in or the admin area needs are never closed, so a payment under way still
 * lands (the gateway's callback, the buyer's return page, the simulator) and an admin can sign
 * in and switch the mode off. What a buyer has already bought stays reachable too: the order
 * pages their mails link to (delivery, invoice, credit notes) and My Orders, and so does the
 * unsubscribe link of reminders and offers.
 */
export const MAINTENANCE_RETRY_AFTER_SECONDS = 600

/** What a visitor's request that would change something is told while the shop is closed. */
export const MAINTENANCE_REFUSAL =
  'The shop is closed for maintenance. Please try again in a few minutes.'

const OPEN_PREFIXES = [
  '/api/', // the gateway callbacks and checksum endpoints, better-auth (/api/auth/*)
  '/payment/', // the buyer's return from the gateway, the hosted payment form
  '/__simulator/',
  '/admin/', // guarded by the admin layout itself; visitors are sent to sign in
  '/auth/google',
  '/assets/',
  '/images/',
  '/uploads/',
  '/orders/', // a buyer's order pages, invoices and credit notes (each checks its own access)
]
const OPEN_PATHS = new Set([
  '/admin',
  '/login',
  '/logout',
  '/forgot-password',
  '/reset-password',
  // The confirmation link's page: /login stays open and mails a new link to an unconfirmed
  // account, so the link it mails must lead somewhere.
  '/verify-email',
  '/theme',
  '/dashboard/orders',
  // A mail's unsubscribe link: mail apps post to it whenever the reader clicks, and switching
  // mail off changes nothing anyone sees in the shop (docs/notifications.md).
  '/unsubscribe',
  '/healthz',
  '/favicon.ico',
])

/** Whether a path stays reachable for everyone while the shop is in maintenance. */
export function openDuringMaintenance(pathname: string): boolean {
  const path = pathname.replace(/\.data$/, '')
  return OPEN_PATHS.has(path) || OPEN_PREFIXES.some((prefix) => path.startsWith(prefix))
}

export type MaintenanceVerdict = 'open' | 'admin' | 'closed'

/**
 * What maintenance mode means for a request: 'open' (mode off, or a path that stays open),
 * 'admin' (mode on, an admin: browse with a banner), 'closed' (mode on, a visitor). The
 * settings are read first: they are cached, and the mode is almost always off, so the request
 * is built (`visitor`) and its session looked up only while the shop is closed. Its path is
 * judged as the URL parser normalises it (`/admin/../checkout` is /checkout), as the router
 * will route it.
 */
export async function maintenanceVerdict(
  db: DB,
  visitor: () => Request,
): Promise<MaintenanceVerdict> {
  const settings = await getSiteSettings(db)
  if (!settings.maintenanceMode) return 'open'
  const request = visitor()
  if (openDuringMaintenance(new URL(request.url).pathname)) return 'open'
  const user = await getUser(request)
  return user?.isAdmin ? 'admin' : 'closed'
}

/**
 * Whether the shop is closed to this visitor (maintenance on, not an admin). The order pages stay
 * open for what a buyer has bought (seeing it, revealing it, reporting a problem with it), but a
 * review would change what every visitor sees, so it waits until the shop reopens.
 */
export async function closedToVisitor(
  db: DB,
  user: { isAdmin?: boolean | null } | null,
): Promise<boolean> {
  const settings = await getSiteSettings(db)
  return settings.maintenanceMode && !user?.isAdmin
}
