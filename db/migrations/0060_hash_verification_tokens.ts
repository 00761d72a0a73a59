import type { Kysely } from 'kysely'

/**
 * Verification identifiers (password-reset tokens, OAuth states) are now stored as SHA-256
 * hashes (better-auth's `verification.storeIdentifier: 'hashed'`, app/lib/auth.server.ts).
 * Rows written before hold the token in plain text: they could no longer be used, and they
 * would still open accounts for whoever reads an old copy, so they go. Their owners request
 * a new link.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('verification').where('identifier', 'like', 'reset-password:%').execute()
}

export async function down(): Promise<void> {
  // Deleted tokens stay deleted: they were single-use and short-lived anyway.
}
