import fs from 'node:fs'
import type { Server } from 'node:http'
import path from 'node:path'
import { createRequestHandler } from '@react-router/express'
import compression from 'compression'
import express, { type RequestHandler } from 'express'
import type { ServerBuild } from 'react-router'
import type { ViteDevServer } from 'vite'
import { closeServices, openServices } from '~/lib/app-context.server'
import { loadEnv } from '~/lib/env.server'
import { databaseAnswers } from '~/lib/health.server'
import { migrateToLatest } from '../db/migrate'
import { seedDemo, shouldSeedOnStart } from '../db/seed'

/** An error whose message is the whole story: printed as one line, no stack. */
export class StartupError extends Error {
  override name = 'StartupError'
}

const securityHeaders: RequestHandler = (req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin')
  // Nobody may frame the shop (clickjacking); X-Frame-Options for older browsers.
  res.setHeader('Content-Security-Policy', "frame-ancestors 'self'; base-uri 'self'; object-src 'none'")
  res.setHeader('X-Frame-Options', 'SAMEORIGIN')
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin')
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), interest-cohort=()')
  if (req.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
  next()
}

export interface StartOptions {
  /** The Vite dev server, in development (server.js --dev). */
  vite?: ViteDevServer
  /** Listen on this port instead of PORT (0 picks a free one). */
  port?: number
}

export interface RunningServer {
  server: Server
  url: string
  close(): Promise<void>
}

export async function start(options: StartOptions = {}): Promise<RunningServer> {
  const env = loadEnv()
  const { db, engine, storage } = openServices(env)
  const where = engine === 'sqlite' ? `SQLite at ${path.join(env.DATA_DIR, 'keybazaar.db')}` : 'PostgreSQL'

  try {
    const applied = await migrateToLatest(db)
    if (applied.length) console.log(`[db] applied migrations: ${applied.join(', ')}`)
  } catch (error) {
    await closeServices()
    const reason = error instanceof Error ? error.message : String(error)
    throw new StartupError(`Cannot prepare the database (${where}): ${reason}`)
  }

  if (await shouldSeedOnStart(db, { seedDemo: env.SEED_DEMO, engine })) {
    const result = await seedDemo(db, storage)
    console.log(`[seed] demo catalogue: ${result.created} products added`)
  }
  if (env.appSecretSource === 'generated') {
    console.log(`[config] generated APP_SECRET into ${path.join(env.DATA_DIR, 'secret')} (keep it safe; it encrypts stored secrets)`)
  }

  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', 'loopback')
  app.use(securityHeaders)
  app.use(compression())

  // For load balancers and uptime checks: 200 only while the database answers.
  app.get('/healthz', async (_req, res) => {
    const healthy = await databaseAnswers(db)
    res
      .status(healthy ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .type('text/plain')
      .send(healthy ? 'ok' : 'database unavailable')
  })

  app.use(
    '/uploads',
    express.static(path.join(env.DATA_DIR, 'uploads'), {
      maxAge: '7d',
      index: false,
      dotfiles: 'deny',
      fallthrough: false,
    }),
  )

  let getBuild: () => Promise<ServerBuild>
  if (options.vite) {
    const vite = options.vite
    app.use(vite.middlewares)
    getBuild = () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>
  } else {
    const clientDir = path.resolve(import.meta.dirname, '../client')
    if (!fs.existsSync(clientDir)) throw new StartupError(`No client build at ${clientDir}: run npm run build`)
    // File names under assets/ carry a content hash, so they never change.
    app.use('/assets', express.static(path.join(clientDir, 'assets'), { immutable: true, maxAge: '1y', index: false }))
    app.use(express.static(clientDir, { maxAge: '1h', index: false }))
    getBuild = () => import('virtual:react-router/server-build')
  }

  app.all('*splat', createRequestHandler({ build: getBuild, mode: options.vite ? 'development' : 'production' }))

  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(options.port ?? env.PORT, env.HOST, () => resolve(listening))
    listening.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new StartupError(`Port ${options.port ?? env.PORT} is already in use: stop the other server or set PORT`)
          : error,
      ),
    )
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : env.PORT
  const url = `http://localhost:${port}`
  console.log(`KeyBazaar is running at ${url} (${where})`)

  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeIdleConnections()
    }).then(() => closeServices()))

  return { server, url, close }
}
