import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { importStock } from '~/services/fulfilment.server'
import { openAppDatabase } from '../factories'
import type { RunningApp } from './app'
import { freePort } from './app'

const root = path.resolve(import.meta.dirname, '../..')

/** A gateway simulator running on its own, as `npm run simulator:<gateway>` starts it. */
export interface StandaloneSimulator {
  url: string
  process: ChildProcess
  stop(): Promise<void>
}

/**
 * Starts `simulators/<gateway>/standalone.ts` in its own process on a free port (SIM_PORT) with
 * the given SIM_* settings, and waits until it answers HTTP.
 */
export async function startStandaloneSimulator(
  gateway: 'paytm' | 'razorpay' | 'phonepe',
  env: Record<string, string> = {},
): Promise<StandaloneSimulator> {
  const port = await freePort()
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, `simulators/${gateway}/standalone.ts`)],
    {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, SIM_PORT: String(port), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The ${gateway} simulator exited:\n${output}`)
    // Any HTTP answer (a 404 for the root too) means it listens.
    const listening = await fetch(url)
      .then(() => true)
      .catch(() => false)
    if (listening) break
    if (Date.now() > deadline) {
      child.kill('SIGTERM')
      throw new Error(`The ${gateway} simulator did not start:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    url,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/**
 * Stocks a product with real (not demo) keys: a shop configured with a real gateway never hands
 * out the demo seed's test items.
 */
export async function stockRealKeys(app: RunningApp, slug: string, appSecret: string) {
  const db = openAppDatabase(app)
  try {
    const product = await db
      .selectFrom('product')
      .select('id')
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow()
    const keys = Array.from({ length: 10 }, (_, i) => `REAL-KEY-${i}`).join('\n')
    await importStock(db, { productId: product.id, content: keys, format: 'lines', appSecret })
  } finally {
    await db.destroy()
  }
}
