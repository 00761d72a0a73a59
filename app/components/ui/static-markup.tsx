import {
  createContext,
  createElement,
  useContext,
  type ComponentProps,
  type JSX,
  type ReactNode,
} from 'react'
import {
  UNSAFE_DataRouterContext as DataRouterContext,
  UNSAFE_DataRouterStateContext as DataRouterStateContext,
  UNSAFE_FetchersContext as FetchersContext,
  UNSAFE_FrameworkContext as FrameworkContext,
  UNSAFE_LocationContext as LocationContext,
  UNSAFE_NavigationContext as NavigationContext,
  UNSAFE_RouteContext as RouteContext,
  UNSAFE_ViewTransitionContext as ViewTransitionContext,
} from 'react-router'

/**
 * Renders `node` to HTML, or answers the HTML it rendered before under `key`. Provided by the
 * server's entry (app/entry.server.tsx with app/lib/static-markup.server.ts); absent in the
 * browser.
 */
export type MarkupRenderer = (key: string, node: ReactNode) => string

export const StaticMarkupContext = createContext<MarkupRenderer | null>(null)

type Tag = keyof JSX.IntrinsicElements

/**
 * An element whose content does not depend on the visitor (the footer, navigation, a product's
 * description and its icons), rendered to HTML once on the server and written into every page
 * as that string, so a signed-in visitor's page (never cached whole, see docs/page-cache.md)
 * does not rebuild it on every request. The browser renders and hydrates the same children as
 * usual: the HTML is what React itself wrote for them.
 *
 * `name` tells the places apart; `deps` must hold everything the children show, including what
 * they read from the router (the location, the root loader's data): two renders with equal
 * `name` and `deps` give the same HTML. What shows who the visitor is (names, orders, wishlist
 * hearts) stays outside, rendered fresh every time; a mark of the viewer's that only picks
 * between variants (a review they voted on) may be a dep. Nothing inside may use useId (the
 * separate render would number ids differently from the browser), put resources into the head
 * (<title>, <meta>, preloads) or suspend.
 */
export function StaticMarkup<T extends Tag>({
  as,
  name,
  deps,
  children,
  ...props
}: { as: T; name: string; deps: readonly unknown[]; children: ReactNode } & ComponentProps<T>) {
  const render = useContext(StaticMarkupContext)
  // The router's contexts, handed on to the separate render (Link and the loader data hooks
  // read them). Read on both sides, so the hooks are the same on every render.
  const contexts: Array<[React.Context<any>, unknown]> = [
    [FrameworkContext, useContext(FrameworkContext)],
    [DataRouterContext, useContext(DataRouterContext)],
    [DataRouterStateContext, useContext(DataRouterStateContext)],
    [FetchersContext, useContext(FetchersContext)],
    [ViewTransitionContext, useContext(ViewTransitionContext)],
    [NavigationContext, useContext(NavigationContext)],
    [LocationContext, useContext(LocationContext)],
    [RouteContext, useContext(RouteContext)],
  ]
  if (!render) return createElement(as, props, children)
  const node = contexts.reduceRight<ReactNode>(
    (inner, [context, value]) => createElement(context.Provider, { value }, inner),
    children,
  )
  return createElement(as, {
    ...props,
    dangerouslySetInnerHTML: { __html: render(JSON.stringify([name, deps]), node) },
  })
}
