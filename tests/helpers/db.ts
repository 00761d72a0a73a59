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
  destroy(): Promise<void>
}

/** The engine the current Vitest project runs data tests on. */
export function testEngine(): Engine {
  return process.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'sqlite'
}

/**
 * Migrates a test schema while other test files create, migrate and drop theirs in the same
 * database. Kysely's migrator introspects the tables of every schema, so another file's schema
 * appearing or vanishing at that moment can fail ours: 'schema "t_…" does not exist' about the
 * other schema, or, rarely, a migration step that another schema's state confused (seen once in
 * about sixty files: 'column "category" of relation "product" does not exist', with no migration
 * named). PostgreSQL runs the whole migration in one transaction, so a failed try leaves nothing
 * behind: try again, a few times, and report the last error if it persists.
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
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`create schema ${schema}`)
    await admin.end()
    const db = createDatabase({ databaseUrl: url, pgSchema: schema, maxConnections: 12 })
    if (migrate) await migrateBesideOtherTests(db)
    return {
      db,
      engine: 'postgres',
      location: schema,
      async destroy() {
        await db.destroy()
        const cleanup = new pg.Client({ connectionString: url })
        await cleanup.connect()
        await cleanup.query(`drop schema if exists ${schema} cascade`)
        await cleanup.end()
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
