import { type RouteConfig, index } from '@react-router/dev/routes'

/** Every URL of the app, in one place. */
export default [index('routes/shop/home.tsx')] satisfies RouteConfig
