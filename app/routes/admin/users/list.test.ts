import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import {
  createStaticHandler,
  createStaticRouter,
  data,
  isRouteErrorResponse,
  StaticRouterProvider,
  UNSAFE_withComponentProps as withComponentProps,
  UNSAFE_withErrorBoundaryProps as withErrorBoundaryProps,
  type StaticHandlerContext,
} from 'react-router'
import { describe, expect, it } from 'vitest'
import AdminLayout, { ErrorBoundary as AdminLayoutErrorBoundary } from '../layout'
import AdminUsers, { ErrorBoundary } from './list'

/**
 * /admin/users when its loader fails, rendered on the server as React Router renders a page:
 * the route's own boundary, inside the admin layout (the shell stays), says the spec's
 * 'Failed to fetch users. Please try again.'; a 403 still ends on the layout's Access Denied
 * page. The layout's loader and the users loader are stand-ins (no database here).
 */
const LAYOUT_ID = 'routes/admin/layout'
const layoutData = {
  siteName: 'KeyBazaar',
  user: { name: 'Asha Rao', email: 'asha@example.in', role: 'Admin' },
  openReports: 0,
  testMode: false,
  maintenanceMode: false,
  access: { canCreateProducts: true, canManageOrders: true, canManageUsers: true },
}

async function renderUsersFailing(failure: unknown, url = '/admin/users') {
  const handler = createStaticHandler([
    {
      id: LAYOUT_ID,
      path: '/admin',
      Component: withComponentProps(AdminLayout as never),
      ErrorBoundary: withErrorBoundaryProps(AdminLayoutErrorBoundary as never),
      loader: () => layoutData,
      children: [
        {
          id: 'routes/admin/users/list',
          path: 'users',
          Component: withComponentProps(AdminUsers as never),
          ErrorBoundary: withErrorBoundaryProps(ErrorBoundary as never),
          loader: () => {
            throw failure
          },
        },
      ],
    },
  ])
  const context = await handler.query(new Request(`http://localhost${url}`))
  if (context instanceof Response) throw new Error('expected a page, not a response')
  const render = (ctx: StaticHandlerContext) =>
    renderToString(
      createElement(StaticRouterProvider, {
        router: createStaticRouter(handler.dataRoutes, ctx),
        context: ctx,
      }),
    )
  return { context, render }
}

/** The markup's text, tags removed and the apostrophe decoded. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, ' ')

describe('the users list when the users cannot be loaded', () => {
  it("shows the spec's message inside the admin shell, with a retry of the same list", async () => {
    const { context, render } = await renderUsersFailing(
      new Error('database is down'),
      '/admin/users?q=asha&page=2',
    )
    expect(context.statusCode).toBe(500)
    const html = render(context)
    expect(text(html)).toContain('Failed to fetch users. Please try again.')
    // The layout stays: the shell's sidebar and brand are there.
    expect(html).toContain('aria-label="Admin"')
    expect(text(html)).toContain('Admin panel')
    // Not the layout's generic error page.
    expect(text(html)).not.toContain('An unexpected error occurred')
    expect(html).toContain('href="/admin/users?q=asha&amp;page=2"')
    expect(text(html)).toContain('Try again')
    // What went wrong is not shown on the page.
    const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'))
    expect(main).toContain('Failed to fetch users. Please try again.')
    expect(main).not.toContain('database is down')
  })

  it('says the same for an error response other than 403', async () => {
    const { context, render } = await renderUsersFailing(
      data('Service Unavailable', { status: 503 }),
    )
    expect(text(render(context))).toContain('Failed to fetch users. Please try again.')
  })

  it("leaves a 403 to the admin layout's Access Denied page", async () => {
    const { context, render } = await renderUsersFailing(
      data(
        { title: 'Access Denied', message: "You don't have permission to manage users." },
        { status: 403 },
      ),
    )
    // The route's boundary throws it on; React Router's server then renders the error at the
    // deepest boundary rendered, the layout's.
    let thrown: unknown
    try {
      render(context)
    } catch (error) {
      thrown = error
    }
    expect(isRouteErrorResponse(thrown) && thrown.status).toBe(403)
    const html = render({ ...context, errors: { [LAYOUT_ID]: thrown } })
    expect(text(html)).toContain('Access Denied')
    expect(text(html)).toContain("You don't have permission to manage users.")
    expect(text(html)).not.toContain('Failed to fetch users')
  })
})
