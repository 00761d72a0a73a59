import type { Kysely } from 'kysely'

/**
 * The audit log (docs/audit.md): one row per change an admin makes in the back office, with who,
 * when, from which address, and what changed (before and after, secrets masked). Rows are only
 * ever added. The actor's name and e-mail are copied into the row, so the log still says who
 * acted after their account is renamed or deleted.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('actor_email', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('ip', 'text')
    /** What was done, e.g. product.update, settings.update, user.suspend. */
    .addColumn('action', 'text', (col) => col.notNull())
    /** What it was done to: product, stock, order, user, settings, gateway, payment-link. */
    .addColumn('target_type', 'text', (col) => col.notNull())
    .addColumn('target_id', 'text')
    /** One line for people, e.g. "Suspended Asha (asha@example.in)". */
    .addColumn('summary', 'text', (col) => col.notNull().defaultTo(''))
    /** JSON object: field -> { before, after }, secrets already masked. */
    .addColumn('changes', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema
    .createIndex('audit_log_created_idx')
    .on('audit_log')
    .columns(['created_at'])
    .execute()
  await db.schema
    .createIndex('audit_log_actor_idx')
    .on('audit_log')
    .columns(['actor_id', 'created_at'])
    .execute()
  await db.schema
    .createIndex('audit_log_target_idx')
    .on('audit_log')
    .columns(['target_type', 'created_at'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').execute()
}
