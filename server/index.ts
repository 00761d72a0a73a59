import fs from 'node:fs'
import type { Server } from 'node:http'
import path from 'node:path'
import zlib from 'node:zlib'
import { createRequestHandler } from '@react-router/express'
import compression from 'compression'
import express, { type RequestHandler } from 'express'
import type { ServerBuild } from 'react-router'
import type { ViteDevServer } from 'vite'
import { adminStartupLines } from '~/data/user.server'
import { closeServices, openServices } from '~/lib/app-context.server'
import { restrictDataDir } from '~/lib/data-dir.server'
import { startBackgroundWork } from '~/services/background.server'
import { loadEnv } from '~/lib/env.server'
import { databaseAnswers } from '~/lib/health.server'
import {
  SIMULATOR_MOUNT_PATH,
  simulatorMerchant,
  simulatorMounted,
} from '~/services/payment/config.server'
import { migrateToLatest } from '../db/migrate'
import { seedDemo, shouldSeedOnStart } from '~/services/seed'
import { createPaytmSimulator } from '../simulators/paytm/simulator'
import { maintenanceGate, type MaintenanceLocals } from './maintenance'
import { createRazorpaySimulator } from '../simulators/razorpay/simulator'
import {
  RAZORPAY_SIMULATOR_PATH,
  RAZORPAY_WEBHOOK_PATH,
  razorpaySimulatorKeys,
  razorpaySimulatorMounted,
} from '~/services/payment/razorpay-config.server'
import { createPhonePeSimulator } from '../simulators/phonepe/simulator'
import {
  PHONEPE_SIMULATOR_PATH,
  PHONEPE_WEBHOOK_PATH,
  phonePeSimulatorCredentials,
  phonePeSimulatorMounted,
} from '~/services/payment/phonepe-config.server'
import { precompressedFiles } from './precompressed'
import { answerClientErrors, requestGuard } from './request-guard'
import {
  noStoreForPersonal,
  pagePolicy,
  sameOriginPosts,
  securityHeaders,
  type SecurityLocals,
} from './security'

/** An error whose message is the whole story: printed as one line, no stack. */
export class StartupError extends Error {
  override name = 'StartupError'
}

/**
 * React Router streams a page in many small pieces (React hands over about 2 KB at a time, and
 * the loader data follows in several script tags) and flushes the compressor after each piece.
 * Every flush ends a compressed block: the home page's 97 KB of HTML became 19.0 KB of gzip
 * instead of 15.0 KB, and 14.4 KB of Brotli instead of 13.2 KB, more than the 14.6 KB a new
 * connection carries in its first round trip, so a phone waited a whole round trip more.
 * Here the flushes within a few milliseconds become one: a page rendered at once goes out as one
 * compressed stream, and a part that streams in later (a slow loader's promise) still leaves at
 * most FLUSH_WINDOW_MS after it is ready.
 */
const FLUSH_WINDOW_MS = 10

/**
 * Brotli at quality 5 instead of the middleware's 4: the home page's HTML is 12.3 KB instead of
 * 13.3 KB (room under the 14.6 KB first round trip above for the response headers and a late
 * flush on a busy machine) for about 0.2 ms more CPU per page (measured on 97 KB of HTML).
 */
const BROTLI_QUALITY = 5
const coalesceFlushes: RequestHandler = (_req, res, next) => {
  const compressed = res as typeof res & { flush?: () => void }
  const flush = compressed.flush
  if (typeof flush === 'function') {
    let timer: NodeJS.Timeout | undefined
    compressed.flush = () => {
      timer ??= setTimeout(() => {
        timer = undefined
        flush.call(res)
      }, FLUSH_WINDOW_MS)
    }
    res.once('close', () => clearTimeout(timer))
  }
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
  // Before the database opens: its -wal and -shm files take the database file's mode.
  restrictDataDir(env.DATA_DIR)
  const { db, engine, storage } = openServices(env)
  const where =
    engine === 'sqlite' ? `SQLite at ${path.join(env.DATA_DIR, 'keybazaar.db')}` : 'PostgreSQL'

  try {
    const applied = await migrateToLatest(db)
    if (applied.length) console.log(`[db] applied migrations: ${applied.join(', ')}`)
  } catch (error) {
    await closeServices()
    const reason = error instanceof Error ? error.message : String(error)
    throw new StartupError(`Cannot prepare the database (${where}): ${reason}`)
  }

  if (await shouldSeedOnStart(db, { seedDemo: env.SEED_DEMO, engine })) {
    const result = await seedDemo(db, storage, env.APP_SECRET)
    console.log(`[seed] demo catalogue: ${result.created} products added`)
  }
  for (const line of await adminStartupLines(db, env.ADMIN_EMAILS)) console.log(line)
  if (env.appSecretSource === 'generated') {
    console.log(
      `[config] generated APP_SECRET into ${path.join(env.DATA_DIR, 'secret')} (keep it safe; it encrypts stored secrets)`,
    )
  }

  const app = express()
  app.disable('x-powered-by')
  // Only the proxies TRUST_PROXY names may set the client address (rate limits count it).
  app.set('trust proxy', env.TRUST_PROXY)
  app.use(securityHeaders(env))
  app.use(
    compression({ brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } } }),
  )
  app.use(coalesceFlushes)
  // Body limits and NUL refusal, before anything reads a request (server/request-guard.ts).
  app.use(requestGuard)

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

  // Without PAYTM_MID, the built-in Paytm simulator stands in for Paytm ("Test mode"). Its
  // merchant comes from APP_SECRET, so every process of the shop signs alike. Its test
  // controls can force any payment's outcome, so they exist only in tests or when asked for.
  if (simulatorMounted(env)) {
    const merchant = simulatorMerchant(env.APP_SECRET)
    app.use(
      SIMULATOR_MOUNT_PATH,
      createPaytmSimulator({
        resolveMerchantKey: (mid) => (mid === merchant.mid ? merchant.merchantKey : undefined),
        control: env.NODE_ENV === 'test' || Boolean(env.PAYTM_SIMULATOR_CONTROL),
      }),
    )
    console.log(
      `[payments] built-in Paytm simulator at ${SIMULATOR_MOUNT_PATH}: checkout is in test mode until a Paytm merchant is configured (PAYTM_MID or /admin/gateways)`,
    )
  }

  // Without RAZORPAY_KEY_ID, the built-in Razorpay simulator answers under its path; checkout
  // offers it while the Razorpay record is in testing without keys, or on a fresh install with
  // no record and no real Paytm (app/services/payment/razorpay-config.server.ts).
  if (razorpaySimulatorMounted(env)) {
    app.use(
      RAZORPAY_SIMULATOR_PATH,
      createRazorpaySimulator({
        ...razorpaySimulatorKeys(env.APP_SECRET),
        webhookUrl: `${env.PUBLIC_URL}${RAZORPAY_WEBHOOK_PATH}`,
        control: env.NODE_ENV === 'test' || Boolean(env.PAYTM_SIMULATOR_CONTROL),
      }),
    )
  }

  // Without PHONEPE_CLIENT_ID, the built-in PhonePe simulator answers under its path; checkout
  // offers it only while the Gateways page has a PhonePe record in testing without credentials.
  if (phonePeSimulatorMounted(env)) {
    app.use(
      PHONEPE_SIMULATOR_PATH,
      createPhonePeSimulator({
        ...phonePeSimulatorCredentials(env.APP_SECRET),
        publicUrl: `${env.PUBLIC_URL}${PHONEPE_SIMULATOR_PATH}`,
        webhookUrl: `${env.PUBLIC_URL}${PHONEPE_WEBHOOK_PATH}`,
        control: env.NODE_ENV === 'test' || Boolean(env.PAYTM_SIMULATOR_CONTROL),
      }),
    )
  }

  let getBuild: ServerBuild | (() => Promise<ServerBuild>)
  if (options.vite) {
    const vite = options.vite
    app.use(vite.middlewares)
    getBuild = () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>
  } else {
    const clientDir = path.resolve(import.meta.dirname, '../client')
    if (!fs.existsSync(clientDir))
      throw new StartupError(`No client build at ${clientDir}: run npm run build`)
    // File names under assets/ carry a content hash, so they never change.
    const assetsDir = path.join(clientDir, 'assets')
    app.use('/assets', precompressedFiles(assetsDir))
    app.use('/assets', express.static(assetsDir, { immutable: true, maxAge: '1y', index: false }))
    const publicFiles = express.static(clientDir, { maxAge: '1h', index: false })
    // Only paths that name a file go to the disk: pages and API calls skip a stat() each.
    app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()))
    // The build object itself, not a function: React Router then derives its route tables once
    // instead of on every request (a function is re-imported and re-derived per request).
    getBuild = (await import('virtual:react-router/server-build')) as ServerBuild
  }

  app.all(
    '*splat',
    sameOriginPosts(env),
    noStoreForPersonal,
    pagePolicy(db, env),
    maintenanceGate(db),
    createRequestHandler({
      build: getBuild,
      mode: options.vite ? 'development' : 'production',
      // The client address (X-Forwarded-For only from a trusted proxy), for rate limits.
      // The CSP nonce of this response, for entry.server.tsx to write into the page.
      getLoadContext: (req, res) => ({
        clientIp: req.ip ?? '',
        cspNonce: (res.locals as SecurityLocals).cspNonce,
        maintenance: (res.locals as MaintenanceLocals).maintenance,
      }),
    }),
  )

  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(options.port ?? env.PORT, env.HOST, () => resolve(listening))
    listening.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new StartupError(
              `Port ${options.port ?? env.PORT} is already in use: stop the other server or set PORT`,
            )
          : error,
      ),
    )
  })
  answerClientErrors(server)
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : env.PORT
  const url = `http://localhost:${port}`
  console.log(`KeyBazaar is running at ${url} (${where})`)
  // The job runner (mail outbox and other background work).
  const background = startBackgroundWork(db)

  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeIdleConnections()
    })
      .then(() => background.stop())
      .then(() => closeServices()))

  return { server, url, close }
}
