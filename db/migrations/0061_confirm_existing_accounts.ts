import { PostgresAdapter, sql, type Kysely } from 'kysely'

/**
 * Accounts now sign in only with a confirmed e-mail address
 * (docs/decisions/0008-sign-up-by-mailed-link.md). Accounts made before could already sign
 * in, so they count as confirmed: nobody is locked out by the upgrade. ADMIN_EMAILS still
 * need a confirmed address; one confirmed this way was an admin before the upgrade too.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter
  await db
    .updateTable('user')
    .set({ email_verified: postgres ? sql`true` : sql`1` })
    .execute()
}

export async function down(): Promise<void> {
  // Which accounts were unconfirmed before is not recorded; confirmed addresses stay confirmed.
}
