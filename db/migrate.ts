import { Migrator, type Kysely, type MigrationResultSet } from 'kysely'
import { migrations } from './migrations'

function migrator(db: Kysely<any>) {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  })
}

function check(result: MigrationResultSet): string[] {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')
    const reason = result.error instanceof Error ? result.error.message : String(result.error)
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`)
  }
  return (result.results ?? []).map((r) => r.migrationName)
}

/** Applies every pending migration; returns the names applied. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return check(await migrator(db).migrateToLatest())
}

/** Reverts the newest applied migration; returns its name (empty when none). */
export async function migrateDown(db: Kysely<any>): Promise<string[]> {
  return check(await migrator(db).migrateDown())
}

/** Reverts every migration. */
export async function migrateToZero(db: Kysely<any>): Promise<void> {
  const { NO_MIGRATIONS } = await import('kysely')
  check(await migrator(db).migrateTo(NO_MIGRATIONS))
}
