import type { Config } from '@react-router/dev/config'

export default {
  ssr: true,
  // BUILD_DIR lets two builds (e.g. parallel test runs) live side by side.
  buildDirectory: process.env.BUILD_DIR ?? 'build',
  // The whole route manifest comes as one immutable asset on the first page, instead of the
  // browser asking the server's /__manifest (uncached, a route match per path) for the links of
  // every page it shows: docs/decisions/0015-route-manifest-up-front.md.
  routeDiscovery: { mode: 'initial' },
} satisfies Config
