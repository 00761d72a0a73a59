import path from 'node:path'
import { createDatabase, engineOf, type DB, type Engine } from './db.server'
import { getEnv, type Env } from './env.server'
import { createS3Storage } from './s3.server'
import { createLocalStorage, type Storage } from './storage.server'

/**
 * The process-wide services, opened once at start-up. Kept on globalThis so that a
 * development reload of a module does not open a second database.
 */
interface AppServices {
  env: Env
  db: DB
  engine: Engine
  storage: Storage
}

const holder = globalThis as typeof globalThis & { __keybazaar?: AppServices }

export function openServices(env: Env = getEnv()): AppServices {
  if (holder.__keybazaar) return holder.__keybazaar
  const db = createDatabase({
    databaseUrl: env.DATABASE_URL,
    preparedStatements: env.DATABASE_PREPARED_STATEMENTS !== false,
    sqlitePath: path.join(env.DATA_DIR, 'keybazaar.db'),
  })
  holder.__keybazaar = {
    env,
    db,
    engine: engineOf(db),
    storage: createStorage(env),
  }
  return holder.__keybazaar
}

/** The services opened at start-up; loaders and actions call this. */
export function services(): AppServices {
  return holder.__keybazaar ?? openServices()
}

export async function closeServices(): Promise<void> {
  const current = holder.__keybazaar
  holder.__keybazaar = undefined
  await current?.db.destroy()
}

/**
 * The storage the app runs on: S3-compatible object storage when STORAGE_S3_BUCKET is set
 * (see s3.server.ts), otherwise local disk under DATA_DIR/uploads.
 */
export function createStorage(env: Pick<Env, 'DATA_DIR' | 'storageS3'>): Storage {
  return env.storageS3
    ? createS3Storage(env.storageS3)
    : createLocalStorage(path.join(env.DATA_DIR, 'uploads'))
}
