import {
  Migrator,
  NO_MIGRATIONS,
  PostgresAdapter,
  sql,
  type Kysely,
  type MigrationResultSet,
} from 'kysely'
import { migrations } from './migrations'

async function migrator(db: Kysely<any>) {
  // On PostgreSQL, pin the migration tables to the connection's own schema: otherwise
  // Kysely's introspection sees another schema's kysely_migration table and skips creating ours.
  let migrationTableSchema: string | undefined
  // db/ imports nothing from the app (docs/architecture.md), so not app/lib's engineOf.
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db)
    migrationTableSchema = rows[0]?.schema
  }
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema,
  })
}

function check(result: MigrationResultSet): string[] {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')
    const reason = result.error instanceof Error ? result.error.message : String(result.error)
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`.replace('  ', ' '))
  }
  return (result.results ?? []).map((r) => r.migrationName)
}

/** Applies every pending migration; returns the names applied. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return check(await (await migrator(db)).migrateToLatest())
}

/** Reverts the newest applied migration; returns its name (empty when none). */
export async function migrateDown(db: Kysely<any>): Promise<string[]> {
  return check(await (await migrator(db)).migrateDown())
}

/** Reverts every migration. */
export async function migrateToZero(db: Kysely<any>): Promise<void> {
  check(await (await migrator(db)).migrateTo(NO_MIGRATIONS))
}
