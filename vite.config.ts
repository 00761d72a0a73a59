import fs from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, type Plugin } from 'vite'

/**
 * One "shell" chunk instead of a dozen small shared ones.
 *
 * Every page loads the client entry (React, React Router) and the root layout, so everything
 * they import statically is one chunk: nothing more than before for any page, in one request.
 * The small helpers the home and product pages share with other routes (money, images, a few
 * icons) join it too, so a storefront page loads the entry, the shell, its route and at most one
 * chunk it shares with the other storefront page: 6 script files on the home page instead of
 * 21. On a phone's slow connection each file is a request (Lighthouse's simulated load counts
 * every one that starts before the first paint). Everything else (admin, checkout, the lazily
 * loaded dialogs and toasts) keeps Rolldown's automatic splitting.
 */
const CLIENT_ROUTE = '?__react-router-build-client-route'
const isShellEntry = (id: string) =>
  /[\\/]entry\.client\.[jt]sx?$/.test(id) || id.endsWith(`/app/root.tsx${CLIENT_ROUTE}`)
const STOREFRONT_ROUTES = ['/app/routes/shop/home.tsx', '/app/routes/shop/product.tsx']
const isStorefrontEntry = (id: string) =>
  STOREFRONT_ROUTES.some((route) => id.endsWith(route + CLIENT_ROUTE))

/**
 * The browsers Tailwind CSS 4 supports (it needs oklch colours, cascade layers, @property). Both
 * builds use it: the server renders the stylesheet's URL and the browser's bundle renders it
 * again on hydration, so they must emit the same file, or React adds a second stylesheet to
 * every page after hydration. It also keeps the fallbacks older browsers would need (lab and hex
 * colours, about 1 KiB compressed) out of the render-blocking stylesheet.
 */
const CSS_TARGET = ['chrome111', 'edge111', 'firefox128', 'safari16.4']

/** Source bytes (after transformation) a shared storefront helper may add to every page. */
const MAX_SHARED_HELPER_BYTES = 8_000

let shellModules = new Set<string>()

function shellChunkPlan(): Plugin {
  return {
    name: 'keybazaar:shell-chunk',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    // After the module graph is complete and before chunking, which reads shellModules.
    buildEnd() {
      const staticallyReachable = (roots: Iterable<string>) => {
        const seen = new Set<string>()
        const stack = [...roots]
        while (stack.length) {
          for (const id of this.getModuleInfo(stack.pop()!)?.importedIds ?? []) {
            if (!seen.has(id)) {
              seen.add(id)
              stack.push(id)
            }
          }
        }
        return seen
      }
      const entries = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry)
      const everyPage = staticallyReachable(entries.filter(isShellEntry))
      const storefront = staticallyReachable(entries.filter(isStorefrontEntry))
      const otherRoutes = staticallyReachable(
        entries.filter((id) => !isShellEntry(id) && !isStorefrontEntry(id)),
      )
      shellModules = new Set(everyPage)
      for (const id of storefront) {
        if (everyPage.has(id) || !otherRoutes.has(id)) continue
        // Only small helpers: a big module shared with, say, an admin page would make every
        // page pay for it, so it stays with Rolldown's automatic splitting.
        const adds = [id, ...staticallyReachable([id])].filter((dep) => !everyPage.has(dep))
        const bytes = adds.reduce(
          (sum, dep) => sum + (this.getModuleInfo(dep)?.code?.length ?? 0),
          0,
        )
        if (bytes <= MAX_SHARED_HELPER_BYTES) for (const dep of adds) shellModules.add(dep)
      }
      // Entries keep their own chunks (React Router loads each route module by its file).
      for (const id of entries) shellModules.delete(id)
    },
  }
}

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)
/** Text files under assets/ worth compressing ahead of time (smaller ones fit in a packet). */
const PRECOMPRESS = /\.(?:js|mjs|css|svg|json|txt)$/
const PRECOMPRESS_MIN_BYTES = 1024

/** Writes `<file>.br` (Brotli, quality 11) and `<file>.gz` (gzip, level 9) beside a file. */
async function precompressFile(file: string): Promise<void> {
  const content = await fs.readFile(file)
  if (content.length < PRECOMPRESS_MIN_BYTES) return
  const [br, gz] = await Promise.all([
    brotli(content, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
    gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ])
  if (br.length < content.length) await fs.writeFile(`${file}.br`, br)
  if (gz.length < content.length) await fs.writeFile(`${file}.gz`, gz)
}

/**
 * Brotli (quality 11) and gzip (level 9) copies of the client's assets, written beside them as
 * `<file>.br` and `<file>.gz`; the server sends them as they are (server/precompressed.ts).
 * The server's on-the-fly compression uses a fast Brotli level suited to pages that change with
 * every request; files that never change can afford the slowest, smallest one once, at build
 * time: the shell script goes from 117 to 100 KB and the render-blocking stylesheet from 13.0
 * to 10.7 KB. A copy that would not be smaller is not written.
 *
 * React Router writes the route manifest (`assets/manifest-<hash>.js`, loaded by every first
 * page: docs/decisions/0015-route-manifest-up-front.md) into the client's folder while the
 * server is built, so that file is compressed once the server build is written.
 */
function precompressAssets(): Plugin {
  return {
    name: 'keybazaar:precompress-assets',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir!
      if (this.environment.name === 'client') {
        await Promise.all(
          Object.keys(bundle)
            .filter((fileName) => fileName.startsWith('assets/') && PRECOMPRESS.test(fileName))
            .map((fileName) => precompressFile(path.join(outDir, fileName))),
        )
        return
      }
      const clientAssets = path.join(outDir, '..', 'client', 'assets')
      const manifests = (await fs.readdir(clientAssets).catch(() => [])).filter((name) =>
        /^manifest-[\w-]+\.js$/.test(name),
      )
      await Promise.all(manifests.map((name) => precompressFile(path.join(clientAssets, name))))
    },
  }
}

/**
 * React Router's package `exports` name only its development build (dist/development: extra
 * checks and warnings on every render); the production build sits beside it. The server build
 * bundles React Router together with the two adapters that import it (@react-router/express,
 * @react-router/node), so one alias gives the whole server ONE copy, the production one; were
 * the adapters left in node_modules they would load the development copy next to it and the
 * two copies' classes would fail each other's instanceof checks. React, react-dom and the other
 * packages still load from node_modules and pick their production builds from NODE_ENV, which
 * server.js sets. tests/unit/production-build.test.ts checks the built bundle.
 */
const REACT_ROUTER_PRODUCTION = path.resolve(
  import.meta.dirname,
  'node_modules/react-router/dist/production/index.mjs',
)
const SERVER_BUNDLED = ['react-router', '@react-router/express', '@react-router/node']

export default defineConfig(({ isSsrBuild, command }) => ({
  resolve: {
    alias: [
      { find: '~', replacement: path.resolve(import.meta.dirname, 'app') },
      ...(isSsrBuild && command === 'build'
        ? [{ find: /^react-router$/, replacement: REACT_ROUTER_PRODUCTION }]
        : []),
    ],
  },
  build: isSsrBuild
    ? {
        // The production server (server/index.ts) is the SSR entry; it imports the
        // React Router server build, so one bundle holds the server and the app.
        rollupOptions: { input: './server/index.ts' },
        target: 'node20',
        cssTarget: CSS_TARGET,
      }
    : {
        target: 'es2022',
        cssTarget: CSS_TARGET,
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [{ name: 'shell', test: (id: string) => shellModules.has(id) }],
            },
          },
        },
      },
  ssr: {
    // Native modules stay outside the bundle and load from node_modules.
    external: ['better-sqlite3', 'pg', 'sharp'],
    noExternal: command === 'build' ? SERVER_BUNDLED : [],
  },
  plugins: [tailwindcss(), reactRouter(), shellChunkPlan(), precompressAssets()],
}))
