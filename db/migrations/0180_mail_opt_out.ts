import type { Kysely } from 'kysely'

/**
 * Addresses that asked for no more mail of a kind by the unsubscribe link in the mail itself
 * (docs/notifications.md, "Unsubscribing"). One row per address and kind; the only kind so far
 * is 'offers' (expiry reminders and back-in-stock mails, what the Settings switch "E-mail me
 * reminders and offers" covers). Keyed by the address, not a user: a guest buyer has no
 * account, and the wish holds after an account with the address is made or deleted. The
 * address is stored trimmed and lower-cased, as accounts store theirs.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mail_opt_out')
    .addColumn('email', 'text', (col) => col.notNull())
    /** offers: expiry reminders and back-in-stock mails. */
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('mail_opt_out_pk', ['email', 'kind'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_opt_out').execute()
}
