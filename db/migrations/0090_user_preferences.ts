import type { Kysely } from 'kysely'

/**
 * A customer's preferences (/dashboard/settings): colour theme, language and whether they want
 * the mails that are not about an order (reminders, offers). One row per user, written the
 * first time they save; a user without a row has the defaults (system theme, English,
 * notifications on). Order mails are always sent and are not governed by this.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_preference')
    .addColumn('user_id', 'text', (col) =>
      col.primaryKey().references('user.id').onDelete('cascade'),
    )
    /** light | dark | system */
    .addColumn('theme', 'text', (col) => col.notNull().defaultTo('system'))
    /** en | hi | es */
    .addColumn('language', 'text', (col) => col.notNull().defaultTo('en'))
    /** 1: reminder and marketing-type mails are wanted. */
    .addColumn('notifications', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_preference').execute()
}
