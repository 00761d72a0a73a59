import type { Kysely } from 'kysely'

/**
 * Access tokens a gateway issues to the shop (PhonePe's OAuth client-credentials token,
 * docs/payments.md "PhonePe"), shared by every process of the shop so that they reuse one token
 * until it is due for refresh instead of each asking for its own. `key` is a hash of the
 * credentials the token was issued for; `token` is encrypted (app/lib/crypto.server.ts).
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('gateway_token')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('gateway', 'text', (col) => col.notNull())
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('token_type', 'text', (col) => col.notNull())
    .addColumn('issued_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('gateway_token').execute()
}
