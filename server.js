// Starts KeyBazaar: the built production server, or with --dev the Vite dev server.
import cluster from 'node:cluster'
import process from 'node:process'
import { fileURLToPath } from 'node:url'

const dev = process.argv.includes('--dev')

async function main() {
  if (dev) {
    process.env.NODE_ENV ??= 'development'
    const { createServer } = await import('vite')
    const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' })
    const { start } = await vite.ssrLoadModule('./server/index.ts')
    return start({ vite })
  }
  // React, react-dom and other packages pick their production builds from NODE_ENV when they
  // are first loaded, so it is set before the build is imported; without it every page renders
  // with React's development checks. Config rules that ask whether the operator said
  // "production" themselves read NODE_ENV_DEFAULTED (app/lib/env.server.ts).
  if (process.env.NODE_ENV === undefined) {
    process.env.NODE_ENV = 'production'
    process.env.NODE_ENV_DEFAULTED = '1'
  }
  const buildDir = process.env.BUILD_DIR ?? 'build'
  const { serve } = await import(new URL(`./${buildDir}/server/index.js`, import.meta.url).href)
  // WEB_CONCURRENCY processes: this file is also what each worker of the cluster runs.
  return serve({ workerEntry: fileURLToPath(import.meta.url) })
}

main().then(
  (running) => {
    let stopping = false
    const stop = (signal) => {
      // A worker hears from its primary, and on Ctrl-C from the terminal too: one stop each.
      if (stopping) return
      stopping = true
      if (!cluster.isWorker) console.log(`Received ${signal}, shutting down`)
      const force = setTimeout(() => process.exit(1), 10_000)
      force.unref()
      running.close().then(() => process.exit(0))
    }
    process.on('SIGTERM', stop)
    process.on('SIGINT', stop)
  },
  (error) => {
    // Configuration and start-up problems are one readable line, not a stack trace.
    if (error && (error.name === 'ConfigError' || error.name === 'StartupError')) {
      console.error(`KeyBazaar cannot start: ${error.message}`)
    } else if (error && error.code === 'ERR_MODULE_NOT_FOUND' && !dev) {
      console.error(
        'KeyBazaar cannot start: no production build found; run `npm run build` (or `npm start`, which builds)',
      )
    } else {
      console.error(error)
    }
    process.exit(1)
  },
)
