// Starts KeyBazaar: the built production server, or with --dev the Vite dev server.
import process from 'node:process'

const dev = process.argv.includes('--dev')

async function main() {
  if (dev) {
    process.env.NODE_ENV ??= 'development'
    const { createServer } = await import('vite')
    const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' })
    const { start } = await vite.ssrLoadModule('./server/index.ts')
    return start({ vite })
  }
  const buildDir = process.env.BUILD_DIR ?? 'build'
  const { start } = await import(new URL(`./${buildDir}/server/index.js`, import.meta.url).href)
  return start()
}

main().then(
  (running) => {
    const stop = (signal) => {
      console.log(`Received ${signal}, shutting down`)
      const force = setTimeout(() => process.exit(1), 10_000)
      force.unref()
      running.close().then(() => process.exit(0))
    }
    process.once('SIGTERM', stop)
    process.once('SIGINT', stop)
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
