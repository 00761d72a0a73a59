import cluster, { type Worker } from 'node:cluster'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import express from 'express'
import { closeServices, openServices } from '~/lib/app-context.server'
import { restrictDataDir } from '~/lib/data-dir.server'
import type { Env } from '~/lib/env.server'
import { describeDatabase, prepareData, StartupError } from './prepare'
import { anySimulatorMounted, mountSimulators } from './simulators'

/**
 * Several server processes on one port (node:cluster): the primary prepares the database once,
 * hosts the in-memory payment simulators on a loopback port, forks WEB_CONCURRENCY workers,
 * replaces one that dies and stops them all on SIGTERM. The workers serve the shop; the
 * primary serves no page. See docs/decisions/0014-workers.md.
 */

/** The loopback address of the primary's simulators, for the workers (server/simulators.ts). */
export const SIMULATOR_ORIGIN_VARIABLE = 'KEYBAZAAR_SIMULATOR_ORIGIN'

/** A worker that dies within this long after it was forked counts towards the back-off. */
const SHORT_LIFE_MS = 30_000
const MAX_RESPAWN_DELAY_MS = 30_000

/**
 * Wait before forking a replacement: none after a worker that ran a while, then 1 s, 2 s, 4 s
 * ... up to 30 s while replacements keep dying young (a crash loop does not spin the CPU).
 */
export function respawnDelayMs(shortLivedInARow: number): number {
  if (shortLivedInARow <= 0) return 0
  return Math.min(MAX_RESPAWN_DELAY_MS, 1000 * 2 ** (shortLivedInARow - 1))
}

export interface ClusterOptions {
  /** The script each worker runs (server.js). */
  workerEntry: string
}

export interface RunningCluster {
  url: string
  workers(): number[]
  close(): Promise<void>
}

async function startSimulatorHost(env: Env): Promise<Server | undefined> {
  if (!anySimulatorMounted(env)) return undefined
  const app = express()
  app.disable('x-powered-by')
  mountSimulators(app, env)
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening))
    listening.once('error', reject)
  })
  // The workers keep their connections open; a long idle timeout keeps them from reusing a
  // connection this side is just closing.
  server.keepAliveTimeout = 10 * 60_000
  return server
}

function describeExit(code: number | null, signal: string | null): string {
  return signal ? `was killed by ${signal}` : `exited with code ${code}`
}

export async function startCluster(env: Env, options: ClusterOptions): Promise<RunningCluster> {
  const count = env.WEB_CONCURRENCY
  restrictDataDir(env.DATA_DIR)
  await prepareData(env)
  const where = describeDatabase(env, openServices(env).engine)
  // The primary serves no request: its database connection is not needed any more.
  await closeServices()

  const simulators = await startSimulatorHost(env)
  const simulatorAddress = simulators?.address() as AddressInfo | undefined
  const workerEnv: Record<string, string> = simulatorAddress
    ? { [SIMULATOR_ORIGIN_VARIABLE]: `http://127.0.0.1:${simulatorAddress.port}` }
    : {}

  cluster.setupPrimary({ exec: options.workerEntry })
  let stopping = false
  let shortLivedInARow = 0
  const bornAt = new Map<Worker, number>()
  const respawns = new Set<NodeJS.Timeout>()

  const fork = () => {
    const worker = cluster.fork(workerEnv)
    bornAt.set(worker, Date.now())
    return worker
  }

  let ready = false
  // A worker that dies is replaced (also one killed while the others are still starting).
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (bornAt.get(worker) ?? 0)
    bornAt.delete(worker)
    if (stopping || (!signal && !ready)) return
    shortLivedInARow = lived < SHORT_LIFE_MS ? shortLivedInARow + 1 : 0
    const delay = respawnDelayMs(shortLivedInARow)
    console.log(
      `[cluster] worker ${worker.process.pid} ${describeExit(code, signal)}; starting a replacement${delay ? ` in ${delay / 1000} s` : ''}`,
    )
    const timer = setTimeout(() => {
      respawns.delete(timer)
      if (!stopping) fork()
    }, delay)
    respawns.add(timer)
  })

  let url = ''
  await new Promise<void>((resolve, reject) => {
    let listening = 0
    const onListening = (_worker: Worker, address: AddressInfo) => {
      url ||= `http://localhost:${address.port}`
      if (++listening === count) {
        cluster.off('listening', onListening)
        cluster.off('exit', onEarlyExit)
        resolve()
      }
    }
    // A worker that cannot start (port taken, ...) has printed why and exited with a code; the
    // others are stopped. One killed from outside meanwhile is replaced like any later.
    const onEarlyExit = (worker: Worker, code: number | null, signal: string | null) => {
      if (signal) return
      cluster.off('listening', onListening)
      cluster.off('exit', onEarlyExit)
      stopping = true
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM')
      void simulators?.close()
      reject(
        new StartupError(
          `a server process ${describeExit(code, signal)} before it was ready (pid ${worker.process.pid})`,
        ),
      )
    }
    cluster.on('listening', onListening)
    cluster.on('exit', onEarlyExit)
    for (let i = 0; i < count; i++) fork()
  })

  ready = true

  console.log(
    `KeyBazaar is running at ${url} (${where}; ${count} worker processes, pids ${Object.values(
      cluster.workers ?? {},
    )
      .map((worker) => worker?.process.pid)
      .join(', ')})`,
  )

  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= (async () => {
      stopping = true
      for (const timer of respawns) clearTimeout(timer)
      const running = Object.values(cluster.workers ?? {}).filter(
        (worker): worker is Worker => worker !== undefined && !worker.isDead(),
      )
      // Each worker stops accepting, finishes its requests and jobs and closes the database
      // (server.js's signal handler); the primary waits for all of them.
      await Promise.all(
        running.map(
          (worker) =>
            new Promise<void>((resolve) => {
              worker.once('exit', () => resolve())
              worker.process.kill('SIGTERM')
            }),
        ),
      )
      await new Promise<void>((resolve) => {
        if (!simulators) return resolve()
        simulators.close(() => resolve())
        simulators.closeAllConnections()
      })
    })())

  return {
    url,
    workers: () =>
      Object.values(cluster.workers ?? {}).flatMap((worker) =>
        worker?.process.pid ? [worker.process.pid] : [],
      ),
    close,
  }
}
