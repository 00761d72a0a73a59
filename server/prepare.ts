import path from 'node:path'
import { adminStartupLines } from '~/data/user.server'
import { closeServices, openServices } from '~/lib/app-context.server'
import type { Engine } from '~/lib/db.server'
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
 * What happens once per start, before any request is served: migrations, the demo seed of a
 * new database and the start-up notes. A single process does it itself; with several workers
 * the cluster primary does it before forking them, so two processes never migrate at once.
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
  for (const line of await adminStartupLines(db, env.ADMIN_EMAILS)) console.log(line)
  for (const line of mailStartupWarnings(env)) console.warn(line)
  if (env.appSecretSource === 'generated') {
    console.log(
      `[config] generated APP_SECRET into ${path.join(env.DATA_DIR, 'secret')} (keep it safe; it encrypts stored secrets)`,
    )
  }
}
