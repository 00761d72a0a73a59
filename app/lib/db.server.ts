import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { CamelCasePlugin, Kysely, PostgresAdapter, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import Cursor from 'pg-cursor'
import type { Database } from '../../db/schema'
import { createPrivateFile, PRIVATE_DIR_MODE } from './data-dir.server'

export type DB = Kysely<Database>
export type Engine = 'sqlite' | 'postgres'

export interface DatabaseOptions {
  /** postgres:// URL; when absent, SQLite at sqlitePath. */
  databaseUrl?: string
  sqlitePath?: string
  /** PostgreSQL schema to work in (tests use a fresh one per file). */
  pgSchema?: string
  /** Pool size for PostgreSQL. */
  maxConnections?: number
}

/** Opens the one Kysely instance for the given engine. */
export function createDatabase(options: DatabaseOptions): DB {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.maxConnections ?? 10,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    })
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', (error) => console.error('[db] idle PostgreSQL client error:', error.message))
    return new Kysely<Database>({
      // The cursor lets `.stream()` read a large result in chunks (the CSV exports).
      dialect: new PostgresDialect({ pool, cursor: Cursor }),
      plugins: [new CamelCasePlugin()],
    })
  }
  if (!options.sqlitePath) throw new Error('createDatabase needs databaseUrl or sqlitePath')
  fs.mkdirSync(path.dirname(options.sqlitePath), { recursive: true, mode: PRIVATE_DIR_MODE })
  if (options.sqlitePath !== ':memory:') createPrivateFile(options.sqlitePath)
  const sqlite = new SQLite(options.sqlitePath)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('foreign_keys = ON')
  // Another process (a CLI, a second server) may hold the write lock briefly.
  sqlite.pragma('busy_timeout = 5000')
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    plugins: [new CamelCasePlugin()],
  })
  sqliteFiles.set(db, options.sqlitePath)
  return db
}

const sqliteFiles = new WeakMap<DB, string>()

/**
 * A database handle for one long `.stream()` read (a CSV export sent to a slow client), and
 * how to let go of it. Kysely's SQLite driver has one connection behind a mutex: a stream
 * on it would hold every other query of the process, payment callbacks included, until the
 * download ends. So on SQLite the stream gets its own read-only connection to the same file
 * (WAL lets it read while the app writes); on PostgreSQL the stream holds one pool client.
 */
export function openStreamReader(db: DB): { db: DB; close(): Promise<void> } {
  const file = sqliteFiles.get(db)
  if (!file) return { db, close: async () => {} }
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true })
  sqlite.pragma('busy_timeout = 5000')
  const reader = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    plugins: [new CamelCasePlugin()],
  })
  return { db: reader, close: () => reader.destroy() }
}

/** Which engine a Kysely instance (or a transaction of it) talks to. */
export function engineOf(db: Kysely<any>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}

/** Booleans are 0/1 integers on both engines. */
export const toFlag = (value: boolean): number => (value ? 1 : 0)
