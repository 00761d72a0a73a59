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
 * Maintenance mode at the edge (app/services/maintenance.server.ts decides). A visitor's page
 * request goes on to the app, whose root loader answers with the maintenance page (503); any
 * other request of a visitor (a form post, a PDF, the sitemap) is refused here with a 503, so
 * nothing is bought or changed while the shop is closed. Paths kept open take their own care
 * (the order page refuses a review, app/services/maintenance.server.ts closedToVisitor).
 */
export function maintenanceGate(db: DB): RequestHandler {
  return (req, res, next) => {
    const visitor = () =>
      new Request(`${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`, {
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
        const page = (req.method === 'GET' || req.method === 'HEAD') && !/\.\w+$/.test(req.path)
        if (page || req.path.endsWith('.data')) {
          locals.maintenance = 'closed'
          return next()
        }
        res.status(503).type('text/plain').send(MAINTENANCE_REFUSAL)
      })
      .catch(next)
  }
}
