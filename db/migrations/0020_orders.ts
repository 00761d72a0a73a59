import { PostgresAdapter, sql, type Kysely } from 'kysely'

/**
 * Orders (also the transaction record), their timeline, and payment
 * links. Money is integer paise; timestamps ISO-8601 UTC text; see docs/payments.md.
 *
 * The order's status list already names the states later issues use (delivered,
 * awaiting_stock, refunded), so they need no table rebuild on SQLite.
 */
export const ORDER_STATUSES = [
  'pending',
  'paid',
  'failed',
  'expired',
  'delivered',
  'awaiting_stock',
  'refunded',
] as const
export const PAYMENT_LINK_STATUSES = ['active', 'paid', 'cancelled'] as const

const list = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '))

// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter

  await db.schema
    .createTable('payment_link')
    .addColumn('id', 'text', (col) => col.primaryKey())
    /** The `order` parameter of /payment/pay (ORD_...); the first payment attempt uses it as its order id. */
    .addColumn('order_id', 'text', (col) => col.notNull().unique())
    .addColumn('amount', 'integer', (col) => col.notNull().check(sql`amount > 0`))
    .addColumn('customer_name', 'text', (col) => col.notNull())
    .addColumn('customer_email', 'text', (col) => col.notNull())
    .addColumn('customer_phone', 'text', (col) => col.notNull())
    .addColumn('product_id', 'text', (col) => col.references('product.id').onDelete('set null'))
    .addColumn('product_name', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('active')
        .check(sql`status in (${list(PAYMENT_LINK_STATUSES)})`),
    )
    /** The admin who created it. */
    .addColumn('created_by', 'text', (col) => col.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute()

  await db.schema
    .createTable('order')
    /** ORD_{timestamp}_{0-999}; also Paytm's ORDER_ID. */
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('pending')
        .check(sql`status in (${list(ORDER_STATUSES)})`),
    )
    .addColumn('product_id', 'text', (col) => col.references('product.id').onDelete('set null'))
    /** A copy: the order keeps its name when the product is renamed or deleted. */
    .addColumn('product_name', 'text', (col) => col.notNull())
    /** Paise, from the product (or payment link) at the time of ordering; never from a form. */
    .addColumn('amount', 'integer', (col) => col.notNull().check(sql`amount > 0`))
    .addColumn('customer_name', 'text', (col) => col.notNull())
    .addColumn('customer_email', 'text', (col) => col.notNull())
    .addColumn('customer_phone', 'text', (col) => col.notNull())
    .addColumn('user_id', 'text', (col) => col.references('user.id').onDelete('set null'))
    .addColumn('payment_link_id', 'text', (col) =>
      col.references('payment_link.id').onDelete('set null'),
    )
    .addColumn('gateway', 'text', (col) => col.notNull().defaultTo('paytm'))
    /** 1 when the order went to the built-in payment simulator (no real money). */
    .addColumn('test_mode', 'integer', (col) => col.notNull().defaultTo(0))
    /** The gateway's transaction id, once confirmed; unique so one payment can pay one order only. */
    .addColumn('gateway_txn_id', 'text', (col) => col.unique())
    .addColumn('bank_txn_id', 'text')
    .addColumn('payment_mode', 'text')
    /** Paise the gateway confirmed (equal to amount when paid). */
    .addColumn('paid_amount', 'integer')
    /** The gateway's last word: STATUS, RESPCODE, RESPMSG. */
    .addColumn('gateway_status', 'text')
    .addColumn('gateway_resp_code', 'text')
    .addColumn('gateway_resp_msg', 'text')
    /** SHA-256 of the secret access token for the order page (the token itself is never stored). */
    .addColumn('access_token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('status_checks', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_status_check_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('paid_at', 'text')
    .execute()
  await db.schema
    .createIndex('order_status_created_at_idx')
    .on('order')
    .columns(['status', 'created_at'])
    .execute()
  await db.schema.createIndex('order_created_at_idx').on('order').column('created_at').execute()
  await db.schema
    .createIndex('order_user_id_idx')
    .on('order')
    .columns(['user_id', 'created_at'])
    .execute()
  await db.schema
    .createIndex('order_customer_email_idx')
    .on('order')
    .column('customer_email')
    .execute()
  await db.schema
    .createIndex('order_payment_link_id_idx')
    .on('order')
    .column('payment_link_id')
    .execute()
  await db.schema
    .createIndex('order_gateway_status_idx')
    .on('order')
    .columns(['gateway', 'status'])
    .execute()

  await db.schema
    .createTable('order_event')
    // A serial id gives the timeline a total order, even for events in the same millisecond.
    .addColumn('id', postgres ? 'serial' : 'integer', (col) =>
      postgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('order_id', 'text', (col) =>
      col.notNull().references('order.id').onDelete('cascade'),
    )
    /** created, paid, failed, expired, amount_mismatch, status_disagrees, ... */
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text')
    .addColumn('message', 'text', (col) => col.notNull().defaultTo(''))
    /** JSON details (gateway codes, which API answered). */
    .addColumn('data', 'text')
    /** system, gateway, customer, or user:{id} for an admin. */
    .addColumn('actor', 'text', (col) => col.notNull().defaultTo('system'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema
    .createIndex('order_event_order_id_idx')
    .on('order_event')
    .columns(['order_id', 'id'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('order_event').execute()
  await db.schema.dropTable('order').execute()
  await db.schema.dropTable('payment_link').execute()
}
