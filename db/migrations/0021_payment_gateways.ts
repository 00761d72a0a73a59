import { sql, type Kysely } from 'kysely'

/**
 * Payment gateway records: one per type, the id
 * equal to the type. Secrets (merchant keys, key secrets) are kept apart from the public
 * settings and encrypted with AES-256-GCM (app/lib/crypto.server.ts); transactions and
 * revenue are computed from orders, never stored.
 */
export const GATEWAY_TYPES = ['paytm', 'razorpay', 'stripe', 'paypal', 'phonepe'] as const
export const GATEWAY_STATUSES = ['testing', 'active', 'inactive'] as const

const list = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '))

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment_gateway')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('type', 'text', (col) =>
      col
        .notNull()
        .unique()
        .check(sql`type in (${list(GATEWAY_TYPES)})`),
    )
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('testing')
        .check(sql`status in (${list(GATEWAY_STATUSES)})`),
    )
    /** JSON object of the settings that are not secret (merchantId, website, environment, ...). */
    .addColumn('config', 'text', (col) => col.notNull().defaultTo('{}'))
    /** JSON object of field name -> encrypted value (merchantKey, keySecret, secretKey). */
    .addColumn('secrets', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_gateway').execute()
}
