import path from 'node:path'
import { fillShopFingerprints } from '~/data/stock.server'
import { adminStartupLines } from '~/data/user.server'
import { closeServices, openServices } from '~/lib/app-context.server'
import type { DB, Engine } from '~/lib/db.server'
import type { Env } from '~/lib/env.server'
import { mailStartupWarnings } from '~/lib/mail.server'
import { seedDemo, shouldSeedOnStart } from '~/services/seed'
import { migrateToLatest } from '../db/migrate'

/** An error whose message is the whole story: printed as one line, no stack. */
export class StartupError extends Error {
  override name = 'StartupError'
}

/** Where the data lives, for the start-up line. */
export function describeDatabase(env: Env, engine: Engine): string {
  return engine === 'sqlite' ? `SQLite at ${path.join(env.DATA_DIR, 'keybazaar.db')}` : 'PostgreSQL'
}

/**
 * Items stocked before shop-wide fingerprints get theirs, before any import can be served
 * (docs/delivery.md, "One product per item"). A failure does not stop the start: the shop
 * serves, imports miss only the rows still unfilled, and the next start tries again.
 */
async function fingerprintOlderStock(db: DB, appSecret: string): Promise<void> {
  try {
    const { filled, unreadable } = await fillShopFingerprints(db, appSecret)
    if (filled) console.log(`[stock] ${filled} stock items fingerprinted shop-wide`)
    if (unreadable)
      console.warn(
        `[stock] ${unreadable} stock items cannot be decrypted with this APP_SECRET; imports cannot compare them with other products`,
      )
  } catch (error) {
    console.error(
      '[stock] fingerprinting older stock items failed:',
      error instanceof Error ? error.message : error,
    )
  }
}

/**
 * What happens once per start, before any request is served: migrations, the demo seed of a
 * new database, shop-wide fingerprints of older stock items and the start-up notes. A single
 * process does it itself; with several workers the cluster primary does it before forking them,
 * so two processes never migrate at once.
 */
export async function prepareData(env: Env): Promise<void> {
  const { db, engine, storage } = openServices(env)
  try {
    const applied = await migrateToLatest(db)
    if (applied.length) console.log(`[db] applied migrations: ${applied.join(', ')}`)
  } catch (error) {
    await closeServices()
    const reason = error instanceof Error ? error.message : String(error)
    throw new StartupError(
      `Cannot prepare the database (${describeDatabase(env, engine)}): ${reason}`,
    )
  }

  if (await shouldSeedOnStart(db, { seedDemo: env.SEED_DEMO, engine })) {
    const result = await seedDemo(db, storage, env.APP_SECRET)
    console.log(`[seed] demo catalogue: ${result.created} products added`)
  }
  await fingerprintOlderStock(db, env.APP_SECRET)
  for (const line of await adminStartupLines(db, env.ADMIN_EMAILS)) console.log(line)
  for (const line of mailStartupWarnings(env)) console.warn(line)
  if (env.appSecretSource === 'generated') {
    console.log(
      `[config] generated APP_SECRET into ${path.join(env.DATA_DIR, 'secret')} (keep it safe; it encrypts stored secrets)`,
    )
  }
}
