import path from 'node:path'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

export default defineConfig(({ isSsrBuild }) => ({
  resolve: {
    alias: { '~': path.resolve(import.meta.dirname, 'app') },
  },
  build: isSsrBuild
    ? {
        // The production server (server/index.ts) is the SSR entry; it imports the
        // React Router server build, so one bundle holds the server and the app.
        rollupOptions: { input: './server/index.ts' },
        target: 'node20',
      }
    : {
        target: 'es2022',
        rolldownOptions: {
          output: {
            // Fewer, larger shared chunks: the storefront otherwise loads twenty-one small
            // files, and on a phone's connection each one costs a round trip. A group takes its
            // modules' static dependencies with it, so components/ui (whose hosts lazy-load the
            // dialog and toast libraries) stays out of it.
            codeSplitting: {
              groups: [
                { name: 'framework', test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|turbo-stream|cookie|set-cookie-parser)[\\/]/, priority: 3 },
                { name: 'icons', test: /[\\/]node_modules[\\/]lucide-react[\\/]/, priority: 2 },
                { name: 'shop', test: /[\\/]app[\\/](components[\\/]shop[\\/]|lib[\\/](money|images|theme|safe-redirect|slug))[\\/.]/, priority: 1 },
              ],
            },
          },
        },
      },
  ssr: {
    // Native modules stay outside the bundle and load from node_modules.
    external: ['better-sqlite3', 'pg', 'sharp'],
  },
  plugins: [tailwindcss(), reactRouter()],
}))
