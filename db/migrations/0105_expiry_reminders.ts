import type { Kysely } from 'kysely'

/**
 * The expiry reminders already queued (app/data/expiry-reminder.server.ts): one row per order
 * and kind ('7d', '1d'). The primary key is what makes each reminder go once: a process queues
 * the mail only when its insert added the row, so restarts and several processes never send a
 * second copy.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('expiry_reminder')
    .addColumn('order_id', 'text', (col) =>
      col.notNull().references('order.id').onDelete('cascade'),
    )
    /** 7d | 1d: how long before the end of the validity it was due. */
    .addColumn('kind', 'text', (col) => col.notNull())
    /** The end of the validity the reminder announced (ISO-8601 UTC). */
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('expiry_reminder_pk', ['order_id', 'kind'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('expiry_reminder').execute()
}
