import { createElement, type ComponentType } from 'react'
import { renderToString } from 'react-dom/server'
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  UNSAFE_withComponentProps as withComponentProps,
} from 'react-router'
import { afterAll, beforeAll } from 'vitest'
import type { DB, Engine } from '~/lib/db.server'

/**
 * Route modules tested as the server runs them, against a file's test database: their loaders
 * and actions read it through services() (app/lib/app-context.server.ts), which answers whatever
 * the process opened.
 */
const holder = globalThis as typeof globalThis & { __keybazaar?: unknown }

/** Makes services() answer this file's test database (and these settings) in its tests. */
export function serveTestDb(
  t: { db: DB; engine: Engine },
  more: { env?: Record<string, unknown>; storage?: unknown } = {},
): void {
  beforeAll(() => {
    holder.__keybazaar = { db: t.db, engine: t.engine, env: {}, ...more }
  })
  afterAll(() => {
    holder.__keybazaar = undefined
  })
}

export interface PageRoute {
  id: string
  path: string
  Component: ComponentType<never>
  loader?: unknown
  action?: unknown
}

/**
 * The page a request gets from one route (its loader, or its action then loader for a POST),
 * rendered on the server; `requestContext` is what the Express server passes (the client's IP).
 */
export async function renderPage(
  route: PageRoute,
  request: Request,
  requestContext: Record<string, unknown> = {},
) {
  const handler = createStaticHandler([
    {
      id: route.id,
      path: route.path,
      Component: withComponentProps(route.Component as never),
      loader: route.loader as never,
      action: route.action as never,
    },
  ])
  const context = await handler.query(request, { requestContext: requestContext as never })
  if (context instanceof Response) throw new Error('expected a page, not a response')
  const html = renderToString(
    createElement(StaticRouterProvider, {
      router: createStaticRouter(handler.dataRoutes, context),
      context,
    }),
  )
  return { html, status: context.statusCode, context }
}

/** The markup's text, tags removed and entities decoded. */
export const pageText = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')

/** The text of the rendered table row holding a cell whose text is `cell` (an order id, say). */
export const tableRowText = (html: string, cell: string) =>
  pageText(
    html
      .split('<tr')
      .find((row) => row.includes(`>${cell}<`))
      ?.split('</tr>')[0] ?? '',
  )

/** Where the page's post forms go, decoded. */
export const postActions = (html: string) =>
  [...html.matchAll(/<form[^>]*>/g)]
    .map((match) => match[0])
    .filter((tag) => tag.includes('method="post"'))
    .map((tag) => /action="([^"]*)"/.exec(tag)?.[1]?.replace(/&amp;/g, '&') ?? '')

/**
 * A route action's redirect for a posted form (a done or refused action answers with one): the
 * Response it throws. Anything else it does fails the test.
 */
export async function postForRedirect(
  action: (args: never) => unknown,
  url: string,
  form: Record<string, string>,
  params: Record<string, string> = {},
  requestContext: Record<string, unknown> = { clientIp: '203.0.113.9' },
): Promise<Response> {
  const request = new Request(url, { method: 'POST', body: new URLSearchParams(form) })
  try {
    await action({ request, params, context: requestContext } as never)
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    throw thrown
  }
  throw new Error('expected a redirect')
}

/** The session cookie a redirect sets (its one-time message), to send with the next request. */
export const redirectCookie = (response: Response) =>
  (response.headers.get('Set-Cookie') ?? '').split(';')[0]!
