import type { Kysely } from 'kysely'

/**
 * The admin user list (/admin/users) pages newest first, optionally within one status or
 * one role: with these, each filtered page is read from an index instead of sorting every
 * matching user. The id makes the order total (equal timestamps).
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('user_status_created_at_idx')
    .on('user')
    .columns(['status', 'created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('user_role_created_at_idx')
    .on('user')
    .columns(['role', 'created_at', 'id'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('user_role_created_at_idx').execute()
  await db.schema.dropIndex('user_status_created_at_idx').execute()
}
