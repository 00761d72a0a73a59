import { PostgresAdapter, sql, type Kysely } from 'kysely'

/**
 * The page cache's stock triggers (0120) count the items left of the changed item's kind, real
 * or test, instead of all of them. The storefront counts test items only while checkout offers
 * a built-in simulator (testItemsOnSale, app/services/payment/offered-gateways.server.ts), so
 * a live shop's product with plenty of test items behind its last few real ones still shows
 * "Only N left" and then Out of Stock as the real ones sell, in every process within a second
 * (docs/page-cache.md). While test items count too, a product with at most 11 items of both
 * kinds has at most 11 of each, so those changes bump the version as before.
 */
// Migrations are frozen in time: they use Kysely<any> and never the app's types.

const BUMP = 'update cache_version set version = version + 1 where id = 1'

/** Counting stops at 12: enough to know whether at most 11 of the item's kind are left. */
const fewAvailable = (row: 'old' | 'new', byKind: boolean) =>
  `(select count(*) from (select 1 from stock_item where product_id = ${row}.product_id${
    byKind ? ` and test_item = ${row}.test_item` : ''
  } and status = 'available' limit 12) as few) <= 11`

async function createTriggers(db: Kysely<any>, byKind: boolean): Promise<void> {
  const run = (statement: string) => sql.raw(statement).execute(db)
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // Replacing the function keeps 0120's triggers, which call it.
    await run(`create or replace function page_cache_bump_stock() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and new.status = 'available' then ${BUMP};
        elsif ${fewAvailable('old', byKind)} then ${BUMP};
        end if;
        return null;
      end $$`)
    return
  }
  for (const name of ['insert', 'update', 'delete'])
    await run(`drop trigger page_cache_stock_${name}`)
  await run(`create trigger page_cache_stock_insert after insert on stock_item
    when new.status = 'available' and ${fewAvailable('new', byKind)} begin ${BUMP}; end`)
  await run(`create trigger page_cache_stock_update after update of status on stock_item
    when (old.status = 'available') <> (new.status = 'available') and ${fewAvailable('new', byKind)}
    begin ${BUMP}; end`)
  await run(`create trigger page_cache_stock_delete after delete on stock_item
    when old.status = 'available' and ${fewAvailable('old', byKind)} begin ${BUMP}; end`)
}

export async function up(db: Kysely<any>): Promise<void> {
  await createTriggers(db, true)
}

export async function down(db: Kysely<any>): Promise<void> {
  await createTriggers(db, false)
}
