import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'
import { createDatabase, type DB, type Engine } from '~/lib/db.server'
import { migrateToLatest } from '../../db/migrate'

export interface TestDb {
  db: DB
  engine: Engine
  /** For SQLite, the database file; for PostgreSQL, the schema name. */
  location: string
  /** Runs a migration of this database while no other test file's schema comes or goes. */
  migrating<T>(fn: () => Promise<T>): Promise<T>
  destroy(): Promise<void>
}

/** The engine the current Vitest project runs data tests on. */
export function testEngine(): Engine {
  return process.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'sqlite'
}

/**
 * Test files run side by side on one PostgreSQL database, each in its own schema. Kysely's
 * migrator introspects the tables of every schema, so another file's schema appearing or
 * vanishing while ours migrates failed ours: 'schema "t_…" does not exist' about the other
 * schema, or, once, a migration step confused by another schema's state. So creating and
 * dropping a schema take this advisory lock exclusively, and migrating takes it shared: many
 * files migrate at once, and no schema comes or goes meanwhile.
 */
const SCHEMA_CHANGE_LOCK = 7_301_001

async function holdingSchemaLock<T>(
  url: string,
  mode: 'shared' | 'exclusive',
  fn: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const suffix = mode === 'shared' ? '_shared' : ''
  try {
    await client.query(`select pg_advisory_lock${suffix}($1)`, [SCHEMA_CHANGE_LOCK])
    return await fn(client)
  } finally {
    await client.end() // ending the session releases its advisory lock
  }
}

/**
 * Migrates a test schema. The lock above keeps other schemas still; a failed try is tried
 * again a few times all the same (PostgreSQL runs the whole migration in one transaction, so a
 * failed try leaves nothing behind), and the last error is reported if it persists.
 */
async function migrateBesideOtherTests(db: DB): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await migrateToLatest(db)
      return
    } catch (error) {
      if (attempt >= 4) throw error
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt))
    }
  }
}

/**
 * A fresh, migrated database for one test file: a new SQLite file in a temporary
 * folder, or a new schema in TEST_DATABASE_URL's PostgreSQL database.
 */
export async function createTestDb(options: { migrate?: boolean } = {}): Promise<TestDb> {
  const migrate = options.migrate ?? true
  if (testEngine() === 'postgres') {
    const url = process.env.TEST_DATABASE_URL
    if (!url) throw new Error('TEST_DB_ENGINE=postgres needs TEST_DATABASE_URL')
    const schema = `t_${crypto.randomBytes(6).toString('hex')}`
    const changeSchema = (statement: string) =>
      holdingSchemaLock(url, 'exclusive', (client) => client.query(statement))
    await changeSchema(`create schema ${schema}`)
    const db = createDatabase({ databaseUrl: url, pgSchema: schema, maxConnections: 12 })
    const migrating = <T>(fn: () => Promise<T>) => holdingSchemaLock(url, 'shared', fn)
    if (migrate) await migrating(() => migrateBesideOtherTests(db))
    return {
      db,
      engine: 'postgres',
      location: schema,
      migrating,
      async destroy() {
        await db.destroy()
        await changeSchema(`drop schema if exists ${schema} cascade`)
      },
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-test-db-'))
  const file = path.join(dir, 'test.db')
  const db = createDatabase({ sqlitePath: file })
  if (migrate) await migrateToLatest(db)
  return {
    db,
    engine: 'sqlite',
    location: file,
    migrating: (fn) => fn(),
    async destroy() {
      await db.destroy()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * The test file's database: created before its first test and destroyed after its last. Read
 * `db`, `engine` and `location` inside hooks and tests (they exist once the file's tests start).
 */
export function fileTestDb(options: { migrate?: boolean } = {}): TestDb {
  let current: TestDb | undefined
  beforeAll(async () => {
    current = await createTestDb(options)
  })
  afterAll(async () => {
    await current?.destroy()
  })
  const opened = (): TestDb => {
    if (!current)
      throw new Error('The test database opens in beforeAll: use it inside hooks and tests')
    return current
  }
  return {
    get db() {
      return opened().db
    },
    get engine() {
      return opened().engine
    },
    get location() {
      return opened().location
    },
    migrating: (fn) => opened().migrating(fn),
    destroy: () => opened().destroy(),
  }
}

/** A second connection to a test database, as another process of the shop would open. */
export function openSecondConnection(t: TestDb, options: { maxConnections?: number } = {}): DB {
  return t.engine === 'postgres'
    ? createDatabase({
        databaseUrl: process.env.TEST_DATABASE_URL!,
        pgSchema: t.location,
        maxConnections: options.maxConnections,
      })
    : createDatabase({ sqlitePath: t.location })
}

/**
 * A second connection to the file's test database for all of its tests (opened before them,
 * closed after them), as another process of the shop would have. Read `db` inside tests.
 */
export function fileSecondConnection(t: TestDb): { readonly db: DB } {
  let other: DB | undefined
  beforeAll(() => {
    other = openSecondConnection(t)
  })
  afterAll(async () => {
    await other?.destroy()
  })
  return {
    get db() {
      if (!other) throw new Error('The second connection opens in beforeAll: use it inside tests')
      return other
    },
  }
}
