import type { RequestHandler } from 'express'
import type { DB } from '~/lib/db.server'
import {
  MAINTENANCE_REFUSAL,
  MAINTENANCE_RETRY_AFTER_SECONDS,
  maintenanceVerdict,
} from '~/services/maintenance.server'

/** What the gate tells the app (getLoadContext passes it to the root loader). */
export interface MaintenanceLocals {
  maintenance?: 'admin' | 'closed'
}

/**
 * Whether a client-side navigation's data request runs the root loader, which answers with the
 * maintenance page. React Router names the loaders to run in `_routes` when it skips some: a
 * fetcher's load names only its own route (the payment dialog loading checkout), which would
 * otherwise be served while the shop is closed.
 */
function rootLoaderRuns(routes: unknown): boolean {
  if (routes === undefined) return true
  return typeof routes === 'string' && routes.split(',').includes('root')
}

/**
 * Maintenance mode at the edge (app/services/maintenance.server.ts decides). A visitor's page
 * request (and a client-side navigation's data request) goes on to the app, whose root loader
 * answers with the maintenance page (503); any other request of a visitor (a form post, also
 * one sent as a data request, a fetcher's load, a PDF, the sitemap) is refused here with a 503,
 * so nothing is bought or changed while the shop is closed. Paths kept open take their own care
 * (the order page refuses a review, app/services/maintenance.server.ts closedToVisitor).
 */
export function maintenanceGate(db: DB): RequestHandler {
  return (req, res, next) => {
    // The path is judged on a fixed origin, not the Host header: the sender chooses that, and
    // "shop.test/admin" would make /checkout/... read as /admin/checkout/... (kept open), while
    // React Router's adapter cuts the host at its first / and routes /checkout/... (the path
    // after the host is the same whatever the host, docs/settings.md "Maintenance mode").
    const visitor = () =>
      new Request(`http://localhost${req.originalUrl}`, {
        headers: { cookie: req.headers.cookie ?? '' },
      })
    maintenanceVerdict(db, visitor)
      .then((verdict) => {
        const locals = res.locals as MaintenanceLocals
        if (verdict === 'open') return next()
        if (verdict === 'admin') {
          locals.maintenance = 'admin'
          return next()
        }
        res.setHeader('Retry-After', String(MAINTENANCE_RETRY_AFTER_SECONDS))
        res.setHeader('Cache-Control', 'no-store')
        const reading = req.method === 'GET' || req.method === 'HEAD'
        const page = reading && !/\.\w+$/.test(req.path)
        if (page || (reading && req.path.endsWith('.data') && rootLoaderRuns(req.query._routes))) {
          locals.maintenance = 'closed'
          return next()
        }
        res.status(503).type('text/plain').send(MAINTENANCE_REFUSAL)
      })
      .catch(next)
  }
}
