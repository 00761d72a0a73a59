import { PostgresAdapter, sql, type Kysely } from 'kysely'

/**
 * Accounts: better-auth's tables (user, session, account, verification) plus the profile
 * profile fields (role, status, permissions, photo, last active).
 *
 * better-auth writes real booleans and timestamps on PostgreSQL and 0/1 integers and
 * ISO-8601 text on SQLite, so the columns it owns use each engine's native type; see
 * docs/decisions/0004-accounts-on-better-auth.md. Everything else follows decision 0002.
 */
function columnTypes(db: Kysely<any>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter
  return {
    flag: postgres ? ('boolean' as const) : ('integer' as const),
    no: postgres ? sql`false` : sql`0`,
    time: postgres ? ('timestamptz' as const) : ('text' as const),
  }
}

// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  const { flag, no, time } = columnTypes(db)

  await db.schema
    .createTable('user')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    // Always stored lower-case (better-auth and our code normalise), so unique is case-insensitive.
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('email_verified', flag, (col) => col.notNull().defaultTo(no))
    .addColumn('photo', 'text')
    .addColumn('role', 'text', (col) =>
      col
        .notNull()
        .defaultTo('user')
        .check(sql`role in ('user', 'admin')`),
    )
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('active')
        .check(sql`status in ('active', 'suspended', 'inactive')`),
    )
    .addColumn('can_create_products', flag, (col) => col.notNull().defaultTo(no))
    .addColumn('can_manage_orders', flag, (col) => col.notNull().defaultTo(no))
    .addColumn('can_manage_users', flag, (col) => col.notNull().defaultTo(no))
    .addColumn('last_active_at', time)
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('updated_at', time, (col) => col.notNull())
    .execute()
  // "New this month" and the admin user list sort by creation.
  await db.schema.createIndex('user_created_at_idx').on('user').column('created_at').execute()
  await db.schema.createIndex('user_role_idx').on('user').column('role').execute()

  await db.schema
    .createTable('session')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('token', 'text', (col) => col.notNull().unique())
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('expires_at', time, (col) => col.notNull())
    .addColumn('ip_address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('updated_at', time, (col) => col.notNull())
    .execute()
  await db.schema.createIndex('session_user_id_idx').on('session').column('user_id').execute()

  await db.schema
    .createTable('account')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull())
    .addColumn('provider_id', 'text', (col) => col.notNull())
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('access_token', 'text')
    .addColumn('refresh_token', 'text')
    .addColumn('id_token', 'text')
    .addColumn('access_token_expires_at', time)
    .addColumn('refresh_token_expires_at', time)
    .addColumn('scope', 'text')
    /** better-auth's password hash, for provider "credential". */
    .addColumn('password', 'text')
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('updated_at', time, (col) => col.notNull())
    .execute()
  await db.schema.createIndex('account_user_id_idx').on('account').column('user_id').execute()
  await db.schema
    .createIndex('account_provider_account_idx')
    .on('account')
    .columns(['provider_id', 'account_id'])
    .unique()
    .execute()

  await db.schema
    .createTable('verification')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('identifier', 'text', (col) => col.notNull())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('expires_at', time, (col) => col.notNull())
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('updated_at', time, (col) => col.notNull())
    .execute()
  await db.schema
    .createIndex('verification_identifier_idx')
    .on('verification')
    .column('identifier')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('verification').execute()
  await db.schema.dropTable('account').execute()
  await db.schema.dropTable('session').execute()
  await db.schema.dropTable('user').execute()
}
