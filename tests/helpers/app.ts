import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../..')

export interface StartAppOptions {
  /** Extra environment for the server (e.g. SMTP_URL, ADMIN_EMAILS, DATABASE_URL). */
  env?: Record<string, string | undefined>
  /** Reuse a data directory (e.g. to restart on the same data); a new temporary one by default. */
  dataDir?: string
  port?: number
}

export interface RunningApp {
  url: string
  port: number
  dataDir: string
  process: ChildProcess
  /** Everything the server printed so far. */
  output(): string
  /** SIGTERM and wait for exit; keeps the data directory. */
  stop(): Promise<void>
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>
  /** Stops and removes the data directory. */
  dispose(): Promise<void>
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** The production server's environment in tests (the build in $BUILD_DIR, default build/), then `env`. */
function serverEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    BUILD_DIR: process.env.BUILD_DIR ?? 'build',
    NODE_ENV: 'production',
    // One process, no cluster primary: a test asks for workers (WEB_CONCURRENCY) when it
    // tests them, so parallel test files do not multiply their processes.
    WEB_CONCURRENCY: '1',
    ...env,
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

/**
 * The demo catalogue's artwork, kept between servers. A fresh data directory makes the demo
 * seed draw 26 WebP images (about 2.6 s of CPU, app/services/seed/artwork.ts); the browser
 * tests start a server dozens of times, so the first server's images are kept here and copied
 * into each new data directory, and the seed finds them there (it draws only missing files).
 * The folder's name carries a hash of the files that decide the artwork, so a changed drawing
 * is never served from an old copy.
 */
const artworkCache = path.join(
  os.tmpdir(),
  `kb-demo-artwork-${crypto
    .createHash('sha256')
    .update(fs.readFileSync(path.join(root, 'app/services/seed/artwork.ts')))
    .update(fs.readFileSync(path.join(root, 'app/services/seed/demo-products.ts')))
    .digest('hex')
    .slice(0, 16)}`,
)

function demoImagesDir(dataDir: string): string {
  return path.join(dataDir, 'uploads', 'products')
}

function copyDemoImages(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true })
  for (const name of fs.readdirSync(from)) {
    if (name.startsWith('demo_') && name.endsWith('.webp')) {
      fs.copyFileSync(path.join(from, name), path.join(to, name))
    }
  }
}

/** After a server drew the artwork into a fresh data directory: keep it, once, atomically. */
function keepDemoImages(dataDir: string): void {
  const drawn = demoImagesDir(dataDir)
  if (fs.existsSync(artworkCache) || !fs.existsSync(drawn)) return
  const partial = `${artworkCache}.${process.pid}`
  copyDemoImages(drawn, partial)
  try {
    fs.renameSync(partial, artworkCache)
  } catch {
    // Another test worker kept its copy first.
    fs.rmSync(partial, { recursive: true, force: true })
  }
}

/**
 * Starts the production server (the build in $BUILD_DIR, default build/) on a free port
 * with its own data directory, and waits until /healthz answers.
 */
export async function startApp(options: StartAppOptions = {}): Promise<RunningApp> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kb-e2e-'))
  const freshDataDir = !options.dataDir
  if (freshDataDir && fs.existsSync(artworkCache)) {
    copyDemoImages(artworkCache, demoImagesDir(dataDir))
  }
  const port = options.port ?? (await freePort())
  const url = `http://127.0.0.1:${port}`
  let output = ''
  const child = spawn(process.execPath, [path.join(root, 'server.js')], {
    cwd: root,
    env: serverEnv({
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      ...options.env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))

  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`The app exited with code ${child.exitCode} before it was ready:\n${output}`)
    }
    try {
      const response = await fetch(`${url}/healthz`)
      if (response.ok) break
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`The app did not become healthy within 60 s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  if (freshDataDir) keepDemoImages(dataDir)

  const app: RunningApp = {
    url,
    port,
    dataDir,
    process: child,
    output: () => output,
    async stop() {
      child.kill('SIGTERM')
      await exited(child)
    },
    async kill() {
      child.kill('SIGKILL')
      await exited(child)
    },
    async dispose() {
      await app.stop()
      if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
  return app
}

/** Runs `node server.js` to completion (for start-up failures) and returns its exit code and output. */
export async function runServerOnce(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(root, 'server.js')], {
    cwd: root,
    env: serverEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
  await exited(child)
  clearTimeout(timer)
  return { code: child.exitCode, stdout, stderr }
}
