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
    : { target: 'es2022' },
  ssr: {
    // Native modules stay outside the bundle and load from node_modules.
    external: ['better-sqlite3', 'pg', 'sharp'],
  },
  plugins: [tailwindcss(), reactRouter()],
}))
