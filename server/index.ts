import cluster from 'node:cluster'
import fs from 'node:fs'
import http, { type Server } from 'node:http'
import path from 'node:path'
import zlib from 'node:zlib'
import { createRequestHandler } from '@react-router/express'
import compression from 'compression'
import express, { type RequestHandler } from 'express'
import type { ServerBuild } from 'react-router'
import type { JobRunner } from '~/lib/jobs.server'
import type { ViteDevServer } from 'vite'
import { closeServices, openServices } from '~/lib/app-context.server'
import { restrictDataDir } from '~/lib/data-dir.server'
import { startBackgroundWork } from '~/services/background.server'
import { loadEnv } from '~/lib/env.server'
import { countQueries } from '~/lib/query-count.server'
import { databaseAnswers } from '~/lib/health.server'
import { maintenanceGate, type MaintenanceLocals } from './maintenance'
import { forgetCachedSettings } from '~/data/settings.server'
import { forgetAllReads } from '~/lib/read-cache.server'
import { forgetStaticMarkup } from '~/lib/static-markup.server'
import { readPageCacheVersion } from '~/data/page-cache-version.server'
import { createPageCache } from './page-cache'
import { precompressedFiles } from './precompressed'
import { SIMULATOR_ORIGIN_VARIABLE, startCluster } from './cluster'
import { describeDatabase, prepareData, StartupError } from './prepare'
import { answerClientErrors, refuseMisaddressed, requestGuard } from './request-guard'
import { mountSimulators, SIMULATORS_PREFIX, simulatorProxy } from './simulators'
import {
  noStoreForPersonal,
  pagePolicy,
  sameOriginPosts,
  securityHeaders,
  type SecurityLocals,
} from './security'

export { StartupError }

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

/**
 * How old a read of the page cache version may be for a request to be answered from the cache
 * (server/page-cache.ts): a change saved by any process shows on every process's pages within
 * this long (plus one indexed read). Reads are shared by the requests that arrive meanwhile.
 */
const PAGE_CACHE_RECHECK_MS = 250
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

/** X-Query-Count: the database queries made for this response until its headers left. */
const queryCountHeader: RequestHandler = (_req, res, next) =>
  countQueries((counter) => {
    const writeHead = res.writeHead
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
      if (!res.headersSent) res.setHeader('X-Query-Count', String(counter.queries))
      return writeHead.apply(this, args)
    } as typeof writeHead
    next()
  })

export interface StartOptions {
  /** The Vite dev server, in development (server.js --dev). */
  vite?: ViteDevServer
  /** Listen on this port instead of PORT (0 picks a free one). */
  port?: number
  /**
   * Set in a cluster's worker (server/cluster.ts): the primary has prepared the database and
   * prints the start-up lines, and hosts the payment simulators at `simulatorOrigin`.
   */
  worker?: { simulatorOrigin?: string }
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
  // A cluster's workers find the database prepared by the primary (server/cluster.ts).
  if (!options.worker) await prepareData(env)
  const { db, engine } = openServices(env)
  const where = describeDatabase(env, engine)

  const app = express()
  app.disable('x-powered-by')
  // Only the proxies TRUST_PROXY names may set the client address (rate limits count it).
  app.set('trust proxy', env.TRUST_PROXY)
  if (env.QUERY_COUNT_HEADER) app.use(queryCountHeader)
  app.use(securityHeaders(env))
  app.use(
    compression({ brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } } }),
  )
  app.use(coalesceFlushes)
  // While shutting down, a kept-alive connection is closed after its answer (see close below).
  let closing: Promise<void> | undefined
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

  if (!options.worker) mountSimulators(app, env)
  else if (options.worker.simulatorOrigin)
    app.use(SIMULATORS_PREFIX, simulatorProxy(options.worker.simulatorOrigin))

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

  // Anonymous storefront pages from memory, unless PAGE_CACHE=off (docs/page-cache.md). It
  // stands before pagePolicy and the maintenance gate: a copy carries its own policy, and
  // maintenance mode is a settings change, which empties every process's copies.
  const pageCache =
    env.PAGE_CACHE === false || options.vite
      ? undefined
      : createPageCache({
          maxBytes: env.PAGE_CACHE_MB * 1024 * 1024,
          // Pages for any other Host header are kept from at most 3 origins (docs/page-cache.md).
          publicOrigin: new URL(env.PUBLIC_URL).origin,
          recheckMs: PAGE_CACHE_RECHECK_MS,
          readVersion: () => readPageCacheVersion(db),
          // The settings and catalogue copies must not be older than the pages rendered from them.
          onVersionChange: () => {
            forgetCachedSettings(db)
            forgetAllReads()
            forgetStaticMarkup()
          },
          brotliQuality: BROTLI_QUALITY,
        })

  app.all(
    '*splat',
    sameOriginPosts(env),
    noStoreForPersonal,
    ...(pageCache ? [pageCache.handler] : []),
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
    // A kept anonymous page is answered before Express and its middlewares: it carries its own
    // headers and compressed bodies (server/page-cache.ts).
    const answerEarly = pageCache && !env.QUERY_COUNT_HEADER ? pageCache.answerEarly : undefined
    // What an HTTP/1.0 request without a Host header is taken to be addressed to.
    const publicHost = new URL(env.PUBLIC_URL).host
    const listening = http.createServer((req, res) => {
      // A Host header that is not a host[:port] is refused before anything reads it, the page
      // cache included, and a missing one is filled in (server/request-guard.ts,
      // docs/security.md).
      if (refuseMisaddressed(req, res, publicHost)) return
      // Headers of every answer, the early one and Express's alike.
      if (env.EXPOSE_WORKER_PID) res.setHeader('X-Worker-Pid', String(process.pid))
      if (closing) res.setHeader('Connection', 'close')
      if (answerEarly?.(req, res)) return
      app(req, res)
    })
    listening.listen(options.port ?? env.PORT, env.HOST, () => resolve(listening))
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
  if (!options.worker) console.log(`KeyBazaar is running at ${url} (${where})`)
  // The job runner (mail outbox and other background work).
  const background = startBackgroundWork(db)

  const close = () => (closing ??= shutDown(server, background, closeServices))

  return { server, url, close }
}

/**
 * The graceful stop of one server process (SIGTERM, docs/decisions/0014-workers.md): stop
 * accepting and let the requests in flight finish (a kept-alive connection is closed as soon as
 * it is idle), and at the same moment stop the job runner from claiming jobs while the jobs it
 * runs finish. Waiting for the requests first left the runner claiming new jobs for as long as
 * a slow request kept the server open, up to server.js's forced exit, which would cut them off;
 * a job not claimed stays pending for another process or the next start. The database closes
 * once both are done.
 */
export async function shutDown(
  server: Pick<Server, 'close' | 'closeIdleConnections'>,
  background: Pick<JobRunner, 'stop'>,
  closeDatabase: () => Promise<void>,
): Promise<void> {
  const jobsStopped = background.stop()
  const requestsDone = new Promise<void>((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 200)
    server.close(() => {
      clearInterval(sweep)
      resolve()
    })
    server.closeIdleConnections()
  })
  await Promise.all([requestsDone, jobsStopped])
  await closeDatabase()
}

/**
 * `npm start` (server.js): one process when WEB_CONCURRENCY is 1, otherwise the cluster primary
 * (server/cluster.ts) and, in each of its workers, the server itself.
 */
export async function serve(options: { workerEntry: string }): Promise<{ close(): Promise<void> }> {
  if (cluster.isWorker) {
    return start({
      worker: { simulatorOrigin: process.env[SIMULATOR_ORIGIN_VARIABLE] || undefined },
    })
  }
  const env = loadEnv()
  if (env.WEB_CONCURRENCY === 1) return start()
  return startCluster(env, options)
}
