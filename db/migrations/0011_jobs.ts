import type { Kysely } from 'kysely'

/**
 * The durable outbox of background work (mail now; payment reconciliation and
 * backorders later). See app/lib/jobs.server.ts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('type', 'text', (col) => col.notNull())
    /** JSON. */
    .addColumn('payload', 'text', (col) => col.notNull())
    /** pending | running | done | failed (gave up after max_attempts). */
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (col) => col.notNull().defaultTo(8))
    /** ISO-8601 UTC: not before this moment (also the retry time after a failure). */
    .addColumn('run_at', 'text', (col) => col.notNull())
    /** While running: the claim lapses at this moment, so a crashed runner's job is taken again. */
    .addColumn('locked_until', 'text')
    .addColumn('locked_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .execute()
  await db.schema
    .createIndex('job_status_run_at_idx')
    .on('job')
    .columns(['status', 'run_at'])
    .execute()
  await db.schema.createIndex('job_type_idx').on('job').column('type').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job').execute()
}
