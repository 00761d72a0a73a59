import type { Kysely } from 'kysely'

/**
 * Rate-limit counters (sign-in, sign-up, password reset), in the database so that every
 * app process shares them. One row per key and fixed window; see app/lib/rate-limit.server.ts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limit')
    /** e.g. login:account:someone@example.com or login:ip:203.0.113.7 */
    .addColumn('key', 'text', (col) => col.primaryKey())
    /** ISO-8601 UTC start of the current window. */
    .addColumn('window_start', 'text', (col) => col.notNull())
    .addColumn('count', 'integer', (col) => col.notNull())
    /** When the row may be deleted. */
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema
    .createIndex('rate_limit_expires_at_idx')
    .on('rate_limit')
    .column('expires_at')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limit').execute()
}
