import { PostgresAdapter, sql, type Kysely } from 'kysely'

/**
 * The page cache's version (0120) also goes up when a reviewed order is refunded, or a refund
 * undone: the storefront shows no review of a refunded order (docs/reviews.md), so its rating,
 * stars and list change then. Only that change of status counts: the order updates of every
 * sale pass the trigger's condition without a lookup.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.

const BUMP = 'update cache_version set version = version + 1 where id = 1'
const REFUND_CHANGED = `(old.status = 'refunded') <> (new.status = 'refunded')`
const REVIEWED = `exists (select 1 from review where order_id = new.id and hidden = 0)`

export async function up(db: Kysely<any>): Promise<void> {
  const run = (statement: string) => sql.raw(statement).execute(db)
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // A trigger's WHEN holds no subquery in PostgreSQL: the function asks.
    await run(`create function page_cache_bump_refunded_review() returns trigger language plpgsql as $$
      begin
        if ${REVIEWED} then ${BUMP}; end if;
        return null;
      end $$`)
    await run(`create trigger page_cache_order_refund after update of status on "order"
      for each row when (${REFUND_CHANGED}) execute function page_cache_bump_refunded_review()`)
    return
  }
  await run(`create trigger page_cache_order_refund after update of status on "order"
    when ${REFUND_CHANGED} and ${REVIEWED} begin ${BUMP}; end`)
}

export async function down(db: Kysely<any>): Promise<void> {
  const run = (statement: string) => sql.raw(statement).execute(db)
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await run('drop trigger page_cache_order_refund on "order"')
    await run('drop function page_cache_bump_refunded_review()')
    return
  }
  await run('drop trigger page_cache_order_refund')
}
