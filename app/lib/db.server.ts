import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import {
  CamelCasePlugin,
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  PostgresQueryCompiler,
  SqliteDialect,
  SqliteQueryCompiler,
  type DefaultQueryCompiler,
  type PluginTransformQueryArgs,
  type RootOperationNode,
} from 'kysely'
import pg from 'pg'
import Cursor from 'pg-cursor'
import type { Database } from '../../db/schema'
import { createPrivateFile, PRIVATE_DIR_MODE } from './data-dir.server'
import { prepareStatementsOf } from './pg-statements.server'
import { logQuery } from './query-count.server'
import { WriteWatcher } from './read-cache.server'

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
  /**
   * PostgreSQL: run the app's repeated statements as named prepared statements (on unless
   * false; app/lib/pg-statements.server.ts). Off for a PgBouncer in transaction mode that does
   * not track them.
   */
  preparedStatements?: boolean
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
    if (options.preparedStatements !== false) prepareStatementsOf(pool)
    return new Kysely<Database>({
      // The cursor lets `.stream()` read a large result in chunks (the CSV exports).
      dialect: new SnakeCasePostgresDialect({ pool, cursor: Cursor }),
      plugins: [new WriteWatcher(), new CamelCaseRows()],
      log: logQuery,
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
    dialect: new SnakeCaseSqliteDialect({ database: withStatementCache(sqlite) }),
    plugins: [new WriteWatcher(), new CamelCaseRows()],
    log: logQuery,
  })
  sqliteFiles.set(db, options.sqlitePath)
  return db
}

const sqliteFiles = new WeakMap<DB, string>()

/*
 * The code names tables and columns in camelCase, the database in snake_case (db/schema.ts).
 * Kysely's CamelCasePlugin renames by copying every query's whole tree before it is compiled, a
 * few hundredths of a millisecond per query and a sixth of the query building a checkout does
 * (bench/README.md, "Checkout"). Here the same mapping is applied while the SQL text is written:
 * every identifier the compilers write passes through sanitizeIdentifier, so snake-casing there
 * gives the SQL the plugin gives, and rows still come back camelCased by the plugin.
 */

/** CamelCasePlugin's camelCased rows, with the query left as written (the compiler renames). */
export class CamelCaseRows extends CamelCasePlugin {
  override transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node
  }

  /** The database's name for a name in the code (memoized by the plugin). */
  columnName(identifier: string): string {
    return this.snakeCase(identifier)
  }
}

const naming = new CamelCaseRows()

/** The engine's own compiler, writing every name snake_cased (any[]: TypeScript's mixin form). */
function snakeCasing<Compiler extends new (...args: any[]) => DefaultQueryCompiler>(
  Base: Compiler,
): Compiler {
  return class extends Base {
    protected override sanitizeIdentifier(identifier: string): string {
      return super.sanitizeIdentifier(naming.columnName(identifier))
    }
  }
}

const SnakeCaseSqliteCompiler = snakeCasing(SqliteQueryCompiler)
const SnakeCasePostgresCompiler = snakeCasing(PostgresQueryCompiler)

export class SnakeCaseSqliteDialect extends SqliteDialect {
  override createQueryCompiler() {
    return new SnakeCaseSqliteCompiler()
  }

  /**
   * Transactions begin IMMEDIATE: they take the write lock at the start, waiting for it up to
   * busy_timeout. A plain (deferred) BEGIN reads first and asks for the lock at its first write;
   * if another process (the workers of docs/decisions/0014) committed in between, SQLite cannot
   * wait and fails at once with SQLITE_BUSY_SNAPSHOT. Every transaction here is meant to write.
   */
  override createDriver() {
    const driver = super.createDriver()
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'))
    }
    return driver
  }
}

export class SnakeCasePostgresDialect extends PostgresDialect {
  override createQueryCompiler() {
    return new SnakeCasePostgresCompiler()
  }
}

/**
 * The same database and connection, renaming in CamelCasePlugin's query transform as well: for
 * better-auth, which compiles a select per table at start-up and reads the names the plugin put
 * into the query to check our schema. The compiler's snake-casing leaves those names as they are.
 */
export function renamingInPlugin(db: DB): DB {
  return db.withoutPlugins().withPlugin(new WriteWatcher()).withPlugin(new CamelCasePlugin())
}

/** How many prepared statements one SQLite connection keeps (the app has a few hundred queries). */
export const SQLITE_STATEMENT_CACHE_SIZE = 500

/**
 * The connection as Kysely's SQLite driver sees it, preparing each distinct SQL text once:
 * the driver calls prepare() for every query, and compiling the SQL again was a tenth of a
 * checkout's CPU (bench/README.md, "Checkout"). A statement still being iterated (a stream)
 * is busy and cannot run twice at once, so that caller gets a fresh one. The least recently
 * used statement goes when the cache is full (queries with IN lists of varying length each
 * have their own text). A schema change makes SQLite re-prepare statements by itself.
 */
export function withStatementCache(
  sqlite: SQLite.Database,
  size = SQLITE_STATEMENT_CACHE_SIZE,
): { prepare(sql: string): SQLite.Statement; close(): void } {
  const statements = new Map<string, SQLite.Statement>()
  return {
    prepare(sql) {
      const cached = statements.get(sql)
      if (cached && !cached.busy) {
        // Most recently used last, so the first key is the one to drop.
        statements.delete(sql)
        statements.set(sql, cached)
        return cached
      }
      const statement = sqlite.prepare(sql)
      if (cached) return statement
      statements.set(sql, statement)
      if (statements.size > size) statements.delete(statements.keys().next().value!)
      return statement
    },
    close() {
      statements.clear()
      sqlite.close()
    },
  }
}

/**
 * The rows of one long `.stream()` read (a CSV export sent to a slow client), `chunkSize` at a
 * time. Kysely's SQLite driver has one connection behind a mutex: a stream on it would hold
 * every other query of the process, payment callbacks included, until the download ends. So
 * on SQLite the stream gets its own read-only connection to the same file (WAL lets it read
 * while the app writes), closed when the stream ends or is dropped; on PostgreSQL the stream
 * holds one pool client and reads through a cursor. `query` builds the read on the handle it
 * is given.
 */
export async function* streamRows<Row>(
  db: DB,
  query: (reader: DB) => { stream(chunkSize: number): AsyncIterableIterator<Row> },
  chunkSize: number,
): AsyncGenerator<Row> {
  const reader = openStreamReader(db)
  try {
    yield* query(reader.db).stream(chunkSize)
  } finally {
    await reader.close()
  }
}

function openStreamReader(db: DB): { db: DB; close(): Promise<void> } {
  const file = sqliteFiles.get(db)
  if (!file) return { db, close: async () => {} }
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true })
  sqlite.pragma('busy_timeout = 5000')
  const reader = new Kysely<Database>({
    dialect: new SnakeCaseSqliteDialect({ database: sqlite }),
    plugins: [new CamelCaseRows()],
  })
  return { db: reader, close: () => reader.destroy() }
}

/** Which engine a Kysely instance (or a transaction of it) talks to. */
export function engineOf(db: Kysely<any>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}

/** Booleans are 0/1 integers on both engines. */
export const toFlag = (value: boolean): number => (value ? 1 : 0)
