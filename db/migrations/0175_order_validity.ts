import type { Kysely } from 'kysely'

/**
 * An order keeps the validity it was sold with (docs/notifications.md): the term on the
 * customer dashboard and in the expiry reminders is the one the buyer paid for, not whatever the
 * product says after the shop edits it. Orders placed before are given their product's current
 * validity, the best that is known of them; an order whose product is gone keeps null.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order').addColumn('validity', 'text').execute()
  await db
    .updateTable('order')
    .set((eb) => ({
      validity: eb
        .selectFrom('product')
        .select('product.validity')
        .whereRef('product.id', '=', 'order.product_id'),
    }))
    .where('product_id', 'is not', null)
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order').dropColumn('validity').execute()
}
