import type { Kysely } from 'kysely'

/**
 * When a delivered order's validity runs out, kept on the order so the expiry-reminder check
 * (app/data/expiry-reminder.server.ts, docs/notifications.md "Once each") asks the database
 * only for the orders ending about now instead of counting every delivered order's term again
 * on each run. The check fills it in for delivered orders that have none yet, so it starts
 * empty here: it is counted with the app's reading of validity text (app/lib/validity.ts),
 * which a migration must not depend on. An order whose term never ends ("Lifetime") gets a
 * date far in the future, so it is counted once and never read again.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order').addColumn('validity_ends_at', 'text').execute()
  // Serves both of the check's reads: the delivered orders not yet counted (null), and those
  // whose end falls in the window of the reminders.
  await db.schema
    .createIndex('order_status_validity_ends_at_idx')
    .on('order')
    .columns(['status', 'validity_ends_at'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('order_status_validity_ends_at_idx').execute()
  await db.schema.alterTable('order').dropColumn('validity_ends_at').execute()
}
