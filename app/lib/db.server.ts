import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { CamelCasePlugin, Kysely, PostgresAdapter, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import type { Database } from '../../db/schema'

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
      dialect: new PostgresDialect({ pool }),
      plugins: [new CamelCasePlugin()],
    })
  }
  if (!options.sqlitePath) throw new Error('createDatabase needs databaseUrl or sqlitePath')
  fs.mkdirSync(path.dirname(options.sqlitePath), { recursive: true })
  const sqlite = new SQLite(options.sqlitePath)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('foreign_keys = ON')
  // Another process (a CLI, a second server) may hold the write lock briefly.
  sqlite.pragma('busy_timeout = 5000')
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    plugins: [new CamelCasePlugin()],
  })
}

/** Which engine a Kysely instance (or a transaction of it) talks to. */
export function engineOf(db: Kysely<any>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}

/** Booleans are 0/1 integers on both engines. */
export const toFlag = (value: boolean): number => (value ? 1 : 0)
